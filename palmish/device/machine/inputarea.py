"""The dynamic input area the OS draws when it is open: a Graffiti-style writing area.

Decorative: two writing boxes (letters on the left, numbers on the right) with
their hints, framed like the T3's. Taps on it are ignored by the device.
"""

from __future__ import annotations

from palmish.device.display import DisplayConfig
from palmish.device.geometry import Rect
from palmish.device.graphics.screen import Framebuffer

AREA_COLOUR = (44, 48, 56)
BOX_COLOUR = (214, 222, 206)
BOX_EDGE = (120, 128, 116)
HINT_COLOUR = (132, 140, 128)
MARK_COLOUR = (90, 98, 88)


def writing_boxes(area: Rect) -> tuple[Rect, Rect]:
    """The letter box and the number box inside the area (letters wider, as on Palm)."""
    margin = 8
    inner = Rect(area.x + margin, area.y + margin, area.w - 2 * margin, area.h - 2 * margin)
    letters_w = inner.w * 3 // 5
    gap = 6
    letters = Rect(inner.x, inner.y, letters_w - gap // 2, inner.h)
    numbers = Rect(inner.x + letters_w + gap // 2, inner.y, inner.w - letters_w - gap // 2, inner.h)
    return letters, numbers


def draw_input_area(fb: Framebuffer, config: DisplayConfig) -> None:
    area = config.input_area
    if area is None:
        return
    fb.fill(area, AREA_COLOUR)
    for box, hints in zip(writing_boxes(area), (("abc", "ABC"), ("123",)), strict=True):
        fb.round_rect(box, 8, outline=BOX_EDGE, fill=BOX_COLOUR, width=2)
        # The baseline guide a writer aims at, and the small marks at its ends.
        guide_y = box.y + box.h * 2 // 3
        fb.line(box.x + 14, guide_y, box.right - 15, guide_y, BOX_EDGE)
        for x in (box.x + 10, box.right - 11):
            fb.polygon([(x - 3, guide_y - 4), (x + 3, guide_y - 4), (x, guide_y)], MARK_COLOUR)
        font = fb.font("bold")
        y = box.bottom - fb.line_height(font) - 8
        x = box.x + 12
        for hint in hints:
            x += fb.text(x, y, hint, colour=HINT_COLOUR, font=font) + 10
