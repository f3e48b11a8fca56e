"""Records: one short line that replays the game, and one-line refusals."""

from __future__ import annotations

import pytest

from palmish.sigmar import Game, IllegalMove

CAUTION = "Caution\naa\ne e\n9ec\n 2e\n7a\n 7\n"


def test_random_board_record() -> None:
    g = Game.new(seed=7)
    assert g.record() == "sigmar 1 seed=7 moves="
    g.take(*g.legal_takes()[2])
    g.take(*g.legal_takes()[0])
    text = g.record()
    assert "\n" not in text and text.startswith("sigmar 1 seed=7 moves=")
    again = Game.from_record(text)
    assert again.record() == text and again.moves == g.moves and again.occupancy == g.occupancy


def test_level_record_carries_its_board() -> None:
    g = Game.from_level(CAUTION, level="7")
    for a, b in [((1, 0), (3, 2)), ((0, 0), (3, 1))]:
        g.take(a, b)
    text = g.record()
    assert text == "sigmar 1 level=7 name=Caution board=aa/e.e/9ec/.2e/7a/.7 moves=a2+c4 a1+b4"
    again = Game.from_record(text)
    assert (again.name, again.level, again.seed, again.rows, again.cols) == (
        "Caution", "7", None, 6, 3)
    assert again.moves == g.moves and again.record() == text


def test_level_with_leading_empty_rows_and_odd_name() -> None:
    g = Game.from_level("  Odd / name%  \n\n\n   e\n e\n", level="my level")
    text = g.record()
    assert "level=my%20level name=%20%20Odd%20%2F%20name%25%20%20 board=//...e/.e " in text
    again = Game.from_record(text)
    assert (again.name, again.level) == ("  Odd / name%  ", "my level")
    assert again.atom_at(2, 3) == g.atom_at(2, 3) is not None


def test_difficulty_is_recorded() -> None:
    g = Game.new(seed=3, difficulty="hard")
    assert "difficulty=hard" in g.record()
    assert Game.from_record(g.record()).difficulty == "hard"


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("", "not a Sigmar record"),
        ("ishido 1 seed=1 moves=", "not a Sigmar record"),
        ("sigmar 9 seed=1 moves=", "version"),
        ("sigmar 1 seed=x moves=", "whole number"),
        ("sigmar 1 seed=-4 moves=", "whole number"),
        ("sigmar 1 seed=1", "no moves="),
        ("sigmar 1 moves=", "either seed="),
        ("sigmar 1 seed=1 board=ee moves=", "board="),
        ("sigmar 1 seed=1 seed=2 moves=", "twice"),
        ("sigmar 1 seed=1 colour=red moves=", "unknown field"),
        ("sigmar 1 seed=1 stray moves=", "stray word"),
        ("sigmar 1 seed=1 difficulty=brutal moves=", "difficulty"),
        ("sigmar 1 seed=1 moves=z9", "record move 1"),
        ("sigmar 1 seed=1 moves=a1+a2", "record move 1 (a1+a2)"),
        ("sigmar 1 level=1 name=X board=e.b moves=a1+c1", "does not react"),
        ("sigmar 1 level=1 name=X board=55 moves=", "record board"),
        ("sigmar 1 level=1 board=ee moves=", "no name="),
        ("sigmar 1 level=1 name=X board=ee moves=a1+b1 seed=3", "among its moves"),
    ],
)
def test_bad_records_are_refused_with_one_line(text: str, problem: str) -> None:
    with pytest.raises(IllegalMove) as info:
        Game.from_record(text)
    assert problem in str(info.value)
    assert "\n" not in str(info.value)
