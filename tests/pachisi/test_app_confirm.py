"""Pachisi asks before New Game... or Play Again throws away a game under way
(the shared BoardGameApp.confirm_discard)."""

from __future__ import annotations

import pytest

from palmish.boardgame.dialogs import button_labels
from palmish.device.events import Key, KeyDown, MenuCommand
from palmish.device.machine.system import Device
from palmish.device.ui.alert import Alert
from palmish.device.ui.form import Form
from palmish.pachisi import Game
from tests.pachisi.conftest import MakeDevice
from tests.pachisi.test_app import ANN, SILICON, answer


def question(device: Device, button: str) -> None:
    alert = device.modals[-1]
    assert isinstance(alert, Alert) and "in progress will be lost" in alert.message
    assert button_labels(alert) == (button, "Cancel")


@pytest.mark.parametrize(("command", "button"), [("new", "New Game"), ("again", "Play Again")])
def test_a_game_under_way_is_discarded_only_once_confirmed(
        make_device: MakeDevice, command: str, button: str) -> None:
    device, app = make_device()
    app.load_game(Game.new(seed=7, players=(ANN, SILICON)))
    device.post(KeyDown(Key.SELECT))  # Ann throws: the game has started
    record = app.game.record()
    device.post(MenuCommand(command))
    question(device, button)
    answer(device, "Cancel")
    assert not device.modals and app.game.record() == record  # the game goes on
    device.post(MenuCommand(command))
    question(device, button)
    answer(device, button)
    if command == "new":  # then the seed's questions; one person against one computer
        form = device.modals[-1]
        assert isinstance(form, Form)
        form.close((0, {"humans": 0, "dice": 0}))
        device.post(KeyDown(Key.LEFT))
        answer(device, "One")
        device.post(KeyDown(Key.SELECT))  # the name offered
    assert not device.modals and app.game.history == []
    assert [p.name for p in app.game.players] == (
        ["You", "Silicon"] if command == "new" else ["Ann", "Silicon"])
    device.shutdown()


def test_no_question_before_the_first_throw_or_after_the_end(make_device: MakeDevice) -> None:
    device, app = make_device()
    assert app.game.history == []
    device.post(MenuCommand("new"))  # nothing thrown yet: straight to the questions
    assert isinstance(device.modals[-1], Form)
    device.post(KeyDown(Key.HOME))
    assert not device.modals
    app.load_game(Game.from_position((ANN, SILICON), [[76, 76, 76, 70], [0, 0, 0, 0]],
                                     throws=[6]))
    device.post(KeyDown(Key.SELECT))
    device.post(KeyDown(Key.SELECT))
    assert app.game.over
    answer(device, "No")  # not now from the win's own question
    device.post(MenuCommand("again"))  # the game is over: a new one at once
    assert not device.modals and not app.game.over and app.game.history == []
    device.shutdown()
