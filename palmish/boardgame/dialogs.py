"""Typed dialog results for the games: an alert or form's named result.

Device alerts and forms close with a `FormResult` (palmish.device.ui.result):
the button's label and the form's values, so a game compares names, not
positions that shift when a button is added.
"""

from __future__ import annotations

from palmish.device.ui.result import FormResult

__all__ = ["FormResult", "form_result"]  # the games take both from the shared layer


def form_result(raw: object) -> FormResult:
    """The named result of a closed alert or form (`raw` is what the modal closed
    with); a dismissed one (or anything else) has no button and no values."""
    return raw if isinstance(raw, FormResult) else FormResult(None)
