"""Menu shortcuts (command stroke + letter, or Menu then the letter) and Escape (Cancel)."""

from __future__ import annotations

from typing import Any

import pytest

from palmish.device.events import CharKey, Key, KeyDown, MenuCommand, PenDown, PenUp
from palmish.device.ui import Alert, MenuBar
from palmish.device.ui.form import CheckBox, Form, PopupList
from palmish.device.ui.result import FormResult


def test_a_command_stroke_and_letter_runs_the_menu_item(
    make_device: Any, recording_app: Any
) -> None:
    device = make_device("square")
    device.post(CharKey("n", command=True))
    assert recording_app.of_type(MenuCommand) == [MenuCommand("new-game")]
    device.post(CharKey("N", command=True))  # any case
    device.post(CharKey("z", command=True))  # no item has Z: nothing happens
    device.post(CharKey("n"))  # a plain letter with nothing to read it: ignored
    assert recording_app.of_type(MenuCommand) == [MenuCommand("new-game")] * 2
    assert device.modals == () and not device.wants_text()


def test_menu_then_the_letter_chooses_the_item(make_device: Any, recording_app: Any) -> None:
    device = make_device("square")
    device.post(KeyDown(Key.MENU))
    assert isinstance(device.modals[-1], MenuBar) and device.wants_text()
    device.post(CharKey("q"))  # no such shortcut: the menu stays open
    assert device.modals
    device.post(CharKey("n"))
    assert device.modals == ()
    assert recording_app.of_type(MenuCommand) == [MenuCommand("new-game")]


def test_a_shortcut_does_nothing_while_a_dialog_is_open(
    make_device: Any, recording_app: Any
) -> None:
    device = make_device("square")
    device.context.open_modal(Alert("Hi", "A dialog."))
    device.post(CharKey("n", command=True))
    assert recording_app.of_type(MenuCommand) == [] and device.modals


def test_escape_cancels_the_topmost_dialog_then_means_home(
    make_device: Any, recording_app: Any
) -> None:
    device = make_device("square")
    results: list[object] = []
    device.context.open_modal(Alert("Q", "Sure?", ("Delete", "Cancel")), results.append)
    device.context.open_modal(Alert("Note", "On top."), results.append)
    device.post(KeyDown(Key.CANCEL))
    assert results == [FormResult("OK")] and len(device.modals) == 1  # its only button
    device.post(KeyDown(Key.CANCEL))
    assert results == [FormResult("OK"), FormResult("Cancel")] and device.modals == ()
    assert device.running_app is recording_app
    device.post(KeyDown(Key.CANCEL))  # nothing open: Home
    assert device.running_app.name == "Applications"


@pytest.mark.parametrize(("buttons", "pressed"), [
    (("Next", "New Game", "OK"), "OK"),  # a win: OK, never Next or New Game
    (("Info", "Beam", "Delete", "Done"), "Done"),  # the plugin manager: Done, never Info
    (("Undo", "Try Again", "New Game"), None),  # all of them act: dismissed, none pressed
    (("OK", "Cancel"), "Cancel"),
])
def test_escape_is_cancel_or_ok_never_an_action(
    make_device: Any, buttons: tuple[str, ...], pressed: str | None
) -> None:
    device = make_device("square")
    results: list[object] = []
    device.context.open_modal(Alert("Q", "Well?", buttons), results.append)
    device.post(KeyDown(Key.CANCEL))
    assert results == [FormResult(pressed)] and device.modals == ()


def test_escape_closes_an_open_menu_without_a_choice(
    make_device: Any, recording_app: Any
) -> None:
    device = make_device("square")
    device.post(KeyDown(Key.MENU))
    device.post(KeyDown(Key.CANCEL))
    assert device.modals == () and recording_app.of_type(MenuCommand) == []
    assert device.running_app is recording_app


def test_escape_closes_a_forms_popup_list_before_the_form(make_device: Any) -> None:
    device = make_device("square")
    results: list[object] = []
    form = Form("Prefs", [PopupList("board", "Board", ("Jade", "Cherry")),
                          CheckBox("sound", "Sound", True)])
    device.context.open_modal(form, results.append)
    device.post(KeyDown(Key.SELECT))  # the focused pop-up opens its list
    device.post(KeyDown(Key.DOWN))
    device.post(KeyDown(Key.CANCEL))  # closes the list, the choice unchanged
    assert device.modals == (form,) and results == []
    assert form.fields[0].selected == 0  # type: ignore[union-attr]
    device.post(KeyDown(Key.CANCEL))
    assert device.modals == ()
    assert results == [FormResult("Cancel", {"board": 0, "sound": True})]


def test_pen_still_reaches_the_app_after_escape(make_device: Any, recording_app: Any) -> None:
    device = make_device("square")
    device.context.open_modal(Alert("Hi", "x"))
    device.post(KeyDown(Key.CANCEL))
    device.post(PenDown(5, 5))
    device.post(PenUp(5, 5))
    assert recording_app.taps == 1
