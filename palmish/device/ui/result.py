"""How a dialog closed, by name: the button pressed, by its label, and the form's values.

An alert and a form (on Palm OS an alert is a form too) close with a
`FormResult`, so that whoever opened one compares the button's name, never a
position that shifts when a button is added, and never looks inside the dialog.
"""

from __future__ import annotations

from collections.abc import Mapping

from prc_tools.frozen import Frozen, field


class FormResult(Frozen):
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


def pressed(result: object) -> str | None:
    """The label of the button that closed a dialog, given what it closed with;
    None when it was dismissed without one (or is not an alert or a form)."""
    return result.button if isinstance(result, FormResult) else None
