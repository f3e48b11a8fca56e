"""Palm OS colour palettes: the 8-bit system palette and the linear grey ramps.

Colours are (r, g, b) tuples of 0..255. Palettes are tuples indexed by pixel value.
"""

from __future__ import annotations

from functools import cache

RGB = tuple[int, int, int]

# The web-safe levels, brightest first, in the order the system palette walks them.
_CUBE_LEVELS = (255, 204, 153, 102, 51, 0)

# Indices 215..224: the greys the cube lacks; 225..229: the old VGA-style extras.
_EXTRA_GREYS = (0x11, 0x22, 0x44, 0x55, 0x77, 0x88, 0xAA, 0xBB, 0xDD, 0xEE)
_EXTRA_COLOURS: tuple[RGB, ...] = (
    (0xC0, 0xC0, 0xC0),
    (0x80, 0x00, 0x00),
    (0x80, 0x00, 0x80),
    (0x00, 0x80, 0x00),
    (0x00, 0x80, 0x80),
)

# Indices 230..254 are unused by Palm OS (they read as black); 255 is black.
FIRST_UNUSED_8BIT = 230
LAST_UNUSED_8BIT = 254
BLACK_8BIT = 255


def _build_system_palette() -> tuple[RGB, ...]:
    colours: list[RGB] = []
    # The cube is split by blue into a bright half and a dark half; within each
    # half red varies slowest, then blue, then green.
    for blue_half in (_CUBE_LEVELS[:3], _CUBE_LEVELS[3:]):
        for red in _CUBE_LEVELS:
            for blue in blue_half:
                for green in _CUBE_LEVELS:
                    colours.append((red, green, blue))
    colours.pop()  # the cube's black is index 255 instead
    colours.extend((v, v, v) for v in _EXTRA_GREYS)
    colours.extend(_EXTRA_COLOURS)
    colours.extend((0, 0, 0) for _ in range(FIRST_UNUSED_8BIT, BLACK_8BIT + 1))
    assert len(colours) == 256
    return tuple(colours)


PALM_8BIT: tuple[RGB, ...] = _build_system_palette()
"""The 256 colours of the Palm OS 8-bit system palette, by index."""


@cache
def grey_levels(depth: int) -> tuple[RGB, ...]:
    """The grey ramp of a 1, 2 or 4 bit bitmap without a colour table.

    Index 0 is white and the highest index black, evenly spaced (as netpbm reads them).
    """
    if depth not in (1, 2, 4):
        raise ValueError(f"grey ramps exist for depths 1, 2 and 4, not {depth}")
    top = (1 << depth) - 1
    return tuple((v, v, v) for v in (255 - (i * 255) // top for i in range(top + 1)))


def default_palette(depth: int) -> tuple[RGB, ...]:
    """The colours an indexed bitmap of this depth uses when it has no colour table."""
    if depth == 8:
        return PALM_8BIT
    return grey_levels(depth)


def flat(colours: tuple[RGB, ...] | list[RGB]) -> list[int]:
    """A palette as the flat [r, g, b, r, g, b, ...] list Pillow's putpalette takes."""
    return [channel for colour in colours for channel in colour]
