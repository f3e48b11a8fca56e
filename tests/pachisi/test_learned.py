"""The learned `hard` player: its weights file, the training script that
makes it, and its features (legal, deterministic play: test_ai.py)."""

from __future__ import annotations

import json
import math
import random
from collections.abc import Generator
from pathlib import Path

import pytest

from palmish.pachisi import Game, Player, ai, features, learned, rules, train
from palmish.stepped import finish


def test_the_packaged_weights_load() -> None:
    w = learned.weights()
    assert len(w) == features.COUNT
    # a finished piece is worth more than one still in the start area
    names = features.NAMES
    assert w[names.index("finished")] > w[names.index("start")]


def test_a_tiny_training_run_writes_a_loadable_reproducible_file(tmp_path: Path) -> None:
    first, second = tmp_path / "a.json", tmp_path / "b.json"
    assert train.main(["--games", "3", "--seed", "5", "--out", str(first)]) == 0
    assert train.main(["--games", "3", "--seed", "5", "--out", str(second)]) == 0
    assert first.read_bytes() == second.read_bytes()
    w = learned.parse_weights(first.read_text("utf-8"), str(first))
    assert len(w) == features.COUNT and w != tuple(train.initial_weights())
    data = json.loads(first.read_text("utf-8"))
    assert (data["games"], data["seed"]) == (3, 5)
    # another seed plays other games
    third = tmp_path / "c.json"
    assert train.main(["--games", "3", "--seed", "6", "--out", str(third)]) == 0
    assert third.read_bytes() != first.read_bytes()


def test_training_refuses_a_bad_budget_and_an_unwritable_file(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert train.main(["--games", "0", "--out", str(tmp_path / "w.json")]) == 2
    assert train.main(["--games", "1", "--out", str(tmp_path / "no" / "w.json")]) == 1
    err = capsys.readouterr().err
    assert "--games must be positive" in err and "cannot write" in err


@pytest.mark.parametrize("text, message", [
    ("{", "not JSON"),
    ("[]", "no 'weights' table"),
    ('{"weights": {"start": 1}}', "do not name this version's features"),
])
def test_bad_weights_files_are_refused_in_one_line(text: str, message: str) -> None:
    with pytest.raises(learned.WeightsError, match=message):
        learned.parse_weights(text, "w.json")


def test_a_weight_that_is_not_a_number_is_refused() -> None:
    table = dict.fromkeys(features.NAMES, 0.5)
    table["start"] = float("nan")
    with pytest.raises(learned.WeightsError, match="finite"):
        learned.parse_weights(json.dumps({"weights": table}))
    table["start"] = "1"  # type: ignore[assignment]
    with pytest.raises(learned.WeightsError, match="finite"):
        learned.parse_weights(json.dumps({"weights": table}))


def test_the_strongest_level_is_hard() -> None:
    assert ai.STRONGEST == "hard" and ai.STRONGEST in ai.LEVELS
    assert set(ai.LEVELS) < set(ai.ALL_LEVELS) and "lookahead" in ai.ALL_LEVELS


def test_features_are_one_row_per_player() -> None:
    t = features.tables("cowrie")
    rows = features.player_features(
        [[0, 20, 20, 70], [5, 0, 0, 76], [33, 0, 0, 0]], (0, 1, 2), [False] * 3, 1, t)
    assert len(rows) == 3 and all(len(r) == features.COUNT for r in rows)
    names = features.NAMES
    assert rows[0][names.index("doubles")] == 1.0
    assert rows[1][names.index("finished")] == 1.0 and rows[1][names.index("start")] == 2.0
    assert rows[2][names.index("order1")] == 1.0  # player 2 throws after player 1
    chances = learned.chances(rows, learned.weights())
    assert abs(sum(chances) - 1.0) < 1e-9


def test_the_next_players_answer_is_searched_over_its_throws() -> None:
    # South (seat 0) has just moved; North (seat 2) has every piece waiting
    # and its first turn behind it: 2-5 leave it nothing to move, 10 enters
    # a piece (and throws again), 6 and 25 are too rare to be searched.
    t = features.tables("cowrie")
    judge = learned.Evaluator((0, 2), [False, False], t)
    pos = [[20, 30, 0, 0], [0, 0, 0, 0]]
    entered = [[20, 30, 0, 0], [10, 0, 0, 0]]
    odds = dict(t.odds)
    assert odds[6] < learned.RARE_THROW and odds[25] < learned.RARE_THROW < odds[10]
    expected = ((odds[2] + odds[3] + odds[4] + odds[5]) * judge.chance(pos, 0, 0)
                + odds[10] * judge.chance(entered, 0, 1)
                + (odds[6] + odds[25]) * judge.chance(pos, 0, 1))
    assert abs(finish(judge.answered(pos, 0)) - expected) < 1e-12


def test_the_players_after_the_next_one_answer_the_same_position() -> None:
    # Four players: the next player's answer counts, and each later one adds
    # the change its own answer makes to the position as it stands.
    t = features.tables("cowrie")
    judge = learned.Evaluator((0, 1, 2, 3), [False] * 4, t)
    pos = [[20, 30, 0, 0], [8, 0, 0, 0], [0, 0, 0, 0], [60, 0, 0, 0]]
    answers = [judge.answer(pos, 0, by) for by in range(1, learned.ANSWERS + 1)]
    expected = answers[0][0] + sum(after - standing for after, standing in answers[1:])
    assert learned.ANSWERS >= 2 and answers[1][0] != answers[1][1]
    assert abs(finish(judge.answered(pos, 0)) - expected) < 1e-12
    # in two-player games only the opponent answers
    pair = learned.Evaluator((0, 2), [False, False], t)
    two = [[20, 30, 0, 0], [8, 0, 0, 0]]
    assert finish(pair.answered(two, 0)) == pair.answer(two, 0, 1)[0]


def test_hard_searches_but_the_trainer_does_not(monkeypatch: pytest.MonkeyPatch) -> None:
    # hard's choice weighs the next player's answer; the trainer's greedy
    # learner (which made the committed weights) looks at the position only.
    game = Game.from_position([Player("A", computer=True), Player("B", computer=True)],
                              [[20, 30, 0, 0], [0, 0, 0, 0]], throws=[3])
    game.throw()
    calls: list[int] = []
    original = learned.Evaluator.answered

    def counted(self: learned.Evaluator, pos: learned.Positions, me: int) -> learned.Steps:
        calls.append(me)
        return (yield from original(self, pos, me))

    monkeypatch.setattr(learned.Evaluator, "answered", counted)
    ai.choose_learned(game, learned.weights(), look=False)
    assert calls == []
    ai.choose(game, "hard")
    assert calls and set(calls) == {0}


def test_an_earned_throw_is_searched_with_the_answers_after_it() -> None:
    # A 10 earns another throw: each of that throw's moves, and passing,
    # is judged after the next player's answer, as the first throw's are.
    t = features.tables("cowrie")
    judge = learned.Evaluator((0, 2), [False, False], t)
    pos = [[20, 30, 0, 0], [8, 0, 0, 0]]
    move = next(m for m in rules.legal_moves(pos, (0, 2), 0, 10, False) if m.frm == 30)
    after = learned.apply(pos, move)
    stay = finish(judge.answered(after, 0))
    expected = 0.0
    for v, pv in t.odds:
        best = stay
        for m in rules.distinct(rules.legal_moves(after, (0, 2), 0, v, False)):
            if not m.caution:
                best = max(best, finish(judge.after_move(after, m, v, False, True)))
        expected += pv * best
    assert abs(finish(judge.after_move(pos, move, 10, True, True)) - expected) < 1e-12
    # without the answers (the trainer's way) the bare positions count
    assert finish(judge.after_move(pos, move, 10, True)) == finish(judge.next_throw(after, 0))
    assert finish(judge.next_throw(after, 0)) != finish(judge.next_throw(after, 0, True))


def test_the_own_numbers_kept_between_calls_change_no_row() -> None:
    # features keeps each player's own numbers (pieces, first turn) for the
    # search; a row read through the kept numbers equals a fresh one, and
    # the store starts again when it grows past its bound.
    t = features.tables("cowrie")
    pos = [[0, 20, 20, 70], [5, 0, 0, 76], [33, 0, 0, 0]]
    t.own.clear()
    fresh = features.player_features(pos, (0, 1, 2), [False, True, False], 1, t)
    assert len(t.own) == 3
    kept = features.player_features(pos, (0, 1, 2), [False, True, False], 1, t)
    assert kept == fresh and kept[0] is not t.own[((0, 20, 20, 70), False)]
    t.own.clear()
    other = features.player_features(pos, (0, 1, 2), [False, True, False], 2, t)
    assert features.player_features(pos, (0, 1, 2), [False, True, False], 2, t) == other
    for i in range(features.OWN_CACHE + 1):
        t.own[((i,), False)] = []
    features.player_features(pos, (0, 1, 2), [False] * 3, 1, t)
    assert len(t.own) == 3


def test_a_search_too_wide_starts_again_without_the_earned_throws_answers(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # The answers count the positions they look at; past the budget the
    # decision is searched again with an earned throw's continuations judged
    # on the bare position, so a wide position costs a bounded amount.
    judge = learned.Evaluator((0, 2), [False, False], features.tables("cowrie"), budget=0)
    pos = [[20, 30, 0, 0], [8, 0, 0, 0]]
    finish(judge.answered(pos, 0))  # the first call is within the budget...
    assert judge.looked > 0
    with pytest.raises(learned.SearchTooWide):  # ...and the next is past it
        finish(judge.answered(pos, 0))

    # A position (met in a game) where the two searches choose differently:
    # B throws 10; with the answers it runs its piece on 61 home, without
    # them it enters a new piece.
    monkeypatch.setattr(learned, "ROLLOUTS", 0)  # the search's choice, not a rollout's
    players = [Player(c, computer=True) for c in "ABCD"]
    game = Game.from_position(players, [[76, 58, 0, 0], [76, 76, 61, 0], [76, 0, 0, 0],
                                        [76, 76, 76, 36]], current=1, throws=[10])
    game.throw()
    wide = ai.choose_learned(game, learned.weights(), keep_captures=True, reply=True)
    assert isinstance(wide, rules.Move) and (wide.frm, wide.to) == (61, 71)
    monkeypatch.setattr(learned, "WIDE_SEARCH", 10)
    bare = ai.choose_learned(game, learned.weights(), keep_captures=True, reply=True)
    assert isinstance(bare, rules.Move) and (bare.frm, bare.to) == (0, 10)
    judge = learned.Evaluator(game.seats, [False] * 4, features.tables("cowrie"))
    judge.earned_answers = False  # the cheaper search, asked for directly, agrees
    pos = [list(game.positions(p)) for p in range(4)]
    moves = [m for m in rules.distinct(game.legal_moves()) if not m.caution]
    assert max(moves, key=lambda m: finish(judge.after_move(pos, m, 10, True, True))) == bare


def test_a_close_call_is_settled_by_rollouts_the_same_way_every_time(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # The top moves by the search, when within the margin, are played on
    # with the same throws; the one with the best mean wins. The throws come
    # from the position, so a new evaluator makes the same choice.
    t = features.tables("cowrie")
    seats = (0, 1, 2, 3)
    pos = [[20, 30, 0, 0], [8, 0, 0, 0], [0, 0, 0, 0], [60, 0, 0, 0]]
    moves = [m for m in rules.distinct(rules.legal_moves(pos, seats, 0, 3, False))
             if not m.caution]
    assert len(moves) >= 2
    monkeypatch.setattr(learned, "ROLLOUTS", 6)
    first = finish(learned.Evaluator(seats, [False] * 4, t).settle(pos, moves, 3))
    assert finish(learned.Evaluator(seats, [False] * 4, t).settle(pos, moves, 3)) == first
    # the mean over the same throws, worked out by hand
    judge = learned.Evaluator(seats, [False] * 4, t)
    seed = learned.rollout_seed(pos, [False] * 4, 3, 0)
    means = [math.fsum(judge.rollout(learned.apply(pos, m), 0, 1, random.Random(seed + r))
                 for r in range(6)) for m in moves]
    assert first == moves[means.index(max(means))]
    assert all(0.0 <= judge.rollout(learned.apply(pos, m), 0, 1,
                                    random.Random(r)) <= 1.0
               for m in moves for r in range(3))


def test_a_rollout_ends_when_someone_brings_the_last_piece_home() -> None:
    # Each needs a 3 with its last piece (75 is caution): a rollout where B
    # gets it first is worth 0 to A, one where A does 1, and one where
    # neither does within its throws the learned chance, in between.
    t = features.tables("die7")
    judge = learned.Evaluator((0, 2), [False, False], t)
    pos = [[76, 76, 76, 73], [76, 76, 76, 73]]
    outcomes = {judge.rollout(pos, 0, 1, random.Random(r)) for r in range(40)}
    assert {0.0, 1.0} < outcomes and all(0.0 <= c <= 1.0 for c in outcomes)


def test_only_a_close_call_gets_rollouts(monkeypatch: pytest.MonkeyPatch) -> None:
    t = features.tables("cowrie")
    seats = (0, 1, 2, 3)
    pos = [[20, 30, 0, 0], [8, 0, 0, 0], [0, 0, 0, 0], [60, 0, 0, 0]]
    moves = [m for m in rules.distinct(rules.legal_moves(pos, seats, 0, 3, False))
             if not m.caution]
    settled: list[int] = []

    def spy(self: learned.Evaluator, p: learned.Positions, ms: list[rules.Move],
            value: int) -> Generator[None, None, rules.Move]:
        settled.append(len(ms))
        yield from ()  # settle is stepped
        return ms[-1]

    monkeypatch.setattr(learned.Evaluator, "settle", spy)
    monkeypatch.setattr(learned, "ROLLOUTS", 4)
    judge = learned.Evaluator(seats, [False] * 4, t)
    searched = sorted((finish(judge.after_move(pos, m, 3, True, True)), -i)
                      for i, m in enumerate(moves))
    monkeypatch.setattr(learned, "ROLLOUT_MARGIN", 0.0)  # no two moves tie here
    assert searched[-1][0] != searched[-2][0]
    best, chance = finish(learned.Evaluator(seats, [False] * 4, t)
                          .best_move(pos, moves, 3, True, True))
    assert settled == [] and best == moves[-searched[-1][1]] and chance == searched[-1][0]
    monkeypatch.setattr(learned, "ROLLOUT_MARGIN", 1.0)  # every move is close
    best, chance = finish(learned.Evaluator(seats, [False] * 4, t)
                          .best_move(pos, moves, 3, True, True))
    second = moves[-searched[-2][1]]
    assert settled == [2] and best == second and chance == searched[-2][0]
    # the trainer's greedy learner (no answers) never rolls out
    finish(learned.Evaluator(seats, [False] * 4, t).best_move(pos, moves, 3, True, False))
    assert settled == [2]
    # nor does a decision whose search has already looked at many positions
    monkeypatch.setattr(learned, "ROLLOUT_SEARCH_LIMIT", 0)
    best, _ = finish(learned.Evaluator(seats, [False] * 4, t).best_move(pos, moves, 3, True, True))
    assert settled == [2] and best == moves[-searched[-1][1]]
