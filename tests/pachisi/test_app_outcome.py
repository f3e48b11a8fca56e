"""How a Pachisi game ended reaches the statistics: the people's "games" tally counts a
win only when a person won; a deadlock is everyone's loss."""

from __future__ import annotations

from collections.abc import Callable

from palmish.device.machine.system import Device
from palmish.outcome import Outcome, Termination
from palmish.pachisi import Game, Player
from palmish.pachisi.app import PachisiApp

ANN, SILICON = Player("Ann"), Player("Silicon", True)
MakeDevice = Callable[..., tuple[Device, PachisiApp]]  # the make_device fixture (conftest.py)


def counts(app: PachisiApp, key: str) -> tuple[int, int, int]:
    tally = app.tallies.tally(key)
    return tally.played, tally.won, tally.lost


def test_a_deadlock_is_a_loss_for_every_player(make_device: MakeDevice) -> None:
    _, app = make_device()
    game = Game.from_position((ANN, SILICON), [[75, 0, 0, 0], [73, 0, 0, 0]],
                              current=1, throws=[2])
    game.throw()
    game.move(next(m for m in game.legal_moves() if m.pieces == (0,)))
    app.load_game(game)
    assert app.game.outcome() == Outcome(Termination.DEADLOCK)
    assert counts(app, "games") == (1, 0, 1)
    assert counts(app, "h:Ann") == counts(app, "c:Silicon") == (1, 0, 1)


def test_a_person_home_first_is_the_people_s_win(make_device: MakeDevice) -> None:
    _, app = make_device()
    app.load_game(Game.from_position((ANN, SILICON), [[76, 76, 76, 76], [9, 0, 0, 0]]))
    assert app.game.outcome() == Outcome(Termination.COMPLETED, winner=0)
    assert counts(app, "games") == (1, 1, 0)
    assert counts(app, "h:Ann") == (1, 1, 0) and counts(app, "c:Silicon") == (1, 0, 1)


def test_a_computer_home_first_is_the_people_s_loss(make_device: MakeDevice) -> None:
    _, app = make_device()
    app.load_game(Game.from_position((ANN, SILICON), [[9, 0, 0, 0], [76, 76, 76, 76]]))
    assert app.game.outcome() == Outcome(Termination.COMPLETED, winner=1)
    assert counts(app, "games") == (1, 0, 1)
    assert counts(app, "c:Silicon") == (1, 1, 0)
