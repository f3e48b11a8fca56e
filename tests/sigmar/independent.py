"""An independent, deliberately plain reading of docs/sigmar-rules.md and the seed (002).

Written from the text alone, not from palmish/sigmar: a board is a dict from
(row, col) to a hex digit, every rule is checked cell by cell, and nothing is
cached. The differential tests play the engine against this module.
"""

from __future__ import annotations

from collections.abc import Iterator

# The seed's table: digit -> atom. 5 is empty, so it is absent here.
VITAE, COPPER, LEAD, AIR, GOLD = 0, 1, 2, 3, 4
SILVER, SLAG, SALT, IRON, QUICKSILVER = 6, 7, 8, 9, 10
WATER, TIN, EARTH, FIRE, MORS = 11, 12, 13, 14, 15
ATOM_DIGITS = {"0": 0, "1": 1, "2": 2, "3": 3, "4": 4, "6": 6, "7": 7, "8": 8, "9": 9,
               "a": 10, "b": 11, "c": 12, "d": 13, "e": 14, "f": 15}
CARDINAL = {AIR, WATER, EARTH, FIRE}
# The Order of Projection; the pointer runs round it, starting at lead.
METALS = [LEAD, TIN, IRON, COPPER, SILVER, GOLD]
MAX_SIDE = 12

Cell = tuple[int, int]
Move = tuple[Cell, Cell | None]


class RefLevelError(Exception):
    """The reference refuses this .dat text."""


class RefIllegal(Exception):
    """The reference refuses this take."""


def parse_dat(text: str) -> tuple[str, dict[Cell, int], int, int]:
    """(name, atoms, rows, cols) of a .dat text.

    Lines end at "\\n" only (a "\\r" before it is just another non-digit
    square); the first line is the name, line r+1 is row r, character c is
    column c; anything but the fifteen atom digits is an empty square.
    """
    if not text.strip():
        raise RefLevelError("empty")
    if any(ch < " " and ch not in "\t\n\r\f\v" for ch in text):
        # docs/sigmar-rules.md: control bytes mean "not text" (the case).
        raise RefLevelError("not text")
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()  # a final newline adds no row
    if not lines[0].strip():
        # The "no name line": a blank first line names nothing.
        raise RefLevelError("no name line")
    cells: dict[Cell, int] = {}
    for r, line in enumerate(lines[1:]):
        for c, ch in enumerate(line):
            if ch in ATOM_DIGITS:
                cells[(r, c)] = ATOM_DIGITS[ch]
    if not cells:
        raise RefLevelError("no atoms")
    if any(r >= MAX_SIDE or c >= MAX_SIDE for r, c in cells):
        raise RefLevelError("too big")
    rows = max(r for r, _ in cells) + 1
    cols = max(c for _, c in cells) + 1
    return lines[0], cells, rows, cols


def reacts(x: int, y: int, current: int | None) -> bool:
    """Whether two (free) atoms of kinds x and y react with each other."""
    if x in CARDINAL and y in (x, SALT):
        return True
    if y in CARDINAL and x == SALT:
        return True
    if x == SALT and y == SALT:
        return True
    if {x, y} == {VITAE, MORS}:
        return True
    # Quicksilver takes the current metal, except gold (which goes alone).
    return current is not None and current != GOLD and {x, y} == {QUICKSILVER, current}


class RefGame:
    """One game: atoms left, the metal pointer, the takes so far (for undo)."""

    def __init__(self, cells: dict[Cell, int]) -> None:
        self.start = dict(cells)
        self.cells = dict(cells)
        self.pointer = 0  # index into METALS
        self.history: list[tuple[Move, dict[Cell, int], int]] = []

    # ------------------------------------------------------------ queries
    def atom(self, r: int, c: int) -> int | None:
        return self.cells.get((r, c))

    def is_free(self, r: int, c: int) -> bool:
        if (r, c) not in self.cells:
            return False
        around = [(r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)]
        return sum(1 for n in around if n not in self.cells) >= 2

    def current_metal(self) -> int | None:
        present = set(self.cells.values())
        for step in range(len(METALS)):
            metal = METALS[(self.pointer + step) % len(METALS)]
            if metal in present:
                return metal
        return None

    def free_cells(self) -> list[Cell]:
        return sorted(cell for cell in self.cells if self.is_free(*cell))

    def legal_takes(self) -> list[Move]:
        current = self.current_metal()
        free = self.free_cells()
        out: list[Move] = []
        for i, a in enumerate(free):
            if self.cells[a] == GOLD and current == GOLD:
                out.append((a, None))
            for b in free[i + 1:]:
                if reacts(self.cells[a], self.cells[b], current):
                    out.append((a, b))
        out.sort(key=lambda m: (m[0], m[1] or (-1, -1)))
        return out

    @property
    def remaining(self) -> int:
        return sum(1 for kind in self.cells.values() if kind != SLAG)

    @property
    def won(self) -> bool:
        return self.remaining == 0

    @property
    def stuck(self) -> bool:
        return not self.won and not self.legal_takes()

    # ------------------------------------------------------------ changes
    def check(self, a: Cell, b: Cell | None = None) -> Move:
        """The take (a, b) normalised to a < b; RefIllegal when §7 forbids it."""
        current = self.current_metal()
        if b is None:
            if self.cells.get(a) != GOLD:
                raise RefIllegal("only gold is taken alone")
            if current != GOLD:
                raise RefIllegal("gold is not the current metal")
            if not self.is_free(*a):
                raise RefIllegal("gold is locked")
            return (a, None)
        if a == b:
            raise RefIllegal("the same cell twice")
        if a not in self.cells or b not in self.cells:
            raise RefIllegal("an empty cell")
        if not (self.is_free(*a) and self.is_free(*b)):
            raise RefIllegal("a locked atom")
        if not reacts(self.cells[a], self.cells[b], current):
            raise RefIllegal("these do not react")
        return (min(a, b), max(a, b))

    def take(self, a: Cell, b: Cell | None = None) -> Move:
        move = self.check(a, b)
        self.history.append((move, dict(self.cells), self.pointer))
        for cell in (move[0], move[1]):
            if cell is None:
                continue
            kind = self.cells.pop(cell)
            if kind in METALS:
                self.pointer = (METALS.index(kind) + 1) % len(METALS)
        return move

    def undo(self) -> None:
        _move, self.cells, self.pointer = self.history.pop()

    def restart(self) -> None:
        self.cells = dict(self.start)
        self.pointer = 0
        self.history = []

    @property
    def moves(self) -> list[Move]:
        return [move for move, _cells, _pointer in self.history]

    def copy(self) -> RefGame:
        twin = RefGame(self.start)
        twin.cells = dict(self.cells)
        twin.pointer = self.pointer
        twin.history = list(self.history)
        return twin


# ---------------------------------------------------------------- search
def solutions_exist(game: RefGame, limit: int = 200_000) -> bool | None:
    """Exhaustive search: True/False, or None when `limit` positions were not enough."""
    dead: set[tuple[frozenset[tuple[Cell, int]], int]] = set()
    seen = 0

    def key(g: RefGame) -> tuple[frozenset[tuple[Cell, int]], int]:
        # Only the current metal matters for the future, not the raw pointer.
        current = g.current_metal()
        return frozenset(g.cells.items()), -1 if current is None else current

    def go(g: RefGame) -> bool:
        nonlocal seen
        if g.won:
            return True
        k = key(g)
        if k in dead:
            return False
        seen += 1
        if seen > limit:
            raise _Budget
        for move in g.legal_takes():
            g.take(*move)
            ok = go(g)
            g.undo()
            if ok:
                return True
        dead.add(k)
        return False

    try:
        return go(game.copy())
    except _Budget:
        return None


class _Budget(Exception):
    pass


def all_cells(margin: int = 2) -> Iterator[Cell]:
    """Every cell of the 12x12 field and a margin around it (negative ones too)."""
    for r in range(-margin, MAX_SIDE + margin):
        for c in range(-margin, MAX_SIDE + margin):
            yield (r, c)
