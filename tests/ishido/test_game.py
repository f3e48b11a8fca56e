"""The Game object: undo, records, the extra facts the app and the AI use."""

from __future__ import annotations

import random

import pytest

from palmish.ishido import Game, IllegalMove, Tile, rules


def play_randomly(game: Game, moves: int, seed: int = 0) -> None:
    rng = random.Random(seed)
    for _ in range(moves):
        if game.over:
            return
        game.place(*rng.choice(game.legal_moves()))


def test_undo_goes_back_to_the_opening_and_no_further() -> None:
    game = Game.new(seed=11)
    opening = game.legal_moves(), game.current, game.score
    play_randomly(game, 30)
    while game.can_undo:
        game.undo()
    assert (game.legal_moves(), game.current, game.score) == opening
    assert game.moves == [] and game.placed_count == 6
    with pytest.raises(IllegalMove, match="nothing to undo"):
        game.undo()


def test_undo_reports_what_it_took_back() -> None:
    game = Game.new(seed=5)
    row, col = game.legal_moves()[0]
    placed = game.place(row, col)
    taken = game.undo()
    assert (taken.row, taken.col, taken.tile) == (row, col, placed.tile)
    assert taken.points == placed.points
    assert taken.neighbours == placed.neighbours
    assert game.tile_at(row, col) is None


def test_record_text_and_replay() -> None:
    game = Game.new(seed=7, scoring="scored")
    assert game.record() == "ishido 1 seed=7 scoring=scored moves="
    play_randomly(game, 5)
    text = game.record()
    names = [rules.cell_name(r, c) for r, c in game.moves]
    assert text == "ishido 1 seed=7 scoring=scored moves=" + " ".join(names)
    again = Game.from_record(text)
    assert again.moves == game.moves and again.score == game.score
    assert again.scoring == "scored" and again.seed == 7


def test_cell_names() -> None:
    assert [rules.cell_name(r, c) for r, c in rules.OPENING_CELLS] == [
        "a1", "l1", "a8", "l8", "f4", "g5",
    ]
    assert rules.parse_cell("G5") == (4, 6)
    for bad in ("m1", "a0", "a9", "5a", "", "a"):
        with pytest.raises(ValueError):
            rules.parse_cell(bad)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "not an Ishido record"),
        ("chess 1 seed=1 moves=", "not an Ishido record"),
        ("ishido 2 seed=1 moves=", "version"),
        ("ishido 1 scoring=modern moves=", "no seed"),
        ("ishido 1 seed=x moves=", "not a whole number"),
        ("ishido 1 seed=1 scoring=ancient moves=", "scoring"),
        ("ishido 1 seed=1 colour=red moves=", "unknown field"),
        ("ishido 1 seed=1 seed=2 moves=", "twice"),
        ("ishido 1 seed=1 hello moves=", "stray word"),
        ("ishido 1 seed=1 moves=zz", "move 1"),
        ("ishido 1 seed=1 moves=f6", r"move 1 \(f6\) is not a legal placement"),
        ("ishido 1 seed=1 moves= seed=3", "among its moves"),
    ],
)
def test_bad_records_are_refused_with_one_clear_line(text: str, message: str) -> None:
    with pytest.raises(IllegalMove, match=message) as caught:
        Game.from_record(text)
    assert "\n" not in str(caught.value)
    assert isinstance(caught.value, ValueError)


def test_a_record_that_plays_past_the_end_is_refused() -> None:
    game = Game.new(seed=2)
    play_randomly(game, 80)
    assert game.over
    with pytest.raises(IllegalMove, match="not a legal placement"):
        Game.from_record(game.record() + " a1")


def test_positions_cannot_be_recorded() -> None:
    with pytest.raises(ValueError, match="no seed"):
        Game.from_position({(3, 3): Tile(0, 0)}, [Tile(0, 1)]).record()


def test_unknown_scoring_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown scoring"):
        Game.new(seed=1, scoring="ancient")


def test_pouch_counts_hide_the_order() -> None:
    game = Game.new(seed=9)
    counts = game.pouch_counts()
    assert sum(counts.values()) == 65
    assert game.current is not None
    full = counts.copy()
    full[game.current] += 1
    for r in range(8):
        for c in range(12):
            t = game.tile_at(r, c)
            if t is not None:
                full[t] += 1
    assert all(full[t] == 2 for t in rules.TILES)


def test_a_new_game_without_a_seed_picks_and_remembers_one() -> None:
    game = Game.new()
    assert isinstance(game.seed, int)
    assert Game.from_record(game.record()).current == game.current


def test_place_index_and_legal_mask_agree_with_cells() -> None:
    game = Game.new(seed=4)
    cells = rules.cells_of(game.legal_mask())
    assert cells == game.legal_moves()
    row, col = cells[-1]
    game.place_index(row * rules.STRIDE + col)
    assert game.moves == [(row, col)]
    with pytest.raises(IllegalMove):
        game.place_index(row * rules.STRIDE + col)
