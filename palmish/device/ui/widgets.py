"""Palm-look drawing shared by the modals: dialog frames, title bars, rounded
buttons, check boxes, pop-up triggers and the scroll bar.

Sizes are given in standard (low-density) coordinates and multiplied by the
scale (1 or 2), so a dialog looks the same on a 160x160 and a 320-wide screen.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from palmish.device.events import Key, PenDown, PenMove, PenUp
from palmish.device.geometry import Rect
from palmish.device.graphics.font import Font, get_font
from palmish.device.graphics.screen import BLACK, GREY, WHITE, Colour, Framebuffer
from palmish.device.ui.result import FormResult
from prc_tools.frozen import Frozen, field

# Standard-coordinate metrics, close to Palm OS's own.
FRAME = 2  # dialog border thickness
MARGIN = 2  # dialog distance from the edges of the app area
MAX_DIALOG_WIDTH = 156  # like Palm's dialogs, also on wide screens
TITLE_HEIGHT = 13
BUTTON_HEIGHT = 12
BUTTON_PAD = 6  # text to button edge
BUTTON_MIN_WIDTH = 36
BUTTON_GAP = 6
BUTTON_RADIUS = 4
INSET = 4  # dialog content to frame
ESCAPE_BUTTONS = ("Cancel", "OK", "Done")  # what Escape may press, in this order
CHECK_SIZE = 9
SCROLL_WIDTH = 7


def dialog_rect(area: Rect, height: int, scale: int, full_height: bool = False) -> Rect:
    """A dialog box `height` native px tall, at the bottom of `area` and centred,
    at most MAX_DIALOG_WIDTH standard units wide."""
    margin = MARGIN * scale
    width = min(area.w - 2 * margin, MAX_DIALOG_WIDTH * scale)
    limit = area.h - 2 * margin
    height = limit if full_height else min(height, limit)
    x = area.x + (area.w - width) // 2
    y = area.bottom - margin - height
    return Rect(x, y, width, height)


def draw_dialog(fb: Framebuffer, rect: Rect, title: str) -> Rect:
    """White box, bold rounded frame, inverted title bar; returns the content rect."""
    s = fb.scale
    fb.fill(rect, WHITE)
    fb.round_rect(rect, 3 * s, outline=BLACK, width=FRAME * s)
    bar = Rect(rect.x, rect.y, rect.w, TITLE_HEIGHT * s)
    fb.round_rect(bar, 3 * s, fill=BLACK)
    fb.fill(Rect(bar.x, bar.bottom - 3 * s, bar.w, 3 * s), BLACK)  # square lower corners
    font = fb.font("bold")
    label = font.fit(title, bar.w - 4 * s)
    tx = bar.x + (bar.w - font.width(label)) // 2
    fb.text(tx, bar.y + (bar.h - font.height) // 2 + s, label, WHITE, font)
    inner = FRAME * s
    return Rect(rect.x + inner, bar.bottom, rect.w - 2 * inner, rect.bottom - inner - bar.bottom)


def draw_text_field(fb: Framebuffer, rect: Rect) -> tuple[Font, int]:
    """A dialog's one-line text field, empty (white box, thin frame); the bold font its
    text is drawn in and the y where that text goes (centred)."""
    fb.fill(rect, WHITE)
    fb.rectangle(rect, BLACK, fb.scale)
    font = fb.font("bold")
    return font, rect.y + (rect.h - font.height) // 2


class Button(Frozen, frozen=False):
    """A rounded push button (OK, Cancel, Done)."""

    label: str
    rect: Rect = field(default_factory=lambda: Rect(0, 0, 0, 0))

    def width(self, fb_scale: int, text_width: int) -> int:
        return max(BUTTON_MIN_WIDTH * fb_scale, text_width + 2 * BUTTON_PAD * fb_scale)

    def draw(self, fb: Framebuffer, pressed: bool = False, focused: bool = False) -> None:
        s = fb.scale
        ink, paper = (WHITE, BLACK) if pressed else (BLACK, WHITE)
        fb.round_rect(self.rect, BUTTON_RADIUS * s, outline=BLACK, fill=paper, width=s)
        font = fb.font("std")
        label = font.fit(self.label, self.rect.w - 2 * s)
        tx = self.rect.x + (self.rect.w - font.width(label)) // 2 + s // 2
        ty = self.rect.y + (self.rect.h - font.height) // 2
        fb.text(tx, ty, label, ink, font)
        if focused:
            draw_focus_ring(fb, self.rect, BUTTON_RADIUS * s + 2 * s)


def draw_focus_ring(fb: Framebuffer, rect: Rect, radius: int) -> None:
    """The 5-way navigator's focus: a grey ring just outside a control."""
    s = fb.scale
    ring = Rect(rect.x - 2 * s, rect.y - 2 * s, rect.w + 4 * s, rect.h + 4 * s)
    fb.round_rect(ring, radius, outline=GREY, width=s)


def layout_buttons(buttons: list[Button], fb_scale: int, x: int, y: int, widths: list[int]) -> int:
    """Place buttons left to right from (x, y) (Palm's order); returns the right edge."""
    for button, width in zip(buttons, widths, strict=True):
        button.rect = Rect(x, y, width, BUTTON_HEIGHT * fb_scale)
        x += width + BUTTON_GAP * fb_scale
    return x


class KeyPadPen:
    """Pen tracking over a pad of keys (the keypads): a key is pressed when the pen
    that went down on it is lifted on it; `armed` is the key to draw pressed."""

    def __init__(self) -> None:
        self.armed: int | None = None

    def track(self, event: PenDown | PenMove | PenUp, rects: Sequence[Rect]
              ) -> tuple[bool, int | None]:
        """(whether the stroke belongs to the pad, the key index released on or None)."""
        hit = next((i for i, r in enumerate(rects) if r.contains(event.x, event.y)), None)
        if isinstance(event, PenDown) and hit is not None:
            self.armed = hit
            return True, None
        if self.armed is None:
            return False, None
        released = None
        if isinstance(event, PenUp):
            released = self.armed if hit == self.armed else None
            self.armed = None
        return True, released


class ButtonRow:
    """Pen tracking and key focus for a row of buttons (shared by the dialogs)."""

    def __init__(self, labels: tuple[str, ...]) -> None:
        if not labels:
            raise ValueError("a dialog needs at least one button")
        self.buttons = [Button(label) for label in labels]
        self.focus = 0
        self.armed: int | None = None  # button the pen went down on
        self.pressed = False  # pen still inside the armed button

    def place(self, x: int, y: int, scale: int, max_width: int) -> None:
        font = get_font("std", scale)
        labels = [font.width(b.label) for b in self.buttons]
        widths = [b.width(scale, label) for b, label in zip(self.buttons, labels, strict=True)]
        gaps = (len(widths) - 1) * BUTTON_GAP * scale
        while sum(widths) + gaps > max_width and max(widths) > 1:
            # Shrink the button with the most room around its label until the row fits:
            # the minimum width gives way before any label is cut.
            room = [w - label for w, label in zip(widths, labels, strict=True)]
            widths[room.index(max(room))] -= 1
        layout_buttons(self.buttons, scale, x, y, widths)

    def labels(self) -> tuple[str, ...]:
        """The buttons' labels, left to right."""
        return tuple(b.label for b in self.buttons)

    def result(self, index: int | None, values: Mapping[str, object] | None = None
               ) -> FormResult:
        """What a dialog closed by button `index` (None: no button) says: its label."""
        label = self.buttons[index].label if index is not None else None
        return FormResult(label, {} if values is None else values)

    def cancel_index(self) -> int | None:
        """The button Escape stands for: Cancel, else OK (or Done), never one that acts
        (New Game, Next, Delete); None when there is neither: the dialog is dismissed."""
        labels = [b.label for b in self.buttons]
        return next((labels.index(word) for word in ESCAPE_BUTTONS if word in labels), None)

    def rects(self) -> list[Rect]:
        """Where the buttons are on screen (after layout), in order."""
        return [b.rect for b in self.buttons]

    def at(self, x: int, y: int) -> int | None:
        return next((i for i, b in enumerate(self.buttons) if b.rect.contains(x, y)), None)

    def pen(self, event: PenDown | PenMove | PenUp) -> int | None:
        """Track the pen; returns a button index when one is released on."""
        hit = self.at(event.x, event.y)
        if isinstance(event, PenDown):
            self.armed, self.pressed = hit, hit is not None
            if hit is not None:
                self.focus = hit
            return None
        if self.armed is None:
            return None
        self.pressed = hit == self.armed
        if isinstance(event, PenUp):
            chosen = self.armed if self.pressed else None
            self.armed, self.pressed = None, False
            return chosen
        return None

    def move_focus(self, step: int) -> None:
        self.focus = (self.focus + step) % len(self.buttons)

    def key(self, key: Key) -> int | None:
        """Left/Up and Right/Down move the focus; returns the focused index on Select."""
        if key in (Key.LEFT, Key.UP):
            self.move_focus(-1)
        elif key in (Key.RIGHT, Key.DOWN):
            self.move_focus(1)
        elif key is Key.SELECT:
            return self.focus
        return None

    def draw(self, fb: Framebuffer, focused: bool = True) -> None:
        for i, button in enumerate(self.buttons):
            pressed = self.pressed and self.armed == i
            button.draw(fb, pressed=pressed, focused=focused and i == self.focus)


def draw_check_box(fb: Framebuffer, x: int, y: int, checked: bool,
                   ink: Colour = BLACK) -> Rect:
    """A Palm check box with its top-left at (x, y) (greyed: GREY ink); its rect."""
    s = fb.scale
    box = Rect(x, y, CHECK_SIZE * s, CHECK_SIZE * s)
    fb.fill(box, WHITE)
    fb.round_rect(box, s, outline=ink, width=s)
    if checked:
        # A tick: short stroke down-right, long stroke up-right.
        x0, y0 = x + 2 * s, y + 4 * s
        x1, y1 = x + 4 * s, y + 6 * s
        x2, y2 = x + 7 * s, y + 2 * s
        fb.line(x0, y0, x1, y1, ink, width=2 * s)
        fb.line(x1, y1, x2, y2, ink, width=2 * s)
    return box


def draw_down_triangle(fb: Framebuffer, x: int, y: int, size: int, colour: tuple[int, int, int]
                       = BLACK) -> None:
    """A solid triangle pointing down, `size` native px wide, top-left at (x, y)."""
    half = size // 2
    fb.polygon([(x, y), (x + size - 1, y), (x + half, y + half)], colour)


def draw_up_triangle(fb: Framebuffer, x: int, y: int, size: int) -> None:
    half = size // 2
    fb.polygon([(x + half, y), (x, y + half), (x + size - 1, y + half)], BLACK)


class ScrollBar(Frozen, frozen=False):
    """A vertical Palm scroll bar: arrows at both ends, a track, a thumb.

    `total` lines of content, `visible` shown at once, `top` the first shown.
    """

    rect: Rect
    total: int = 0
    visible: int = 1
    top: int = 0

    @property
    def max_top(self) -> int:
        return max(0, self.total - self.visible)

    def arrow_height(self) -> int:
        return min(self.rect.w, self.rect.h // 3)

    def up_arrow(self) -> Rect:
        return Rect(self.rect.x, self.rect.y, self.rect.w, self.arrow_height())

    def down_arrow(self) -> Rect:
        h = self.arrow_height()
        return Rect(self.rect.x, self.rect.bottom - h, self.rect.w, h)

    def track(self) -> Rect:
        h = self.arrow_height()
        return Rect(self.rect.x, self.rect.y + h, self.rect.w, self.rect.h - 2 * h)

    def thumb(self) -> Rect:
        track = self.track()
        if self.total <= self.visible:
            return track
        length = max(track.w, track.h * self.visible // self.total)
        offset = (track.h - length) * self.top // self.max_top
        return Rect(track.x, track.y + offset, track.w, length)

    def top_for_thumb_at(self, y: int) -> int:
        """The first line that puts the thumb's top at native y (for dragging)."""
        track, thumb = self.track(), self.thumb()
        room = track.h - thumb.h
        if room <= 0:
            return 0
        return max(0, min(self.max_top, round((y - track.y) * self.max_top / room)))

    def tap(self, y: int, line: int) -> bool:
        """Scroll for a pen-down at native y on the bar: an arrow moves `line`, the track
        above or below the thumb a page. False (nothing moves) when y is on the thumb."""
        thumb = self.thumb()
        if self.up_arrow().contains(self.rect.x, y):
            step = -line
        elif self.down_arrow().contains(self.rect.x, y):
            step = line
        elif y < thumb.y:
            step = -self.visible
        elif y >= thumb.bottom:
            step = self.visible
        else:
            return False
        self.top = max(0, min(self.max_top, self.top + step))
        return True

    def draw(self, fb: Framebuffer) -> None:
        s = fb.scale
        fb.fill(self.rect, WHITE)
        track = self.track()
        mid = track.x + track.w // 2
        if self.total > self.visible:
            fb.line(mid, track.y, mid, track.bottom - 1, BLACK, width=s)
            thumb = self.thumb()
            fb.fill(Rect(thumb.x + s, thumb.y, thumb.w - 2 * s, thumb.h), BLACK)
        size = self.rect.w - (1 - self.rect.w % 2)  # odd, for a sharp tip
        up, down = self.up_arrow(), self.down_arrow()
        if self.top > 0:
            draw_up_triangle(fb, up.x, up.y + (up.h - size // 2) // 2, size)
        else:
            self._hollow_triangle(fb, up, size, pointing_up=True)
        if self.top < self.max_top:
            draw_down_triangle(fb, down.x, down.y + (down.h - size // 2) // 2, size)
        else:
            self._hollow_triangle(fb, down, size, pointing_up=False)

    @staticmethod
    def _hollow_triangle(fb: Framebuffer, box: Rect, size: int, pointing_up: bool) -> None:
        """A grey arrow: nothing more to scroll that way."""
        half = size // 2
        y = box.y + (box.h - half) // 2
        if pointing_up:
            points = [(box.x + half, y), (box.x, y + half), (box.x + size - 1, y + half)]
        else:
            points = [(box.x, y), (box.x + size - 1, y), (box.x + half, y + half)]
        fb.polygon(points, GREY)
