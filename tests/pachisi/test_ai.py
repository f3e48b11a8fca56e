"""Silicon: legal, deterministic, never a caution move, passes only when no
move helps."""

from __future__ import annotations

import random

import pytest

from palmish.pachisi import PASS, Game, Move, Player, ai, features, learned, rules
from palmish.stepped import finish

START = [0, 0, 0, 0]


def setup(positions: list[list[int]], throws: list[int], first: bool = False) -> Game:
    players = [Player(f"P{i}", computer=True) for i in range(len(positions))]
    return Game.from_position(players, positions, throws=throws, first_turn=first)


@pytest.mark.parametrize("level", ai.ALL_LEVELS)
def test_never_a_caution_move(level: str) -> None:
    g = setup([[70, 20, 0, 0], START], [5])
    g.throw()
    assert g.default_move() is not None and g.default_move().caution  # type: ignore[union-attr]
    choice = ai.choose(g, level)
    assert isinstance(choice, Move) and choice.frm == 20


@pytest.mark.parametrize("level", ai.ALL_LEVELS)
def test_passes_when_only_caution_moves_are_left(level: str) -> None:
    g = setup([[70, 76, 76, 76], START], [5])
    g.throw()
    assert ai.choose(g, level) is PASS


@pytest.mark.parametrize("level", ai.ALL_LEVELS)
def test_a_forced_caution_move_in_the_first_turn(level: str) -> None:
    g = setup([[50, 0, 0, 0], START], [25], first=True)
    g.throw()
    # entering with 25 or 50 -> 75: entering is not a caution move, so it is chosen
    choice = ai.choose(g, level)
    assert isinstance(choice, Move) and not choice.caution
    g = setup([[50, 76, 76, 76], START], [25], first=True)
    g.throw()
    assert not g.can_pass
    choice = ai.choose(g, level)
    assert isinstance(choice, Move) and choice.caution


def test_easy_plays_the_seeds_marker() -> None:
    g = setup([[10, 30, 0, 0], START], [6])
    g.throw()
    assert ai.choose(g, "easy") == g.default_move()


@pytest.mark.parametrize("level", ["normal", "lookahead", "hard"])
def test_a_capture_is_taken_rather_than_passing(level: str) -> None:
    # North's piece on South's 25 (North's own 59), unsafe; South at 20 throws 5.
    g = setup([[20, 0, 0, 0], [59, 0, 0, 0]], [5])
    g.throw()
    choice = ai.choose(g, level)
    assert isinstance(choice, Move) and choice.captures == ((1, 0),)


@pytest.mark.parametrize("level", ["normal", "lookahead", "hard"])
def test_finishing_is_never_passed_up(level: str) -> None:
    g = setup([[72, 10, 0, 0], [40, 0, 0, 0]], [4])
    g.throw()
    choice = ai.choose(g, level)
    assert isinstance(choice, Move) and choice.finishes


@pytest.mark.parametrize("count, dice", [(4, "cowrie"), (2, "cowrie"), (3, "die7")])
@pytest.mark.parametrize(
    "level", [pytest.param(level, marks=pytest.mark.slow) if level == "hard" else level
              for level in ai.ALL_LEVELS])
def test_choices_are_legal_and_deterministic(level: str, count: int, dice: str) -> None:
    players = [Player(f"S{i}", computer=True) for i in range(count)]
    g = Game.new(seed=9, players=players, dice=dice)
    for _ in range(300):
        if g.over:
            break
        g.throw()
        if g.phase != "move":
            continue
        choice = ai.choose(g, level)
        twin = Game.from_record(g.record())
        assert ai.choose(twin, level) == choice
        if choice is PASS:
            assert g.can_pass
            g.pass_turn()
        else:
            assert isinstance(choice, Move) and choice in g.legal_moves()
            assert not choice.caution
            g.move(choice)


@pytest.mark.parametrize("level", ai.ALL_LEVELS)
def test_it_enters_with_the_lowest_waiting_piece(level: str) -> None:
    # Every waiting piece has its own entering move; they are alike, so the
    # computer weighs one (rules.distinct) and enters the lowest-numbered.
    g = setup([[76, 0, 76, 0], [30, 0, 0, 0]], [6])
    g.throw()
    assert [m.pieces for m in g.legal_moves()] == [(1,), (3,)]
    assert rules.distinct(g.legal_moves()) == g.legal_moves()[:1]
    choice = ai.choose(g, level)
    assert isinstance(choice, Move) and choice.pieces == (1,)


def test_distinct_keeps_one_entering_move_and_every_other_move() -> None:
    g = setup([[40, 0, 40, 0], START], [10])
    g.throw()
    moves = g.legal_moves()
    assert [(m.pieces, m.frm) for m in moves] == [((0, 2), 40), ((1,), 0), ((3,), 0)]
    assert rules.distinct(moves) == moves[:2]
    assert rules.distinct([]) == []


def test_a_stalled_game_makes_the_computer_move() -> None:
    # Two rounds of lost throws: passing again could lock the game for ever.
    g = setup([[72, 0, 0, 0], START], [5, 5, 5, 5, 2])
    for _ in range(4):
        g.throw()
    assert [t.outcome for t in g.history] == ["lost"] * 4
    g.throw()
    assert ai._stalled(g)
    g2 = setup([[72, 0, 0, 0], START], [2])
    g2.throw()
    assert not ai._stalled(g2)


def test_bad_calls() -> None:
    g = setup([[20, 0, 0, 0], START], [3])
    with pytest.raises(ValueError, match="throw"):
        ai.choose(g, "normal")
    g.throw()
    with pytest.raises(ValueError, match="level"):
        ai.choose(g, "expert")


def test_hard_and_normal_play_whole_games() -> None:
    rng = random.Random(1)
    players = [Player(f"S{i}", computer=True) for i in range(4)]
    g = Game.new(seed=4, players=players)
    levels = ["hard", "normal", "easy", "normal"]
    for _ in range(5000):
        if g.over:
            break
        g.throw()
        if g.phase == "move":
            choice = ai.choose(g, levels[g.current]) if rng.random() < 0.9 else PASS
            if choice is PASS and g.can_pass:
                g.pass_turn()
            else:
                g.move(choice if isinstance(choice, Move) else g.legal_moves()[0])
    assert g.over


# Passing ends the turn and makes a game drag: hard passes when passing beats its
# best move by more than ai.PASS_MARGIN of win chance; when it beats it by less,
# passing and the move are played on with the same throws (learned.Evaluator.
# pass_gain) and hard passes only if passing comes out ahead there too.
def pass_gain(g: Game, move: Move) -> float:
    """What passing gains over `move` by the rollouts (the same throws for both)."""
    n = len(g.players)
    judge = learned.Evaluator(g.seats, [g.in_first_turn(p) for p in range(n)],
                              features.tables(g.dice), learned.weights())
    assert g.last_throw is not None
    return finish(judge.pass_gain([list(g.positions(p)) for p in range(n)], move,
                                  g.last_throw))


def within_the_margin(positions: list[list[int]], throw: int) -> tuple[Game, Move]:
    """The game after `throw`, where the learned chances favour passing by less
    than the margin, and the move they would make instead."""
    g = setup(positions, [throw])
    g.throw()
    assert g.can_pass and rules.sane(g.legal_moves())
    w = learned.weights()
    assert ai.choose_learned(g, w, keep_captures=True, reply=True) is PASS  # by a hair
    move = ai.choose_learned(g, w, keep_captures=True, reply=True, pass_margin=ai.PASS_MARGIN)
    assert isinstance(move, Move)
    return g, move


NEEDLESS_PASSES = [
    # four lone pieces just entered; moving 4 -> 7 was judged a hair worse than staying
    ([[4, 0, 0, 0], [4, 0, 0, 0], [4, 0, 0, 0], [2, 0, 0, 0]], 3),
    # early in a game of four hard players (seed 12), 3 -> 5 and 9 -> 12
    ([[3, 0, 0, 0], [2, 0, 0, 0], [7, 0, 0, 0], [2, 0, 0, 0]], 2),
    ([[9, 0, 0, 0], [12, 36, 0, 0], [0, 31, 13, 0], [10, 0, 0, 0]], 3),
]


@pytest.mark.parametrize("positions, throw", NEEDLESS_PASSES)
def test_hard_moves_when_neither_the_chances_nor_the_rollouts_favour_passing(
        positions: list[list[int]], throw: int) -> None:
    g, move = within_the_margin(positions, throw)
    assert pass_gain(g, move) < 0.0  # the rollouts favour the move
    assert ai.choose(g, "hard") == move
    assert not move.caution


# Passing beats the best move by less than the margin, and the rollouts of both
# (the same throws) favour passing: a piece on a safe square stays there rather
# than stepping off it.
PASSES_BY_ROLLOUTS = [
    # a double on the safe 38 would step to 40
    ([[38, 38, 25, 0], [0, 35, 35, 0], [36, 24, 24, 0], [34, 47, 47, 0]], 2),
    # a single on the safe 38 would step to 42
    ([[38, 41, 0, 0], [59, 59, 13, 0], [70, 38, 70, 24], [14, 0, 0, 0]], 4),
    # mid-race, 34 -> 38 from one safe square to the next (by a seventh of a point)
    ([[34, 0, 0, 0], [24, 0, 0, 0], [19, 17, 0, 0], [21, 21, 0, 0]], 4),
]


@pytest.mark.parametrize("positions, throw", PASSES_BY_ROLLOUTS)
def test_hard_passes_within_the_margin_when_the_rollouts_say_so(
        positions: list[list[int]], throw: int) -> None:
    g, move = within_the_margin(positions, throw)
    assert pass_gain(g, move) > 0.0
    assert ai.choose(g, "hard") is PASS
    assert ai.choose(g, "hard") is PASS  # the rollouts' throws come from the position


def test_hard_still_passes_when_passing_is_worth_something() -> None:
    # South's lone piece on 40 would move to 44, North's entering square for a 10
    # (North's own 10), where North's waiting pieces come in and throw again.
    g = setup([[0, 0, 40, 0], [0, 0, 30, 76]], [4])
    g.throw()
    [move] = rules.sane(g.legal_moves())
    assert move.to == 44
    assert ai.choose(g, "hard") is PASS
    # and by more than the margin: a margin twice as wide would move
    wide = ai.choose_learned(g, learned.weights(), keep_captures=True, reply=True,
                             pass_margin=0.05)
    assert wide == move


@pytest.mark.slow
def test_every_pass_of_a_table_of_hard_players_is_worth_something() -> None:
    # one whole game, seeded: each pass beats the best move by more than the margin,
    # or by less and the rollouts favour it too; never a pass on a hair alone
    g = Game.new(seed=12, players=[Player(f"S{i}", computer=True) for i in range(4)])
    w = learned.weights()
    by_margin = by_rollouts = 0
    while not g.over:
        g.throw()
        if g.phase != "move":
            continue
        choice = ai.choose(g, "hard")
        if choice is PASS:
            move = ai.choose_learned(g, w, keep_captures=True, reply=True,
                                     pass_margin=ai.PASS_MARGIN)
            if move is PASS:
                by_margin += 1
            else:
                assert isinstance(move, Move) and pass_gain(g, move) > 0.0
                by_rollouts += 1
            g.pass_turn()
        else:
            assert isinstance(choice, Move)
            g.move(choice)
    assert by_margin and by_rollouts  # both kinds occur in this game
