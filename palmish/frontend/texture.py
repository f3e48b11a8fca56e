"""GL textures for the window: the LCD (updated in place) and the bezel.

The LCD texture is created once per screen size and only the damaged regions
are re-uploaded (glTexSubImage2D through `Texture.blit_into`). Both textures
use nearest-neighbour filtering so pixels stay sharp at any integer zoom.
GL wants rows bottom-up; Pillow gives them top-down, so regions are flipped.
"""

from __future__ import annotations

import pyglet
from PIL import Image
from pyglet import gl

from palmish.device.geometry import Rect
from palmish.frontend.skin import Face

# Beyond this many damaged rectangles one upload of their bounding box is cheaper
# than many small uploads (each costs a GL call and a row flip).
MAX_SEPARATE_UPLOADS = 8


def nearest_texture(width: int, height: int) -> pyglet.image.Texture:
    return pyglet.image.Texture.create(
        width, height, min_filter=gl.GL_NEAREST, mag_filter=gl.GL_NEAREST
    )


def image_data(image: Image.Image) -> pyglet.image.ImageData:
    """A Pillow image as pyglet image data (rows flipped to GL's bottom-up order)."""
    mode = image.mode if image.mode in ("RGB", "RGBA") else "RGB"
    flipped = image.convert(mode).transpose(Image.Transpose.FLIP_TOP_BOTTOM)
    width, height = flipped.size
    return pyglet.image.ImageData(
        width, height, mode, flipped.tobytes(), pitch=width * len(mode)
    )


def bezel_texture(face: Face, background: tuple[int, int, int]) -> pyglet.image.Texture:
    """The skin picture laid over the window background (so no GL blending is needed)."""
    width, height = face.size
    texture = nearest_texture(width, height)
    rows = face.bezel(background)  # already bottom row first
    texture.blit_into(pyglet.image.ImageData(width, height, "RGB", rows, pitch=width * 3),
                      0, 0, 0)
    return texture


def frame_around(width: int, height: int, hole: Rect) -> list[tuple[int, int, int, int]]:
    """The parts of a width x height picture around `hole` (y down, as skins give it),
    as (x, y, w, h) with y up, as GL draws them: bottom, top, left, right; empty ones
    left out. The bezel is drawn as these, not whole under the LCD: a software
    renderer pays for every pixel drawn, and the LCD covers the hole anyway."""
    hole_y = height - hole.bottom  # the hole's lowest row, counted from the bottom
    parts = [(0, 0, width, hole_y), (0, hole_y + hole.h, width, height - hole_y - hole.h),
             (0, hole_y, hole.x, hole.h), (hole.right, hole_y, width - hole.right, hole.h)]
    return [part for part in parts if part[2] > 0 and part[3] > 0]


def bounding_box(rects: list[Rect]) -> Rect:
    box = rects[0]
    for rect in rects[1:]:
        box = box.union(rect)
    return box


class LcdTexture:
    """One texture the size of the LCD, kept in step with the framebuffer image."""

    def __init__(self, width: int, height: int) -> None:
        self.width = width
        self.height = height
        self.texture = nearest_texture(width, height)
        self.uploaded_pixels = 0  # running total, for benchmarks and tests

    def upload_all(self, image: Image.Image) -> None:
        self.upload(image, [Rect(0, 0, self.width, self.height)])

    def upload(self, image: Image.Image, damage: list[Rect]) -> None:
        """Copy the damaged regions of `image` (the whole LCD) into the texture."""
        screen = Rect(0, 0, self.width, self.height)
        clipped = [r for r in (d.intersect(screen) for d in damage) if r is not None]
        if len(clipped) > MAX_SEPARATE_UPLOADS:
            clipped = [bounding_box(clipped)]
        for rect in clipped:
            region = image_data(image.crop(rect.box()))
            # GL's y runs up from the bottom row of the texture.
            self.texture.blit_into(region, rect.x, self.height - rect.bottom, 0)
            self.uploaded_pixels += rect.w * rect.h
