"""Silicon: legal, deterministic, never a caution move, passes only when no
move helps."""

from __future__ import annotations

import random

import pytest

from palmish.pachisi import PASS, Game, Move, Player, ai, learned, rules

START = [0, 0, 0, 0]


def setup(positions: list[list[int]], throws: list[int], first: bool = False,
          current: int = 0) -> Game:
    players = [Player(f"P{i}", computer=True) for i in range(len(positions))]
    return Game.from_position(players, positions, throws=throws, first_turn=first,
                              current=current)


def after_a_pass(positions: list[list[int]], throws: list[int]) -> Game:
    """The position with player 0 to throw, the player before it having just
    passed (before its throw)."""
    g = setup(positions, throws, current=len(positions) - 1)
    g.pass_turn()
    assert g.current == 0 and g.has_passed(len(positions) - 1)
    return g


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


# Passing ends the turn and makes a game drag: once another player has passed,
# hard passes only when passing beats its best move by more than ai.PASS_MARGIN
# of win chance.
NEEDLESS_PASSES = [
    # four lone pieces just entered; moving 4 -> 7 was judged a hair worse than staying
    ([[4, 0, 0, 0], [4, 0, 0, 0], [4, 0, 0, 0], [2, 0, 0, 0]], 3),
    # mid-race, 34 -> 38 from one safe square to the next
    ([[34, 0, 0, 0], [24, 0, 0, 0], [19, 17, 0, 0], [21, 21, 0, 0]], 4),
]


@pytest.mark.parametrize("positions, throw", NEEDLESS_PASSES)
def test_hard_moves_when_passing_would_gain_less_than_the_margin(
        positions: list[list[int]], throw: int) -> None:
    g = after_a_pass(positions, [throw])
    g.throw()
    assert ai.hard_pass_margin(g) == ai.PASS_MARGIN
    assert g.can_pass and rules.sane(g.legal_moves())
    # without the margin the learned chances favour passing, by a hair
    bare = ai.choose_learned(g, learned.weights(), keep_captures=True, reply=True)
    assert bare is PASS
    choice = ai.choose(g, "hard")
    assert isinstance(choice, Move) and choice in g.legal_moves() and not choice.caution


@pytest.mark.parametrize("positions, throw", NEEDLESS_PASSES)
def test_hard_passes_on_any_gain_while_nobody_else_has_passed(
        positions: list[list[int]], throw: int) -> None:
    # against players who always move, a wait pays: the search's answers assume
    # they move, and hard's strength against sane random players comes from it
    g = setup(positions, [throw])
    g.throw()
    assert ai.hard_pass_margin(g) == 0.0
    assert ai.choose(g, "hard") is PASS


def test_only_another_players_pass_sets_the_margin() -> None:
    g = setup([[30, 0, 0, 0], [20, 0, 0, 0]], [4, 4])
    assert ai.hard_pass_margin(g) == 0.0
    g.pass_turn()  # player 0 passes before its throw
    assert g.current == 1 and g.has_passed(0) and not g.has_passed(1)
    assert ai.hard_pass_margin(g) == ai.PASS_MARGIN
    g.throw()
    g.move(g.legal_moves()[0])
    assert g.current == 0 and ai.hard_pass_margin(g) == 0.0  # its own pass does not count


def test_a_pass_after_the_throw_counts_too() -> None:
    g = setup([[30, 0, 0, 0], [20, 0, 0, 0]], [4])
    g.throw()
    g.pass_turn()
    assert g.current == 1 and ai.hard_pass_margin(g) == ai.PASS_MARGIN


def test_a_replayed_game_knows_who_passed() -> None:
    g = Game.new(seed=3, players=[Player("A"), Player("B")])
    for _ in range(100):
        if not (g.in_first_turn(0) or g.in_first_turn(1) or g.current != 1):
            break
        g.throw()
        if g.phase == "move":
            g.move(g.legal_moves()[0])
    assert g.current == 1 and g.phase == "throw"
    g.pass_turn()
    again = Game.from_record(g.record())
    assert again.has_passed(1) and not again.has_passed(0)


def test_hard_still_passes_when_passing_is_worth_something() -> None:
    # South's lone piece on 40 would move to 44, North's entering square for a 10
    # (North's own 10), where North's waiting pieces come in and throw again.
    g = after_a_pass([[0, 0, 40, 0], [0, 0, 30, 76]], [4])
    g.throw()
    [move] = rules.sane(g.legal_moves())
    assert move.to == 44
    assert ai.hard_pass_margin(g) == ai.PASS_MARGIN
    assert ai.choose(g, "hard") is PASS
    # and by more than the margin: a margin twice as wide would move
    wide = ai.choose_learned(g, learned.weights(), keep_captures=True, reply=True,
                             pass_margin=0.05)
    assert wide == move


@pytest.mark.slow
def test_a_table_of_hard_players_seldom_passes() -> None:
    # one whole game, seeded: before the margin a third of the turns ended in a pass
    g = Game.new(seed=12, players=[Player(f"S{i}", computer=True) for i in range(4)])
    turns = passes = 0
    while not g.over:
        if not g.turn_throws:
            turns += 1
        g.throw()
        if g.phase != "move":
            continue
        choice = ai.choose(g, "hard")
        if choice is PASS:
            passes += 1
            g.pass_turn()
        else:
            assert isinstance(choice, Move)
            g.move(choice)
    assert passes <= turns // 10
