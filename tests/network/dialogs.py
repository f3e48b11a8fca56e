"""Pressing through a network game's dialogs in tests, as a person who means it."""

from __future__ import annotations

from palmish.device.events import CharKey, Key, KeyDown
from palmish.device.machine.system import Device


def answer_dialogs(device: Device) -> None:
    """M on Caution (it asks with Cancel first), Select on the rest; Game Over is left
    open, since its Yes at a network table proposes a rematch (the game would go on)."""
    while device.modals:
        title = getattr(device.modals[-1], "title", "")
        if title == "Game Over":
            return
        device.post(CharKey("m") if title == "Caution" else KeyDown(Key.SELECT))
