"""The one-line game record: `sigmar 1 seed=7 moves=...` or `sigmar 1 level=7 name=... board=...`.

The version word names the generator's algorithm as well as the format, so a
record made today replays the same board for as long as version 1 is kept.
"""

from __future__ import annotations

from urllib.parse import quote, unquote

from palmish.records import split_record
from palmish.sigmar.rules import IllegalMove, cell_name, parse_cell

MAGIC = "sigmar"
VERSION = "1"
_RANDOM_FIELDS = ("seed", "difficulty")
_LEVEL_FIELDS = ("level", "name", "board")
DIFFICULTIES = ("easy", "normal", "hard")

Cell = tuple[int, int]


def take_text(a: Cell, b: Cell | None) -> str:
    """"c4+d7", or "f6" for the gold alone."""
    first = cell_name(*a)
    return first if b is None else f"{first}+{cell_name(*b)}"


def format_random(seed: int, difficulty: str | None, takes: list[str]) -> str:
    extra = f" difficulty={difficulty}" if difficulty else ""
    return f"{MAGIC} {VERSION} seed={seed}{extra} moves={' '.join(takes)}".rstrip()


def format_level(level_id: str, name: str, rows: list[str], takes: list[str]) -> str:
    return (
        f"{MAGIC} {VERSION} level={quote(level_id, safe='')} name={quote(name, safe='')} "
        f"board={'/'.join(rows)} moves={' '.join(takes)}"
    ).rstrip()


def parse(text: str) -> tuple[dict[str, str], list[tuple[Cell, Cell | None]]]:
    """The fields and the takes of a record; IllegalMove (one line) for a bad one."""
    fields, moves = split_record(
        text, magic=MAGIC, version=VERSION, fields_known=_RANDOM_FIELDS + _LEVEL_FIELDS,
        what="a Sigmar record", error=IllegalMove,
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
    level_board = "board" in fields
    if random_board == level_board:
        raise IllegalMove("record needs either seed= (a random board) or board= (a level)")
    if random_board:
        stray = [k for k in _LEVEL_FIELDS if k in fields]
        if stray:
            raise IllegalMove(f"record of a random board has {stray[0]}=")
        seed = fields["seed"]
        if not seed.isdigit():
            raise IllegalMove(f"record seed {seed!r} is not a whole number")
        difficulty = fields.get("difficulty")
        if difficulty is not None and difficulty not in DIFFICULTIES:
            raise IllegalMove(f"record difficulty {difficulty!r} is not easy, normal or hard")
        return
    if "difficulty" in fields:
        raise IllegalMove("record of a level has difficulty=")
    for key in ("level", "name"):
        if key in fields:
            fields[key] = unquote(fields[key])
    if not fields.get("name", "").strip():
        raise IllegalMove("record of a level has no name=")


def board_text(fields: dict[str, str]) -> str:
    """The `.dat` text of a level record's board."""
    return "\n".join([fields["name"], *fields["board"].split("/")]) + "\n"
