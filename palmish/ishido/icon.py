"""The launcher icon: four stones of the game, each a colour of its own and a mark,
as they would touch on the board, drawn once at low density; the launcher doubles
it on 144 dpi."""

from __future__ import annotations

from functools import cache

from PIL import Image, ImageDraw

from palmish.ishido.art import FALLBACK_COLOURS

SIZE = 22  # low-density pixels, the size of the launcher's generic icon
STONE = 10  # a stone's side; two side by side with a pixel between fill the icon
INK = (0, 0, 0, 255)
MARK = (255, 255, 255, 255)


@cache
def launcher_icon() -> Image.Image:
    img = Image.new("RGBA", (SIZE, SIZE), (0, 0, 0, 0))
    draw = ImageDraw.Draw(img)
    for i, colour in enumerate(FALLBACK_COLOURS[:4]):
        x, y = (i % 2) * (STONE + 1), (i // 2) * (STONE + 1)
        draw.rectangle((x, y, x + STONE, y + STONE), fill=(*colour, 255), outline=INK)
        c = STONE // 2
        if i % 2:  # two marks, so neighbours differ by shape as well as colour
            draw.ellipse((x + c - 2, y + c - 2, x + c + 2, y + c + 2), fill=MARK)
        else:
            draw.polygon([(x + c, y + c - 3), (x + c + 3, y + c + 2), (x + c - 3, y + c + 2)],
                         fill=MARK)
    return img
