"""The hexagonal garden's one-line record (docs/sigmar-rules.md, "Hexagonal records").

    sigmarhex 1 seed=7 moves=f6+e5 d2+h9 f6
    sigmarhex 1 level=2 name=Ring%20of%20Fire board=....../.F...F./... moves=...

Its first word tells it from a square garden's record (`sigmar 1 ...`); the
version names the hexagonal generator's algorithm too, so a record keeps
replaying its board for as long as that version is kept.
"""

from __future__ import annotations

from urllib.parse import quote, unquote

from palmish.records import split_record
from palmish.sigmar.atoms import IllegalMove
from palmish.sigmar.hexagonal.level import HexLevel, level_from_rows
from palmish.sigmar.hexagonal.rules import Cell, cell_name, parse_cell

MAGIC = "sigmarhex"
VERSION = "1"
_RANDOM_FIELDS = ("seed",)
_LEVEL_FIELDS = ("level", "name", "board")


def take_text(a: Cell, b: Cell | None) -> str:
    """"c4+d7", or "f6" for the gold alone."""
    first = cell_name(*a)
    return first if b is None else f"{first}+{cell_name(*b)}"


def format_random(seed: int, takes: list[str]) -> str:
    return f"{MAGIC} {VERSION} seed={seed} moves={' '.join(takes)}".rstrip()


def format_level(level_id: str, level: HexLevel, takes: list[str]) -> str:
    """A level's record carries its board: the 11 rows of cells joined by '/'."""
    return (
        f"{MAGIC} {VERSION} level={quote(level_id, safe='')} name={quote(level.name, safe='')} "
        f"board={'/'.join(level.board_rows())} moves={' '.join(takes)}"
    ).rstrip()


def parse(text: str) -> tuple[dict[str, str], list[tuple[Cell, Cell | None]]]:
    """The fields and the takes of a record; IllegalMove (one line) for a bad one."""
    fields, moves = split_record(
        text, magic=MAGIC, version=VERSION, fields_known=_RANDOM_FIELDS + _LEVEL_FIELDS,
        what="a hexagonal Sigmar record", error=IllegalMove,
    )
    if moves is None:
        raise IllegalMove("record has no moves= (it may be empty)")
    _check_fields(fields)
    takes = []
    for number, word in enumerate(moves, start=1):
        try:
            first, plus, second = word.partition("+")
            a = parse_cell(first)
            b = parse_cell(second) if plus else None
        except ValueError as exc:
            raise IllegalMove(f"record move {number}: {exc}") from None
        takes.append((a, b))
    return fields, takes


def _check_fields(fields: dict[str, str]) -> None:
    random_board = "seed" in fields
    if random_board == ("board" in fields):
        raise IllegalMove("record needs either seed= (a random board) or board= (a level)")
    if random_board:
        stray = [k for k in _LEVEL_FIELDS if k in fields]
        if stray:
            raise IllegalMove(f"record of a random board has {stray[0]}=")
        if not fields["seed"].isdigit():
            raise IllegalMove(f"record seed {fields['seed']!r} is not a whole number")
        return
    for key in ("level", "name"):
        if key in fields:
            fields[key] = unquote(fields[key])
    if not fields.get("name", "").strip():
        raise IllegalMove("record of a level has no name=")


def board_level(fields: dict[str, str]) -> HexLevel:
    """The level a record's board= names (LevelError, one line, for a bad one)."""
    rows = [(f"row {r}", [(f"row {r}, cell {k}", ch) for k, ch in enumerate(row, start=1)])
            for r, row in enumerate(fields["board"].split("/"), start=1)]
    return level_from_rows(fields["name"], rows, "record board")
