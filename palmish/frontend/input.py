"""From desktop input to device input: keys to hard buttons, window pixels to LCD pixels.

Pure geometry and tables (no pyglet), so they are tested without a window. The
window passes key names as `pyglet.window.key.symbol_string` spells them.
"""

from __future__ import annotations

import math

from palmish.device.events import (
    TYPED_MARKS,
    CharKey,
    Event,
    Key,
    KeyDown,
    Rotate,
    ToggleInputArea,
)
from palmish.device.geometry import Rect
from palmish.frontend.skin import INPUT_AREA, ROTATE, Face
from prc_tools.frozen import Frozen

# Desktop key -> skin action (a Key value, ROTATE or INPUT_AREA). Documented in README.md.
KEY_ACTIONS: dict[str, str] = {
    "UP": Key.UP.value,
    "DOWN": Key.DOWN.value,
    "LEFT": Key.LEFT.value,
    "RIGHT": Key.RIGHT.value,
    "NUM_UP": Key.UP.value,
    "NUM_DOWN": Key.DOWN.value,
    "NUM_LEFT": Key.LEFT.value,
    "NUM_RIGHT": Key.RIGHT.value,
    "RETURN": Key.SELECT.value,
    "ENTER": Key.SELECT.value,
    "NUM_ENTER": Key.SELECT.value,
    "SPACE": Key.SELECT.value,
    "F1": Key.APP1.value,
    "F2": Key.APP2.value,
    "F3": Key.APP3.value,
    "F4": Key.APP4.value,
    "HOME": Key.HOME.value,
    "ESCAPE": Key.CANCEL.value,
    "F5": Key.MENU.value,
    "M": Key.MENU.value,
    "R": ROTATE,
    "I": INPUT_AREA,
}


def key_char(symbol_name: str) -> str | None:
    """The character a desktop key types for the device: a-z, 0-9, "\b" or "\n"; else
    None. The marks a name or an address takes come as text (text_event)."""
    if len(symbol_name) == 1 and "A" <= symbol_name <= "Z":
        return symbol_name.lower()
    for prefix in ("_", "NUM_"):  # pyglet spells the digit keys _0.._9 and NUM_0..NUM_9
        digit = symbol_name.removeprefix(prefix)
        if digit != symbol_name and len(digit) == 1 and digit.isdigit():
            return digit
    return {"BACKSPACE": "\b", "RETURN": "\n", "ENTER": "\n", "NUM_ENTER": "\n"}.get(symbol_name)


def text_event(text: str, wants_text: bool) -> Event | None:
    """What text the keyboard typed posts: one of the marks a name or an address takes
    (". - _ :") to a dialog that reads text; else None (letters and digits come as keys).

    Taken from the text, not the key, because the keyboard's layout decides which key
    types a mark, and because pyglet drops the press of a shifted key (":" "_") typed
    again when Shift was let go before the key, yet still gives its text."""
    if wants_text and len(text) == 1 and text in TYPED_MARKS:
        return CharKey(text)
    return None


def key_event(
    symbol_name: str, ctrl: bool, wants_text: bool, takes_enter: bool = False
) -> Event | None:
    """What a desktop key press posts to the device, or None.

    Ctrl+letter is the Palm command stroke + letter (a menu shortcut). Without
    Ctrl, a dialog or menu that reads typed characters gets letters, digits,
    Backspace and Enter, and a form gets Enter (its default button: `takes_enter`);
    otherwise the key's device action (M is Menu, R rotates, Enter is Select), and
    a letter or digit without one is typed to the app or its dialog.
    """
    char = key_char(symbol_name)
    if ctrl:
        return CharKey(char, command=True) if char is not None and char.isalpha() else None
    if char is not None and (wants_text or (takes_enter and char == "\n")):
        return CharKey(char)
    action = key_action(symbol_name)
    if action is not None:
        return action_event(action)
    # A letter or digit with no device meaning goes to the app (Pachisi's P passes)
    return CharKey(char) if char is not None and char.isalnum() else None


def key_action(symbol_name: str) -> str | None:
    """The action of a desktop key (pyglet's symbol name), or None if it has none."""
    return KEY_ACTIONS.get(symbol_name)


def action_event(action: str) -> Event:
    """The device event a skin/key action posts."""
    if action == ROTATE:
        return Rotate()
    if action == INPUT_AREA:
        return ToggleInputArea()
    return KeyDown(Key(action))


class Layout(Frozen):
    """A skin face shown at an integer zoom, around an LCD of a given native size.

    Window coordinates are pyglet's: origin bottom-left, y up, possibly fractional.
    Skin coordinates are the bezel image's pixels, origin top-left.
    """

    face: Face
    zoom: int
    lcd_width: int  # native LCD pixels
    lcd_height: int

    @property
    def window_size(self) -> tuple[int, int]:
        w, h = self.face.size
        return (w * self.zoom, h * self.zoom)

    @property
    def lcd_scale(self) -> int:
        """Skin pixels per LCD pixel (the skin loader made sure it is whole)."""
        return self.face.lcd.w // self.lcd_width

    def skin_point(self, wx: float, wy: float) -> tuple[float, float]:
        """A window point (pyglet: y up, top row = height - 1) in skin pixels."""
        height = self.window_size[1]
        return (wx / self.zoom, (height - 1 - wy) / self.zoom)

    def lcd_point(self, sx: float, sy: float) -> tuple[int, int] | None:
        """The LCD pixel under a skin point, or None outside the LCD."""
        lcd = self.face.lcd
        if not (lcd.x <= sx < lcd.right and lcd.y <= sy < lcd.bottom):
            return None
        return self.clamp_to_lcd(sx, sy)

    def clamp_to_lcd(self, sx: float, sy: float) -> tuple[int, int]:
        """The nearest LCD pixel to a skin point (a stylus dragged off the glass)."""
        lcd = self.face.lcd
        px = math.floor((sx - lcd.x) / self.lcd_scale)
        py = math.floor((sy - lcd.y) / self.lcd_scale)
        return (min(max(px, 0), self.lcd_width - 1), min(max(py, 0), self.lcd_height - 1))

    def window_point(self, sx: float, sy: float) -> tuple[float, float]:
        """A skin point in window coordinates (the inverse of skin_point)."""
        height = self.window_size[1]
        return (sx * self.zoom, height - 1 - sy * self.zoom)

    def window_point_of_lcd(self, px: int, py: int) -> tuple[float, float]:
        """The window point at the centre of an LCD pixel (for scripts and tests)."""
        lcd, k = self.face.lcd, self.lcd_scale
        return self.window_point(lcd.x + (px + 0.5) * k, lcd.y + (py + 0.5) * k)

    def gl_rect(self, rect: Rect) -> tuple[int, int, int, int]:
        """A skin rectangle as (x, y, w, h) in window pixels with y up, for drawing."""
        height = self.window_size[1]
        z = self.zoom
        return (rect.x * z, height - rect.bottom * z, rect.w * z, rect.h * z)

    def lcd_gl_rect(self, rect: Rect) -> tuple[int, int, int, int]:
        """An LCD rectangle (LCD pixels) as (x, y, w, h) in window pixels with y up."""
        lcd, k = self.face.lcd, self.lcd_scale
        return self.gl_rect(Rect(lcd.x + rect.x * k, lcd.y + rect.y * k, rect.w * k, rect.h * k))
