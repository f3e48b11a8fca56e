"""Levels: the seed's `.dat` boards, their ids, and reading one from its text or file.

A `.dat` file's first line is the board's name, read literally; line r+1 is
row r (even when empty) and character c of it is column c. Hex digits 0-f
(lower case) are atoms, everything else is an empty square. Nothing is trimmed
or centred here: only atoms matter to the rules (the view centres the board).
"""

from __future__ import annotations

from pathlib import Path
from typing import NamedTuple

from palmish.sigmar.rules import ATOM_OF_CHAR, MAX_COLS, MAX_ROWS, Atom

LEVEL_SUFFIX = ".dat"
RANDOM_ID = "?"
# Raw resources of the bundled Levels database: type, one per level, id = level number.
LEVELS_DB_TYPE = "SgLv"
LEVEL_RESOURCE_TYPE = "SgLv"
MAX_FILE_BYTES = 64 * 1024  # a 12x12 board is tiny; anything this big is not a level


class LevelError(ValueError):
    """A level file or id that cannot be used; the message is one line naming it."""


class Level(NamedTuple):
    """A parsed board: its name and its atoms as ((row, col), Atom), row-major."""

    name: str
    atoms: tuple[tuple[tuple[int, int], Atom], ...]
    rows: int  # up to the last row holding an atom (Slag included)
    cols: int  # up to the last column holding an atom

    def board_rows(self) -> list[str]:
        """The board as `.dat` rows: digits, '.' for empty, each row cut after its last atom."""
        grid = [["."] * self.cols for _ in range(self.rows)]
        for (r, c), atom in self.atoms:
            grid[r][c] = atom.digit
        return ["".join(row).rstrip(".") for row in grid]

    def text(self) -> str:
        """The level as a `.dat` file."""
        return "\n".join([self.name, *self.board_rows()]) + "\n"


def decode(data: str | bytes, source: str) -> str:
    """Text of a level file; LevelError if the bytes are not text."""
    if isinstance(data, str):
        text = data
    else:
        if len(data) > MAX_FILE_BYTES:
            raise LevelError(f"{source}: too big for a level ({len(data)} bytes)")
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            raise LevelError(f"{source}: not text (not UTF-8)") from None
    text = text.removeprefix("\ufeff")  # a byte-order mark is not part of the name
    if any(ch < " " and ch not in "\t\n\r\f\v" for ch in text):
        raise LevelError(f"{source}: not text (it holds control bytes)")
    return text


def parse_level(data: str | bytes, source: str = "level") -> Level:
    """Read a `.dat` board; LevelError with one line naming `source` and the problem."""
    text = decode(data, source)
    if not text.strip():
        raise LevelError(f"{source}: the file is empty")
    lines = text.split("\n")
    if text.endswith("\n"):
        lines.pop()  # a final newline adds no row
    name = lines[0].rstrip("\r")
    if not name.strip():
        raise LevelError(f"{source}: no name line (the first line must name the board)")
    atoms: list[tuple[tuple[int, int], Atom]] = []
    for r, line in enumerate(lines[1:]):
        for c, ch in enumerate(line):
            atom = ATOM_OF_CHAR.get(ch)
            if atom is None:
                continue
            if r >= MAX_ROWS:
                raise LevelError(
                    f"{source}: too big: an atom on row {r + 1}; at most {MAX_ROWS} rows"
                )
            if c >= MAX_COLS:
                raise LevelError(
                    f"{source}: too big: an atom in column {c + 1} of row {r + 1}; "
                    f"at most {MAX_COLS} columns"
                )
            atoms.append(((r, c), atom))
    if not atoms:
        raise LevelError(f"{source}: no atoms (hex digits 0-f other than 5) below the name")
    rows = max(r for (r, _), _ in atoms) + 1
    cols = max(c for (_, c), _ in atoms) + 1
    return Level(name, tuple(atoms), rows, cols)


def read_level(path: str | Path) -> Level:
    """Parse a `.dat` file; LevelError (one line) if it cannot be read or used."""
    path = Path(path)
    try:
        with path.open("rb") as handle:
            data = handle.read(MAX_FILE_BYTES + 1)
    except OSError as exc:
        raise LevelError(f"{path}: cannot read: {exc.strerror or exc}") from None
    return parse_level(data, str(path))


# ---------------------------------------------------------------- ids


def normalize_level_id(text: str | int) -> str | None:
    """A level id as typed ("7", "07", "test", "test.dat", "?"); None means a random board.

    Numbers lose leading zeros; a `.dat` ending is dropped; LevelError for an
    id that cannot name a file.
    """
    value = str(text).strip()
    if value == RANDOM_ID:
        return None
    if value.lower().endswith(LEVEL_SUFFIX):
        value = value[: -len(LEVEL_SUFFIX)]
    if not value:
        raise LevelError("no level id (a number, a name or ?)")
    if value == RANDOM_ID:  # ?.dat could never be opened: ? asks for a random board
        raise LevelError("'?' is not a level id: it stands for a random board")
    if value.isdigit():
        return str(int(value))
    if any(ch in value for ch in "/\\:") or value.startswith(".") or not value.isprintable():
        raise LevelError(f"{value!r} is not a level id (a number, a name or ?)")
    return value


def level_id_of(filename: str) -> str | None:
    """The id a `.dat` file name gives ("7.dat" -> "7", "test.dat" -> "test"), else None."""
    name = Path(filename).name
    if not name.lower().endswith(LEVEL_SUFFIX):
        return None
    try:
        return normalize_level_id(name)
    except LevelError:
        return None


def level_sort_key(level_id: str) -> tuple[int, int, str]:
    """Numbered levels first, by number, then named ones alphabetically."""
    if level_id.isdigit():
        return (0, int(level_id), "")
    return (1, 0, level_id.lower())
