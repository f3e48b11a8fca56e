"""Sigmar's Garden asks before New Game, Try Again, Levels or Board Number throw away
the takes of a board in progress (the shared BoardGameApp.confirm_discard)."""

from __future__ import annotations

import pytest

from palmish.device.events import MenuCommand
from palmish.device.machine.system import Device
from palmish.device.ui.alert import Alert
from palmish.device.ui.form import Form, PopupList
from palmish.device.ui.number_entry import NumberEntry
from tests.sigmar.conftest import Make, play_solution, press


def question(device: Device, button: str) -> Alert:
    alert = device.modals[-1]
    assert isinstance(alert, Alert) and "in progress will be lost" in alert.message
    assert [b.label for b in alert.row.buttons] == [button, "Cancel"]
    return alert


def choose(device: Device, command: str) -> None:
    """Open the command's dialog and pick a board in it (level 3, board 4242)."""
    device.post(MenuCommand(command))
    if command == "levels":
        form = device.modals[-1]
        assert isinstance(form, Form) and isinstance(form.fields[0], PopupList)
        form.fields[0].selected = 2
        press(device, "Play")
    elif command == "board":
        entry = device.modals[-1]
        assert isinstance(entry, NumberEntry)
        entry.digits = "4242"
        press(device, "OK")


@pytest.mark.parametrize(("command", "button"), [
    ("new", "New Game"), ("restart", "Try Again"), ("levels", "Play"), ("board", "Play")])
def test_a_board_in_progress_is_discarded_only_once_confirmed(
        make: Make, command: str, button: str) -> None:
    device, app = make(board="1")
    play_solution(device, app, 2)
    record = app.game.record()
    choose(device, command)
    question(device, button)
    press(device, "Cancel")
    assert not device.modals and app.game.record() == record  # the takes are kept
    choose(device, command)
    question(device, button)
    press(device, button)
    assert not device.modals and app.game.moves == []
    if command == "levels":
        assert app.game.level == "3"
    elif command == "board":
        assert app.game.seed == 4242 and app.game.level is None
    elif command == "new":
        assert app.game.level is None
    device.shutdown()


def test_no_question_before_a_take_or_after_a_win(make: Make) -> None:
    device, app = make(board="1")
    device.post(MenuCommand("new"))  # no take yet: nothing to lose
    assert not device.modals and app.game.level is None
    device.shutdown()
    device, app = make(board="3")
    play_solution(device, app)
    assert app.game.won
    press(device, "OK")
    device.post(MenuCommand("restart"))  # a won board is over: Try Again at once
    assert not device.modals and app.game.moves == [] and app.game.level == "3"
    device.shutdown()
