"""A small keypad dialog to type a whole number (PalmIshido's Game > Deal number...).

Result: the number (int), or None when cancelled. The pen types on the keypad;
typed digits, Backspace and Enter (CharKey) do the same as the keys, Del and
OK; Select confirms, Up/Down move the focus between OK and Cancel.

The number shown at the start is selected (drawn inverted, as Palm shows
selected text): the first digit replaces it and Del clears it. A digit past
MAX_DIGITS is refused with a word in the field ("max 9 digits"), and so is OK
on an empty field ("type a number").
"""

from __future__ import annotations

from palmish.device.events import KeyDown, PenDown, PenMove, PenUp
from palmish.device.geometry import Rect
from palmish.device.graphics.screen import BLACK, WHITE, Framebuffer
from palmish.device.ui.modal import Modal
from palmish.device.ui.widgets import (
    BUTTON_HEIGHT,
    FRAME,
    INSET,
    TITLE_HEIGHT,
    Button,
    ButtonRow,
    KeyPadPen,
    dialog_rect,
    draw_dialog,
    draw_text_field,
)

KEYS = ("1", "2", "3", "4", "5", "6", "7", "8", "9", "Del", "0", "Clr")
MAX_DIGITS = 9
KEY_W, KEY_H, KEY_GAP = 26, 12, 3  # standard coordinates


class NumberEntry(Modal):
    wants_text = True

    def __init__(self, title: str, current: int | None = None) -> None:
        super().__init__()
        self.title = title
        self.digits = "" if current is None else str(current)[:MAX_DIGITS]
        self.selected = bool(self.digits)  # the shown number goes at the first key
        self.note = ""  # why the last digit was refused
        self.keys = [Button(label) for label in KEYS]
        self.row = ButtonRow(("OK", "Cancel"))
        self.pad = KeyPadPen()
        self._field = Rect(0, 0, 0, 0)

    @property
    def value(self) -> int | None:
        return int(self.digits) if self.digits else None

    def _layout(self, area: Rect, scale: int) -> None:
        s = scale
        pad = 2 * s
        rows = 4
        content = (INSET + 12 + INSET + rows * (KEY_H + KEY_GAP) + INSET + BUTTON_HEIGHT + INSET)
        height = TITLE_HEIGHT * s + content * s + FRAME * s
        self.bounds = dialog_rect(area, height, s)
        left = self.bounds.x + (FRAME + INSET) * s
        width = self.bounds.w - 2 * (FRAME + INSET) * s
        y = self.bounds.y + TITLE_HEIGHT * s + INSET * s
        self._field = Rect(left, y, width, 12 * s)
        y = self._field.bottom + INSET * s
        grid_w = 3 * KEY_W * s + 2 * KEY_GAP * s
        x0 = self.bounds.x + (self.bounds.w - grid_w) // 2
        for i, key in enumerate(self.keys):
            r, c = divmod(i, 3)
            key.rect = Rect(x0 + c * (KEY_W + KEY_GAP) * s, y + r * (KEY_H + KEY_GAP) * s,
                            KEY_W * s, KEY_H * s)
        y += rows * (KEY_H + KEY_GAP) * s + INSET * s - pad
        self.row.place(left, y, s, width)

    def _draw(self, fb: Framebuffer) -> None:
        draw_dialog(fb, self.bounds, self.title)
        s = fb.scale
        font, y = draw_text_field(fb, self._field)
        text = self.digits or " "
        x = self._field.right - 3 * s - font.width(text)
        if self.selected:
            fb.fill(Rect(x - 2 * s, self._field.y + 2 * s, font.width(text) + 3 * s,
                         self._field.h - 4 * s), BLACK)
        fb.text(x, y, text, WHITE if self.selected else BLACK, font)
        if self.note:
            small = fb.font("std")
            room = x - self._field.x - 6 * s
            if room > 0:
                fb.text(self._field.x + 3 * s, self._field.y + (self._field.h - small.height) // 2,
                        small.fit(self.note, room), BLACK, small)
        for i, key in enumerate(self.keys):
            key.draw(fb, pressed=self.pad.armed == i)
        self.row.draw(fb)

    def _press(self, label: str) -> None:
        selected, self.selected, self.note = self.selected, False, ""
        if label == "Clr" or selected:
            self.digits = "" if label in ("Del", "Clr") else label
        elif label == "Del":
            self.digits = self.digits[:-1]
        elif len(self.digits) < MAX_DIGITS:
            self.digits = (self.digits + label).lstrip("0") or "0"
        else:
            self.note = f"max {MAX_DIGITS} digits"  # short: it shares the field

    def _char(self, char: str) -> None:
        if char.isdigit() and char.isascii():
            self._press(char)
        elif char == "\b":
            self._press("Del")
        elif char == "\n":
            self._confirm()

    def _confirm(self) -> None:
        if self.value is not None:
            self.close(self.value)
        else:  # OK on an empty field: say why nothing happens
            self.note = "type a number"

    def _handle(self, event: PenDown | PenMove | PenUp | KeyDown) -> None:
        if isinstance(event, KeyDown):
            self._choose(self.row.key(event.key))
            return
        mine, pressed = self.pad.track(event, [k.rect for k in self.keys])
        if pressed is not None:
            self._press(KEYS[pressed])
        if not mine:
            self._choose(self.row.pen(event))

    def _choose(self, button: int | None) -> None:
        if button == 0:
            self._confirm()
        elif button == 1:
            self.close(None)
