"""The launcher icon: a small hexagonal garden (gold in the middle, a ring of atoms in
the seed's colours) drawn once at low density; the launcher doubles it on 144 dpi."""

from __future__ import annotations

import math
from functools import cache

from PIL import Image, ImageDraw

from palmish.sigmar.art import CC_COLOURS
from palmish.sigmar.rules import Atom

SIZE = 22  # low-density pixels, the size of the launcher's generic icon
RING = (Atom.FIRE, Atom.WATER, Atom.EARTH, Atom.AIR, Atom.SALT, Atom.QUICKSILVER)
OUTLINE = (0, 0, 0, 255)


@cache
def launcher_icon() -> Image.Image:
    img = Image.new("RGBA", (SIZE, SIZE), (0, 0, 0, 0))
    draw = ImageDraw.Draw(img)
    c = (SIZE - 1) / 2
    # Six atoms on a ring around the gold, as the board's hex rows place them.
    for i, atom in enumerate(RING):
        a = math.radians(60 * i - 90)
        x, y = c + 7.5 * math.cos(a), c + 7.5 * math.sin(a)
        draw.ellipse((round(x - 3), round(y - 3), round(x + 3), round(y + 3)),
                     fill=(*CC_COLOURS[atom], 255), outline=OUTLINE)
    draw.ellipse((round(c - 4), round(c - 4), round(c + 4), round(c + 4)),
                 fill=(*CC_COLOURS[Atom.GOLD], 255), outline=OUTLINE)
    return img
