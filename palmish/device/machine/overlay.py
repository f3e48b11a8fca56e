"""What the device draws over the running app when it has one: `palmish preview`'s
status strip (its build time or its problem, and its buttons). The device draws it
after every event (over what the app painted, under any dialog) and gives it the
pen where it `contains` the pen-down."""

from __future__ import annotations

from typing import Protocol

from palmish.device.display import DisplayConfig
from palmish.device.events import PenDown, PenMove, PenUp
from palmish.device.graphics.screen import Framebuffer


class Overlay(Protocol):
    def draw(self, screen: Framebuffer, config: DisplayConfig) -> None:
        """Draw over the app's bounds of `config`."""

    def contains(self, x: int, y: int) -> bool:
        """Whether a pen-down at (x, y) is the overlay's (as last drawn)."""

    def pen(self, event: PenDown | PenMove | PenUp) -> None:
        """A pen event of a stroke that began on the overlay."""
