"""A small on-screen keyboard to type a player's name (the device has no
Graffiti recogniser): letters, digits, Shift, Del, then OK or Cancel.

Result: the name (str), or None when cancelled. Names are 1-10 characters of
letters, digits and - _ . (what the engine's records accept). An address
entry (a host for Beam and Join) takes up to 60 of the same and ":" too, for an
IPv6 address (and "[" "]" from the keyboard, for `[IPV6]:PORT`), and starts in
lower case. The pen types, and so does the
keyboard: letters and digits, those marks, Backspace, Enter for OK. The
arrow keys move a focus ring over the on-screen keys and OK/Cancel, and Select
presses what it is on (it starts on OK, so Select keeps the name shown).
The text shown at the start is selected (drawn inverted, as Palm shows selected
text, and as the Board Number entry does): the first letter typed or tapped
replaces it, Del clears it, OK keeps it.
"""

from __future__ import annotations

from palmish.device.addresses import ADDRESS_CHARS
from palmish.device.events import Key, KeyDown, PenDown, PenMove, PenUp
from palmish.device.geometry import Rect
from palmish.device.graphics.screen import BLACK, WHITE, Framebuffer
from palmish.device.ui.modal import Modal
from palmish.device.ui.widgets import (
    BUTTON_HEIGHT,
    FRAME,
    INSET,
    TITLE_HEIGHT,
    ButtonRow,
    KeyPadPen,
    dialog_rect,
    draw_dialog,
    draw_text_field,
)

MAX_NAME = 10
ROWS = ("1234567890", "qwertyuiop", "asdfghjkl-", "zxcvbnm_.")
ADDRESS_ROWS = (*ROWS[:-1], ROWS[-1] + ":")  # an IPv6 address's colons
ADDRESS_TYPED = "[]"  # `[IPV6]:PORT` from the desktop's keyboard (no key on the pad)
SHIFT, DELETE = "Shift", "Del"
KEY_W, KEY_H, KEY_GAP = 14, 12, 1  # standard coordinates
FIELD_H = 14


class NameEntry(Modal):
    wants_text = True  # typed letters, digits, Backspace and Enter

    def __init__(self, title: str, current: str = "", address: bool = False) -> None:
        super().__init__()
        self.title = title
        self.most = ADDRESS_CHARS if address else MAX_NAME
        self.rows = ADDRESS_ROWS if address else ROWS
        self.typed_too = ADDRESS_TYPED if address else ""
        self.text = current[:self.most]
        self.selected = bool(self.text)  # the shown text goes at the first key
        self.capital = not address  # an address does not start with a capital
        self.shift = self.capital  # a name starts with a capital (also one typed over)
        self.keys: list[tuple[str, Rect]] = []
        self.row = ButtonRow(("OK", "Cancel"))
        self.pad = KeyPadPen()
        self._field = Rect(0, 0, 0, 0)
        # The arrow keys' focus: (row, column) over the rows, then Shift/Del, then OK/Cancel.
        self.cursor = (len(self.rows) + 1, 0)

    def _grid(self) -> list[int]:
        """How many focus stops each row has."""
        return [len(r) for r in self.rows] + [2, 2]

    def _focused(self) -> tuple[str, int]:
        """("key", index into keys) or ("button", index into the button row)."""
        r, c = self.cursor
        if r == len(self.rows) + 1:
            return "button", c
        return "key", sum(self._grid()[:r]) + c

    def _layout(self, area: Rect, scale: int) -> None:
        s = scale
        rows = len(self.rows) + 1
        content = INSET + FIELD_H + INSET + rows * (KEY_H + KEY_GAP) + INSET + BUTTON_HEIGHT + INSET
        self.bounds = dialog_rect(area, (TITLE_HEIGHT + content + FRAME) * s, s)
        left = self.bounds.x + (FRAME + INSET) * s
        width = self.bounds.w - 2 * (FRAME + INSET) * s
        y = self.bounds.y + (TITLE_HEIGHT + INSET) * s
        self._field = Rect(left, y, width, FIELD_H * s)
        y = self._field.bottom + INSET * s
        grid_w = 10 * KEY_W * s + 9 * KEY_GAP * s
        x0 = self.bounds.x + (self.bounds.w - grid_w) // 2
        self.keys = []
        for r, letters in enumerate(self.rows):
            for c, ch in enumerate(letters):
                self.keys.append((ch, Rect(x0 + c * (KEY_W + KEY_GAP) * s,
                                           y + r * (KEY_H + KEY_GAP) * s, KEY_W * s, KEY_H * s)))
        y += len(self.rows) * (KEY_H + KEY_GAP) * s
        half = (grid_w - KEY_GAP * s) // 2
        self.keys.append((SHIFT, Rect(x0, y, half, KEY_H * s)))
        self.keys.append((DELETE, Rect(x0 + half + KEY_GAP * s, y, half, KEY_H * s)))
        y += (KEY_H + KEY_GAP + INSET) * s
        self.row.place(left, y, s, width)

    def label(self, key: str) -> str:
        return key.upper() if self.shift and len(key) == 1 else key

    def _draw(self, fb: Framebuffer) -> None:
        draw_dialog(fb, self.bounds, self.title)
        s = fb.scale
        font, y = draw_text_field(fb, self._field)
        shown = self.text if self.selected else self.text + "_"
        while len(shown) > 1 and font.width(shown) > self._field.w - 6 * s:
            shown = "\u2026" + shown[2:]  # a long address shows its end, where typing goes
        x = self._field.x + 3 * s
        if self.selected:
            fb.fill(Rect(x - 2 * s, self._field.y + 2 * s, font.width(shown) + 3 * s,
                         self._field.h - 4 * s), BLACK)
        fb.text(x, y, shown, WHITE if self.selected else BLACK, font)
        std = fb.font("std")
        for i, (key, rect) in enumerate(self.keys):
            on = self.pad.armed == i or (key == SHIFT and self.shift)
            fb.fill(rect, BLACK if on else WHITE)
            fb.rectangle(rect, BLACK, s)
            text = self.label(key)
            fb.text(rect.x + (rect.w - std.width(text)) // 2 + s // 2,
                    rect.y + (rect.h - std.height) // 2, text, WHITE if on else BLACK, std)
        kind, index = self._focused()
        if kind == "button":
            self.row.focus = index
        else:  # a second frame inside the key (a ring outside would cover its neighbours)
            r = self.keys[index][1]
            fb.rectangle(Rect(r.x + s, r.y + s, r.w - 2 * s, r.h - 2 * s), BLACK, s)
        self.row.draw(fb, focused=kind == "button")

    def press(self, key: str) -> None:
        """Type one key as if tapped (also for tests and scripts)."""
        if key == SHIFT:
            self.shift = not self.shift
            return
        if self.selected:
            self.selected = False
            self.text = ""
            if key == DELETE:
                return
        if key == DELETE:
            self.text = self.text[:-1]
            self.shift = self.shift or (self.capital and not self.text)  # a capital first
        elif len(self.text) < self.most:
            self.text += self.label(key)
            self.shift = False

    def type(self, text: str) -> None:
        """Type a whole name (tests): capitals through Shift, as a player would."""
        for ch in text:
            if ch.isupper() != self.shift and ch.isalpha():
                self.press(SHIFT)
            self.press(ch.lower())

    def _char(self, char: str) -> None:
        if char == "\n":
            self._choose(0)
        elif char == "\b":
            self.press(DELETE)
        elif (len(char) == 1 and char.isascii()
              and (char.isalnum() or any(char in row for row in self.rows)
                   or char in self.typed_too)):
            if self.selected:
                self.press(DELETE)  # the shown text goes; then the letter, a capital first
            if len(self.text) < self.most:
                self.text += char.upper() if self.shift else char
                self.shift = False

    def _move(self, key: Key) -> None:
        grid = self._grid()
        r, c = self.cursor
        if key in (Key.LEFT, Key.RIGHT):
            c = (c + (1 if key is Key.RIGHT else -1)) % grid[r]
        else:
            old = grid[r]
            r = (r + (1 if key is Key.DOWN else -1)) % len(grid)
            c = min(grid[r] - 1, c * grid[r] // old)  # about the same place across
        self.cursor = (r, c)

    def _handle(self, event: PenDown | PenMove | PenUp | KeyDown) -> None:
        if isinstance(event, KeyDown):
            if event.key is Key.SELECT:
                kind, index = self._focused()
                if kind == "key":
                    self.press(self.keys[index][0])
                else:
                    self._choose(index)
            elif event.key in (Key.UP, Key.DOWN, Key.LEFT, Key.RIGHT):
                self._move(event.key)
            return
        mine, pressed = self.pad.track(event, [r for _, r in self.keys])
        if pressed is not None:
            self.press(self.keys[pressed][0])
        if not mine:
            self._choose(self.row.pen(event))

    def _choose(self, button: int | None) -> None:
        if button == 0 and self.text:
            self.close(self.text)
        elif button == 1:
            self.close(None)
