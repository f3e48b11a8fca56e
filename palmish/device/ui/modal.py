"""The base of every modal UI element: menus, alerts, forms, the text viewer.

A modal lives over the running app. Its life, as the device drives it:

1. `layout(area, density)`: the app's bounds and the screen density; the modal
   places itself inside `area` (sizes are in standard coordinates times the
   density's scale). Call again after a display change.
2. `draw(fb)`: draws the whole modal. The first draw on a framebuffer saves the
   pixels behind it (Palm's save-behind). Call after opening and after every
   event `handle` consumed; a draw after the modal closed erases it instead.
3. `handle(event) -> bool`: True if the modal consumed the event. A modal
   consumes every pen stroke that starts inside the app area (to the pen-up,
   wherever the pen goes) and every key but Home; strokes that start outside
   the area (the status bar, the input area) are left to the device. Cancel
   (Escape) calls `cancel()`: the modal closes as its Cancel button would.
   Typed characters (CharKey) reach only a modal that `wants_text`; Enter alone
   also reaches one that `takes_enter` (a form: its default button).
4. When `closed` turns True, `result` holds the outcome; `erase(fb)` (or one
   more `draw`) puts back what was behind.

If `draw` comes before `layout`, the modal places itself in the part of the
screen that belongs to the app in every display configuration of that size.
"""

from __future__ import annotations

from PIL import Image

from palmish.device.display import CONFIGS
from palmish.device.events import CharKey, Event, Key, KeyDown, PenDown, PenMove, PenUp
from palmish.device.geometry import Rect
from palmish.device.graphics.screen import Framebuffer


def default_area(fb: Framebuffer) -> Rect:
    """The app area common to every configuration with this screen's size."""
    area = fb.bounds
    for config in CONFIGS.values():
        if (config.width, config.height, config.density) == (fb.width, fb.height, fb.density):
            area = area.intersect(config.app_bounds) or area
    return area


class Modal:
    """Base class; subclasses implement `_layout`, `_draw` and `_handle`."""

    wants_text = False  # typed characters (digits, letters, backspace, enter) come to `_char`
    # The desktop's Enter comes to `_char` as "\n" (the Palm's Select keeps its own meaning).
    takes_enter = False
    # Whether the Menu key means something here (it closes a menu bar, a list or a
    # text viewer); elsewhere it is left alone, so nothing is redrawn for it.
    takes_menu_key = False

    def __init__(self) -> None:
        self.bounds = Rect(0, 0, 0, 0)
        self.closed = False
        self.result: object = None
        self.area: Rect | None = None
        self.scale = 1
        self._saved: tuple[Framebuffer, Rect, Image.Image] | None = None
        self._stroke = False  # the pen went down inside the area and is still down

    # -- the device-facing API ----------------------------------------------------

    def layout(self, area: Rect, density: int) -> None:
        if density not in (72, 144):
            raise ValueError(f"density must be 72 or 144, not {density}")
        self.area = area
        self.scale = density // 72
        self._saved = None
        self._layout(area, self.scale)

    def draw(self, fb: Framebuffer) -> None:
        if self.closed:
            self.erase(fb)
            return
        stale = self.area is None or self.area.intersect(fb.bounds) != self.area
        if stale or self.scale != fb.scale:
            self.layout(default_area(fb), fb.density)
        if self._saved is None or self._saved[0] is not fb:
            covered = self.covered()
            self._saved = (fb, covered, fb.snapshot(covered))
        self._draw(fb)

    def erase(self, fb: Framebuffer) -> None:
        """Put back the pixels the modal covered (only on the framebuffer it saved from)."""
        if self._saved is not None and self._saved[0] is fb:
            _, rect, pixels = self._saved
            fb.restore(pixels, rect.x, rect.y)
        self._saved = None

    def handle(self, event: Event) -> bool:
        if self.closed:
            return False
        if isinstance(event, PenDown | PenMove | PenUp):
            # A stroke that starts inside the app area belongs to the modal until the
            # pen lifts, wherever it goes (Palm's pen tracking); others are not ours.
            if isinstance(event, PenDown):
                self._stroke = self.area is None or self.area.contains(event.x, event.y)
            if not self._stroke:
                return False
            if isinstance(event, PenUp):
                self._stroke = False
            self._handle(event)
            return True
        if isinstance(event, KeyDown):
            if event.key is Key.HOME or (event.key is Key.MENU and not self.takes_menu_key):
                return False
            if event.key is Key.CANCEL:
                self.cancel()
                return True
            self._handle(event)
            return True
        if isinstance(event, CharKey) and not event.command and (
            self.wants_text or (self.takes_enter and event.char == "\n")
        ):
            self._char(event.char)
            return True
        return False

    def cancel(self) -> None:
        """Escape: close as Cancel would (None unless a subclass says otherwise)."""
        self.close(None)

    # -- for subclasses -----------------------------------------------------------

    def covered(self) -> Rect:
        """Everything the modal may draw over (saved behind on the first draw)."""
        return self.bounds

    def close(self, result: object) -> None:
        self.closed = True
        self.result = result

    def restore_behind(self, fb: Framebuffer, rect: Rect | None = None) -> None:
        """Repaint saved app pixels inside `rect` (all of them by default), e.g. where a
        pull-down menu was before another one opened."""
        if self._saved is None or self._saved[0] is not fb:
            return
        _, saved_rect, pixels = self._saved
        part = saved_rect if rect is None else rect.intersect(saved_rect)
        if part is None:
            return
        sx, sy = part.x - saved_rect.x, part.y - saved_rect.y
        fb.restore(pixels.crop((sx, sy, sx + part.w, sy + part.h)), part.x, part.y)

    def _layout(self, area: Rect, scale: int) -> None:
        raise NotImplementedError

    def _draw(self, fb: Framebuffer) -> None:
        raise NotImplementedError

    def _handle(self, event: PenDown | PenMove | PenUp | KeyDown) -> None:
        raise NotImplementedError

    def _char(self, char: str) -> None:
        """A typed character, for modals that set `wants_text`."""
