"""Records: what they hold, exact replay (phases included) and one-line refusals."""

from __future__ import annotations

import random

import pytest

from palmish.pachisi import Game, IllegalMove, Player

PLAYERS = [Player("Ann"), Player("Silicon", computer=True), Player("Bob")]


def play(game: Game, rng: random.Random, throws: int) -> Game:
    for _ in range(throws):
        if game.over:
            break
        if game.phase == "throw" and game.can_pass and rng.random() < 0.05:
            game.pass_turn()
            continue
        game.throw()
        if game.phase == "move":
            if game.can_pass and rng.random() < 0.05:
                game.pass_turn()
            else:
                game.move(rng.choice(game.legal_moves()))
    return game


def state(game: Game) -> tuple[object, ...]:
    return (
        game.phase, game.current, game.first_turn, game.last_throw, game.winner,
        tuple(game.positions(p) for p in range(len(game.players))),
        game.legal_moves(), [t.value for t in game.history],
    )


def test_record_holds_seed_dice_players_and_decisions() -> None:
    g = Game.new(seed=42, players=PLAYERS, dice="die7")
    play(g, random.Random(1), 30)
    text = g.record()
    assert text.startswith("pachisi 1 seed=42 dice=die7 players=Ann:h,Silicon:c,Bob:h moves=")
    assert "\n" not in text


def test_a_record_replays_to_the_same_game() -> None:
    for seed in range(5):
        g = play(Game.new(seed=seed, players=PLAYERS), random.Random(seed), 200)
        again = Game.from_record(g.record())
        assert state(again) == state(g)
        assert again.record() == g.record()


def test_replay_restores_a_throw_waiting_for_its_move() -> None:
    g = Game.new(seed=7, players=PLAYERS)
    while True:
        g.throw()
        if g.phase == "move":
            break
    text = g.record()
    assert text.endswith("t")
    again = Game.from_record(text)
    assert again.phase == "move" and again.legal_moves() == g.legal_moves()
    again.move(again.legal_moves()[0])
    g.move(g.legal_moves()[0])
    assert state(again) == state(g)


def test_replay_of_a_finished_game() -> None:
    g = Game.new(seed=3, players=PLAYERS[:2])
    rng = random.Random(3)
    while not g.over:
        play(g, rng, 1)
    again = Game.from_record(g.record())
    assert again.over and again.winner == g.winner


def test_a_new_game_record_replays() -> None:
    g = Game.new(seed=5, players=PLAYERS)
    assert g.record().endswith("moves=")
    assert state(Game.from_record(g.record())) == state(g)


def test_a_set_up_position_has_no_record() -> None:
    g = Game.from_position(PLAYERS[:2], [[0] * 4, [0] * 4])
    with pytest.raises(ValueError):
        g.record()


GOOD = "pachisi 1 seed=1 dice=cowrie players=Ann:h,Bob:c moves="


def bad_decision_record() -> str:
    """A record whose last decision names a piece that cannot move."""
    for seed in range(100):
        g = Game.new(seed=seed, players=[Player("Ann"), Player("Bob", True)])
        rng = random.Random(seed)
        for _ in range(400):
            g.throw()
            if g.phase != "move":
                continue
            stuck = [p for p in range(4) if g.move_for(p) is None]
            if stuck:
                return g.record()[:-1] + str(stuck[0])
            g.move(rng.choice(g.legal_moves()))
            if g.over:
                break
    raise AssertionError("no position with a stuck piece")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "not a Pachisi record"),
        ("ishido 1 seed=1", "not a Pachisi record"),
        ("pachisi 2 seed=1 dice=cowrie players=A:h,B:h moves=", "version"),
        ("pachisi 1 dice=cowrie players=A:h,B:h moves=", "no seed="),
        ("pachisi 1 seed=x dice=cowrie players=A:h,B:h moves=", "not a number"),
        ("pachisi 1 seed=1 dice=d6 players=A:h,B:h moves=", "dice"),
        ("pachisi 1 seed=1 dice=cowrie players=A:h moves=", "2 to 4"),
        ("pachisi 1 seed=1 dice=cowrie players=A:x,B:h moves=", "NAME:h"),
        ("pachisi 1 seed=1 dice=cowrie players=A:h,B:h", "no moves="),
        ("pachisi 1 seed=1 seed=2 dice=cowrie players=A:h,B:h moves=", "twice"),
        ("pachisi 1 seed=1 colour=red dice=cowrie players=A:h,B:h moves=", "unknown field"),
        ("pachisi 1 seed=1 oops dice=cowrie players=A:h,B:h moves=", "stray word"),
        (GOOD + "x", "not a decision"),
        (GOOD + "P", "first turn"),
        (GOOD + "t 0", "only end the record"),
    ],
)
def test_bad_records_are_refused_with_one_line(text: str, message: str) -> None:
    with pytest.raises(IllegalMove, match=message) as err:
        Game.from_record(text)
    assert "\n" not in str(err.value)


def test_a_wrong_lost_or_used_throw_is_refused() -> None:
    g = Game.new(seed=1, players=[Player("Ann"), Player("Bob", True)])
    g.throw()  # the first turn: any throw enters, so it is used
    with pytest.raises(IllegalMove, match="could be used"):
        Game.from_record(GOOD + "-")
    assert g.record().endswith("moves=t")
    # Find a throw that will be lost, then claim a move for it.
    g = Game.new(seed=2, players=[Player("Ann"), Player("Bob")])
    rng = random.Random(2)
    while True:
        probe = Game.from_record(g.record())
        probe.throw()
        if probe.phase == "throw" and not probe.over:
            break
        play(g, rng, 1)
    with pytest.raises(IllegalMove, match="could not be used"):
        Game.from_record(g.record() + " 0")
    with pytest.raises(IllegalMove, match="could not be used"):
        Game.from_record(g.record() + " p")


def test_an_illegal_piece_is_refused_with_the_reason() -> None:
    with pytest.raises(IllegalMove, match=r"record decision \d+ \(\d\) is not legal") as err:
        Game.from_record(bad_decision_record())
    assert "\n" not in str(err.value)


def test_decisions_after_the_end_are_refused() -> None:
    g = Game.new(seed=3, players=PLAYERS[:2])
    rng = random.Random(3)
    while not g.over:
        play(g, rng, 1)
    with pytest.raises(IllegalMove, match="after the end"):
        Game.from_record(g.record() + " 0")


# Made by the engine before every waiting piece had its own entering move
# (an entering piece was always the lowest-numbered one in the start area):
# seed 31, die7, random moves; five captures and twelve entries.
OLD_RECORD = (
    "pachisi 1 seed=31 dice=die7 players=Ann:h,Bob:c moves=0 0 0 1 1 0 1 1 0 1 1 1 0 0 0 0 "
    "1 0 2 1 0 1 1 1 0 2 2 1 0 0 1 1 1 1 0 1 1 1 2 1 2 1 1 1 2 - 3 3 0 3 - 2 2 - 0 - 3 0 0 "
    "0 3 0 2 0 3 3 0 3 0 3 0 3 2 3 2 2 2 3 3 0"
)


def test_an_old_record_naming_the_lowest_waiting_piece_still_replays() -> None:
    g = Game.from_record(OLD_RECORD)
    assert [g.positions(p) for p in range(2)] == [(63, 75, 0, 37), (43, 76, 76, 58)]
    assert (g.current, g.phase) == (0, "throw")
    assert g.record() == OLD_RECORD


def test_any_waiting_piece_may_enter_and_the_record_names_it() -> None:
    g = Game.new(seed=4, players=PLAYERS[:2])
    g.throw()  # the first turn: every piece may enter
    assert [m.pieces for m in g.legal_moves()] == [(0,), (1,), (2,), (3,)]
    m = g.move_for(2)
    assert m is not None
    g.move(m)
    assert g.positions(0)[2] > 0 and g.waiting(0) == 3
    assert g.record().split("moves=")[1].split()[0] == "2"
    again = Game.from_record(g.record())
    assert state(again) == state(g) and again.record() == g.record()


def test_a_double_is_named_by_its_lower_piece() -> None:
    for seed in range(200):
        g = Game.new(seed=seed, players=[Player("Ann"), Player("Bob")])
        rng = random.Random(seed)
        for _ in range(300):
            if g.over:
                break
            g.throw()
            if g.phase != "move":
                continue
            double = next((m for m in g.legal_moves() if len(m.pieces) == 2), None)
            if double is not None:
                upper = g.record()[:-1] + str(double.pieces[1])
                with pytest.raises(IllegalMove, match="lower piece"):
                    Game.from_record(upper)
                lower = Game.from_record(g.record()[:-1] + str(double.pieces[0]))
                g.move(double)
                assert state(lower) == state(g)
                return
            g.move(rng.choice(g.legal_moves()))
    raise AssertionError("no game with a double to move")


def test_the_phase_is_an_enum_that_records_and_messages_keep_as_words() -> None:
    import json

    from palmish.pachisi.game import Phase

    game = Game.new(seed=5)
    assert game.phase is Phase.THROW
    while game.phase is Phase.THROW and not game.over:
        game.throw()
    assert game.phase in (Phase.MOVE, Phase.THROW)
    again = Game.from_record(game.record())
    assert again.phase is game.phase  # a replay restores the member itself, not a string
    assert json.dumps({"phase": game.phase}) == f'{{"phase": "{game.phase.value}"}}'
