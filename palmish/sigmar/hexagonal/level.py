"""Hexagonal levels: the `.hgl` text format (docs/sigmar-rules.md, "Hexagonal levels").

The `.dat` format of the square garden has no digit left for a new meaning and
no way to say "this row is offset by half a cell", so hexagonal levels are
drawn with the letters the game puts on the atoms:

    Ring of Fire                 <- line 1: the name, read literally
    # a comment line             <- blank lines and text after '#' are skipped
         . . . . . .             <- 11 rows of 6, 7, 8, 9, 10, 11, 10, 9, 8, 7, 6 cells
        . F . . . F .
       ...

A row's cells are its characters other than white space (the indentation and
the spaces between cells are only there to draw the hexagon): `.` is an empty
cell, `A F W E` the cardinals, `S` Salt, `V` Vitae, `M` Mors, `q` quicksilver,
`l t i c s g` lead, tin, iron, copper, silver and gold. A board holds at least
one atom and at most one of each metal. Every problem is one LevelError line
naming the file, the line and what is wrong.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from importlib import resources
from pathlib import Path
from typing import NamedTuple

from palmish.sigmar.atoms import METAL_ORDER, Atom
from palmish.sigmar.hexagonal.rules import CELLS, ROWS, Cell, row_span
from palmish.sigmar.level import MAX_FILE_BYTES, LevelError, decode, level_sort_key

LEVEL_SUFFIX = ".hgl"
EMPTY = "."
COMMENT = "#"
# The letter of each atom the hexagonal garden holds (every atom but Slag).
ATOM_OF_LETTER: dict[str, Atom] = {a.letter: a for a in Atom if a is not Atom.SLAG}
LETTERS = "A F W E S V M q l t i c s g"
ROW_LENGTHS = tuple(len(row_span(r)) for r in range(ROWS))


class HexLevel(NamedTuple):
    """A parsed hexagonal board: its name and its atoms as ((row, col), Atom), in reading order."""

    name: str
    atoms: tuple[tuple[Cell, Atom], ...]

    def board_rows(self) -> list[str]:
        """The 11 rows as strings of cells, left to right ('.' for an empty cell)."""
        where = dict(self.atoms)
        return ["".join(where[(r, c)].letter if (r, c) in where else EMPTY for c in row_span(r))
                for r in range(ROWS)]

    def text(self) -> str:
        """The level as a `.hgl` file, each row indented to draw the hexagon."""
        lines = [self.name]
        for r, row in enumerate(self.board_rows()):
            lines.append(" " * abs(r - ROWS // 2) + " ".join(row))
        return "\n".join(lines) + "\n"


def holding_problem(atoms: Iterable[tuple[Cell, Atom]]) -> str | None:
    """Why a hexagonal board cannot hold these atoms (one line), or None."""
    seen: set[Cell] = set()
    metals: set[Atom] = set()
    for cell, atom in atoms:
        if cell not in _CELL_SET:
            return f"cell {cell} is off the hexagonal board"
        if cell in seen:
            return f"two atoms on cell {cell}"
        seen.add(cell)
        if atom is Atom.SLAG:
            return "the hexagonal garden has no Slag"
        if atom in METAL_ORDER:
            if atom in metals:
                return f"a second {atom.title}: the hexagonal garden holds one of each metal"
            metals.add(atom)
    if not seen:
        return "no atoms (only empty cells)"
    return None


_CELL_SET = frozenset(CELLS)


def level_from_rows(name: str, rows: Sequence[tuple[str, Sequence[tuple[str, str]]]],
                    source: str) -> HexLevel:
    """A level from its rows, each (where it is, its cells as (where, character)).

    `where` words the messages: "line 4" and "line 4, column 9" in a file,
    "row 4" and "row 4, cell 2" in a record.
    """
    if len(rows) != ROWS:
        raise LevelError(f"{source}: {len(rows)} rows; a hexagonal garden has {ROWS} "
                         f"(of {', '.join(map(str, ROW_LENGTHS))} cells)")
    atoms: list[tuple[Cell, Atom]] = []
    metals: dict[Atom, str] = {}
    for r, (where, cells) in enumerate(rows):
        for spot, ch in cells:
            if ch != EMPTY and ch not in ATOM_OF_LETTER:
                raise LevelError(f"{source}: {spot}: {ch!r} is not a cell: use {EMPTY} for an "
                                 f"empty cell or an atom letter ({LETTERS})")
        if len(cells) != ROW_LENGTHS[r]:
            raise LevelError(f"{source}: {where}: {len(cells)} cells; row {r + 1} of the "
                             f"hexagon has {ROW_LENGTHS[r]}")
        for c, (spot, ch) in zip(row_span(r), cells, strict=True):
            atom = ATOM_OF_LETTER.get(ch)
            if atom is None:
                continue
            if atom in METAL_ORDER:
                if atom in metals:
                    raise LevelError(f"{source}: {spot}: a second {atom.title} (the first is "
                                     f"on {metals[atom]}): the hexagonal garden holds one of "
                                     f"each metal")
                metals[atom] = spot
            atoms.append(((r, c), atom))
    if not atoms:
        raise LevelError(f"{source}: no atoms (only empty cells)")
    return HexLevel(name, tuple(atoms))


def parse_hex_level(data: str | bytes, source: str = "level") -> HexLevel:
    """Read a `.hgl` level; LevelError with one line naming `source`, the line and the problem."""
    text = decode(data, source)
    if not text.strip():
        raise LevelError(f"{source}: the file is empty")
    lines = text.split("\n")
    if text.endswith("\n"):
        lines.pop()  # a final newline adds no line
    name = lines[0].rstrip("\r")
    if not name.strip():
        raise LevelError(f"{source}: no name line (the first line must name the board)")
    rows: list[tuple[str, list[tuple[str, str]]]] = []
    for number, line in enumerate(lines[1:], start=2):
        body = line.split(COMMENT, 1)[0]
        cells = [(f"line {number}, column {column}", ch)
                 for column, ch in enumerate(body, start=1) if not ch.isspace()]
        if not cells:
            continue
        if len(rows) == ROWS:
            raise LevelError(f"{source}: line {number}: a row after the {ROWS}th "
                             f"(a hexagonal garden has {ROWS} rows)")
        rows.append((f"line {number}", cells))
    return level_from_rows(name, rows, source)


def read_hex_level(path: str | Path) -> HexLevel:
    """Parse a `.hgl` file; LevelError (one line) if it cannot be read or used."""
    path = Path(path)
    try:
        with path.open("rb") as handle:
            data = handle.read(MAX_FILE_BYTES + 1)
    except OSError as exc:
        raise LevelError(f"{path}: cannot read: {exc.strerror or exc}") from None
    return parse_hex_level(data, str(path))


def bundled_levels() -> list[tuple[str, HexLevel]]:
    """The levels that come with the hexagonal garden, as (id, level), by number."""
    folder = resources.files("palmish.sigmar.hexagonal") / "levels"
    found = []
    for entry in folder.iterdir():
        if entry.name.endswith(LEVEL_SUFFIX):
            level_id = entry.name[: -len(LEVEL_SUFFIX)]
            found.append((level_id, parse_hex_level(entry.read_bytes(),
                                                    f"hexagonal level {entry.name}")))
    found.sort(key=lambda item: level_sort_key(item[0]))
    return found
