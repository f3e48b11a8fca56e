"""Questions the keyboard answers (docs/ui.md, "Answering by keys"): Y and N answer
every yes/no question whatever its buttons say, a button's first letter presses
it, Enter the focused button (an alert) or the default one (a form).

The rule, shared by every game's questions:

- N presses the question's No: the button named `no`, else the one Escape
  stands for (a label in `escape`: No, Cancel, Stay...); with neither, the
  button whose label starts with N.
- Y presses the question's Yes: the button named `yes`, else, with two buttons,
  the one that is not No; else the button whose label starts with Y.
- Y and N mean yes and no before they mean a first letter (N keeps the game in
  "New Game? ..." whose buttons are New Game and Cancel).
- Any other letter presses the one button whose label starts with it.
"""

from __future__ import annotations

from collections.abc import Sequence

from palmish.device.events import KeyDown, PenDown, PenMove, PenUp
from palmish.device.ui.alert import Alert
from palmish.device.ui.form import Field, Form

NO_LABELS = ("No", "Cancel")  # what N (and an alert's Escape) presses unless told


def keyed_button(labels: Sequence[str], char: str, escape: Sequence[str] = NO_LABELS,
                 yes: str | None = None, no: str | None = None) -> int | None:
    """The button a typed character presses by the rule above, or None."""
    char = char.lower()
    chosen = _yes_or_no(labels, char, escape, yes, no)
    if not chosen:
        chosen = [i for i, label in enumerate(labels) if label.lower().startswith(char)]
    return chosen[0] if len(chosen) == 1 else None


def _yes_or_no(labels: Sequence[str], char: str, escape: Sequence[str],
               yes: str | None, no: str | None) -> list[int]:
    refuse = [labels.index(no)] if no in labels else [
        i for i, label in enumerate(labels) if label in escape]
    if char == "n":
        return refuse
    if char == "y" and yes in labels:
        return [labels.index(yes)]
    if char == "y" and len(refuse) == 1 and len(labels) == 2:
        return [1 - refuse[0]]
    return []


class KeyAlert(Alert):
    """An alert the keyboard answers (the rule above); a message with a single button
    goes away on any key. Escape presses the first button labelled as in `escape`
    (Cancel, or the only button); with none the alert is dismissed (result None),
    never an action such as "One" or "Yes". `yes` and `no` name the buttons Y and N
    press where the rule cannot tell (three buttons: Start, Leave, Wait)."""

    wants_text = True

    def __init__(self, title: str, message: str, buttons: tuple[str, ...] = ("OK",),
                 icon: str | None = None, default: int = 0,
                 escape: tuple[str, ...] = NO_LABELS, yes: str | None = None,
                 no: str | None = None) -> None:
        super().__init__(title, message, buttons, icon)
        for name in (yes, no):
            if name is not None and name not in buttons:
                raise ValueError(f"{name!r} is not one of the buttons {buttons}")
        self.row.focus = default
        self.escape = escape  # the labels Escape may press; none of them: dismissed
        self.yes, self.no = yes, no

    def _char(self, char: str) -> None:
        labels = self.row.labels()
        if len(labels) == 1:
            self.close(self.row.result(0))
        elif char == "\n":
            self.close(self.row.result(self.row.focus))
        else:
            chosen = keyed_button(labels, char, self.escape, self.yes, self.no)
            if chosen is not None:
                self.close(self.row.result(chosen))

    def cancel(self) -> None:
        labels = self.row.labels()
        if len(labels) == 1:
            self.close(self.row.result(0))
            return
        escape = next((i for i, label in enumerate(labels) if label in self.escape), None)
        self.close(self.row.result(escape))

    def _handle(self, event: PenDown | PenMove | PenUp | KeyDown) -> None:
        if isinstance(event, KeyDown) and len(self.row.buttons) == 1:
            self.close(self.row.result(0))
            return
        super()._handle(event)


class KeyForm(Form):
    """A form that asks a question (its choices beside it): Y, N and first letters
    press its buttons by the rule above, with the form's values; Enter presses the
    default button and Escape closes it as any form's (docs/ui.md)."""

    wants_text = True

    def __init__(self, title: str, fields: Sequence[Field],
                 buttons: tuple[str, ...] = ("OK", "Cancel"), yes: str | None = None,
                 no: str | None = None) -> None:
        super().__init__(title, fields, buttons=buttons)
        self.yes, self.no = yes, no

    def _char(self, char: str) -> None:
        if char == "\n":
            super()._char(char)  # the default button, or an open list's item
            return
        if self.popup is not None:  # letters wait until the list closes
            return
        chosen = keyed_button(self.row.labels(), char, NO_LABELS, self.yes, self.no)
        if chosen is not None:
            self.close(self.row.result(chosen, self.values))
