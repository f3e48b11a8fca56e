"""TextViewer: Palm's help dialog, a tall box of word-wrapped text with a scroll
bar and a Done button.

Text: paragraphs separated by newlines; a line starting with "# " is a bold
heading. Pen: the arrows scroll a line, a tap in the track scrolls a page,
dragging the thumb scrolls along, Done closes. Keys: up/down scroll a page,
select (or Menu) closes. Result: None (there is nothing to choose).
"""

from __future__ import annotations

from palmish.device.events import Key, KeyDown, PenDown, PenMove, PenUp
from palmish.device.geometry import Rect
from palmish.device.graphics.font import get_font
from palmish.device.graphics.screen import BLACK, Framebuffer
from palmish.device.ui.modal import Modal
from palmish.device.ui.widgets import (
    BUTTON_HEIGHT,
    FRAME,
    INSET,
    SCROLL_WIDTH,
    TITLE_HEIGHT,
    ButtonRow,
    ScrollBar,
    dialog_rect,
    draw_dialog,
)

HEADING = "# "


class TextViewer(Modal):
    takes_menu_key = True  # Menu closes the viewer, as Select does

    def __init__(self, title: str, text: str) -> None:
        super().__init__()
        self.title = title
        self.text = text
        self.row = ButtonRow(("Done",))
        self.lines: list[tuple[str, bool]] = []  # (text, bold)
        self.scroll = ScrollBar(Rect(0, 0, 0, 0))
        self._text_rect = Rect(0, 0, 0, 0)
        self._line_h = 0
        self._dragging: int | None = None  # pen offset inside the thumb while dragging

    @property
    def top(self) -> int:
        """The first visible line."""
        return self.scroll.top

    def _layout(self, area: Rect, scale: int) -> None:
        s = scale
        std, bold = get_font("std", s), get_font("bold", s)
        self.bounds = dialog_rect(area, area.h, s, full_height=True)
        left = self.bounds.x + (FRAME + INSET) * s
        top = self.bounds.y + (TITLE_HEIGHT + INSET // 2) * s
        inner_w = self.bounds.w - 2 * (FRAME + INSET) * s
        button_y = self.bounds.bottom - (FRAME + INSET + BUTTON_HEIGHT) * s
        text_h = button_y - INSET * s - top
        text_w = inner_w - (SCROLL_WIDTH + INSET) * s
        self._text_rect = Rect(left, top, text_w, text_h)
        self._line_h = std.height
        self.lines = []
        for paragraph in self.text.split("\n"):
            if paragraph.startswith(HEADING):
                wrapped = bold.wrap(paragraph[len(HEADING):], text_w)
                self.lines.extend((line, True) for line in wrapped)
            else:
                self.lines.extend((line, False) for line in std.wrap(paragraph, text_w))
        visible = max(1, text_h // self._line_h)
        bar = Rect(self.bounds.right - (FRAME + INSET + SCROLL_WIDTH) * s + s, top,
                   SCROLL_WIDTH * s, text_h)
        self.scroll = ScrollBar(bar, len(self.lines), visible, 0)
        self.row.place(left, button_y, s, inner_w)

    def _draw(self, fb: Framebuffer) -> None:
        draw_dialog(fb, self.bounds, self.title)
        std, bold = fb.font("std"), fb.font("bold")
        y = self._text_rect.y
        last = min(len(self.lines), self.scroll.top + self.scroll.visible)
        for text, is_bold in self.lines[self.scroll.top:last]:
            fb.text(self._text_rect.x, y, text, BLACK, bold if is_bold else std,
                    clip=self._text_rect)
            y += self._line_h
        self.scroll.draw(fb)
        self.row.draw(fb)

    def scroll_by(self, lines: int) -> None:
        self.scroll.top = max(0, min(self.scroll.max_top, self.scroll.top + lines))

    def _handle(self, event: PenDown | PenMove | PenUp | KeyDown) -> None:
        if isinstance(event, KeyDown):
            page = max(1, self.scroll.visible - 1)  # keep one line of context
            if event.key is Key.UP:
                self.scroll_by(-page)
            elif event.key is Key.DOWN:
                self.scroll_by(page)
            elif event.key in (Key.SELECT, Key.MENU):
                self.close(None)
            return
        if self.row.pen(event) is not None:
            self.close(None)
            return
        if self.row.armed is not None:
            return
        self._scroll_pen(event)

    def _scroll_pen(self, event: PenDown | PenMove | PenUp) -> None:
        bar = self.scroll
        if self._dragging is not None:
            bar.top = bar.top_for_thumb_at(event.y - self._dragging)
            if isinstance(event, PenUp):
                self._dragging = None
            return
        if not isinstance(event, PenDown) or not bar.rect.contains(event.x, event.y):
            return
        if not bar.tap(event.y, 1):  # on the thumb: drag it
            self._dragging = event.y - bar.thumb().y
