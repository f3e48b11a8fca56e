"""Dice nobody can rig, with Pachisi's engine: an honest game is verified by
every joiner; a host that throws what it likes, changes its secret, drops a
joiner's commitment or writes another seed in the record is caught, each time
with what did not match."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator

import pytest

from palmish.network.session.dice import (
    DiceCommits,
    DiceSecrets,
    HostDice,
    JoinerDice,
    Pledges,
    commitment,
    listing_problems,
    reveal_problems,
    unrevealed,
    verify,
)
from palmish.pachisi import rules
from palmish.pachisi.game import Game, Player

PLAYERS = [Player("Ann"), Player("Bob"), Player("Cy"), Player("Silicon", computer=True)]


def pachisi_replay(dice: str) -> Callable[[int], Iterator[int]]:
    """The throws Pachisi's generator makes from a seed (every throw is one draw)."""
    def replay(seed: int) -> Iterator[int]:
        rng = random.Random(seed)
        while True:
            yield rules.draw(rng, dice)

    return replay


def play(seed: int, dice: str = "cowrie", sixes: int = 0) -> Game:
    """A whole game with the default moves; `sixes`: the host throws that many
    sixes first (instead of what its generator gives), then plays fair."""
    game = Game.new(seed=seed, players=PLAYERS, dice=dice)
    for _ in range(20_000):
        if game.over:
            return game
        if game.phase == "throw":
            game.throw(6 if len(game.history) < sixes else None)
        elif (move := game.default_move()) is not None:
            game.move(move)
        else:
            game.pass_turn()
    raise AssertionError("the game did not end")


def throws(game: Game) -> list[int]:
    return [t.value for t in game.history]


def record_seed(record: str) -> int:
    return int(record.split(" seed=", 1)[1].split()[0])


def table() -> tuple[HostDice, list[JoinerDice], Pledges]:
    """The exchange before the first throw: welcome, join, dice-commits, the reveals."""
    host, joiners = HostDice(), [JoinerDice(), JoinerDice(), JoinerDice()]
    commits = DiceCommits(host.commitment, tuple(j.commitment for j in joiners))
    for joiner in joiners:
        assert listing_problems(host.commitment, commits, joiner.commitment) == []
    revealed = DiceSecrets((joiners[0].secret, None, joiners[2].secret))  # Bob withheld his
    assert reveal_problems(commits, revealed) == []
    return host, joiners, Pledges(host.commitment, commits, revealed)


@pytest.mark.parametrize("dice", ["cowrie", "die7"])
def test_an_honest_game_is_verified_from_its_record(dice: str) -> None:
    host, _, pledges = table()
    seed = host.seed(pledges.revealed)
    game = play(seed, dice)
    record = game.record()
    replayed = Game.from_record(record)  # the record keeps its format, its seed 128 bits
    assert replayed.record() == record and seed.bit_length() > 64
    verdict = verify(pledges, host.secret, record_seed(record), throws(replayed),
                     pachisi_replay(dice))
    assert verdict.verified and verdict.text() == "verified"


def test_a_host_that_throws_sixes_is_caught_throw_by_throw() -> None:
    host, _, pledges = table()
    seed = host.seed(pledges.revealed)
    game = play(seed, sixes=30)
    verdict = verify(pledges, host.secret, record_seed(game.record()), throws(game),
                     pachisi_replay("cowrie"))
    assert not verdict.verified
    honest = pachisi_replay("cowrie")(seed)
    due = [next(honest) for _ in range(30)]
    rigged = [(n, value) for n, value in enumerate(due, start=1) if value != 6]
    n, value = rigged[0]
    assert verdict.problems[0] == f"throw {n}: 6, the commitments give {value}"
    # its generator drew nothing for the rigged throws: the fair ones after are off too
    assert len(verdict.problems) == 9 and verdict.problems[-1].endswith(" more throws")
    assert verdict.text().startswith("not verified: throw ")


def test_a_host_that_chose_its_seed_after_the_contributions_is_caught() -> None:
    _, _, pledges = table()
    chosen = HostDice()  # another secret, picked for the throws it gives
    seed = chosen.seed(pledges.revealed)
    game = play(seed)
    verdict = verify(pledges, chosen.secret, record_seed(game.record()), throws(game),
                     pachisi_replay("cowrie"))
    assert "the host's revealed secret does not match its commitment" in verdict.problems
    assert len(verdict.problems) == 1  # the throws fit its seed: the commitment is what lies


def test_a_record_with_another_seed_is_caught() -> None:
    host, _, pledges = table()
    game = play(12345)
    verdict = verify(pledges, host.secret, 12345, throws(game), pachisi_replay("cowrie"))
    assert verdict.problems[0].startswith("the record's seed is 12345, the commitments give ")


def test_a_host_that_drops_or_changes_a_commitment_is_caught_before_any_throw() -> None:
    host, joiners = HostDice(), [JoinerDice(), JoinerDice()]
    dropped = DiceCommits(host.commitment, (joiners[0].commitment,))
    assert listing_problems(host.commitment, dropped, joiners[1].commitment) == [
        "this joiner's commitment is missing from the host's list"]
    switched = DiceCommits(HostDice().commitment, (joiners[0].commitment,))
    assert listing_problems(host.commitment, switched, joiners[0].commitment) == [
        "the host's commitment is not the one it sent in welcome"]
    forged = DiceSecrets((HostDice().secret,))
    assert reveal_problems(dropped, forged) == ["contribution 1 does not match its commitment"]
    assert commitment(joiners[0].secret) == joiners[0].commitment


def test_a_host_that_never_reveals_leaves_the_game_unverified() -> None:
    assert unrevealed().text() == "not verified: the host did not reveal its secret"
