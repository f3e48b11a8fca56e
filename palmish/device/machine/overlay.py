"""What the device draws over the running app when it has one: `palmish preview`'s
status strip (its build time or its problem, and its buttons). The device draws it
after every event (over what the app painted, under any dialog) and gives it the
pen where it `contains` the pen-down. Its line sits in the open input area where
there is one, so it hides nothing of the game."""

from __future__ import annotations

from typing import Protocol

from palmish.device.events import PenDown, PenMove, PenUp
from palmish.device.geometry import Rect
from palmish.device.graphics.screen import Framebuffer


class Overlay(Protocol):
    def draw(self, screen: Framebuffer, bounds: Rect, spare: Rect | None) -> None:
        """Draw over the app's `bounds`; its status line at the top of `spare` (the open
        input area, which is only decoration) when there is one, else along the bottom
        of `bounds`."""

    def contains(self, x: int, y: int) -> bool:
        """Whether a pen-down at (x, y) is the overlay's (as last drawn)."""

    def pen(self, event: PenDown | PenMove | PenUp) -> None:
        """A pen event of a stroke that began on the overlay."""
