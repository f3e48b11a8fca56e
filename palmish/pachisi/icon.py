"""The launcher icon: the cross with its centre and one piece of each colour on its
arm, as the seats sit (red South, gray West, white North, magenta East), drawn once
at low density; the launcher doubles it on 144 dpi."""

from __future__ import annotations

from functools import cache

from PIL import Image, ImageDraw

from palmish.pachisi.pictures import COLOUR_RGB

SIZE = 22  # low-density pixels, the size of the launcher's generic icon
ARM = 7  # the arms' width
INK = (0, 0, 0, 255)
TRACK = (250, 240, 205, 255)
CENTRE = (200, 70, 40, 255)
SAFE = (150, 215, 120, 255)  # the home stretches' light green
# Each colour's piece: its centre pixel, near the end of its seat's arm.
PIECES = (("red", (10, 17)), ("gray", (4, 10)), ("white", (10, 4)), ("magenta", (16, 10)))


@cache
def launcher_icon() -> Image.Image:
    img = Image.new("RGBA", (SIZE, SIZE), (0, 0, 0, 0))
    draw = ImageDraw.Draw(img)
    lo, hi = (SIZE - ARM) // 2, (SIZE - ARM) // 2 + ARM - 1
    draw.rectangle((lo, 0, hi, SIZE - 1), fill=TRACK, outline=INK)
    draw.rectangle((0, lo, SIZE - 1, hi), fill=TRACK, outline=INK)
    draw.rectangle((lo + 1, lo, hi - 1, hi), fill=TRACK)  # no lines across the middle
    draw.rectangle((lo, lo + 1, hi, hi - 1), fill=TRACK)
    mid = SIZE // 2 - 1
    draw.line((mid, 1, mid, SIZE - 2), fill=SAFE, width=3)  # the home stretches
    draw.line((1, mid, SIZE - 2, mid), fill=SAFE, width=3)
    draw.rectangle((lo + 1, lo + 1, hi - 1, hi - 1), fill=CENTRE)
    for colour, (x, y) in PIECES:
        draw.ellipse((x - 2, y - 2, x + 2, y + 2), fill=(*COLOUR_RGB[colour], 255), outline=INK)
    return img
