"""Progress: an alert with a bar that fills as a transfer goes on (a beam being
sent or received), and one button (Cancel while it runs, OK once it ended).

Result: the index of the button pressed (0). The owner calls `update(done,
total)` as bytes go, `say(text)` at each step, then `finish(text)` with the last
line (sent, declined, refused, gone). With nothing to count (total 0: a board
or a deal) there is no bar: the text's steps are the progress.
"""

from __future__ import annotations

from palmish.device.geometry import Rect
from palmish.device.graphics.screen import BLACK, WHITE, Framebuffer
from palmish.device.ui.alert import Alert
from palmish.device.ui.widgets import INSET, ButtonRow

BAR_HEIGHT = 7  # standard coordinates


class Progress(Alert):
    def __init__(self, title: str, message: str) -> None:
        super().__init__(title, message, ("Cancel",))
        self.done = 0
        self.total = 0
        self.ended = False
        self._bar = Rect(0, 0, 0, 0)

    @property
    def fraction(self) -> float:
        return min(1.0, self.done / self.total) if self.total > 0 else 0.0

    def update(self, done: int, total: int) -> None:
        self.done, self.total = max(0, done), max(0, total)

    @property
    def has_bar(self) -> bool:
        return not self.ended and self.total > 0

    def say(self, message: str, fb: Framebuffer) -> None:
        """The next step in words: the text is replaced, the bar (if any) stays."""
        self._relayout(message, fb)

    def finish(self, message: str, fb: Framebuffer) -> None:
        """The transfer ended: the last line replaces the text, the bar goes and OK
        closes. The dialog is erased and laid out again for its new text."""
        self.ended = True
        self.row = ButtonRow(("OK",))
        self._relayout(message, fb)

    def _relayout(self, message: str, fb: Framebuffer) -> None:
        self.erase(fb)
        self.message = message
        if self.area is not None:
            self.layout(self.area, 72 * self.scale)
        self.draw(fb)

    def _layout(self, area: Rect, scale: int) -> None:
        if not self.has_bar:
            super()._layout(area, scale)
            return
        extra = (BAR_HEIGHT + INSET) * scale  # the bar, between the text and the button
        super()._layout(Rect(area.x, area.y, area.w, area.h - extra), scale)
        b = self.bounds
        self.bounds = Rect(b.x, b.y, b.w, b.h + extra)
        left = self._text_origin[0]
        button_y = self.row.buttons[0].rect.y
        self._bar = Rect(left, button_y, b.w - 2 * (left - b.x), BAR_HEIGHT * scale)
        self.row.place(left, button_y + extra, scale, self._bar.w)

    def _draw(self, fb: Framebuffer) -> None:
        super()._draw(fb)
        if not self.has_bar:
            return
        s = fb.scale
        bar = self._bar
        fb.fill(bar, WHITE)
        fb.rectangle(bar, BLACK, s)
        filled = int((bar.w - 2 * s) * self.fraction)
        if filled > 0:
            fb.fill(Rect(bar.x + s, bar.y + s, filled, bar.h - 2 * s), BLACK)
