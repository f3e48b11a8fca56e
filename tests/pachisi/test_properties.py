"""Property tests over random games: pieces are never lost or duplicated,
positions stay in range, squares are shared only as the rules allow,
finished pieces stay finished, and records replay."""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from palmish.pachisi import Game, Player, rules

SETUPS = st.tuples(
    st.integers(0, 10**6),
    st.integers(2, 4),
    st.sampled_from(rules.DICE),
    st.floats(0.0, 0.3),
)


def check_position(game: Game) -> None:
    n = len(game.players)
    seen: Counter[tuple[int, int]] = Counter()
    for pl in range(n):
        ps = game.positions(pl)
        assert len(ps) == 4 and all(0 <= p <= 76 for p in ps)
        for pc, p in enumerate(ps):
            sq = game.square(pl, pc)
            assert (sq is None) == (p in (0, 76))
            if sq is not None:
                seen[sq] += 1
    on_board = sum(1 for pl in range(n) for p in game.positions(pl) if 0 < p < 76)
    assert sum(seen.values()) == on_board
    for sq in seen:
        owners = Counter(pl for pl, _ in game.pieces_at(*sq))
        assert all(c <= 2 for c in owners.values())
        if len(owners) > 1:
            assert sq in rules.SAFE_SQUARES


def play_checked(seed: int, n: int, dice: str, pass_rate: float, limit: int = 3000) -> Game:
    rng = random.Random(seed)
    game = Game.new(seed=seed, players=[Player(f"P{i}") for i in range(n)], dice=dice)
    for _ in range(limit):
        if game.over:
            break
        finished_before = [
            {pc for pc in range(4) if game.position(pl, pc) == 76} for pl in range(n)
        ]
        if game.can_pass and rng.random() < pass_rate / 3:
            game.pass_turn()
        else:
            game.throw()
            if game.phase == "move":
                moves = game.legal_moves()
                assert moves and moves == sorted(moves, key=lambda m: -m.frm)
                assert game.default_move() == moves[0]
                for pc in range(4):
                    assert (game.why_not(pc) is None) == (game.move_for(pc) is not None)
                if game.can_pass and rng.random() < pass_rate:
                    game.pass_turn()
                else:
                    m = rng.choice(moves)
                    assert m.caution == (m.to == 75) and m.to - m.frm == game.last_throw
                    game.move(m)
        check_position(game)
        for pl in range(n):
            assert all(game.position(pl, pc) == 76 for pc in finished_before[pl])
    return game


@settings(max_examples=30, deadline=None)
@given(SETUPS)
def test_random_games_keep_the_pieces_and_the_rules(setup: tuple[int, int, str, float]) -> None:
    seed, n, dice, pass_rate = setup
    game = play_checked(seed, n, dice, pass_rate)
    if game.over:
        if game.winner is not None:
            assert game.finished(game.winner) == 4
        else:
            assert all(75 in game.positions(pl) for pl in range(n))


@settings(max_examples=25, deadline=None)
@given(SETUPS, st.integers(1, 400))
def test_records_replay_at_any_point(setup: tuple[int, int, str, float], stop: int) -> None:
    seed, n, dice, pass_rate = setup
    game = play_checked(seed, n, dice, pass_rate, limit=stop)
    again = Game.from_record(game.record())
    assert again.record() == game.record()
    assert (again.phase, again.current, again.first_turn, again.winner) == (
        game.phase, game.current, game.first_turn, game.winner)
    assert [again.positions(p) for p in range(n)] == [game.positions(p) for p in range(n)]
    assert again.legal_moves() == game.legal_moves()
    assert again.history == game.history
