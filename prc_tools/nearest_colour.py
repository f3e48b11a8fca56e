"""Exact nearest colour of the Palm 8-bit system palette, for whole images.

Pillow's palette mapping caches by 4x4x4 colour cells and so sometimes picks
a farther entry. Here the search is exact (squared RGB distance) and still runs
in Pillow: the palette is the 6x6x6 web cube, where the nearest entry is found
channel by channel, plus 15 other colours tried one by one.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from PIL import Image, ImageChops, ImageMath

from prc_tools.palette import BLACK_8BIT, FIRST_UNUSED_8BIT, PALM_8BIT, RGB

_STEP = 51  # the cube's levels are 0, 51, ..., 255


def _level(value: int) -> int:
    return (value + _STEP // 2) // _STEP


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


def nearest_indices(rgb: Image.Image) -> Image.Image:
    """An "L" image of the nearest system palette index for each pixel of ``rgb``."""
    red, green, blue = rgb.convert("RGB").split()
    code = ImageChops.add(
        ImageChops.add(
            red.point([_level(v) * 36 for v in range(256)]),
            green.point([_level(v) * 6 for v in range(256)]),
        ),
        blue.point([_level(v) for v in range(256)]),
    )
    indices = Image.frombytes("L", rgb.size, code.tobytes().translate(_cube_index_table()))

    snapped = [band.point([_level(v) * _STEP for v in range(256)]) for band in (red, green, blue)]
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
        mask = closer.convert("L").point([0] + [255] * 255)
        if mask.getbbox() is None:
            continue
        indices.paste(index, mask=mask)
        best = ImageMath.lambda_eval(lambda a: a["min"](a["d"], a["best"]), d=distance, best=best)
    return indices


def _squared(args: dict[str, Any], value: str, target: str) -> Any:
    difference = args[value] - args[target]
    return difference * difference
