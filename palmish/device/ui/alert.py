"""Alert: a titled box with a word-wrapped message and a row of buttons.

Result: the index of the button pressed. Pen: press and release on a button.
Keys: left/right (or up/down) move the focus among the buttons, select presses.
An optional icon sits left of the text, as on Palm: "info" (i), "confirm" (?),
"warning" (! in a triangle) or "error" (! in a stop sign).
"""

from __future__ import annotations

from palmish.device.events import KeyDown, PenDown, PenMove, PenUp
from palmish.device.geometry import Rect
from palmish.device.graphics.font import get_font
from palmish.device.graphics.screen import BLACK, WHITE, Framebuffer
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

ICONS = ("info", "confirm", "warning", "error")
ICON_SIZE = 17  # standard coordinates
ICON_GAP = 5


def draw_icon(fb: Framebuffer, kind: str, x: int, y: int) -> None:
    """A Palm-style alert icon, ICON_SIZE square, top-left at (x, y)."""
    s = fb.scale
    size = ICON_SIZE * s
    box = Rect(x, y, size, size)
    if kind == "warning":
        fb.polygon([(x + size // 2, y), (x, y + size - 1), (x + size - 1, y + size - 1)], BLACK)
    elif kind == "error":
        cut = size * 3 // 10
        fb.polygon(
            [(x + cut, y), (x + size - 1 - cut, y), (x + size - 1, y + cut),
             (x + size - 1, y + size - 1 - cut), (x + size - 1 - cut, y + size - 1),
             (x + cut, y + size - 1), (x, y + size - 1 - cut), (x, y + cut)],
            BLACK,
        )
    else:
        fb.round_rect(box, size // 2, fill=BLACK)
    mark = {"info": "i", "confirm": "?"}.get(kind, "!")
    font = fb.font("bold")
    tx = x + (size - font.width(mark)) // 2 + s // 2
    ty = y + (size - font.height) // 2 + (2 * s if kind == "warning" else s // 2)
    fb.text(tx, ty, mark, WHITE, font)


class Alert(Modal):
    def __init__(
        self,
        title: str,
        message: str,
        buttons: tuple[str, ...] = ("OK",),
        icon: str | None = None,
    ) -> None:
        super().__init__()
        if icon is not None and icon not in ICONS:
            raise ValueError(f"unknown alert icon {icon!r} (choose from {', '.join(ICONS)})")
        self.title = title
        self.message = message
        self.icon = icon
        self.row = ButtonRow(buttons)
        self._lines: list[str] = []
        self._text_origin = (0, 0)
        self._icon_origin = (0, 0)

    def _layout(self, area: Rect, scale: int) -> None:
        font = get_font("std", scale)
        full = dialog_rect(area, area.h, scale)
        inner_width = full.w - 2 * (FRAME + INSET) * scale
        icon_room = (ICON_SIZE + ICON_GAP) * scale if self.icon else 0
        text_width = inner_width - icon_room
        lines = font.wrap(self.message, text_width)
        title_h, inset = TITLE_HEIGHT * scale, INSET * scale
        chrome = title_h + FRAME * scale + 2 * inset + BUTTON_HEIGHT * scale + 2 * inset
        max_lines = max(1, (full.h - chrome) // font.height)
        if len(lines) > max_lines:
            last = font.fit(lines[max_lines - 1] + " \u2026", text_width)
            lines = [*lines[: max_lines - 1], last]
        text_h = len(lines) * font.height
        if self.icon:
            text_h = max(text_h, ICON_SIZE * scale)
        self.bounds = dialog_rect(area, chrome + text_h, scale)
        self._lines = lines
        left = self.bounds.x + (FRAME + INSET) * scale
        top = self.bounds.y + title_h + inset
        self._icon_origin = (left, top)
        self._text_origin = (left + icon_room, top)
        button_y = self.bounds.bottom - FRAME * scale - inset - BUTTON_HEIGHT * scale
        self.row.place(left, button_y, scale, inner_width)

    def _draw(self, fb: Framebuffer) -> None:
        draw_dialog(fb, self.bounds, self.title)
        if self.icon:
            draw_icon(fb, self.icon, *self._icon_origin)
        x, y = self._text_origin
        font = fb.font("std")
        for line in self._lines:
            fb.text(x, y, line, BLACK, font)
            y += font.height
        self.row.draw(fb)

    def cancel(self) -> None:
        self.close(self.row.cancel_index())

    def _handle(self, event: PenDown | PenMove | PenUp | KeyDown) -> None:
        chosen = self.row.key(event.key) if isinstance(event, KeyDown) else self.row.pen(event)
        if chosen is not None:
            self.close(chosen)
