"""Sigmar's Garden asks before New Game, Try Again, Levels or Board Number throw away
the takes of a board in progress (the shared BoardGameApp.confirm_discard)."""

from __future__ import annotations

from pathlib import Path

import pytest

from palmish.device.events import CharKey, Key, KeyDown, MenuCommand
from palmish.device.machine.system import Device
from palmish.device.ui.alert import Alert
from palmish.device.ui.form import Form, PopupList
from palmish.device.ui.number_entry import NumberEntry
from tests.sigmar.conftest import Make, play_solution, press
from tests.sigmar.test_app_play import install_levels


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


@pytest.mark.parametrize(("key", "kept"), [("n", True), ("N", True), ("escape", True),
                                           ("y", False), ("Y", False)])
def test_y_and_n_answer_new_game_by_keys(make: Make, key: str, kept: bool) -> None:
    """Issue 41: every yes/no question answers Y and N: Y is New Game, N and Escape
    keep the board (N is not New Game's first letter here)."""
    device, app = make(board="1")
    play_solution(device, app, 2)
    record = app.game.record()
    choose(device, "new")
    question(device, "New Game")
    device.post(KeyDown(Key.CANCEL) if key == "escape" else CharKey(key))
    assert not device.modals
    assert (app.game.record() == record) is kept
    device.shutdown()


@pytest.mark.parametrize(("key", "removed"), [("y", True), ("r", True), ("n", False),
                                              ("escape", False)])
def test_y_and_n_answer_remove_level(make: Make, tmp_path: Path, key: str,
                                     removed: bool) -> None:
    device, _app = make()
    install_levels(tmp_path / "device", {"7": "My Caution\n33\n"})
    device.post(MenuCommand("levels"))
    form = device.modals[-1]
    assert isinstance(form, Form) and isinstance(form.fields[0], PopupList)
    form.fields[0].selected = next(i for i, label in enumerate(form.fields[0].options)
                                   if "My Caution" in label)
    press(device, "Remove")
    asked = device.modals[-1]
    assert isinstance(asked, Alert) and asked.message.startswith("Remove the installed level")
    device.post(KeyDown(Key.CANCEL) if key == "escape" else CharKey(key))
    assert device.modals[-1] is not asked
    assert (tmp_path / "device" / "files" / "PSgm" / "7.dat").exists() is not removed
    device.shutdown()
