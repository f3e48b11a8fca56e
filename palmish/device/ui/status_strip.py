"""`StatusStrip`: a line that stays over the running app (the device's `Overlay`), at
the top of the open input area (only decoration) or else along the bottom of the
app's bounds: `palmish preview`'s "built 14:02:31" or its problem, drawn in a red box
over the last good build, and its buttons (Beam; one per sound of a Sounds plugin).
It never blocks the app: only the pen on the strip or a button is its."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from palmish.device.events import PenDown, PenMove, PenUp
from palmish.device.geometry import Rect
from palmish.device.graphics.screen import BLACK, WHITE, Colour, Framebuffer

RED: Colour = (200, 0, 0)
PROBLEM_LINES = 4  # a longer problem is cut (its whole text is on the terminal)
PAD = 2  # pixels at 72 dpi
PAD_COLUMNS = 2  # sound buttons per row


class StatusStrip:
    def __init__(self, on_button: Callable[[str], None]) -> None:
        self.on_button = on_button
        self.status = ""
        self.short: str | None = None  # drawn instead of a status too wide for the strip
        self.problem: str | None = None
        self.buttons: tuple[str, ...] = ()  # on the strip, right-aligned
        self.pads: tuple[str, ...] = ()  # a grid of buttons above the strip
        self._strip = Rect(0, 0, 0, 0)
        self._hits: list[tuple[Rect, str]] = []
        self._pressed: str | None = None

    def show(self, status: str, problem: str | None = None,
             buttons: Sequence[str] | None = None, pads: Sequence[str] | None = None,
             short: str | None = None) -> None:
        """What to draw from now on (the device draws it after the next event);
        `short` stands for a status that does not fit beside the buttons."""
        self.status, self.problem = _drawable(status) or "", _drawable(problem)
        self.short = _drawable(short)
        if buttons is not None:
            self.buttons = tuple(buttons)
        if pads is not None:
            self.pads = tuple(pads)

    # -- the device's Overlay ----------------------------------------------------

    def draw(self, screen: Framebuffer, bounds: Rect, spare: Rect | None) -> None:
        scale = screen.scale
        font = screen.font("std")
        pad = PAD * scale
        height = font.height + 2 * pad
        self._hits = []
        if spare is not None and spare.h >= height:  # the input area: hides nothing
            self._strip = Rect(spare.x, spare.y, spare.w, height)
            top = bounds.bottom
        else:  # along the bottom of the app, a rule above it
            self._strip = Rect(bounds.x, bounds.bottom - height, bounds.w, height)
            top = self._strip.y
        strip = self._strip
        screen.fill(strip, WHITE)
        screen.fill(Rect(strip.x, strip.y, strip.w, scale), BLACK)  # a rule above it
        right = strip.right - pad
        for label in reversed(self.buttons):
            width = font.width(label) + 4 * pad
            rect = Rect(right - width, strip.y + pad, width, strip.h - 2 * pad)
            self._button(screen, rect, label, font.height)
            right = rect.x - pad
        room = max(0, right - strip.x - 2 * pad)
        status = self.status
        if self.short and font.width(status) > room:
            status = self.short
        text = font.fit(status, room)
        screen.text(strip.x + pad, strip.y + (strip.h - font.height) // 2, text,
                    RED if self.problem else BLACK)
        if self.pads:
            top = self._draw_pads(screen, bounds, top, font.height, pad)
        if self.problem:
            self._draw_problem(screen, bounds, top, pad)

    def rect_of(self, label: str) -> Rect | None:
        """Where the button `label` was last drawn (None: not shown)."""
        return next((rect for rect, shown in self._hits if shown == label), None)

    def contains(self, x: int, y: int) -> bool:
        return self._strip.contains(x, y) or any(r.contains(x, y) for r, _ in self._hits)

    def pen(self, event: PenDown | PenMove | PenUp) -> None:
        under = next((label for rect, label in self._hits if rect.contains(event.x, event.y)),
                     None)
        if isinstance(event, PenDown):
            self._pressed = under
        elif isinstance(event, PenUp):
            pressed, self._pressed = self._pressed, None
            if pressed is not None and pressed == under:
                self.on_button(pressed)

    # -- parts ---------------------------------------------------------------------

    def _button(self, screen: Framebuffer, rect: Rect, label: str, line: int) -> None:
        screen.fill(rect, WHITE)
        screen.rectangle(rect, BLACK, max(1, screen.scale // 2 + 0))
        screen.text(rect.x + (rect.w - screen.text_width(label)) // 2,
                    rect.y + (rect.h - line) // 2, label)
        self._hits.append((rect, label))

    def _draw_pads(self, screen: Framebuffer, bounds: Rect, bottom: int, line: int,
                   pad: int) -> int:
        rows = (len(self.pads) + PAD_COLUMNS - 1) // PAD_COLUMNS
        height = line + 3 * pad
        width = (bounds.w - (PAD_COLUMNS + 1) * pad) // PAD_COLUMNS
        top = max(bounds.y, bottom - rows * (height + pad) - pad)
        screen.fill(Rect(bounds.x, top, bounds.w, bottom - top), WHITE)
        for index, label in enumerate(self.pads):
            row, column = divmod(index, PAD_COLUMNS)
            rect = Rect(bounds.x + pad + column * (width + pad),
                        top + pad + row * (height + pad), width, height)
            self._button(screen, rect, label, line)
        return top

    def _draw_problem(self, screen: Framebuffer, bounds: Rect, bottom: int, pad: int) -> None:
        assert self.problem is not None
        font = screen.font("std")
        lines = font.wrap(self.problem, bounds.w - 6 * pad)[:PROBLEM_LINES]
        height = len(lines) * font.height + 4 * pad
        box = Rect(bounds.x + pad, bottom - height - pad, bounds.w - 2 * pad, height)
        screen.fill(box, WHITE)
        screen.rectangle(box, RED, max(2, screen.scale))
        for number, text in enumerate(lines):
            screen.text(box.x + 2 * pad, box.y + 2 * pad + number * font.height, text)


def _drawable(text: str | None) -> str | None:
    """`text` in the device font's characters (dashes and quotes the messages use)."""
    if text is None:
        return None
    return text.translate(_PLAIN)


_PLAIN = str.maketrans({"\u2014": "-", "\u2013": "-", "\u2018": "'", "\u2019": "'",
                        "\u201c": '"', "\u201d": '"'})
