"""The pictures PalmIshido draws with, taken from its Board and Pieces plugins.

Resolves a plugin's bitmaps at the screen's density and its pINF offsets (given
in double-density pixels) to native pixels. Anything a plugin lacks is drawn
here plainly, so a missing or broken plugin never stops the game.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from PIL import Image, ImageDraw

from palmish.boardgame.plugin_art import LazyPictures, PluginLike, fit, readable_on
from palmish.ishido.layout import IshidoLayout
from palmish.ishido.schema import SCHEMA
from prc_tools.frozen import Frozen, field

RGB = tuple[int, int, int]

# The plugins' bitmap ids, from PalmIshido's plugin schema (the manifests name them).
_BITMAP_IDS = SCHEMA.bitmaps
TILE_BASE = _BITMAP_IDS["tile"]
LIFTED_BASE = _BITMAP_IDS["lifted"]
BOARD_ID = _BITMAP_IDS["board"]
MARK_ID = _BITMAP_IDS["cell_mark"]
PANEL_ID = _BITMAP_IDS["panel"]

# Plain stand-ins when no Pieces plugin can be loaded.
FALLBACK_COLOURS: list[RGB] = [
    (210, 40, 40), (230, 180, 20), (40, 150, 60), (20, 160, 190), (40, 70, 200), (180, 50, 160),
]


class Art(Frozen, frozen=False):
    """The pictures a layout draws with, at its density and cell size."""

    cell: tuple[int, int]  # native pixels
    tiles: dict[tuple[int, int], Image.Image]  # (colour, shape) -> RGBA
    # Decoded when first dragged (a start shows none): LazyPictures from plugins.
    lifted: Mapping[tuple[int, int], Image.Image]
    anchor: tuple[int, int]  # native pixels, relative to the cell's top-left
    lifted_anchor: tuple[int, int]
    board: Image.Image | None  # exactly the board's size, or None (plain grid)
    mark: Image.Image | None
    panel: Image.Image | None
    text_colour: RGB = (0, 0, 0)
    notes: list[str] = field(default_factory=list)  # what fell back, for the user

    def tile(self, colour: int, shape: int, lifted: bool = False) -> Image.Image:
        if lifted and (colour, shape) in self.lifted:
            return self.lifted[(colour, shape)]
        return self.tiles[(colour, shape)]

    def offset(self, colour: int, shape: int, lifted: bool = False) -> tuple[int, int]:
        if lifted and (colour, shape) in self.lifted:
            return self.lifted_anchor
        return self.anchor


def _pair(fields: Mapping[str, object], key: str, default: tuple[int, int]) -> tuple[int, int]:
    value = fields.get(key)
    if (isinstance(value, list | tuple) and len(value) == 2
            and all(isinstance(v, int) for v in value)):
        return (int(value[0]), int(value[1]))
    return default


def _scaled(img: Image.Image, factor_x: float, factor_y: float) -> Image.Image:
    if factor_x == 1 and factor_y == 1:
        return img
    size = (max(1, round(img.width * factor_x)), max(1, round(img.height * factor_y)))
    return img.resize(size, Image.Resampling.NEAREST)


def load_art(layout: IshidoLayout, pieces: PluginLike | None,
             board: PluginLike | None) -> Art:
    """The art for `layout` from the chosen plugins (None: the plain stand-ins)."""
    density = layout.density
    cell = (layout.cell_w, layout.cell_h)
    notes: list[str] = []
    tiles: dict[tuple[int, int], Image.Image] = {}
    lifted: Mapping[tuple[int, int], Image.Image] = {}
    anchor = lifted_anchor = (0, 0)
    if pieces is not None:
        fields = pieces.info.fields
        # A plugin drawn for another cell size is stretched to fit rather than refused.
        pcell = _pair(fields, "cell", (cell[0] * 144 // density, cell[1] * 144 // density))
        fx = cell[0] / max(1, pcell[0] * density // 144)
        fy = cell[1] / max(1, pcell[1] * density // 144)
        a = _pair(fields, "anchor", (0, 0))
        la = _pair(fields, "lifted_anchor", a)
        anchor = (round(a[0] * density / 144 * fx), round(a[1] * density / 144 * fy))
        lifted_anchor = (round(la[0] * density / 144 * fx), round(la[1] * density / 144 * fy))
        for c in range(6):
            for s in range(6):
                img = pieces.bitmap(TILE_BASE + 6 * c + s, density)
                if img is None:
                    notes.append(f"pieces plugin lacks tile {c},{s}")
                    continue
                tiles[(c, s)] = _scaled(img, fx, fy)
        lifted = LazyPictures({key: _lifted_maker(pieces, key, density, fx, fy) for key in tiles})
    for c in range(6):
        for s in range(6):
            if (c, s) not in tiles:
                tiles[(c, s)] = plain_tile(c, s, cell)
    board_img = mark = panel = None
    text_colour: RGB = (0, 0, 0)
    if board is not None:
        board_img = fit(board.bitmap(BOARD_ID, density), (layout.board.w, layout.board.h))
        mark = fit(board.bitmap(MARK_ID, density), cell)
        panel = board.bitmap(PANEL_ID, density)
        colour = board.info.fields.get("text_color")
        if (isinstance(colour, list) and len(colour) == 3
                and all(isinstance(v, int) and 0 <= v <= 255 for v in colour)):
            text_colour = (colour[0], colour[1], colour[2])
        elif panel is not None:
            text_colour = readable_on(panel)
    return Art(cell, tiles, lifted, anchor, lifted_anchor, board_img, mark, panel,
               text_colour, notes)


def _lifted_maker(pieces: PluginLike, key: tuple[int, int], density: int, fx: float,
                  fy: float) -> Callable[[], Image.Image | None]:
    def make() -> Image.Image | None:
        up = pieces.bitmap(LIFTED_BASE + 6 * key[0] + key[1], density)
        return None if up is None else _scaled(up, fx, fy)

    return make


def plain_tile(colour: int, shape: int, cell: tuple[int, int]) -> Image.Image:
    """A stand-in tile: the colour as a fill, the shape as a simple black figure."""
    w, h = cell
    img = Image.new("RGBA", (w, h), FALLBACK_COLOURS[colour] + (255,))
    draw = ImageDraw.Draw(img)
    draw.rectangle((0, 0, w - 1, h - 1), outline=(0, 0, 0))
    r = max(2, w // 3)
    cx, cy = w // 2, h // 2
    box = (cx - r, cy - r, cx + r, cy + r)
    ink = (0, 0, 0)
    if shape == 0:
        draw.ellipse(box, fill=ink)
    elif shape == 1:
        draw.polygon([(cx, cy - r), (cx + r, cy + r), (cx - r, cy + r)], fill=ink)
    elif shape == 2:
        draw.rectangle(box, fill=ink)
    elif shape == 3:
        draw.polygon([(cx, cy - r), (cx + r, cy), (cx, cy + r), (cx - r, cy)], fill=ink)
    elif shape == 4:
        t = max(1, r // 3)
        draw.rectangle((cx - t, cy - r, cx + t, cy + r), fill=ink)
        draw.rectangle((cx - r, cy - t, cx + r, cy + t), fill=ink)
    else:
        draw.line((cx - r, cy - r, cx + r, cy + r), fill=ink, width=max(1, r // 2))
        draw.line((cx - r, cy + r, cx + r, cy - r), fill=ink, width=max(1, r // 2))
    return img
