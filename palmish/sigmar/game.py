"""A Sigmar's Garden game: the atoms left, the metal pointer and the undo stack."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable

from palmish.outcome import Outcome, Termination
from palmish.sigmar import generator, record, rules
from palmish.sigmar.level import Level, LevelError, parse_level
from palmish.sigmar.rules import (
    CELL_OF,
    CODE_LOW,
    CODE_SHIFT,
    METAL_INDEX,
    METAL_ORDER,
    NO_METAL,
    STRIDE,
    Atom,
    IllegalMove,
    Take,
)


class _TakeTable(dict[int, Take]):
    """Take objects by code, made on first use and shared by every game (codes name bits)."""

    def __missing__(self, code: int) -> Take:
        i, j = code >> CODE_SHIFT, code & CODE_LOW
        a = CELL_OF[i]
        assert a is not None
        t = self[code] = Take(a, CELL_OF[j] if j else None)
        return t


_TAKES = _TakeTable()
_LOOKUP = _TAKES.__getitem__


def take_of(code: int) -> Take:
    """The Take for a code of rules.reaction_codes."""
    return _TAKES[code]


def code_of(t: Take) -> int:
    """The code of a take whose cells are on the field (a < b)."""
    i = t.a[0] * STRIDE + t.a[1]
    if t.b is None:
        return i << CODE_SHIFT
    return (i << CODE_SHIFT) | (t.b[0] * STRIDE + t.b[1])


class Game:
    """One game. Build with Game.new(seed=...), Game.from_level(text, level=...)
    or Game.from_record(text)."""

    def __init__(
        self,
        atoms: Iterable[tuple[tuple[int, int], Atom]],
        *,
        name: str,
        rows: int,
        cols: int,
        seed: int | None = None,
        level: str | None = None,
        difficulty: str | None = None,
    ) -> None:
        self._name = name
        self._rows = rows
        self._cols = cols
        self._seed = seed
        self._level = level
        self._difficulty = difficulty
        self._kinds = [0] * 16
        self._atom_of: dict[int, Atom] = {}
        start = 0
        for (r, c), atom in atoms:
            i = rules.cell_index(r, c)
            if i in self._atom_of:
                raise ValueError(f"two atoms on cell ({r}, {c})")
            self._atom_of[i] = atom
            self._kinds[atom] |= 1 << i
            start |= 1 << i
        self._start = start
        self._slag = self._kinds[Atom.SLAG]
        self._occupied = start
        self._pointer = 0  # index into METAL_ORDER; starts at lead
        # Undo stack: (code, pointer before the take).
        self._history: list[tuple[int, int]] = []
        self._codes: list[int] | None = None  # cached legal codes of this position
        self._metal = rules.current_metal(self._kinds, start, 0)  # kept up to date by takes

    # ------------------------------------------------------------ builders

    @classmethod
    def new(cls, seed: int | None = None, difficulty: str | None = None) -> Game:
        """A random board (docs/sigmar-rules.md); without a seed one is drawn (see .seed).

        `difficulty` ("easy", "normal", "hard") picks among boards of the seed
        by how often random play clears them; still deterministic.
        """
        if seed is None:
            seed = random.SystemRandom().randrange(1 << 31)
        if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
            raise ValueError(f"a board seed is a whole number >= 0, not {seed!r}")
        if difficulty is not None and difficulty not in generator.DIFFICULTIES:
            raise ValueError(
                f"unknown difficulty {difficulty!r} (use {', '.join(generator.DIFFICULTIES)})"
            )
        atoms = generator.generate(seed, difficulty)
        side = generator.SIDE
        return cls(atoms.items(), name=f"Random {seed}", rows=side, cols=side, seed=seed,
                   difficulty=difficulty)

    @classmethod
    def from_level(
        cls, text: str | bytes | Level, level: str | int | None = None
    ) -> Game:
        """A `.dat` board (first line its name); LevelError (one line) for a bad one.

        `level` is the level's id ("7", "test"), kept as given (an int becomes
        its digits); without one the board's name serves as its id.
        """
        source = f"level {level}" if level is not None else "level"
        parsed = text if isinstance(text, Level) else parse_level(text, source)
        level_id = str(level) if level is not None else parsed.name
        return cls(parsed.atoms, name=parsed.name, rows=parsed.rows, cols=parsed.cols,
                   level=level_id)

    @classmethod
    def from_record(cls, text: str) -> Game:
        """Replay a record made by record(); IllegalMove with one line if it is bad."""
        fields, moves = record.parse(text)
        if "seed" in fields:
            game = cls.new(seed=int(fields["seed"]), difficulty=fields.get("difficulty"))
        else:
            try:
                game = cls.from_level(record.board_text(fields), level=fields.get("level"))
            except LevelError as exc:
                raise IllegalMove(f"record board: {exc}") from None
        for number, (a, b) in enumerate(moves, start=1):
            problem = game.why_not(a, b)
            if problem is not None:
                raise IllegalMove(f"record move {number} ({record.take_text(a, b)}): {problem}")
            game.take(a, b)
        return game

    # ------------------------------------------------------------ facts

    @property
    def name(self) -> str:
        return self._name

    @property
    def rows(self) -> int:
        return self._rows

    @property
    def cols(self) -> int:
        return self._cols

    @property
    def seed(self) -> int | None:
        """The random board's seed; None for a level."""
        return self._seed

    @property
    def level(self) -> str | None:
        """The level's id; None for a random board."""
        return self._level

    @property
    def difficulty(self) -> str | None:
        return self._difficulty

    def atom_at(self, row: int, col: int) -> Atom | None:
        """The atom on (row, col) now; None for an empty or off-board cell."""
        if not rules.on_field(row, col):
            return None
        i = row * STRIDE + col
        return self._atom_of[i] if (self._occupied >> i) & 1 else None

    def start_atom_at(self, row: int, col: int) -> Atom | None:
        """The atom (row, col) held at the start of the game."""
        if not rules.on_field(row, col):
            return None
        return self._atom_of.get(row * STRIDE + col)

    def is_free(self, row: int, col: int) -> bool:
        """An atom with at least two non-atom neighbours; False where there is no atom."""
        if not rules.on_field(row, col):
            return False
        return bool((rules.free_mask(self._occupied) >> (row * STRIDE + col)) & 1)

    def free_mask(self) -> int:
        """The free atoms (Slag included) as a bitboard (bit row * rules.STRIDE + col)."""
        return rules.free_mask(self._occupied)

    @property
    def occupancy(self) -> int:
        """The atoms still on the board as a bitboard."""
        return self._occupied

    @property
    def kinds(self) -> tuple[int, ...]:
        """Per `.dat` digit, the mask of the cells that held that atom at the start."""
        return tuple(self._kinds)

    @property
    def metal_index(self) -> int:
        """Index of the current metal in rules.METAL_ORDER, or rules.NO_METAL."""
        return self._metal

    @property
    def current_metal(self) -> Atom | None:
        """The first metal at or after the pointer that is still on the board."""
        k = self.metal_index
        return None if k == NO_METAL else METAL_ORDER[k]

    @property
    def remaining(self) -> int:
        """Atoms left, Slag not counted."""
        return (self._occupied & ~self._slag).bit_count()

    def counts(self) -> Counter[Atom]:
        """How many of each atom is left (Slag included)."""
        return Counter(a for i, a in self._atom_of.items() if (self._occupied >> i) & 1)

    @property
    def moves(self) -> list[Take]:
        """The takes since the start, in order."""
        table = _TAKES
        return [table[code] for code, _ in self._history]

    @property
    def can_undo(self) -> bool:
        return bool(self._history)

    @property
    def won(self) -> bool:
        """Only Slag (or nothing) is left."""
        return not (self._occupied & ~self._slag)

    @property
    def stuck(self) -> bool:
        """Atoms other than Slag remain and no take is possible."""
        return not self.won and not self._legal_codes()

    @property
    def over(self) -> bool:
        return self.won or self.stuck

    def outcome(self) -> Outcome | None:
        """None while a take is possible; cleared (the player, 0, wins) or stuck (lost)."""
        if self.won:
            return Outcome(Termination.COMPLETED, winner=0)
        return Outcome(Termination.STUCK) if self.stuck else None

    def legal_takes(self, *, cached: bool = True) -> list[Take]:
        """Every legal take, sorted (row-major; a < b in each).

        The answer is kept until the next take or undo; `cached=False` works
        it out again (for benchmarks).
        """
        if not cached:
            self._codes = None
        return list(map(_LOOKUP, sorted(self._legal_codes())))

    def legal_codes(self, *, cached: bool = True) -> list[int]:
        """legal_takes() as codes (rules.reaction_codes), in the solver's move order."""
        if not cached:
            self._codes = None
        return list(self._legal_codes())

    def is_selectable(self, row: int, col: int) -> bool:
        """Whether the atom on (row, col) takes part in some legal take now."""
        return self.why_unselectable((row, col)) is None

    def partners(self, row: int, col: int) -> list[tuple[int, int]]:
        """The cells the atom on (row, col) can react with now, sorted ([] for gold)."""
        out = []
        for t in self.legal_takes():
            if t.b is None:
                continue
            if t.a == (row, col):
                out.append(t.b)
            elif t.b == (row, col):
                out.append(t.a)
        return sorted(out)

    # ------------------------------------------------------------ why not

    def why_not(
        self, a: tuple[int, int], b: tuple[int, int] | None = None
    ) -> str | None:
        """Why take(a, b) is illegal, in one line; None when it is legal."""
        cells = [a] if b is None else [a, b]
        atoms: list[Atom] = []
        for cell in cells:
            atom = self._atom_cell(cell)
            if atom is None:
                return f"there is no atom on {_cell_label(cell)}"
            atoms.append(atom)
        if b is not None and _norm(a) == _norm(b):
            return "pick two different atoms"
        free = rules.free_mask(self._occupied)
        for cell, atom in zip(cells, atoms, strict=True):
            if atom == Atom.SLAG:
                return "Slag never reacts: it only blocks"
            if not (free >> (cell[0] * STRIDE + cell[1])) & 1:
                return f"{atom.title} is locked: it needs two empty sides"
        current = self.current_metal
        for atom in atoms:
            if atom.is_metal and atom != current:
                assert current is not None  # a metal is on the board
                return f"metals go in order: {current.title} first"
        if b is None:
            if atoms[0] == Atom.GOLD:
                return None
            return f"{atoms[0].title} needs a partner"
        x, y = atoms
        if Atom.GOLD in atoms:
            return "gold goes alone: take it by itself"
        if rules.reacts(x, y, current):
            return None
        return f"{x.title} does not react with {y.title}"

    def why_unselectable(self, a: tuple[int, int]) -> str | None:
        """Why the atom on `a` has no legal take now, in one line; None if it has one."""
        atom = self._atom_cell(a)
        if atom is None:
            return f"there is no atom on {_cell_label(a)}"
        if atom == Atom.SLAG:
            return "Slag never reacts: it only blocks"
        if not self.is_free(*a):
            return f"{atom.title} is locked: it needs two empty sides"
        current = self.current_metal
        if atom.is_metal and atom != current:
            assert current is not None
            return f"metals go in order: {current.title} first"
        code_cells = {cell for t in self.legal_takes() for cell in (t.a, t.b) if cell}
        if a in code_cells:
            return None
        if atom.is_metal:
            return "no free quicksilver"
        if atom == Atom.QUICKSILVER:
            if current is None:
                return "no metal is left for quicksilver"
            if current == Atom.GOLD:
                return "gold goes alone: quicksilver has nothing to do"
            return f"no free {current.title} for quicksilver"
        return f"no free partner for {atom.title}"

    # ------------------------------------------------------------ play

    def take(self, a: tuple[int, int], b: tuple[int, int] | None = None) -> Take:
        """Remove a reacting pair (or the gold alone); IllegalMove (one line) if not legal."""
        problem = self.why_not(a, b)
        if problem is not None:
            raise IllegalMove(problem)
        i = a[0] * STRIDE + a[1]
        if b is None:
            code = i << CODE_SHIFT
        else:
            j = b[0] * STRIDE + b[1]
            code = (min(i, j) << CODE_SHIFT) | max(i, j)
        self.take_code(code)
        return take_of(code)

    def take_code(self, code: int) -> None:
        """Play a legal take by its code, unchecked (for search and playouts)."""
        i, j = code >> CODE_SHIFT, code & CODE_LOW
        self._history.append((code, self._pointer))
        metal_moved = False
        for bit in (i, j) if j else (i,):
            self._occupied &= ~(1 << bit)
            atom = self._atom_of[bit]
            if atom in METAL_INDEX:
                self._pointer = rules.pointer_after(atom)
                metal_moved = True
        if metal_moved:
            self._metal = rules.current_metal(self._kinds, self._occupied, self._pointer)
        self._codes = None

    def undo(self) -> Take:
        """Take back the last take (also after a win or when stuck); IllegalMove at the start."""
        if not self._history:
            raise IllegalMove("nothing to undo: this is the start of the board")
        code, pointer = self._history.pop()
        i, j = code >> CODE_SHIFT, code & CODE_LOW
        self._occupied |= 1 << i
        if j:
            self._occupied |= 1 << j
        self._pointer = pointer
        self._metal = rules.current_metal(self._kinds, self._occupied, pointer)
        self._codes = None
        return take_of(code)

    def restart(self) -> None:
        """Try Again: the same board from the start, no moves."""
        self._occupied = self._start
        self._pointer = 0
        self._metal = rules.current_metal(self._kinds, self._start, 0)
        self._history.clear()
        self._codes = None

    def record(self) -> str:
        """The game as one short line (see docs/sigmar-rules.md)."""
        takes = [record.take_text(t.a, t.b) for t in self.moves]
        if self._seed is not None:
            return record.format_random(self._seed, self._difficulty, takes)
        level = Level(
            self._name,
            tuple((CELL_OF[i], a) for i, a in sorted(self._atom_of.items())),  # type: ignore[misc]
            self._rows,
            self._cols,
        )
        return record.format_level(self._level or self._name, self._name, level.board_rows(),
                                   takes)

    # ------------------------------------------------------------ internals

    def _legal_codes(self) -> list[int]:
        codes = self._codes
        if codes is None:
            codes = rules.reaction_codes(self._kinds, self._occupied, self._metal)
            self._codes = codes
        return codes

    def _atom_cell(self, cell: tuple[int, int]) -> Atom | None:
        try:
            row, col = cell
        except (TypeError, ValueError):
            return None
        if not (isinstance(row, int) and isinstance(col, int)):
            return None
        return self.atom_at(row, col)

    def __repr__(self) -> str:
        where = f"seed={self._seed}" if self._seed is not None else f"level={self._level!r}"
        return f"<Game {where} remaining={self.remaining} moves={len(self._history)}>"


def _norm(cell: tuple[int, int]) -> tuple[int, int]:
    return (cell[0], cell[1])


def _cell_label(cell: tuple[int, int]) -> str:
    try:
        return rules.cell_name(cell[0], cell[1])
    except (TypeError, ValueError, IndexError):
        return repr(cell)


__all__ = ["Game", "code_of", "take_of"]
