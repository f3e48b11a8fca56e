"""Escape in Pachisi's New Game questions (issue 21: Escape is Cancel or OK, never an
action): a question whose buttons all act is left with no answer, and nothing goes on."""

from __future__ import annotations

import pytest

from palmish.device.events import Key, KeyDown, MenuCommand
from palmish.device.ui.alert import Alert
from palmish.device.ui.form import Form, PushButtons
from tests.pachisi.conftest import MakeDevice
from tests.sigmar.conftest import press


@pytest.mark.parametrize(("people", "question"), [(1, "How many computer"),
                                                  (2, "Should the computer")])
def test_escape_on_a_new_game_question_stops_the_set_up(
        make_device: MakeDevice, people: int, question: str) -> None:
    device, app = make_device()
    before = app.game.record() if hasattr(app.game, "record") else None
    device.post(MenuCommand("new"))
    while not isinstance(device.modals[-1], Form):  # a game in progress: confirm first
        press(device, "New Game")
    form = device.modals[-1]
    assert isinstance(form, Form)
    humans = next(f for f in form.fields if isinstance(f, PushButtons) and f.key == "humans")
    humans.selected = people - 1
    press(device, "OK")
    alert = device.modals[-1]
    assert isinstance(alert, Alert) and alert.message.startswith(question)
    device.post(KeyDown(Key.CANCEL))
    assert not device.modals  # no name dialog: the set-up stopped
    if before is not None:
        assert app.game.record() == before
    device.shutdown()
