"""Turn an RGBA image into palette indices for an indexed Palm bitmap.

Three palettes: the 8-bit system palette, the grey ramps of depths 1/2/4, or
a colour table made for the image. Floyd-Steinberg dithering is optional.
Pixels with alpha < 128 become a transparent index that no opaque pixel uses.
"""

from __future__ import annotations

from functools import cache

from PIL import Image, ImageStat

from prc_tools.bitmap.lookup import look_up, table
from prc_tools.bitmap.nearest_colour import nearest_indices
from prc_tools.bitmap.palette import (
    BLACK_8BIT,
    FIRST_UNUSED_8BIT,
    LAST_UNUSED_8BIT,
    PALM_8BIT,
    RGB,
    flat,
    grey_levels,
)
from prc_tools.errors import BitmapError
from prc_tools.frozen import Frozen

ALPHA_THRESHOLD = 128
# Preferred key colours for a transparent colour-table entry, then any free one.
_KEY_CANDIDATES: tuple[RGB, ...] = ((255, 0, 255), (0, 255, 0), (0, 255, 255))


# Point and translate tables, built once.
_TRANSPARENT = table(lambda a: 255 if a < ALPHA_THRESHOLD else 0)
_INVERT = table(lambda v: 255 - v)
# The unused slots 230..254 are black too; always write black as 255.
_UNUSED_AS_BLACK = bytes(
    BLACK_8BIT if FIRST_UNUSED_8BIT <= i <= LAST_UNUSED_8BIT else i for i in range(256)
)


@cache
def _grey_index_table(top: int) -> bytes:
    """Luminance to the nearest index of a grey ramp of ``top + 1`` levels (0 is white)."""
    return table(lambda v: ((255 - v) * top + 127) // 255)


class Indexed(Frozen):
    """Pixel indices (an "L" image holding index values) and how to read them."""

    indices: Image.Image
    colour_table: tuple[RGB, ...] | None  # None: the depth's default palette
    transparent_index: int | None


def transparency_mask(image: Image.Image) -> Image.Image | None:
    """An "L" mask, 255 where the pixel is transparent; None if no pixel is."""
    if "A" not in image.getbands():
        return None
    alpha = image.getchannel("A")
    mask = look_up(alpha, _TRANSPARENT)
    return mask if mask.getbbox() is not None else None


def _palette_image(colours: tuple[RGB, ...] | list[RGB]) -> Image.Image:
    palette = Image.new("P", (1, 1))
    palette.putpalette(flat(list(colours)))
    return palette


def _as_index_image(paletted: Image.Image) -> Image.Image:
    return Image.frombytes("L", paletted.size, paletted.tobytes())


def to_indices(image: Image.Image, depth: int, colour_table: bool, dither: bool) -> Indexed:
    """Map ``image`` (any mode) to the indices of a ``depth``-bit bitmap."""
    if depth not in (1, 2, 4, 8):
        raise ValueError(f"indexed depths are 1, 2, 4 and 8, not {depth}")
    rgba = image.convert("RGBA")
    mask = transparency_mask(rgba)
    rgb = rgba.convert("RGB")
    if colour_table:
        return _with_colour_table(rgb, mask, depth, dither)
    if depth == 8:
        return _system_palette(rgb, mask, dither)
    return _greys(rgb, mask, depth, dither)


def _system_palette(rgb: Image.Image, mask: Image.Image | None, dither: bool) -> Indexed:
    if dither:
        quantized = rgb.quantize(
            palette=_palette_image(PALM_8BIT), dither=Image.Dither.FLOYDSTEINBERG
        )
        indices = Image.frombytes("L", rgb.size, quantized.tobytes().translate(_UNUSED_AS_BLACK))
    else:
        indices = nearest_indices(rgb)
    if mask is None:
        return Indexed(indices, None, None)
    # An unused slot: no opaque pixel can ever carry it.
    indices.paste(FIRST_UNUSED_8BIT, mask=mask)
    return Indexed(indices, None, FIRST_UNUSED_8BIT)


def _greys(rgb: Image.Image, mask: Image.Image | None, depth: int, dither: bool) -> Indexed:
    levels = grey_levels(depth)
    top = len(levels) - 1
    luminance = rgb.convert("L")
    if dither:
        quantized = luminance.convert("RGB").quantize(
            palette=_palette_image(levels), dither=Image.Dither.FLOYDSTEINBERG
        )
        indices = _as_index_image(quantized)
    else:
        indices = look_up(luminance, _grey_index_table(top))
    if mask is None:
        return Indexed(indices, None, None)
    opaque = look_up(mask, _INVERT)
    counts = indices.histogram(mask=opaque)[: top + 1]
    free = [i for i, count in enumerate(counts) if count == 0]
    if free:
        key = free[-1]
    else:
        if depth == 1:
            raise BitmapError(
                "a 1-bit bitmap using both black and white has no index left for transparency; "
                "use depth 2 or more"
            )
        # Free the least used grey by folding it into its neighbour.
        key = min(range(top + 1), key=lambda i: (counts[i], i))
        neighbour = key - 1 if key == top else key + 1
        indices = look_up(indices, table(lambda v: neighbour if v == key else v))
    indices.paste(key, mask=mask)
    return Indexed(indices, None, key)


def _with_colour_table(
    rgb: Image.Image, mask: Image.Image | None, depth: int, dither: bool
) -> Indexed:
    capacity = (1 << depth) - (1 if mask is not None else 0)
    if mask is not None:
        # Paint transparent pixels with the mean opaque colour so their hidden
        # colours do not claim table entries.
        opaque = look_up(mask, _INVERT)
        mean = ImageStat.Stat(rgb, mask=opaque).mean
        rgb = rgb.copy()
        rgb.paste(tuple(round(c) for c in mean), mask=mask)
    adaptive = rgb.quantize(
        colors=capacity, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE
    )
    used = max(i for i, count in enumerate(adaptive.histogram()) if count) + 1
    raw_palette = adaptive.getpalette() or []
    table = [tuple(raw_palette[3 * i : 3 * i + 3]) for i in range(used)]
    colours: list[RGB] = [(c[0], c[1], c[2]) for c in table]
    if dither:
        adaptive = rgb.quantize(palette=_palette_image(colours), dither=Image.Dither.FLOYDSTEINBERG)
    indices = _as_index_image(adaptive)
    if mask is None:
        return Indexed(indices, tuple(colours), None)
    key = len(colours)
    colours.append(_free_colour(set(colours)))
    indices.paste(key, mask=mask)
    return Indexed(indices, tuple(colours), key)


def _free_colour(taken: set[RGB]) -> RGB:
    for colour in _KEY_CANDIDATES:
        if colour not in taken:
            return colour
    for value in range(1 << 24):
        colour = (value >> 16, (value >> 8) & 0xFF, value & 0xFF)
        if colour not in taken:
            return colour
    raise AssertionError("a table of at most 256 colours leaves some colour free")
