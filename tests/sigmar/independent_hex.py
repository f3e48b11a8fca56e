"""An independent, deliberately plain reading of the hexagonal garden's rules
(docs/sigmar-rules.md, "The hexagonal garden" and "Hexagonal levels").

Written from the text, not from palmish/sigmar/hexagonal: a cell is placed by
its drawing position (x = col - row / 2, y = row), its neighbours are the six
cells one cell width away, sorted by angle, and "free" is checked by walking
round that ring. A board is a dict from (row, col) to the atom's letter;
nothing is cached. The differential tests play the engine against this module.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from functools import cache

Cell = tuple[int, int]
Move = tuple[Cell, Cell | None]

CARDINAL = set("AFWE")
SALT, VITAE, MORS, QUICK, GOLD = "S", "V", "M", "q", "g"
METALS = ["l", "t", "i", "c", "s", "g"]  # lead, tin, iron, copper, silver, gold
ATOMS = CARDINAL | {SALT, VITAE, MORS, QUICK} | set(METALS)
ROW_CELLS = [6, 7, 8, 9, 10, 11, 10, 9, 8, 7, 6]


def board_cells() -> list[Cell]:
    """The 91 cells: row r holds ROW_CELLS[r] cells; the lower half starts further right."""
    cells = []
    for r, n in enumerate(ROW_CELLS):
        first = max(0, r - 5)
        cells += [(r, first + k) for k in range(n)]
    return cells


CELLS = board_cells()
ON_BOARD = set(CELLS)


def position(cell: Cell) -> tuple[float, float]:
    """Where a cell is drawn: half a cell to the left for each row down, rows sqrt(3)/2 apart."""
    r, c = cell
    return (c - r / 2, r * math.sqrt(3) / 2)


@cache  # geometry only: the board's shape never changes
def ring(cell: Cell) -> list[Cell]:
    """The six cells one width away (on the board or not), in order round the cell."""
    x, y = position(cell)
    near = []
    for r in range(cell[0] - 1, cell[0] + 2):
        for c in range(cell[1] - 2, cell[1] + 3):
            if (r, c) == cell:
                continue
            px, py = position((r, c))
            if abs(math.hypot(px - x, py - y) - 1) < 1e-9:
                near.append((math.atan2(py - y, px - x), (r, c)))
    assert len(near) == 6
    return [n for _, n in sorted(near)]


def reacts(x: str, y: str, current: str | None) -> bool:
    if x in CARDINAL and y in (x, SALT):
        return True
    if y in CARDINAL and x == SALT:
        return True
    if x == SALT and y == SALT:
        return True
    if {x, y} == {VITAE, MORS}:
        return True
    return current is not None and current != GOLD and {x, y} == {QUICK, current}


class RefIllegal(Exception):
    """The reference refuses this take."""


class RefHexGame:
    def __init__(self, cells: dict[Cell, str]) -> None:
        self.start = dict(cells)
        self.cells = dict(cells)
        self.history: list[tuple[Move, dict[Cell, str]]] = []

    def atom(self, r: int, c: int) -> str | None:
        return self.cells.get((r, c))

    def is_free(self, r: int, c: int) -> bool:
        if (r, c) not in self.cells:
            return False
        empty = [n not in self.cells for n in ring((r, c))]
        return any(empty[k] and empty[(k + 1) % 6] and empty[(k + 2) % 6] for k in range(6))

    def current_metal(self) -> str | None:
        present = set(self.cells.values())
        return next((m for m in METALS if m in present), None)

    def legal_takes(self) -> list[Move]:
        current = self.current_metal()
        free = sorted(cell for cell in self.cells if self.is_free(*cell))
        out: list[Move] = []
        for i, a in enumerate(free):
            if self.cells[a] == GOLD and current == GOLD:
                out.append((a, None))
            for b in free[i + 1:]:
                x, y = self.cells[a], self.cells[b]
                if GOLD in (x, y):
                    continue
                if (x in METALS and x != current) or (y in METALS and y != current):
                    continue
                if reacts(x, y, current):
                    out.append((a, b))
        out.sort(key=lambda m: (m[0], m[1] or (-1, -1)))
        return out

    @property
    def remaining(self) -> int:
        return len(self.cells)

    @property
    def won(self) -> bool:
        return not self.cells

    @property
    def stuck(self) -> bool:
        return not self.won and not self.legal_takes()

    def check(self, a: Cell, b: Cell | None = None) -> Move:
        """The take normalised (a before b); RefIllegal when the rules forbid it."""
        if b is None:
            move: Move = (a, None)
        elif a == b:
            raise RefIllegal("the same cell twice")
        else:
            move = (min(a, b), max(a, b))
        if move not in self.legal_takes():
            raise RefIllegal("not a legal take")
        return move

    def take(self, a: Cell, b: Cell | None = None) -> Move:
        move = self.check(a, b)
        self.history.append((move, dict(self.cells)))
        for cell in move:
            if cell is not None:
                del self.cells[cell]
        return move

    def undo(self) -> None:
        _move, self.cells = self.history.pop()

    def restart(self) -> None:
        self.cells = dict(self.start)
        self.history = []

    @property
    def moves(self) -> list[Move]:
        return [move for move, _ in self.history]

    def copy(self) -> RefHexGame:
        twin = RefHexGame(self.start)
        twin.cells = dict(self.cells)
        twin.history = list(self.history)
        return twin


def solutions_exist(game: RefHexGame, limit: int = 200_000) -> bool | None:
    """Exhaustive search: True/False, or None when `limit` positions were not enough."""
    dead: set[frozenset[tuple[Cell, str]]] = set()
    seen = 0

    class Budget(Exception):
        pass

    def go(g: RefHexGame) -> bool:
        nonlocal seen
        if g.won:
            return True
        key = frozenset(g.cells.items())
        if key in dead:
            return False
        seen += 1
        if seen > limit:
            raise Budget
        for move in g.legal_takes():
            g.take(*move)
            ok = go(g)
            g.undo()
            if ok:
                return True
        dead.add(key)
        return False

    try:
        return go(game.copy())
    except Budget:
        return None


# ---------------------------------------------------------------- the level text
class RefLevelError(Exception):
    """The reference refuses this level text."""


def parse_level(text: str) -> tuple[str, dict[Cell, str]]:
    """(name, atoms) of a hexagonal level text, read as the docs describe it."""
    text = text.removeprefix("\ufeff")  # a byte-order mark is not part of the name
    if not text.strip():
        raise RefLevelError("empty")
    if any(ch < " " and ch not in "\t\n\r\f\v" for ch in text):
        raise RefLevelError("not text")
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()
    name = lines[0].rstrip("\r")
    if not name.strip():
        raise RefLevelError("no name")
    rows = []
    for line in lines[1:]:
        kept = "".join(ch for ch in line.partition("#")[0] if not ch.isspace())
        if kept:
            rows.append(kept)
    if len(rows) != 11:
        raise RefLevelError("not 11 rows")
    cells: dict[Cell, str] = {}
    for r, row in enumerate(rows):
        if len(row) != ROW_CELLS[r] or any(ch != "." and ch not in ATOMS for ch in row):
            raise RefLevelError("bad row")
        first = max(0, r - 5)
        for k, ch in enumerate(row):
            if ch != ".":
                cells[(r, first + k)] = ch
    if not cells:
        raise RefLevelError("no atoms")
    metals = [a for a in cells.values() if a in METALS]
    if len(metals) != len(set(metals)):
        raise RefLevelError("a metal twice")
    return name, cells


def around(margin: int = 2) -> Iterator[Cell]:
    """Every cell of the 11x11 field and a margin round it (negative ones too)."""
    for r in range(-margin, 11 + margin):
        for c in range(-margin, 11 + margin):
            yield (r, c)
