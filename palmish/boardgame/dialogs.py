"""Typed dialog results: which button closed a dialog, by its label, and the form's values.

Device modals close with a button index (alerts) or `(index, values)` (forms);
`FormResult` turns that into the button's label so a game compares names, not
positions that shift when a button is added.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from palmish.device.ui.modal import Modal


@dataclass(frozen=True)
class FormResult:
    """How a dialog closed: the button and the values of its fields."""

    button: str | None  # the label of the button that closed the dialog; None: dismissed
    values: Mapping[str, object] = field(default_factory=dict)

    def choice(self, key: str, options: tuple[str, ...], default: str) -> str:
        """A popup or push-button value as its option (the default when absent or odd)."""
        index = self.selected(key, len(options))
        return default if index is None else options[index]

    def selected(self, key: str, count: int) -> int | None:
        """A popup or push-button value as an index below `count`; None when absent or odd."""
        index = self.values.get(key)
        if isinstance(index, int) and not isinstance(index, bool) and 0 <= index < count:
            return index
        return None

    def flag(self, key: str, default: bool) -> bool:
        value = self.values.get(key)
        return value if isinstance(value, bool) else default


def button_labels(modal: Modal) -> tuple[str, ...]:
    row = getattr(modal, "row", None)
    buttons = getattr(row, "buttons", ())
    return tuple(str(getattr(b, "label", "")) for b in buttons)


def form_result(modal: Modal, raw: object) -> FormResult:
    """The named result of a closed alert or form (`raw` is what the modal closed with)."""
    labels = button_labels(modal)
    index: object = raw
    values: Mapping[str, object] = {}
    if isinstance(raw, tuple) and len(raw) == 2:
        index, given = raw
        if isinstance(given, dict):
            values = given
    if isinstance(index, int) and not isinstance(index, bool) and 0 <= index < len(labels):
        return FormResult(labels[index], values)
    return FormResult(None, values)
