"""Hexagonal levels (`.hgl`): the parser against the reference, the writer, one-line
errors naming the file and the line, and records of levels."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from palmish.sigmar.atoms import Atom, IllegalMove
from palmish.sigmar.hexagonal.game import HexGame
from palmish.sigmar.hexagonal.level import (
    HexLevel,
    LevelError,
    bundled_levels,
    parse_hex_level,
    read_hex_level,
)
from tests.sigmar import independent_hex as ref

SCALE = int(os.environ.get("SIGMAR_DIFF_SCALE", "1"))
MANY = settings(max_examples=150 * SCALE, deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

RING = """Ring
# the outer ring only
     A A F F W W
    E . . . . . E
   S . . . . . . S
  V . . . . . . . M
 q . . . . . . . . q
l . . . . g . . . . t
 W . . . . . . . . W
  F . . . . . . . F
   A . . . . . . A
    E . . . . . E
     V M S S i q
"""


def test_a_level_reads_as_drawn() -> None:
    level = parse_hex_level(RING, "ring.hgl")
    assert level.name == "Ring"
    atoms = dict(level.atoms)
    assert atoms[(0, 0)] == Atom.AIR and atoms[(5, 0)] == Atom.LEAD
    assert atoms[(5, 5)] == Atom.GOLD and atoms[(10, 10)] == Atom.QUICKSILVER
    assert atoms[(10, 5)] == Atom.VITAE and atoms[(5, 10)] == Atom.TIN
    assert len(atoms) == 31
    assert parse_hex_level(level.text()) == level
    game = HexGame.from_level(RING, level="9")
    assert (game.name, game.level, game.seed, game.remaining) == ("Ring", "9", None, 31)


def test_spaces_and_indentation_are_cosmetic() -> None:
    squeezed = "\n".join(["Ring", *("".join(line.split()) for line in RING.splitlines()[2:])])
    assert parse_hex_level(squeezed) == parse_hex_level(RING)
    tabbed = "Ring\r\n\n" + "\n\n".join("\t" + line + "   # row" for line in RING.splitlines()[2:])
    assert parse_hex_level(tabbed) == parse_hex_level(RING)


BAD = {
    "empty.hgl": (b"", "the file is empty"),
    "noname.hgl": (b"\n" + RING.split("\n", 1)[1].encode(), "no name line"),
    "short.hgl": (RING.rsplit("\n", 2)[0].encode(), "10 rows"),
    "long.hgl": ((RING + ". . . . . .\n").encode(), "line 14: a row after the 11th"),
    "wide.hgl": (RING.replace(" E . . . . . E", " E . . . . . . E").encode(),
                 "line 4: 8 cells; row 2 of the hexagon has 7"),
    "letter.hgl": (RING.replace("S . . . . . . S", "S . . x . . . S").encode(),
                   "line 5, column 10: 'x' is not a cell"),
    "slag.hgl": (RING.replace("V . . . . . . . M", "V . . . 7 . . . M").encode(),
                 "line 6, column 11: '7' is not a cell"),
    "metal.hgl": (RING.replace("q . . . . . . . . q", "q . . . t . . . . q").encode(),
                  "line 8, column 21: a second tin (the first is on line 7, column 10)"),
    "nothing.hgl": (b"Nothing\n" + b"\n".join(b". " * n for n in ref.ROW_CELLS) + b"\n",
                    "no atoms"),
    "binary.hgl": (b"Bin\n\xff\xfe\x00", "not text"),
    "huge.hgl": (RING.encode() + b" " * 70_000, "too big"),
}


@pytest.mark.parametrize("name", sorted(BAD))
def test_bad_files_are_one_line_naming_file_line_and_problem(tmp_path: Path, name: str) -> None:
    data, words = BAD[name]
    path = tmp_path / name
    path.write_bytes(data)
    with pytest.raises(LevelError) as info:
        read_hex_level(path)
    message = str(info.value)
    assert "\n" not in message and message.startswith(str(path)) and words in message, message


def test_an_unreadable_file_is_one_line(tmp_path: Path) -> None:
    with pytest.raises(LevelError, match="cannot read"):
        read_hex_level(tmp_path / "missing.hgl")


# ---------------------------------------------------------------- fuzzing
CELL_CHARS = st.sampled_from(list("AFWESVMqltiscg") * 2 + list("......") + list(" \t#x7Zé5"))


@st.composite
def level_texts(draw: st.DrawFn) -> str:
    """Texts near the format: right or wrong row lengths, comments, stray characters."""
    rows = []
    for n in ref.ROW_CELLS:
        length = n if draw(st.integers(0, 9)) else draw(st.integers(0, 13))
        cells = draw(st.lists(CELL_CHARS, min_size=length, max_size=length))
        rows.append(draw(st.sampled_from(["", " ", "\t"])) + " ".join(cells))
    rows = rows[:draw(st.integers(9, 12))] + draw(st.lists(st.sampled_from(["", "# c", "  "]),
                                                             max_size=2))
    name = draw(st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\n"),
                        max_size=8))
    return "\n".join([name, *rows]) + draw(st.sampled_from(["", "\n", "\r\n"]))


@MANY
@given(text=st.one_of(level_texts(), st.text(max_size=300)))
def test_the_parser_agrees_with_the_reference(text: str) -> None:
    try:
        name, cells = ref.parse_level(text)
    except ref.RefLevelError:
        with pytest.raises(LevelError) as info:
            parse_hex_level(text, "fuzz.hgl")
        assert "\n" not in str(info.value) and str(info.value).startswith("fuzz.hgl: ")
        return
    level = parse_hex_level(text, "fuzz.hgl")
    assert level.name == name
    assert {cell: atom.letter for cell, atom in level.atoms} == cells
    assert parse_hex_level(level.text()) == level  # the writer's text reads back the same


@MANY
@given(data=st.binary(max_size=400))
def test_any_bytes_are_a_level_or_one_line(data: bytes) -> None:
    try:
        level = parse_hex_level(data, "bytes.hgl")
    except LevelError as exc:
        assert "\n" not in str(exc) and str(exc).startswith("bytes.hgl: ")
        return
    assert parse_hex_level(level.text()) == level


@st.composite
def levels(draw: st.DrawFn) -> HexLevel:
    cells = draw(st.lists(st.sampled_from(ref.CELLS), min_size=1, max_size=40, unique=True))
    metals = draw(st.lists(st.sampled_from("ltiscg"), unique=True, max_size=min(6, len(cells))))
    letters = metals + [draw(st.sampled_from("AFWESVMq")) for _ in cells[len(metals):]]
    by_letter = {a.letter: a for a in Atom if a is not Atom.SLAG}
    name = draw(st.text(st.characters(blacklist_categories=("Cs", "Cc"),
                                      blacklist_characters="\ufeff"), min_size=1,
                        max_size=12).filter(str.strip))
    return HexLevel(name, tuple(sorted((c, by_letter[x]) for c, x in zip(cells, letters,
                                                                           strict=False))))


@MANY
@given(level=levels())
def test_written_levels_and_level_records_read_back(level: HexLevel) -> None:
    assert parse_hex_level(level.text()) == level
    game = HexGame.from_level(level, level="my level/1")
    twin = HexGame.from_record(game.record())
    assert twin.start_level() == level and twin.level == "my level/1"


def test_bad_level_records_are_one_line() -> None:
    game = HexGame.from_level(RING, level="9")
    text = game.record()
    for damaged, words in [
        (text.replace("board=A", "board=x"), "record board: row 1, cell 1: 'x' is not a cell"),
        (text.replace("board=", "board=./"), "12 rows"),
        (text.replace("name=Ring ", "name=%20 "), "no name="),
        (text.replace("sigmarhex 1", "sigmarhex 2"), "version '2'"),
        (text + "a1+f1", "record move 1 (a1+f1): Air does not react with Water"),
        (text + "k1", "'k1' is not a cell of the hexagon"),
    ]:
        with pytest.raises(IllegalMove) as info:
            HexGame.from_record(damaged)
        assert "\n" not in str(info.value) and words in str(info.value), (damaged, info.value)


def test_bundled_levels_are_numbered_and_named() -> None:
    found = bundled_levels()
    assert [level_id for level_id, _ in found] == [str(n) for n in range(1, len(found) + 1)]
    assert len(found) >= 4
    assert len({level.name for _, level in found}) == len(found)
