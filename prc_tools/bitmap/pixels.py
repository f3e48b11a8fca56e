"""Raw Palm pixel rows <-> Pillow images, with Pillow doing the per-pixel work.

Indexed rows are packed most significant bit first; direct colour is RGB565
(big-endian in Palm bitmaps). Rows may carry padding up to ``row_bytes``.
"""

from __future__ import annotations

from array import array
from collections.abc import Sequence
from functools import lru_cache

from PIL import Image, ImageChops

from prc_tools import speedups
from prc_tools.bitmap.lookup import look_up, table
from prc_tools.bitmap.palette import RGB

_INDEXED_RAWMODES = {1: "P;1", 2: "P;2", 4: "P;4", 8: "P"}
_OPAQUE_BLACK = (0, 0, 0, 255)


def swap_bytes(data: bytes) -> bytes:
    """Swap each pair of bytes (big-endian <-> little-endian 16-bit words)."""
    if len(data) % 2:
        raise ValueError("swap_bytes: odd length")
    words = array("H", data)  # "H" is 2 bytes wherever Pillow runs
    words.byteswap()  # one C pass, far quicker than two stepped slices
    return words.tobytes()


def expand_565(value: int) -> RGB:
    """An RGB565 value as 8-bit channels, scaled as palmtopnm does (v * 255 // max)."""
    return (
        ((value >> 11) & 0x1F) * 255 // 31,
        ((value >> 5) & 0x3F) * 255 // 63,
        (value & 0x1F) * 255 // 31,
    )


def pack_565(colour: RGB) -> int:
    """The nearest RGB565 value to an 8-bit colour (rounded per channel)."""
    r, g, b = colour
    red, green, blue = (r * 31 + 127) // 255, (g * 63 + 127) // 255, (b * 31 + 127) // 255
    return (red << 11) | (green << 5) | blue


def indexed_to_image(
    raw: bytes,
    width: int,
    height: int,
    row_bytes: int,
    depth: int,
    palette: Sequence[RGB],
    transparent_index: int | None,
) -> Image.Image:
    """Indexed rows as an RGBA image; indices past the palette read as black."""
    if width == 0 or height == 0:
        return Image.new("RGBA", (width, height))
    indexed = Image.frombytes("P", (width, height), raw, "raw", _INDEXED_RAWMODES[depth], row_bytes)
    indexed.putpalette(_rgba_palette(tuple(palette[:256]), transparent_index), "RGBA")
    return indexed.convert("RGBA")


@lru_cache(maxsize=64)
def _rgba_palette(palette: tuple[RGB, ...], transparent_index: int | None) -> bytes:
    """A flat RGBA palette of 256 entries; kept, as most bitmaps share a few palettes."""
    entries = [(*colour, 255) for colour in palette]
    entries += [_OPAQUE_BLACK] * (256 - len(entries))
    if transparent_index is not None and transparent_index < 256:
        r, g, b, _ = entries[transparent_index]
        entries[transparent_index] = (r, g, b, 0)
    return bytes(channel for entry in entries for channel in entry)


def direct_to_image(
    raw: bytes,
    width: int,
    height: int,
    row_bytes: int,
    big_endian: bool,
    transparent_565: int | None,
) -> Image.Image:
    """RGB565 rows as an RGBA image; pixels equal to ``transparent_565`` get alpha 0."""
    if width == 0 or height == 0:
        return Image.new("RGBA", (width, height))
    little = swap_bytes(raw) if big_endian else raw
    # Pillow's "BGR;16" reads little-endian RGB565 and scales exactly like palmtopnm.
    size = (width, height)
    rgba = Image.frombytes("RGB", size, little, "raw", "BGR;16", row_bytes).convert("RGBA")
    if transparent_565 is not None:
        # Transparent where a pixel's word is the key: per byte 255 where it differs
        # from the key's byte, and the lighter of the two bytes' answers.
        low, high = Image.frombytes("LA", size, little, "raw", "LA", row_bytes).split()
        rgba.putalpha(ImageChops.lighter(
            look_up(low, _differs_from(transparent_565 & 0xFF)),
            look_up(high, _differs_from(transparent_565 >> 8)),
        ))
    return rgba


@lru_cache(maxsize=256)
def _differs_from(value: int) -> bytes:
    """A lookup table: 0 for ``value``, 255 for every other channel value."""
    return table(lambda v: 0 if v == value else 255)


# Point tables from 8-bit channels to the bits of big-endian RGB565 (high, low byte).
_RED_HIGH = table(lambda v: ((v * 31 + 127) // 255) << 3)
_GREEN_HIGH = table(lambda v: ((v * 63 + 127) // 255) >> 3)
_GREEN_LOW = table(lambda v: (((v * 63 + 127) // 255) & 7) << 5)
_BLUE_LOW = table(lambda v: (v * 31 + 127) // 255)


def image_to_565(rgb: Image.Image) -> bytes:
    """An RGB image as big-endian RGB565 pixels, rows unpadded."""
    native = speedups.native
    if native is not None and rgb.mode == "RGB":
        return native.rgb_to_565(rgb.tobytes())
    red, green, blue = rgb.split()
    high = ImageChops.add(look_up(red, _RED_HIGH), look_up(green, _GREEN_HIGH))
    low = ImageChops.add(look_up(green, _GREEN_LOW), look_up(blue, _BLUE_LOW))
    return Image.merge("LA", (high, low)).tobytes()


def indices_to_rows(indices: Image.Image, depth: int, row_bytes: int) -> list[bytes]:
    """An image of index values ("L" or "P") packed into Palm rows of ``row_bytes`` bytes."""
    width, height = indices.size
    if width == 0 or height == 0:
        return [bytes(row_bytes)] * height
    paletted = Image.frombytes("P", indices.size, indices.tobytes())
    packed = paletted.tobytes("raw", _INDEXED_RAWMODES[depth])
    stride = (width * depth + 7) // 8
    padding = bytes(row_bytes - stride)
    return [packed[y * stride : (y + 1) * stride] + padding for y in range(height)]


def words_to_rows(words: bytes, width: int, height: int, row_bytes: int) -> list[bytes]:
    """Unpadded 16-bit pixel data split into Palm rows of ``row_bytes`` bytes."""
    stride = width * 2
    padding = bytes(row_bytes - stride)
    return [words[y * stride : (y + 1) * stride] + padding for y in range(height)]


def row_bytes_for(width: int, depth: int) -> int:
    """Palm rows are padded to a whole number of 16-bit words."""
    return ((width * depth + 15) // 16) * 2
