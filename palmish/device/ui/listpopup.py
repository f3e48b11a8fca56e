"""The list a pop-up trigger opens: a framed column of choices over the form.

Not a Modal of its own: the Form owns it, draws it on top and feeds it events.
Pen: tap a choice to pick it, tap outside to close without a change.
Keys: up/down move the highlight (scrolling when needed), select picks,
left/right or Menu close without a change.
"""

from __future__ import annotations

from palmish.device.events import Key, KeyDown, PenDown, PenMove, PenUp
from palmish.device.geometry import Rect
from palmish.device.graphics.font import get_font
from palmish.device.graphics.screen import BLACK, WHITE, Framebuffer
from palmish.device.ui.widgets import ScrollBar

ITEM_PAD = 3  # standard coordinates


class ListPopup:
    def __init__(self, options: tuple[str, ...], selected: int, anchor: Rect, area: Rect,
                 scale: int) -> None:
        """Open over `anchor` (the trigger), with the selected option lined up with it,
        kept inside `area`."""
        self.options = options
        self.highlight = selected
        self.done = False
        self.chosen: int | None = None
        self._scale = scale
        font = get_font("std", scale)
        self.row_h = font.height
        s = scale
        visible = max(1, min(len(options), (area.h - 3 * s) // self.row_h))
        needs_bar = visible < len(options)
        bar_w = (7 * s) if needs_bar else 0
        width = max(font.width(o) for o in options) + 2 * ITEM_PAD * s + bar_w + 2 * s
        width = min(max(width, anchor.w), area.w - s)  # room for the shadow
        height = visible * self.row_h + 2 * s
        top = min(max(0, selected - visible // 2), len(options) - visible)
        y = anchor.y - s - (selected - top) * self.row_h
        y = max(area.y, min(y, area.bottom - s - height))
        x = max(area.x, min(anchor.x, area.right - s - width))
        self.rect = Rect(x, y, width, height)
        self.visible = visible
        inner = Rect(x + s, y + s, width - 2 * s, height - 2 * s)
        self.scroll = ScrollBar(
            Rect(inner.right - bar_w, inner.y, bar_w, inner.h), len(options), visible, top
        )
        self.rows_rect = Rect(inner.x, inner.y, inner.w - bar_w, inner.h)

    def covered(self) -> Rect:
        """The list with its shadow."""
        s = self._scale
        return Rect(self.rect.x, self.rect.y, self.rect.w + s, self.rect.h + s)

    def row_rect(self, index: int) -> Rect:
        """Where option `index` is on screen (meaningful while it is scrolled into view)."""
        r = self.rows_rect
        return Rect(r.x, r.y + (index - self.scroll.top) * self.row_h, r.w, self.row_h)

    def row_text(self, index: int) -> str:
        """Option `index` as its row shows it: too long a row ends in an ellipsis, with
        its last word (and a trailing note) kept."""
        width = self.rows_rect.w - 2 * ITEM_PAD * self._scale
        return get_font("std", self._scale).shorten(self.options[index], width)

    def _row_at(self, x: int, y: int) -> int | None:
        if not self.rows_rect.contains(x, y):
            return None
        index = self.scroll.top + (y - self.rows_rect.y) // self.row_h
        return index if index < len(self.options) else None

    def _ensure_visible(self) -> None:
        if self.highlight < self.scroll.top:
            self.scroll.top = self.highlight
        elif self.highlight >= self.scroll.top + self.visible:
            self.scroll.top = self.highlight - self.visible + 1

    def draw(self, fb: Framebuffer) -> None:
        s = fb.scale
        fb.fill(Rect(self.rect.x + s, self.rect.y + s, self.rect.w, self.rect.h), BLACK)  # shadow
        fb.fill(self.rect, WHITE)
        fb.rectangle(self.rect, BLACK, width=s)
        font = fb.font("std")
        last = min(len(self.options), self.scroll.top + self.visible)
        for index in range(self.scroll.top, last):
            row = self.row_rect(index)
            lit = index == self.highlight
            if lit:
                fb.fill(row, BLACK)
            label = self.row_text(index)
            fb.text(row.x + ITEM_PAD * s, row.y, label, WHITE if lit else BLACK,
                    font, clip=row)
        if self.scroll.rect.w:
            self.scroll.draw(fb)

    def handle(self, event: PenDown | PenMove | PenUp | KeyDown) -> None:
        if isinstance(event, KeyDown):
            if event.key in (Key.UP, Key.DOWN):
                step = -1 if event.key is Key.UP else 1
                self.highlight = (self.highlight + step) % len(self.options)
                self._ensure_visible()
            elif event.key is Key.SELECT:
                self._finish(self.highlight)
            elif event.key in (Key.LEFT, Key.RIGHT, Key.MENU):
                self._finish(None)
            return
        x, y = event.x, event.y
        if isinstance(event, PenDown) and not self.rect.contains(x, y):
            self._finish(None)
            return
        if self.scroll.rect.w and self.scroll.rect.contains(x, y):
            if isinstance(event, PenDown):
                self.scroll.tap(y, 1)
            return
        row = self._row_at(x, y)
        if row is not None:
            self.highlight = row
            if isinstance(event, PenUp):
                self._finish(row)

    def _finish(self, chosen: int | None) -> None:
        self.done = True
        self.chosen = chosen
