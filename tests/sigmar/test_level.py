"""The `.dat` reader, level ids and level collections."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import pytest

from palmish.sigmar import Atom, Game, LevelError, parse_level, read_level
from palmish.sigmar.catalog import find_level, levels_from_resources, levels_in_folder, merge_levels
from palmish.sigmar.level import level_id_of, level_sort_key, normalize_level_id


def test_row_r_is_line_r_plus_one_even_when_empty() -> None:
    level = parse_level("Gaps\n\n  e\n\ne\n")
    assert level.name == "Gaps"
    assert level.atoms == (((1, 2), Atom.FIRE), ((3, 0), Atom.FIRE))
    assert (level.rows, level.cols) == (4, 3)


def test_final_newline_adds_no_row_and_rows_reach_the_last_atom() -> None:
    with_newline = parse_level("A\ne e\n")
    without = parse_level("A\ne e")
    assert with_newline == without
    assert (without.rows, without.cols) == (1, 3)
    trailing = parse_level("A\ne     \n      \n")
    assert (trailing.rows, trailing.cols) == (1, 1)


def test_slag_counts_for_the_size() -> None:
    level = parse_level("S\ne\n\n   7\n")
    assert (level.rows, level.cols) == (3, 4)


def test_crlf_files_read_the_same() -> None:
    assert parse_level("Caution\r\naa\r\ne e\r\n").atoms == parse_level("Caution\naa\ne e\n").atoms
    assert parse_level("Caution\r\naa\r\n").name == "Caution"


def test_name_is_read_literally() -> None:
    assert parse_level("  My board: #1 \nee\n").name == "  My board: #1 "


def test_twelve_by_twelve_is_the_limit() -> None:
    parse_level("Big\n" + ("e" * 12 + "\n") * 12)
    with pytest.raises(LevelError, match="column 13"):
        parse_level("Wide\n" + "e" * 13 + "\n")
    with pytest.raises(LevelError, match="row 13"):
        parse_level("Tall\n" + "e\n" * 13)
    # Empty squares beyond the limit are fine: only atoms count.
    assert parse_level("Spaces\ne" + " " * 30 + "\n" + "\n" * 20).cols == 1


@pytest.mark.parametrize(
    ("data", "problem"),
    [
        ("", "the file is empty"),
        (b"", "the file is empty"),
        ("   \n\n", "the file is empty"),
        ("\nee\n", "no name line"),
        ("Name only\n", "no atoms"),
        ("Nothing\n5555\nAB CDEF\n", "no atoms"),
        (b"Bin\n\x00\x01ee\n", "not text"),
        (b"Bad\n\xff\xfe\n", "not text"),
        (b"x" * 70000, "too big"),
        ("Wide\n" + "e" * 20, "too big"),
    ],
)
def test_bad_files_are_one_line_naming_the_file(data: str | bytes, problem: str) -> None:
    with pytest.raises(LevelError) as info:
        parse_level(data, source="boards/9.dat")
    message = str(info.value)
    assert message.startswith("boards/9.dat: ")
    assert problem in message
    assert "\n" not in message
    assert isinstance(info.value, ValueError)


def test_read_level_names_the_path(tmp_path: Path) -> None:
    path = tmp_path / "3.dat"
    path.write_bytes(b"")
    with pytest.raises(LevelError, match=f"^{path}: the file is empty$"):
        read_level(path)
    with pytest.raises(LevelError, match="cannot read"):
        read_level(tmp_path / "missing.dat")
    path.write_text("Projection\na2\n")
    assert read_level(path).name == "Projection"


def test_from_level_raises_level_error() -> None:
    with pytest.raises(LevelError, match="no atoms"):
        Game.from_level("Empty\n\n", level="9")


def test_level_ids() -> None:
    assert normalize_level_id("?") is None
    assert normalize_level_id("7") == "7"
    assert normalize_level_id(" 07 ") == "7"
    assert normalize_level_id(7) == "7"
    assert normalize_level_id("test") == "test"
    assert normalize_level_id("test.dat") == "test"
    assert normalize_level_id("12.dat") == "12"
    for bad in ("", "a/b", "..", ".hidden"):
        with pytest.raises(LevelError):
            normalize_level_id(bad)
    assert level_id_of("7.dat") == "7" and level_id_of("test.DAT") == "test"
    assert level_id_of("notes.txt") is None
    ids = ["test", "10", "2", "Alpha", "1"]
    assert sorted(ids, key=level_sort_key) == ["1", "2", "10", "Alpha", "test"]


def test_levels_in_a_folder_skip_bad_files_with_one_line_each(tmp_path: Path) -> None:
    (tmp_path / "1.dat").write_text("One\nee\n")
    (tmp_path / "test.dat").write_text("Test\nbb\n")
    (tmp_path / "2.dat").write_text("")
    (tmp_path / "readme.txt").write_text("not a level")
    levels, problems = levels_in_folder(tmp_path)
    assert [(e.id, e.name) for e in levels] == [("1", "One"), ("test", "Test")]
    assert problems == [f"{tmp_path / '2.dat'}: the file is empty"]
    assert find_level(levels, "test.dat").name == "Test"
    with pytest.raises(LevelError, match="no level 3"):
        find_level(levels, 3)


def test_levels_from_resources_and_merge() -> None:
    res = [
        SimpleNamespace(type="SgLv", id=2, data=b"Two\nee\n"),
        SimpleNamespace(type="SgLv", id=1, data=b"One\nbb\n"),
        SimpleNamespace(type="SgLv", id=3, data=b""),
        SimpleNamespace(type="pINF", id=0, data=b"x"),
    ]
    levels, problems = levels_from_resources(res, source="Sigmar Levels")
    assert [(e.id, e.name) for e in levels] == [("1", "One"), ("2", "Two")]
    assert problems == ["Sigmar Levels level 3: the file is empty"]
    mine = levels_from_resources([SimpleNamespace(type="SgLv", id=2, data=b"Mine\ndd\n")])[0]
    merged = merge_levels(levels, mine)
    assert [(e.id, e.name) for e in merged] == [("1", "One"), ("2", "Mine")]
