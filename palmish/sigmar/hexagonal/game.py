"""A game of the hexagonal garden: the atoms left and the undo stack.

The same interface as the square garden's Game (palmish/sigmar/garden.py), on
Opus Magnum's board: 91 cells, an atom is free with three empty neighbours in
a row, one metal of each (so the current metal is the first still on the
board, and a position is just the atoms left), no Slag.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable

from palmish.outcome import Outcome, Termination
from palmish.sigmar.atoms import (
    CODE_LOW,
    CODE_SHIFT,
    METAL_ORDER,
    NO_METAL,
    Atom,
    IllegalMove,
    Take,
    current_metal,
    reacts,
)
from palmish.sigmar.geometry import Geometry
from palmish.sigmar.hexagonal import generator, record
from palmish.sigmar.hexagonal.geometry import HEXAGON
from palmish.sigmar.hexagonal.level import HexLevel, holding_problem, parse_hex_level
from palmish.sigmar.hexagonal.rules import (
    CELL_OF,
    COLS,
    ROWS,
    STRIDE,
    Cell,
    cell_name,
    free_mask,
    on_board,
    reaction_codes,
)
from palmish.sigmar.level import LevelError

LOCKED = "it needs three empty sides in a row"


class _TakeTable(dict[int, Take]):
    """Take objects by code, made on first use and shared by every game."""

    def __missing__(self, code: int) -> Take:
        i, j = code >> CODE_SHIFT, code & CODE_LOW
        a = CELL_OF[i]
        assert a is not None
        t = self[code] = Take(a, CELL_OF[j] if j else None)
        return t


_TAKES = _TakeTable()


def take_of(code: int) -> Take:
    """The Take for a take code (atoms.pair_codes)."""
    return _TAKES[code]


def code_of(t: Take) -> int:
    """The code of a take whose cells are on the board (a before b)."""
    i = t.a[0] * STRIDE + t.a[1]
    if t.b is None:
        return i << CODE_SHIFT
    return (i << CODE_SHIFT) | (t.b[0] * STRIDE + t.b[1])


class HexGame:
    """One game of the hexagonal garden. Build with HexGame.new(seed=...),
    HexGame.from_level(text, level=...) or HexGame.from_record(text)."""

    geometry: Geometry = HEXAGON
    rows = ROWS  # the field the board is drawn in: 11 rows of up to 11 cells
    cols = COLS
    difficulty = None  # the square garden's old difficulty records; none here

    def __init__(self, atoms: Iterable[tuple[Cell, Atom]], *, name: str,
                 seed: int | None = None, level: str | None = None) -> None:
        placed = tuple(atoms)
        problem = holding_problem(placed)
        if problem is not None:
            raise ValueError(problem)
        self._name = name
        self._seed = seed
        self._level = level
        self._kinds = [0] * 16
        self._atom_of: dict[int, Atom] = {}
        start = 0
        for (r, c), atom in placed:
            i = r * STRIDE + c
            self._atom_of[i] = atom
            self._kinds[atom] |= 1 << i
            start |= 1 << i
        self._start = start
        self._occupied = start
        self._history: list[int] = []  # the codes taken, for undo
        self._codes: list[int] | None = None  # cached legal codes of this position
        self._metal = current_metal(self._kinds, start, 0)

    # ------------------------------------------------------------ builders

    @classmethod
    def new(cls, seed: int | None = None) -> HexGame:
        """The hexagonal board of a Board Number (docs/sigmar-rules.md); without one a
        number is drawn (see .seed)."""
        if seed is None:
            seed = random.SystemRandom().randrange(1 << 31)
        if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
            raise ValueError(f"a board number is a whole number >= 0, not {seed!r}")
        return cls(generator.generate(seed).items(), name=f"Random {seed}", seed=seed)

    @classmethod
    def from_level(cls, text: str | bytes | HexLevel, level: str | int | None = None) -> HexGame:
        """A `.hgl` board; LevelError (one line) for a bad one. `level` is its id, kept
        as given; without one the board's name serves as its id."""
        source = f"level {level}" if level is not None else "level"
        parsed = text if isinstance(text, HexLevel) else parse_hex_level(text, source)
        return cls(parsed.atoms, name=parsed.name,
                   level=str(level) if level is not None else parsed.name)

    @classmethod
    def from_record(cls, text: str) -> HexGame:
        """Replay a record made by record(); IllegalMove with one line if it is bad."""
        fields, moves = record.parse(text)
        if "seed" in fields:
            game = cls.new(seed=int(fields["seed"]))
        else:
            try:
                game = cls.from_level(record.board_level(fields), level=fields.get("level"))
            except LevelError as exc:
                raise IllegalMove(str(exc)) from None
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
    def seed(self) -> int | None:
        """The Board Number of a random board; None for a level."""
        return self._seed

    @property
    def level(self) -> str | None:
        """The level's id; None for a random board."""
        return self._level

    def atom_at(self, row: int, col: int) -> Atom | None:
        """The atom on (row, col) now; None for an empty cell or one off the hexagon."""
        if not on_board(row, col):
            return None
        i = row * STRIDE + col
        return self._atom_of[i] if (self._occupied >> i) & 1 else None

    def start_atom_at(self, row: int, col: int) -> Atom | None:
        """The atom (row, col) held at the start of the game."""
        if not on_board(row, col):
            return None
        return self._atom_of.get(row * STRIDE + col)

    def is_free(self, row: int, col: int) -> bool:
        """An atom with three empty neighbours in a row; False where there is no atom."""
        if not on_board(row, col):
            return False
        return bool((free_mask(self._occupied) >> (row * STRIDE + col)) & 1)

    def free_mask(self) -> int:
        """The free atoms as a bitboard (bit row * rules.STRIDE + col)."""
        return free_mask(self._occupied)

    @property
    def occupancy(self) -> int:
        """The atoms still on the board as a bitboard."""
        return self._occupied

    @property
    def kinds(self) -> tuple[int, ...]:
        """Per atom value, the mask of the cells that held that atom at the start."""
        return tuple(self._kinds)

    @property
    def metal_index(self) -> int:
        """Index of the current metal in METAL_ORDER, or NO_METAL."""
        return self._metal

    @property
    def current_metal(self) -> Atom | None:
        """The first metal of the Order of Projection still on the board."""
        return None if self._metal == NO_METAL else METAL_ORDER[self._metal]

    @property
    def remaining(self) -> int:
        """Atoms left (there is no Slag in this garden)."""
        return self._occupied.bit_count()

    def counts(self) -> Counter[Atom]:
        """How many of each atom is left."""
        return Counter(a for i, a in self._atom_of.items() if (self._occupied >> i) & 1)

    @property
    def moves(self) -> list[Take]:
        """The takes since the start, in order."""
        return [_TAKES[code] for code in self._history]

    @property
    def can_undo(self) -> bool:
        return bool(self._history)

    @property
    def won(self) -> bool:
        """Nothing is left."""
        return not self._occupied

    @property
    def stuck(self) -> bool:
        """Atoms remain and no take is possible."""
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
        """Every legal take, sorted (reading order; a before b in each)."""
        if not cached:
            self._codes = None
        return [_TAKES[code] for code in sorted(self._legal_codes())]

    def legal_codes(self, *, cached: bool = True) -> list[int]:
        """legal_takes() as codes, in the solvers' move order."""
        if not cached:
            self._codes = None
        return list(self._legal_codes())

    def is_selectable(self, row: int, col: int) -> bool:
        """Whether the atom on (row, col) takes part in some legal take now."""
        return self.why_unselectable((row, col)) is None

    def partners(self, row: int, col: int) -> list[Cell]:
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

    def why_not(self, a: Cell, b: Cell | None = None) -> str | None:
        """Why take(a, b) is illegal, in one line; None when it is legal."""
        cells = [a] if b is None else [a, b]
        atoms: list[Atom] = []
        for cell in cells:
            atom = self._atom_cell(cell)
            if atom is None:
                return f"there is no atom on {_cell_label(cell)}"
            atoms.append(atom)
        if b is not None and tuple(a) == tuple(b):
            return "pick two different atoms"
        free = free_mask(self._occupied)
        for cell, atom in zip(cells, atoms, strict=True):
            if not (free >> (cell[0] * STRIDE + cell[1])) & 1:
                return f"{atom.title} is locked: {LOCKED}"
        current = self.current_metal
        for atom in atoms:
            if atom.is_metal and atom != current:
                assert current is not None  # a metal is on the board
                return f"metals go in order: {current.title} first"
        if b is None:
            return None if atoms[0] == Atom.GOLD else f"{atoms[0].title} needs a partner"
        x, y = atoms
        if Atom.GOLD in atoms:
            return "gold goes alone: take it by itself"
        return None if reacts(x, y, current) else f"{x.title} does not react with {y.title}"

    def why_unselectable(self, a: Cell) -> str | None:
        """Why the atom on `a` has no legal take now, in one line; None if it has one."""
        atom = self._atom_cell(a)
        if atom is None:
            return f"there is no atom on {_cell_label(a)}"
        if not self.is_free(*a):
            return f"{atom.title} is locked: {LOCKED}"
        current = self.current_metal
        if atom.is_metal and atom != current:
            assert current is not None
            return f"metals go in order: {current.title} first"
        if any(a in (t.a, t.b) for t in self.legal_takes()):
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

    def take(self, a: Cell, b: Cell | None = None) -> Take:
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
        return _TAKES[code]

    def take_code(self, code: int) -> None:
        """Play a legal take by its code, unchecked (for search and playouts)."""
        i, j = code >> CODE_SHIFT, code & CODE_LOW
        self._history.append(code)
        self._occupied &= ~((1 << i) | ((1 << j) if j else 0))
        self._after_change()

    def undo(self) -> Take:
        """Take back the last take (also after a win or when stuck); IllegalMove at the start."""
        if not self._history:
            raise IllegalMove("nothing to undo: this is the start of the board")
        code = self._history.pop()
        i, j = code >> CODE_SHIFT, code & CODE_LOW
        self._occupied |= (1 << i) | ((1 << j) if j else 0)
        self._after_change()
        return _TAKES[code]

    def restart(self) -> None:
        """Try Again: the same board from the start, no moves."""
        self._occupied = self._start
        self._history.clear()
        self._after_change()

    def record(self) -> str:
        """The game as one short line (docs/sigmar-rules.md, "Hexagonal records")."""
        takes = [record.take_text(t.a, t.b) for t in self.moves]
        if self._seed is not None:
            return record.format_random(self._seed, takes)
        return record.format_level(self._level or self._name, self.start_level(), takes)

    def start_level(self) -> HexLevel:
        """The board at the start, as a level (its name and atoms)."""
        return HexLevel(self._name, tuple(
            (CELL_OF[i], a) for i, a in sorted(self._atom_of.items())))  # type: ignore[misc]

    # ------------------------------------------------------------ internals

    def _after_change(self) -> None:
        self._metal = current_metal(self._kinds, self._occupied, 0)
        self._codes = None

    def _legal_codes(self) -> list[int]:
        codes = self._codes
        if codes is None:
            codes = self._codes = reaction_codes(self._kinds, self._occupied, self._metal)
        return codes

    def _atom_cell(self, cell: Cell) -> Atom | None:
        try:
            row, col = cell
        except (TypeError, ValueError):
            return None
        if not (isinstance(row, int) and isinstance(col, int)):
            return None
        return self.atom_at(row, col)

    def __repr__(self) -> str:
        where = f"seed={self._seed}" if self._seed is not None else f"level={self._level!r}"
        return f"<HexGame {where} remaining={self.remaining} moves={len(self._history)}>"


def _cell_label(cell: Cell) -> str:
    try:
        return cell_name(cell[0], cell[1])
    except (TypeError, ValueError, IndexError):
        return repr(cell)


__all__ = ["HexGame", "code_of", "take_of"]
