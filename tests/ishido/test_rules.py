"""One test per rule of the seed texts (000 PalmIshido, 001 Ishido Scored)."""

from __future__ import annotations

import random

import pytest

from palmish.ishido import Game, IllegalMove, Tile, roman, rules

CENTRE = (3, 3)
UP, DOWN, LEFT, RIGHT = (2, 3), (4, 3), (3, 2), (3, 4)

NEW = Tile(0, 0)  # the tile being placed in the neighbour tests
BY_COLOR = [Tile(0, 1), Tile(0, 2), Tile(0, 3), Tile(0, 4)]  # same colour, other shape
BY_SHAPE = [Tile(1, 0), Tile(2, 0), Tile(3, 0), Tile(4, 0)]  # same shape, other colour
TWIN = Tile(0, 0)
STRANGER = Tile(5, 5)  # matches NEW neither way


def around_centre(
    *neighbours: Tile,
    pouch: list[Tile] | None = None,
    scoring: str = "modern",
    fourways: int = 0,
    score: int = 0,
) -> Game:
    """A board with the given tiles above, below, left and right of CENTRE."""
    cells = (UP, DOWN, LEFT, RIGHT)
    board = dict(zip(cells, neighbours, strict=False))
    return Game.from_position(
        board, pouch or [NEW, NEW, NEW, NEW], scoring=scoring, fourways=fourways, score=score
    )


# ---------------------------------------------------------------- legality


def test_one_neighbour_matches_by_colour_or_shape() -> None:
    assert around_centre(BY_COLOR[0]).is_legal(*CENTRE)
    assert around_centre(BY_SHAPE[0]).is_legal(*CENTRE)
    assert around_centre(TWIN).is_legal(*CENTRE)
    assert not around_centre(STRANGER).is_legal(*CENTRE)


def test_two_neighbours_need_one_colour_and_one_shape() -> None:
    assert around_centre(BY_COLOR[0], BY_SHAPE[0]).is_legal(*CENTRE)
    assert around_centre(BY_SHAPE[0], BY_COLOR[0]).is_legal(*CENTRE)
    assert not around_centre(BY_COLOR[0], BY_COLOR[1]).is_legal(*CENTRE)
    assert not around_centre(BY_SHAPE[0], BY_SHAPE[1]).is_legal(*CENTRE)
    assert not around_centre(BY_COLOR[0], STRANGER).is_legal(*CENTRE)


def test_three_neighbours_need_two_of_one_and_one_of_the_other() -> None:
    assert around_centre(BY_COLOR[0], BY_COLOR[1], BY_SHAPE[0]).is_legal(*CENTRE)
    assert around_centre(BY_SHAPE[0], BY_COLOR[0], BY_SHAPE[1]).is_legal(*CENTRE)
    assert not around_centre(BY_COLOR[0], BY_COLOR[1], BY_COLOR[2]).is_legal(*CENTRE)
    assert not around_centre(BY_SHAPE[0], BY_SHAPE[1], BY_SHAPE[2]).is_legal(*CENTRE)
    assert not around_centre(BY_COLOR[0], BY_SHAPE[0], STRANGER).is_legal(*CENTRE)


def test_four_neighbours_need_two_by_colour_and_two_by_shape() -> None:
    for order in ((0, 1, 2, 3), (2, 0, 3, 1), (3, 2, 1, 0)):
        tiles = [BY_COLOR[0], BY_COLOR[1], BY_SHAPE[0], BY_SHAPE[1]]
        assert around_centre(*(tiles[i] for i in order)).is_legal(*CENTRE)
    assert not around_centre(BY_COLOR[0], BY_COLOR[1], BY_COLOR[2], BY_SHAPE[0]).is_legal(*CENTRE)
    assert not around_centre(BY_SHAPE[0], BY_SHAPE[1], BY_SHAPE[2], BY_COLOR[0]).is_legal(*CENTRE)
    assert not around_centre(BY_COLOR[0], BY_COLOR[1], BY_SHAPE[0], STRANGER).is_legal(*CENTRE)


def test_identical_twin_serves_either_way() -> None:
    assert around_centre(TWIN, BY_COLOR[0]).is_legal(*CENTRE)  # twin as the shape match
    assert around_centre(TWIN, BY_SHAPE[0]).is_legal(*CENTRE)  # twin as the colour match
    assert around_centre(TWIN, TWIN).is_legal(*CENTRE)
    assert around_centre(TWIN, BY_COLOR[0], BY_COLOR[1]).is_legal(*CENTRE)
    assert around_centre(TWIN, BY_COLOR[0], BY_COLOR[1], BY_SHAPE[0]).is_legal(*CENTRE)
    assert around_centre(TWIN, TWIN, BY_COLOR[0], BY_COLOR[1]).is_legal(*CENTRE)
    # A twin still counts as one neighbour: it cannot cover both roles at once.
    assert not around_centre(TWIN, BY_COLOR[0], BY_COLOR[1], BY_COLOR[2]).is_legal(*CENTRE)


def test_an_empty_cell_without_neighbours_is_never_legal() -> None:
    game = around_centre(BY_COLOR[0])
    assert game.legal_moves() == sorted([CENTRE, (1, 3), (2, 2), (2, 4)])
    assert not game.is_legal(6, 8)


def test_occupied_cells_are_never_legal() -> None:
    game = around_centre(BY_COLOR[0], BY_SHAPE[0])
    assert not game.is_legal(*UP)
    with pytest.raises(IllegalMove):
        game.place(*UP)


def test_corner_and_edge_cells_see_only_their_real_neighbours() -> None:
    # A tile at the end of row 0 must not be a neighbour of the start of row 1.
    game = Game.from_position({(0, 11): BY_COLOR[0]}, [NEW])
    assert game.legal_moves() == [(0, 10), (1, 11)]
    game = Game.from_position({(1, 0): BY_COLOR[0]}, [NEW])
    assert game.legal_moves() == [(0, 0), (1, 1), (2, 0)]
    # The corner (7, 11) with its two neighbours, one per attribute.
    game = Game.from_position({(6, 11): BY_COLOR[0], (7, 10): BY_SHAPE[0]}, [NEW])
    assert game.is_legal(7, 11)
    assert game.neighbour_count(7, 11) == 2
    game = Game.from_position({(6, 11): BY_COLOR[0], (7, 10): BY_COLOR[1]}, [NEW])
    assert not game.is_legal(7, 11)


def test_cells_off_the_board_are_refused() -> None:
    game = around_centre(BY_COLOR[0])
    assert not game.is_legal(8, 0)
    assert not game.is_legal(0, 12)
    with pytest.raises(IllegalMove, match="off the 8x12 board"):
        game.place(-1, 3)


# ---------------------------------------------------------------- modern scoring


@pytest.mark.parametrize(
    ("neighbours", "points"),
    [
        ((BY_COLOR[0],), 1),
        ((BY_COLOR[0], BY_SHAPE[0]), 2),
        ((BY_COLOR[0], BY_COLOR[1], BY_SHAPE[0]), 4),
        ((BY_COLOR[0], BY_COLOR[1], BY_SHAPE[0], BY_SHAPE[1]), 8 + 25),
    ],
)
def test_inner_cells_score_1_2_4_8(neighbours: tuple[Tile, ...], points: int) -> None:
    game = around_centre(*neighbours)
    result = game.place(*CENTRE)
    assert result.points == points
    assert game.score == points


def test_edge_placements_score_nothing() -> None:
    board = {(0, 4): BY_COLOR[0], (1, 5): BY_SHAPE[0]}
    game = Game.from_position(board, [NEW, STRANGER, STRANGER], fourways=3)
    result = game.place(0, 5)  # top edge, two neighbours, after three four-ways
    assert result.neighbours == 2
    assert result.points == 0
    game = Game.from_position({(7, 10): BY_SHAPE[0]}, [NEW, STRANGER])
    assert game.place(7, 11).points == 0  # corner


def test_each_fourway_doubles_later_neighbour_points() -> None:
    # Two four-way cells, (3, 3) and (3, 5), sharing the neighbour (3, 4).
    board = {
        UP: BY_COLOR[0], DOWN: BY_COLOR[1], LEFT: BY_SHAPE[0], RIGHT: BY_SHAPE[1],
        (2, 5): BY_COLOR[2], (4, 5): BY_COLOR[3], (3, 6): BY_SHAPE[2],
        (5, 8): BY_COLOR[0],
    }
    pouch = [NEW, NEW, NEW, NEW]
    game = Game.from_position(board, pouch)
    first = game.place(*CENTRE)
    assert (first.fourway, first.points) == (True, 8 + 25)  # made before any doubling
    second = game.place(3, 5)
    assert (second.fourway, second.points) == (True, 8 * 2 + 50)
    third = game.place(5, 7)  # one neighbour, after two four-ways
    assert (third.fourway, third.points) == (False, 1 * 4)
    assert game.fourways == 2
    assert game.score == 33 + 66 + 4


def test_fourway_bonus_table_including_the_13th_and_later() -> None:
    expected = [25, 50, 100, 200, 400, 600, 800, 1000, 5000, 10000, 25000, 50000, 50000, 50000]
    assert [rules.fourway_bonus(k, "modern") for k in range(1, 15)] == expected
    # A 13th four-way played on the board: 8 points doubled twelve times plus 50000.
    game = around_centre(
        BY_COLOR[0], BY_COLOR[1], BY_SHAPE[0], BY_SHAPE[1], fourways=12, score=1000
    )
    result = game.place(*CENTRE)
    assert result.points == (8 << 12) + 50000
    assert game.fourways == 13
    assert game.score == 1000 + (8 << 12) + 50000


def test_end_bonus_all_placed_is_1000() -> None:
    game = around_centre(BY_COLOR[0], pouch=[NEW])
    result = game.place(*CENTRE)
    assert game.over and game.remaining == 0
    assert result.end_bonus == 1000
    assert game.score == 1 + 1000  # only the highest bonus, not 1000 + 500 + 100


@pytest.mark.parametrize(("left", "bonus"), [(1, 500), (2, 100), (3, 0)])
def test_end_bonus_by_tiles_left_when_stuck(left: int, bonus: int) -> None:
    game = around_centre(BY_COLOR[0], pouch=[NEW] + [STRANGER] * left)
    result = game.place(*CENTRE)
    assert game.over and game.remaining == left
    assert result.end_bonus == bonus
    assert game.score == 1 + bonus


def test_undo_takes_the_end_bonus_back() -> None:
    game = around_centre(BY_COLOR[0], pouch=[NEW, STRANGER])
    game.place(*CENTRE)
    assert game.score == 501
    game.undo()
    assert not game.over
    assert game.score == 0


# ---------------------------------------------------------------- scored variant, ancient


def test_scored_variant_gives_a_flat_25_per_fourway_still_doubling() -> None:
    game = around_centre(
        BY_COLOR[0], BY_COLOR[1], BY_SHAPE[0], BY_SHAPE[1], scoring="scored", fourways=9
    )
    assert game.place(*CENTRE).points == (8 << 9) + 25
    assert [rules.fourway_bonus(k, "scored") for k in (1, 2, 13)] == [25, 25, 25]


def test_ancient_score_is_the_fourway_count_in_roman_numerals() -> None:
    assert [roman(n) for n in (0, 1, 4, 9, 14, 40, 1994)] == [
        "", "I", "IV", "IX", "XIV", "XL", "MCMXCIV",
    ]
    with pytest.raises(ValueError):
        roman(-1)


# ---------------------------------------------------------------- deal, tiles left, game over


def reference_deal(seed: int) -> tuple[list[tuple[int, int]], list[tuple[int, int]]]:
    """docs/ishido-rules.md, "The deal", written out plainly, to check rules.deal against."""
    tiles = [(c, s) for c in range(6) for s in range(6)] * 2
    random.Random(seed).shuffle(tiles)
    taken: list[tuple[int, int]] = []
    for t in tiles:
        if len(taken) < 6 and all(t[0] != u[0] and t[1] != u[1] for u in taken):
            taken.append(t)
    rest = list(tiles)
    for t in taken:
        rest.remove(t)  # removes the first copy, which is the one taken
    return taken, rest


@pytest.mark.parametrize("seed", [0, 1, 7, 299, 123456789])
def test_deal_follows_the_design(seed: int) -> None:
    game = Game.new(seed=seed)
    opening, rest = reference_deal(seed)
    assert [game.tile_at(r, c) for r, c in rules.OPENING_CELLS] == [Tile(*t) for t in opening]
    assert game.current == Tile(*rest[0])
    assert game.remaining == 66
    assert sorted(game.pouch_counts().elements()) == sorted(Tile(*t) for t in rest[1:])


@pytest.mark.parametrize("seed", range(20))
def test_opening_has_one_of_each_colour_and_shape(seed: int) -> None:
    game = Game.new(seed=seed)
    opening = [game.tile_at(r, c) for r, c in rules.OPENING_CELLS]
    assert all(t is not None for t in opening)
    assert sorted(t.color for t in opening if t) == list(range(6))
    assert sorted(t.shape for t in opening if t) == list(range(6))
    assert game.placed_count == 6


def test_tiles_left_counts_the_current_tile() -> None:
    game = Game.new(seed=3)
    assert game.remaining == 66
    game.place(*game.legal_moves()[0])
    assert game.remaining == 65
    assert game.placed_count + game.remaining == 72


def test_game_over_when_the_current_tile_has_no_legal_cell() -> None:
    game = Game.from_position({CENTRE: BY_COLOR[0]}, [STRANGER, NEW])
    assert game.over
    assert game.current is None
    assert game.stuck_tile == STRANGER
    assert game.legal_moves() == []
    assert game.remaining == 2
    assert game.score == 100
    with pytest.raises(IllegalMove, match="over"):
        game.place(*UP)


def test_game_over_when_every_tile_is_placed() -> None:
    game = Game.from_position({CENTRE: BY_COLOR[0]}, [])
    assert game.over and game.current is None and game.stuck_tile is None
    assert game.score == 1000


def test_same_seed_same_game() -> None:
    assert Game.new(seed=42).record() == Game.new(seed=42).record()
    a, b = Game.new(seed=42), Game.new(seed=42)
    assert [a.tile_at(r, c) for r, c in rules.OPENING_CELLS] == [
        b.tile_at(r, c) for r, c in rules.OPENING_CELLS
    ]
