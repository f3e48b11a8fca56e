"""The hexagonal garden's board pictures: the hexagonal cell and its marks.

They come from a Hex Board plugin (kind `hexboard`, database type SgHx in
palmish/sigmar/plugin-schema.yaml): a cell is a pointy-topped hexagon one cell
wide and hex_height tall, its corners clear. What the plugin lacks is drawn
here plainly (the same shapes palmish/sigmar/make_art.py draws the bundled
plugin with), so a missing or broken plugin never stops the game. The atoms
are the Pieces plugin's, as in the square garden: round atoms fit a hexagon.
"""

from __future__ import annotations

from PIL import Image, ImageDraw

from palmish.boardgame.plugin_art import PluginLike, colour_value, readable_on
from palmish.sigmar.layout import hex_height
from palmish.sigmar.schema import SCHEMA
from prc_tools.frozen import Frozen, field

RGB = tuple[int, int, int]
SS = 4  # supersampling: edges are drawn big, then thresholded to one clear colour
HINT_COLOUR: RGB = (0, 200, 255)
FOCUS_COLOUR: RGB = (255, 255, 255)  # the keys' cursor: never the selection's yellow
MARK_COLOUR: RGB = (255, 214, 0)
PLAIN_CELL: RGB = (64, 70, 82)
PLAIN_RIM: RGB = (88, 96, 112)
PLAIN_FIELD: RGB = (40, 44, 52)

_IDS = SCHEMA.bitmaps
HEX_CELL_ID = _IDS["hex_cell"]
HEX_SELECT_ID = _IDS["hex_select"]
HEX_HINT_ID = _IDS["hex_hint"]
HEX_PARTNER_ID = _IDS["hex_partner"]
HEX_FOCUS_ID = _IDS["hex_focus"]
FIELD_ID = _IDS["field"]
PANEL_ID = _IDS["panel"]


class HexArt(Frozen, frozen=False):
    """One density's hexagonal pictures, each cell x hex_height(cell) pixels."""

    cell: int
    socket: Image.Image
    select: Image.Image
    focus: Image.Image
    hint: Image.Image
    partner: Image.Image
    backdrop: Image.Image | None = None  # the field's background, repeated
    panel: Image.Image | None = None
    field_colour: RGB = PLAIN_FIELD
    text_colour: RGB | None = None  # None: the Board plugin's
    notes: list[str] = field(default_factory=list)


def hexagon(w: float, h: float, inset: float = 0.0) -> list[tuple[float, float]]:
    """A pointy-topped hexagon filling a w x h box, `inset` pixels in from its edges."""
    x0, x1, y0, y1 = inset, w - inset, inset * 1.15, h - inset * 1.15
    mid = w / 2
    q = (y1 - y0) / 4
    return [(mid, y0), (x1, y0 + q), (x1, y1 - q), (mid, y1), (x0, y1 - q), (x0, y0 + q)]


def _finish(big: Image.Image, size: tuple[int, int]) -> Image.Image:
    small = big.resize(size, Image.Resampling.LANCZOS)
    alpha = small.getchannel("A").point(lambda a: 255 if a >= 128 else 0)
    small.putalpha(alpha)
    return Image.composite(small, Image.new("RGBA", size, (0, 0, 0, 0)), alpha)


def hex_cell(cell: int, fill: RGB, rim: RGB) -> Image.Image:
    """The empty cell: a hexagon with a rim one pixel (two at 144 dpi) in from its edge."""
    w, h = cell, hex_height(cell)
    big = Image.new("RGBA", (w * SS, h * SS), (0, 0, 0, 0))
    draw = ImageDraw.Draw(big)
    gap = SS * 0.5  # a hairline of the field between cells, so each hexagon reads
    draw.polygon(hexagon(w * SS, h * SS, gap), fill=(*rim, 255))
    draw.polygon(hexagon(w * SS, h * SS, gap + SS * max(1, cell // 13)), fill=(*fill, 255))
    return _finish(big, (w, h))


def hex_frame(cell: int, colour: RGB, width: float) -> Image.Image:
    """A hexagonal ring `width` pixels wide at the cell's edge (selection, focus, hint)."""
    w, h = cell, hex_height(cell)
    big = Image.new("RGBA", (w * SS, h * SS), (0, 0, 0, 0))
    draw = ImageDraw.Draw(big)
    draw.polygon(hexagon(w * SS, h * SS), fill=(*colour, 255))
    draw.polygon(hexagon(w * SS, h * SS, width * SS), fill=(0, 0, 0, 0))
    return _finish(big, (w, h))


def hex_corners(cell: int, colour: RGB) -> Image.Image:
    """The hint's mark: the hexagon's six corners, thick, so it differs from the
    selection's ring by shape as well as colour."""
    ring = hex_frame(cell, colour, max(2.0, cell / 6.5))
    w, h = ring.size
    keep = Image.new("L", ring.size, 0)
    draw = ImageDraw.Draw(keep)
    for x, y in hexagon(w, h):
        r = w * 0.24
        draw.ellipse((x - r, y - r, x + r, y + r), fill=255)
    out = Image.new("RGBA", ring.size, (0, 0, 0, 0))
    out.paste(ring, (0, 0), Image.composite(ring.getchannel("A"), keep, keep))
    return out


def hex_dot(cell: int, colour: RGB) -> Image.Image:
    """A partner's mark: a dot with a dark edge at the atom's bottom-right corner, clear
    of its letter (a dot under the letter made "A" read as "8")."""
    w, h = cell, hex_height(cell)
    img = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    u = max(1, cell // 13)
    draw = ImageDraw.Draw(img)
    bottom = (h + cell) // 2  # the atom, one cell square, is centred in the hexagon
    x, y = w - 3 * u, bottom - 3 * u
    draw.rectangle((x, y, w - 1, bottom - 1), fill=(0, 0, 0, 255))
    draw.rectangle((x + u, y + u, x + 2 * u - 1, y + 2 * u - 1), fill=(*colour, 255))
    return img


def hex_focus(cell: int) -> Image.Image:
    """The keys' cursor: a white ring edged in black inside, thinner than the
    selection's yellow one, so the two never look alike (nor on a light board)."""
    u = max(1, cell // 13)
    out = hex_frame(cell, (0, 0, 0), 1.6 * u)
    out.alpha_composite(hex_frame(cell, FOCUS_COLOUR, 0.8 * u))
    return out


def plain_hex_art(cell: int, mark: RGB = MARK_COLOUR) -> HexArt:
    u = max(1, cell // 13)
    return HexArt(cell, hex_cell(cell, PLAIN_CELL, PLAIN_RIM),
                  hex_frame(cell, mark, 1.6 * u), hex_focus(cell),
                  hex_corners(cell, HINT_COLOUR), hex_dot(cell, mark))


def _fit(img: Image.Image | None, size: tuple[int, int]) -> Image.Image | None:
    if img is None:
        return None
    img = img.convert("RGBA")
    return img if img.size == size else img.resize(size, Image.Resampling.NEAREST)


def load_hex_art(cell: int, density: int, plugin: PluginLike | None) -> HexArt:
    """The hexagonal pictures for cells `cell` pixels wide from a Hex Board plugin (None:
    plain ones); what the plugin lacks is drawn plainly and named in `notes`."""
    if plugin is None:
        return plain_hex_art(cell)
    fields = plugin.info.fields
    mark = colour_value(fields.get("mark_color")) or MARK_COLOUR
    plain = plain_hex_art(cell, mark)
    size = (cell, hex_height(cell))
    notes: list[str] = []

    def picture(res_id: int, fallback: Image.Image, what: str) -> Image.Image:
        img = _fit(plugin.bitmap(res_id, density), size)
        if img is None:
            notes.append(f"hex board plugin lacks {what}")
            return fallback
        return img

    panel = plugin.bitmap(PANEL_ID, density)
    return HexArt(
        cell,
        picture(HEX_CELL_ID, plain.socket, "the cell"),
        picture(HEX_SELECT_ID, plain.select, "the selection mark"),
        picture(HEX_FOCUS_ID, plain.focus, "the keys' mark"),
        picture(HEX_HINT_ID, plain.hint, "the hint mark"),
        picture(HEX_PARTNER_ID, plain.partner, "the partner mark"),
        plugin.bitmap(FIELD_ID, density), panel,
        colour_value(fields.get("field_color")) or PLAIN_FIELD,
        colour_value(fields.get("text_color")) or (readable_on(panel) if panel is not None
                                                   else None),
        notes)
