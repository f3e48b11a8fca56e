"""Exact nearest colour of the Palm 8-bit system palette, for whole images.

Pillow's palette mapping caches by 4x4x4 colour cells and so sometimes picks
a farther entry. Here the search is exact (squared RGB distance) and runs in
Pillow: the palette is the 6x6x6 web cube, where the nearest entry is found
channel by channel, plus 15 other colours tried one by one.

The search runs once per distinct colour, not per pixel (Palm art has a few
hundred colours at most), and its answers are kept for the process; a lookup
from colour to index then maps every pixel in one C-level pass. (Pillow's own
median cut keeps up to 256 colours exactly too, but takes twice as long.)
"""

from __future__ import annotations

from array import array
from collections.abc import Iterable
from functools import cache
from typing import Any

from PIL import Image, ImageChops, ImageMath

from prc_tools import speedups
from prc_tools.bitmap.palette import BLACK_8BIT, FIRST_UNUSED_8BIT, PALM_8BIT, RGB

_STEP = 51  # the cube's levels are 0, 51, ..., 255


def _level(value: int) -> int:
    return (value + _STEP // 2) // _STEP


# Per-channel tables, built once: a channel's cube level scaled into the cube
# code (level_r * 36 + level_g * 6 + level_b), and the channel snapped to its level.
_RED_CODE = [_level(v) * 36 for v in range(256)]
_GREEN_CODE = [_level(v) * 6 for v in range(256)]
_BLUE_CODE = [_level(v) for v in range(256)]
_SNAP = [_level(v) * _STEP for v in range(256)]
_NONZERO = [0] + [255] * 255


@cache
def _cube_index_table() -> bytes:
    """Maps level_r * 36 + level_g * 6 + level_b to the palette index of that cube colour."""
    index_of = {colour: i for i, colour in enumerate(PALM_8BIT[:FIRST_UNUSED_8BIT])}
    index_of[(0, 0, 0)] = BLACK_8BIT
    table = bytearray(256)
    for code in range(216):
        colour = (code // 36 * _STEP, code // 6 % 6 * _STEP, code % 6 * _STEP)
        table[code] = index_of[colour]
    return bytes(table)


@cache
def _others() -> tuple[tuple[int, RGB], ...]:
    """The palette entries outside the cube (greys and extras), with their indices."""
    levels = set(range(0, 256, _STEP))
    return tuple(
        (index, colour)
        for index, colour in enumerate(PALM_8BIT[:FIRST_UNUSED_8BIT])
        if not set(colour) <= levels
    )


# Found indices by pixel key (r, g, b, pad as one native 32-bit int), kept for
# the process: a build maps the same few hundred colours again and again.
_FOUND: dict[int, int] = {}
_FOUND_LIMIT = 1 << 20
# Past this many new colours one image-wide pass beats a Python loop per colour.
_SEARCH_BY_IMAGE = 4096


def nearest_indices(rgb: Image.Image) -> Image.Image:
    """An "L" image of the nearest system palette index for each pixel of ``rgb``."""
    rgb = rgb.convert("RGB")
    if rgb.width == 0 or rgb.height == 0:
        return Image.new("L", rgb.size)
    # Each pixel as one 32-bit key (r, g, b and a constant pad byte).
    pixels = memoryview(rgb.convert("RGBX").tobytes()).cast("I")
    native = speedups.native
    ordered = array("I")  # the C path's distinct keys, ascending
    keys: Iterable[int]
    if native is not None:
        ordered.frombytes(native.distinct_keys(pixels))
        keys = ordered
    elif (few := rgb.getcolors(256)) is not None:  # quick when there are at most 256
        strip = Image.new("RGB", (len(few), 1))
        strip.putdata([colour for _, colour in few])
        keys = memoryview(strip.convert("RGBX").tobytes()).cast("I")
    else:
        keys = set(pixels)
    new = array("I", (key for key in keys if key not in _FOUND))
    if new:
        if len(_FOUND) + len(new) > _FOUND_LIMIT:
            _FOUND.clear()
            new = array("I", keys)  # the image's kept colours went too
        _search(new)
    if native is not None:
        found = bytes(map(_FOUND.__getitem__, ordered))
        return Image.frombytes("L", rgb.size, native.map_keys(pixels, ordered, found))
    # Row by row, each distinct row once: art repeats rows.
    width = rgb.width
    done: dict[bytes, bytes] = {}
    out = []
    for start in range(0, len(pixels), width):
        row = pixels[start : start + width]
        key = row.tobytes()
        mapped = done.get(key)
        if mapped is None:
            mapped = done[key] = bytes(map(_FOUND.__getitem__, row))
        out.append(mapped)
    return Image.frombytes("L", rgb.size, b"".join(out))


def _search(keys: array[int]) -> None:
    """Find and keep the nearest index of each colour key."""
    if len(keys) > _SEARCH_BY_IMAGE:
        strip = Image.frombytes("RGBX", (len(keys), 1), keys.tobytes()).convert("RGB")
        _FOUND.update(zip(keys, _nearest_per_pixel(strip).tobytes(), strict=True))
        return
    cube = _cube_index_table()
    others = _others()
    raw = keys.tobytes()
    for n, key in enumerate(keys):
        r, g, b = raw[4 * n], raw[4 * n + 1], raw[4 * n + 2]
        # The same order and ties as the image-wide search: the cube entry
        # first, then each other colour only if strictly nearer.
        lr, lg, lb = _level(r), _level(g), _level(b)
        index = cube[lr * 36 + lg * 6 + lb]
        dr, dg, db = r - lr * _STEP, g - lg * _STEP, b - lb * _STEP
        best = dr * dr + dg * dg + db * db
        for other, (er, eg, eb) in others:
            dr, dg, db = r - er, g - eg, b - eb
            distance = dr * dr + dg * dg + db * db
            if distance < best:
                best, index = distance, other
        _FOUND[key] = index


def _nearest_per_pixel(rgb: Image.Image) -> Image.Image:
    """The exact search, a whole-image pass per palette colour outside the cube."""
    red, green, blue = rgb.split()
    code = ImageChops.add(
        ImageChops.add(red.point(_RED_CODE), green.point(_GREEN_CODE)),
        blue.point(_BLUE_CODE),
    )
    indices = Image.frombytes("L", rgb.size, code.tobytes().translate(_cube_index_table()))

    snapped = [band.point(_SNAP) for band in (red, green, blue)]
    best = ImageMath.lambda_eval(
        lambda a: _squared(a, "r", "sr") + _squared(a, "g", "sg") + _squared(a, "b", "sb"),
        r=red,
        g=green,
        b=blue,
        sr=snapped[0],
        sg=snapped[1],
        sb=snapped[2],
    )
    for index, (er, eg, eb) in _others():
        distance = ImageMath.lambda_eval(
            lambda a: _squared(a, "r", "er") + _squared(a, "g", "eg") + _squared(a, "b", "eb"),
            r=red,
            g=green,
            b=blue,
            er=er,
            eg=eg,
            eb=eb,
        )
        closer = ImageMath.lambda_eval(lambda a: a["d"] < a["best"], d=distance, best=best)
        mask = closer.convert("L").point(_NONZERO)
        if mask.getbbox() is None:
            continue
        indices.paste(index, mask=mask)
        best = ImageMath.lambda_eval(lambda a: a["min"](a["d"], a["best"]), d=distance, best=best)
    return indices


def _squared(args: dict[str, Any], value: str, target: str) -> Any:
    difference = args[value] - args[target]
    return difference * difference
