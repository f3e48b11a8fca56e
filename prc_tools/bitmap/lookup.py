"""Per-pixel table lookups on one-band images, through ``bytes.translate``.

``Image.point`` turns its 256-entry table into a fresh list of rounded numbers
on every call, which costs more than the lookup itself on the small pictures
Palm bitmaps are; a bytes table is used as it is.
"""

from __future__ import annotations

from collections.abc import Callable

from PIL import Image


def table(entry: Callable[[int], int]) -> bytes:
    """A lookup table of ``entry(v)`` for each byte value ``v``."""
    return bytes(entry(v) for v in range(256))


def look_up(image: Image.Image, lookup: bytes) -> Image.Image:
    """An "L" image of ``lookup[v]`` for each pixel value ``v`` of a one-band 8-bit image."""
    return Image.frombytes("L", image.size, image.tobytes().translate(lookup))
