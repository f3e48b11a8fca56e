"""Drawing helpers every game's view uses."""

from __future__ import annotations

from PIL import Image

from palmish.device.geometry import Rect
from palmish.device.graphics.screen import Framebuffer

RGB = tuple[int, int, int]


def fill_tiled(fb: Framebuffer, rect: Rect, area: Rect, img: Image.Image | None,
               colour: RGB) -> None:
    """The part of `rect` inside `area`: `img` repeated from the rect's top-left, or
    `colour` when there is no picture."""
    clip = rect.intersect(area)
    if clip is None:
        return
    if img is None:
        fb.fill(clip, colour)
        return
    # Start at the first copy that shows, so a small area blits only what it needs.
    x0 = rect.x + (clip.x - rect.x) // img.width * img.width
    y0 = rect.y + (clip.y - rect.y) // img.height * img.height
    for y in range(y0, clip.bottom, img.height):
        for x in range(x0, clip.right, img.width):
            fb.blit(img, x, y, clip=clip)
