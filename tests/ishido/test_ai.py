"""The computer player: legal, within its budget, blind to the pouch's order."""

from __future__ import annotations

import random
import time

import pytest

from palmish.ishido import Game, IllegalMove, Tile, ai


def midgame(seed: int, moves: int) -> Game:
    game = Game.new(seed=seed)
    rng = random.Random(seed)
    for _ in range(moves):
        if game.over:
            break
        game.place(*rng.choice(game.legal_moves()))
    return game


def reshuffled(game: Game, order_seed: int) -> Game:
    """The same position with the pouch after the current tile in another order."""
    assert game.current is not None
    rest = list(game.pouch_counts().elements())
    random.Random(order_seed).shuffle(rest)
    board = {
        (r, c): t for r in range(8) for c in range(12) if (t := game.tile_at(r, c)) is not None
    }
    return Game.from_position(
        board, [game.current, *rest], score=game.score, fourways=game.fourways
    )


@pytest.mark.parametrize("aim", ["clear", "score"])
def test_choices_are_legal_through_a_whole_game(aim: str) -> None:
    game = Game.new(seed=21)
    rng = random.Random(0)
    while not game.over:
        move = ai.choose(game, aim=aim, rng=rng, max_evals=40)
        assert move in game.legal_moves()
        game.place(*move)
    assert game.placed_count > 30


def test_the_time_budget_is_kept_roughly() -> None:
    game = midgame(3, 20)
    start = time.perf_counter()
    move = ai.choose(game, budget_ms=30)
    assert time.perf_counter() - start < 1.0  # generous: the machine is shared
    assert game.is_legal(*move)


def test_a_passed_deadline_still_gives_a_legal_move() -> None:
    game = midgame(4, 10)
    move = ai.choose(game, deadline=time.perf_counter() - 1.0)
    assert game.is_legal(*move)


def test_the_pouch_order_is_never_read() -> None:
    for seed in (5, 6, 7):
        game = midgame(seed, 25)
        choices = {
            ai.choose(g, rng=random.Random(1), max_evals=600)
            for g in (game, reshuffled(game, 1), reshuffled(game, 2))
        }
        assert len(choices) == 1


def test_the_same_rng_and_work_limit_give_the_same_move() -> None:
    game = midgame(8, 15)
    first = ai.choose(game, aim="score", rng=random.Random(5), max_evals=500)
    again = ai.choose(game, aim="score", rng=random.Random(5), max_evals=500)
    assert first == again


def test_a_single_legal_cell_is_taken_at_once() -> None:
    only = Game.from_position({(0, 0): Tile(0, 1), (0, 2): Tile(5, 5)}, [Tile(0, 0), Tile(0, 0)])
    assert only.legal_moves() == [(1, 0)]
    assert ai.choose(only) == (1, 0)


def test_a_finished_game_and_a_bad_aim_are_refused() -> None:
    done = Game.from_position({(3, 3): Tile(0, 1)}, [])
    with pytest.raises(IllegalMove, match="over"):
        ai.choose(done)
    with pytest.raises(ValueError, match="unknown aim"):
        ai.choose(Game.new(seed=1), aim="win")


def test_it_outplays_the_greedy_hint() -> None:
    """Over a few deals the player leaves fewer tiles than most-neighbours greedy."""
    ours = greedy = 0
    for seed in range(3):
        game = Game.new(seed=seed)
        rng = random.Random(seed)
        while not game.over:
            game.place(*ai.choose(game, rng=rng, max_evals=30))
        ours += game.remaining
        game = Game.new(seed=seed)
        while not game.over:
            game.place(*max(game.legal_moves(),
                            key=lambda m: (game.neighbour_count(*m), rng.random())))
        greedy += game.remaining
    assert ours < greedy


def test_it_sees_that_one_cell_strands_the_last_tile() -> None:
    # Current (1, 2) fits next to the corner tile at (0, 1) or (1, 0); on (0, 1)
    # the last tile (3, 2) would find no cell, on (1, 0) it goes below it.
    wall = Tile(5, 5)  # matches neither tile to come
    board = {(0, 0): Tile(1, 1), (0, 3): wall, (1, 2): wall}
    game = Game.from_position(board, [Tile(1, 2), Tile(3, 2)])
    assert game.legal_moves() == [(0, 1), (1, 0)]
    for aim in ai.AIMS:
        for seed in range(4):
            before = game.legal_moves(), game.remaining
            assert ai.choose(game, aim=aim, rng=random.Random(seed)) == (1, 0)
            assert (game.legal_moves(), game.remaining) == before  # the game is not touched
    game.place(1, 0)
    game.place(2, 0)
    assert game.over and game.remaining == 0


def test_the_searchs_shared_masks_match_the_rules() -> None:
    from palmish.ishido import rules

    rng = random.Random(2)
    for seed in range(12):
        game = midgame(seed, rng.randrange(0, 40))
        board = [(r, c, t) for r in range(8) for c in range(12) if (t := game.tile_at(r, c))]
        occupied = 0
        colors, shapes = [0] * 6, [0] * 6
        for r, c, t in board:
            bit = 1 << (r * rules.STRIDE + c)
            occupied |= bit
            colors[t.color] |= bit
            shapes[t.shape] |= bit
        types = list(range(36))
        expected = [rules.legal_mask(occupied, colors[k // 6], shapes[k % 6]) for k in types]
        assert ai.legal_masks(occupied, colors, shapes, types) == expected
