"""The questions the keyboard answers (palmish/device/ui/question.py, docs/ui.md
"Answering by keys"): Y and N, first letters, Enter and Escape, for alerts and
forms; and a modal closed from outside (AppContext.close_modal) puts back what
it covered, under the modals above it."""

from __future__ import annotations

import pytest

from palmish.device.events import CharKey, Event, Key, KeyDown, NetworkNews
from palmish.device.ui.alert import Alert
from palmish.device.ui.form import Label, PushButtons
from palmish.device.ui.question import KeyAlert, KeyForm, keyed_button
from palmish.device.ui.result import FormResult
from tests.device.conftest import MakeDevice, RecordingApp

Y_N_CASES = [
    # buttons, escape, yes, no, typed -> pressed (None: nothing)
    (("Yes", "No"), ("No", "Cancel"), None, None, "y", "Yes"),
    (("Yes", "No"), ("No", "Cancel"), None, None, "N", "No"),
    (("Move", "Cancel"), ("No", "Cancel"), None, None, "y", "Move"),
    (("Move", "Cancel"), ("No", "Cancel"), None, None, "n", "Cancel"),
    (("Move", "Cancel"), ("No", "Cancel"), None, None, "m", "Move"),
    (("New Game", "Cancel"), ("No", "Cancel"), None, None, "n", "Cancel"),  # N: no first
    (("Leave", "Stay"), ("Stay",), None, None, "y", "Leave"),
    (("Leave", "Stay"), ("Stay",), None, None, "n", "Stay"),
    (("Leave", "Stay"), ("Stay",), None, None, "s", "Stay"),
    (("Yes", "No"), (), None, None, "n", "No"),  # Escape dismisses; N is still No
    (("Yes", "No"), (), None, None, "y", "Yes"),
    (("Start", "Leave", "Wait"), ("Wait",), "Start", None, "y", "Start"),
    (("Start", "Leave", "Wait"), ("Wait",), "Start", None, "n", "Wait"),
    (("Start", "Leave", "Wait"), ("Wait",), "Start", None, "l", "Leave"),
    (("Resume", "New", "Cancel"), ("Cancel",), "Resume", "New", "n", "New"),
    (("Resume", "New", "Cancel"), ("Cancel",), "Resume", "New", "y", "Resume"),
    (("Sit", "Watch", "Cancel"), ("No", "Cancel"), None, None, "y", None),  # not yes/no
    (("Sit", "Watch", "Cancel"), ("No", "Cancel"), None, None, "w", "Watch"),
    (("One", "Three"), ("No", "Cancel"), None, None, "n", None),
    (("One", "Three"), ("No", "Cancel"), None, None, "x", None),
    (("Sit", "Stay"), (), None, None, "s", None),  # two buttons of one letter: neither
]


@pytest.mark.parametrize(("buttons", "escape", "yes", "no", "typed", "pressed"), Y_N_CASES)
def test_the_rule(buttons: tuple[str, ...], escape: tuple[str, ...], yes: str | None,
                  no: str | None, typed: str, pressed: str | None) -> None:
    chosen = keyed_button(buttons, typed, escape, yes, no)
    assert (None if chosen is None else buttons[chosen]) == pressed
    alert = KeyAlert("Q", "Well?", buttons, escape=escape, yes=yes, no=no)
    assert alert.handle(CharKey(typed))
    assert alert.closed is (pressed is not None)
    if pressed is not None:
        assert alert.result == FormResult(pressed, {})


@pytest.mark.parametrize(("buttons", "escape", "pressed"), [
    (("Yes", "No"), ("No", "Cancel"), "No"), (("Leave", "Stay"), ("Stay",), "Stay"),
    (("Yes", "No"), (), None), (("OK",), (), "OK"), (("One", "Three"), ("No", "Cancel"), None)])
def test_escape_presses_its_button_or_dismisses(buttons: tuple[str, ...],
                                                escape: tuple[str, ...],
                                                pressed: str | None) -> None:
    alert = KeyAlert("Q", "Well?", buttons, escape=escape)
    assert alert.handle(KeyDown(Key.CANCEL)) and alert.closed
    assert alert.result == FormResult(pressed, {})


def test_enter_presses_the_focused_button_and_a_message_goes_on_any_key() -> None:
    alert = KeyAlert("Caution", "Move it anyway?", ("Move", "Cancel"), default=1)
    alert.handle(CharKey("\n"))
    assert alert.result == FormResult("Cancel", {})
    told = KeyAlert("Note", "Done.")
    told.handle(KeyDown(Key.DOWN))
    assert told.closed and told.result == FormResult("OK", {})


def test_yes_and_no_must_be_buttons() -> None:
    with pytest.raises(ValueError, match="'Go' is not one of the buttons"):
        KeyAlert("Q", "Well?", ("Yes", "No"), yes="Go")


def test_a_key_form_answers_y_and_n_with_its_values() -> None:
    def form() -> KeyForm:
        return KeyForm("Rematch", (Label("Play again?"),
                                   PushButtons("seat", "Seat", ("Open", "Silicon"), 1)),
                       buttons=("Yes", "No"), yes="Yes", no="No")

    for typed, pressed in (("y", "Yes"), ("N", "No"), ("\n", "Yes")):
        asked = form()
        asked.handle(CharKey(typed))
        assert asked.result == FormResult(pressed, {"seat": 1})
    asked = form()
    asked.handle(CharKey("q"))  # no button of that letter
    assert not asked.closed


def test_close_modal_from_the_app_puts_back_what_it_covered_under_the_one_above(
        make_device: MakeDevice, recording_app: RecordingApp) -> None:
    device = make_device()
    assert recording_app.ctx is not None
    bare = device.screen.image.copy()
    lower, upper = Alert("Game Over", "Play again?", ("Yes", "No")), Alert("Note", "Hi.")
    answers: list[object] = []
    recording_app.ctx.open_modal(lower, answers.append)
    with_lower = device.screen.image.copy()
    recording_app.ctx.open_modal(upper, answers.append)
    recording_app.ctx.close_modal(lower)
    assert device.modals == (upper,) and answers == []  # closed unanswered
    device.post(KeyDown(Key.SELECT))  # the note goes
    assert answers and not device.modals
    assert device.screen.image.tobytes() == bare.tobytes() != with_lower.tobytes()


class RepaintingApp(RecordingApp):
    """On network news (handled behind the dialogs) it paints itself anew and closes
    the question it asked earlier (as a rematch that began closes Game Over)."""

    colour = (20, 90, 200)
    asked: Alert | None = None

    def handle(self, event: Event) -> None:
        super().handle(event)
        if isinstance(event, NetworkNews) and self.ctx is not None:
            if self.asked is not None:  # closed first, then the new game painted
                self.ctx.close_modal(self.asked)
            self.ctx.screen.fill(self.ctx.bounds, self.colour)


def test_close_modal_behind_the_dialogs_leaves_no_stale_pixels_under_the_one_above(
        make_device: MakeDevice) -> None:
    app = RepaintingApp()
    device = make_device(apps=[app], start="Recorder")
    assert app.ctx is not None
    app.asked = Alert("Game Over", "Play again?", ("Yes", "No"))
    app.ctx.open_modal(app.asked)
    note = Alert("Note", "It is Silicon's turn.")
    app.ctx.open_modal(note)
    device.post(NetworkNews())  # the app repaints under the dialogs and closes the question
    assert device.modals == (note,)
    device.post(KeyDown(Key.SELECT))  # the note goes: the new paint all over, no old patch
    bounds = device.config.app_bounds
    painted = device.screen.image.crop((bounds.x, bounds.y, bounds.right, bounds.bottom))
    assert painted.getcolors() == [(bounds.w * bounds.h, RepaintingApp.colour)]
