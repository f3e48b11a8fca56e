"""Alert: a titled box with a word-wrapped message and a row of buttons.

Result: the index of the button pressed. Pen: press and release on a button.
Keys: left/right (or up/down) move the focus among the buttons, select presses.
"""

from __future__ import annotations

from palmish.device.events import Key, KeyDown, PenDown, PenMove, PenUp
from palmish.device.font import get_font
from palmish.device.geometry import Rect
from palmish.device.screen import BLACK, Framebuffer
from palmish.device.ui.modal import Modal
from palmish.device.ui.widgets import (
    BUTTON_HEIGHT,
    FRAME,
    INSET,
    TITLE_HEIGHT,
    ButtonRow,
    dialog_rect,
    draw_dialog,
)


class Alert(Modal):
    def __init__(self, title: str, message: str, buttons: tuple[str, ...] = ("OK",)) -> None:
        super().__init__()
        self.title = title
        self.message = message
        self.row = ButtonRow(buttons)
        self._lines: list[str] = []
        self._text_origin = (0, 0)

    def _layout(self, area: Rect, scale: int) -> None:
        font = get_font("std", scale)
        full = dialog_rect(area, area.h, scale)
        text_width = full.w - 2 * (FRAME + INSET) * scale
        lines = font.wrap(self.message, text_width)
        title_h, inset = TITLE_HEIGHT * scale, INSET * scale
        chrome = title_h + FRAME * scale + 2 * inset + BUTTON_HEIGHT * scale + 2 * inset
        max_lines = max(1, (full.h - chrome) // font.height)
        if len(lines) > max_lines:
            last = font.fit(lines[max_lines - 1] + " \u2026", text_width)
            lines = [*lines[: max_lines - 1], last]
        height = chrome + len(lines) * font.height
        self.bounds = dialog_rect(area, height, scale)
        self._lines = lines
        left = self.bounds.x + (FRAME + INSET) * scale
        self._text_origin = (left, self.bounds.y + title_h + inset)
        button_y = self.bounds.bottom - FRAME * scale - inset - BUTTON_HEIGHT * scale
        self.row.place(left, button_y, scale, text_width)

    def _draw(self, fb: Framebuffer) -> None:
        draw_dialog(fb, self.bounds, self.title)
        x, y = self._text_origin
        font = fb.font("std")
        for line in self._lines:
            fb.text(x, y, line, BLACK, font)
            y += font.height
        self.row.draw(fb)

    def _handle(self, event: PenDown | PenMove | PenUp | KeyDown) -> None:
        if isinstance(event, KeyDown):
            if event.key in (Key.LEFT, Key.UP):
                self.row.move_focus(-1)
            elif event.key in (Key.RIGHT, Key.DOWN):
                self.row.move_focus(1)
            elif event.key is Key.SELECT:
                self.close(self.row.focus)
            return
        chosen = self.row.pen(event)
        if chosen is not None:
            self.close(chosen)
