"""Property tests over random games, against slow, obviously correct checks."""

from __future__ import annotations

import itertools
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from palmish.ishido import Game, Tile

Snapshot = tuple[object, ...]


def slow_legal_moves(game: Game, tile: Tile) -> list[tuple[int, int]]:
    """Try every colour/shape role assignment of every empty cell's neighbours."""
    legal = []
    for r in range(8):
        for c in range(12):
            if game.tile_at(r, c) is not None:
                continue
            neighbours = [
                game.tile_at(rr, cc)
                for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1))
                if 0 <= rr < 8 and 0 <= cc < 12 and game.tile_at(rr, cc) is not None
            ]
            if neighbours and any(
                fits(tile, neighbours, roles)
                for roles in itertools.product("cs", repeat=len(neighbours))
            ):
                legal.append((r, c))
    return legal


def fits(tile: Tile, neighbours: list[Tile | None], roles: tuple[str, ...]) -> bool:
    for n, role in zip(neighbours, roles, strict=True):
        assert n is not None
        if role == "c" and n.color != tile.color:
            return False
        if role == "s" and n.shape != tile.shape:
            return False
    by_color = roles.count("c")
    by_shape = roles.count("s")
    need = {1: {(1, 0), (0, 1)}, 2: {(1, 1)}, 3: {(2, 1), (1, 2)}, 4: {(2, 2)}}
    return (by_color, by_shape) in need[len(neighbours)]


def slow_score(game: Game) -> tuple[int, int]:
    """Replay the moves on a fresh game, scoring each by the seed's words."""
    bonus = [25, 50, 100, 200, 400, 600, 800, 1000, 5000, 10000, 25000, 50000]
    fresh = Game.new(seed=game.seed, scoring=game.scoring)
    score = fourways = 0
    for r, c in game.moves:
        n = fresh.neighbour_count(r, c)
        if 0 < r < 7 and 0 < c < 11:
            score += {1: 1, 2: 2, 3: 4, 4: 8}[n] * 2**fourways
        if n == 4:
            fourways += 1
            score += 25 if game.scoring == "scored" else bonus[min(fourways, 12) - 1]
        fresh.place(r, c)
    if fresh.over:
        score += {0: 1000, 1: 500, 2: 100}.get(fresh.remaining, 0)
    return score, fourways


def snapshot(game: Game) -> Snapshot:
    board = tuple(game.tile_at(r, c) for r in range(8) for c in range(12))
    return (board, game.current, game.remaining, game.score, game.fourways,
            game.over, tuple(game.legal_moves()), tuple(game.moves))


def play(seed: int, chooser: int, greedy: float) -> tuple[Game, list[Snapshot]]:
    """A game where each move is the busiest cell with chance `greedy`, else random."""
    rng = random.Random(chooser)
    game = Game.new(seed=seed, scoring=rng.choice(["modern", "scored"]))
    shots = [snapshot(game)]
    while not game.over:
        moves = game.legal_moves()
        if rng.random() < greedy:
            move = max(moves, key=lambda m: (game.neighbour_count(*m), rng.random()))
        else:
            move = rng.choice(moves)
        game.place(*move)
        shots.append(snapshot(game))
    return game, shots


GAMES = given(
    seed=st.integers(0, 10**9), chooser=st.integers(0, 2**32), greedy=st.floats(0.0, 1.0)
)


@settings(max_examples=25, deadline=None)
@GAMES
def test_board_plus_remaining_is_always_72(seed: int, chooser: int, greedy: float) -> None:
    _game, shots = play(seed, chooser, greedy)
    for board, _cur, remaining, *_ in shots:
        assert isinstance(board, tuple) and isinstance(remaining, int)
        assert sum(t is not None for t in board) + remaining == 72


@settings(max_examples=15, deadline=None)
@GAMES
def test_legal_moves_match_the_brute_force(seed: int, chooser: int, greedy: float) -> None:
    rng = random.Random(chooser)
    game = Game.new(seed=seed)
    while not game.over:
        assert game.current is not None
        expected = slow_legal_moves(game, game.current)
        assert game.legal_moves() == expected
        game.place(*rng.choice(expected) if rng.random() > greedy else expected[-1])
    assert game.current is None
    stuck = game.stuck_tile
    if stuck is not None:  # stuck: the brute force agrees there is nowhere to go
        assert slow_legal_moves(game, stuck) == []


@settings(max_examples=25, deadline=None)
@GAMES
def test_undo_restores_every_earlier_state(seed: int, chooser: int, greedy: float) -> None:
    game, shots = play(seed, chooser, greedy)
    for shot in reversed(shots[:-1]):
        game.undo()
        assert snapshot(game) == shot
    assert not game.can_undo


@settings(max_examples=25, deadline=None)
@GAMES
def test_record_replays_to_the_same_game(seed: int, chooser: int, greedy: float) -> None:
    game, shots = play(seed, chooser, greedy)
    assert snapshot(Game.from_record(game.record())) == shots[-1]
    assert slow_score(game) == (game.score, game.fourways)
