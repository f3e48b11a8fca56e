"""The pictures Sigmar's Garden draws with, taken from its Board and Pieces plugins.

Every atom picture is one square cell. A plugin may give dimmed (locked) and
selected versions of each atom; what it lacks is made here (a locked atom is
the atom faded towards the field colour), and with no plugin at all the atoms
are plain discs in the seed's ComputerCraft colours with their letters, so a
missing or broken plugin never stops the game.
"""

from __future__ import annotations

from PIL import Image, ImageDraw

from palmish.boardgame.plugin_art import PluginLike, colour_value, fit, readable_on
from palmish.device.graphics.font import get_font
from palmish.sigmar.hexart import HexArt
from palmish.sigmar.rules import Atom
from palmish.sigmar.schema import SCHEMA
from prc_tools.frozen import Frozen, field

RGB = tuple[int, int, int]

_IDS = SCHEMA.bitmaps
ATOM_BASE = _IDS["atom"]  # + the atom's digit
LOCKED_BASE = _IDS["locked"]
SELECTED_BASE = _IDS["selected"]
CELL_ID = _IDS["cell"]
SELECT_MARK_ID = _IDS["select_mark"]
HINT_MARK_ID = _IDS["hint_mark"]
PARTNER_MARK_ID = _IDS["partner_mark"]
FIELD_ID = _IDS["field"]
PANEL_ID = _IDS["panel"]

# The seed's boards are ComputerCraft paint images: digit d is CC colour d.
CC_COLOURS: dict[Atom, RGB] = {
    Atom.VITAE: (240, 240, 240), Atom.COPPER: (242, 178, 51), Atom.LEAD: (229, 127, 216),
    Atom.AIR: (153, 178, 242), Atom.GOLD: (222, 222, 108), Atom.SILVER: (242, 178, 204),
    Atom.SLAG: (76, 76, 76), Atom.SALT: (153, 153, 153), Atom.IRON: (76, 153, 178),
    Atom.QUICKSILVER: (178, 102, 229), Atom.WATER: (51, 102, 204), Atom.TIN: (127, 102, 76),
    Atom.EARTH: (87, 166, 78), Atom.FIRE: (204, 76, 76), Atom.MORS: (25, 25, 25),
}
PLAIN_FIELD: RGB = (40, 44, 52)
PLAIN_CELL: RGB = (64, 70, 82)
PLAIN_PANEL: RGB = (236, 232, 220)
DIM_TO: RGB = (40, 44, 52)  # locked atoms fade towards this when the plugin has no picture
DIM_AMOUNT = 0.55


class Art(Frozen, frozen=False, slots=False):  # a __dict__: tests stand in for its methods
    cell: int  # native pixels
    atoms: dict[Atom, Image.Image]
    locked: dict[Atom, Image.Image]
    selected: dict[Atom, Image.Image]  # only those the plugin draws itself
    socket: Image.Image | None  # drawn under every cell of the board's shape
    backdrop: Image.Image | None  # the field's background, repeated
    panel: Image.Image | None
    select_mark: Image.Image | None
    hint_mark: Image.Image | None
    partner_mark: Image.Image | None
    field_colour: RGB = PLAIN_FIELD
    text_colour: RGB = (0, 0, 0)
    mark_colour: RGB = (255, 214, 0)
    notes: list[str] = field(default_factory=list)  # what fell back, for the user
    _small: dict[tuple[Atom, int], Image.Image] = field(default_factory=dict)
    hex: HexArt | None = None  # the hexagonal garden's cell and marks (its Hex Board plugin)

    def with_hex(self, hexes: HexArt) -> Art:
        """This art for the hexagonal garden: the Hex Board plugin's field, panel and
        colours instead of the Board plugin's (the atoms stay the Pieces plugin's)."""
        return self.replace(
            hex=hexes, socket=None, select_mark=None, hint_mark=None,
            partner_mark=None, backdrop=hexes.backdrop,
            panel=hexes.panel if hexes.panel is not None else self.panel,
            field_colour=hexes.field_colour,
            text_colour=hexes.text_colour if hexes.text_colour is not None
            else self.text_colour,
            notes=[*self.notes, *hexes.notes], _small={})

    def atom(self, atom: Atom, locked: bool = False, selected: bool = False) -> Image.Image:
        if selected and atom in self.selected:
            return self.selected[atom]
        if locked:
            return self.locked[atom]
        return self.atoms[atom]

    def small(self, atom: Atom, size: int) -> Image.Image:
        """The atom shrunk to `size` pixels (for the panel)."""
        key = (atom, size)
        if key not in self._small:
            img = self.atoms[atom]
            self._small[key] = img if img.width == size else img.resize(
                (size, size), Image.Resampling.BOX)
        return self._small[key]


def load_art(cell: int, density: int, pieces: PluginLike | None,
             board: PluginLike | None) -> Art:
    """The art for cells of `cell` native pixels from the chosen plugins (None: plain)."""
    notes: list[str] = []
    square = (cell, cell)
    atoms: dict[Atom, Image.Image] = {}
    locked: dict[Atom, Image.Image] = {}
    selected: dict[Atom, Image.Image] = {}
    field_colour = PLAIN_FIELD
    if board is not None:
        field_colour = colour_value(board.info.fields.get("field_color")) or PLAIN_FIELD
    if pieces is not None:
        for atom in Atom:
            img = fit(pieces.bitmap(ATOM_BASE + atom.value, density), square)
            if img is None:
                notes.append(f"pieces plugin lacks {atom.title}")
                continue
            atoms[atom] = img
            dim = fit(pieces.bitmap(LOCKED_BASE + atom.value, density), square)
            if dim is not None:
                locked[atom] = dim
            chosen = fit(pieces.bitmap(SELECTED_BASE + atom.value, density), square)
            if chosen is not None:
                selected[atom] = chosen
    for atom in Atom:
        if atom not in atoms:
            atoms[atom] = plain_atom(atom, cell, density)
        if atom not in locked:
            locked[atom] = dimmed(atoms[atom], field_colour)
    socket = field_img = panel = select_mark = hint_mark = partner_mark = None
    text_colour: RGB = (0, 0, 0)
    mark_colour: RGB = (255, 214, 0)
    if board is not None:
        socket = fit(board.bitmap(CELL_ID, density), square)
        field_img = board.bitmap(FIELD_ID, density)
        panel = board.bitmap(PANEL_ID, density)
        select_mark = fit(board.bitmap(SELECT_MARK_ID, density), square)
        hint_mark = fit(board.bitmap(HINT_MARK_ID, density), square)
        partner_mark = fit(board.bitmap(PARTNER_MARK_ID, density), square)
        fields = board.info.fields
        text_colour = colour_value(fields.get("text_color")) or (
            readable_on(panel) if panel is not None else (0, 0, 0))
        mark_colour = colour_value(fields.get("mark_color")) or mark_colour
    return Art(cell, atoms, locked, selected, socket, field_img, panel, select_mark,
               hint_mark, partner_mark, field_colour, text_colour, mark_colour, notes)


def dimmed(img: Image.Image, towards: RGB, amount: float = DIM_AMOUNT) -> Image.Image:
    """The picture faded towards a colour (transparent pixels stay transparent)."""
    rgba = img.convert("RGBA")
    veil = Image.new("RGBA", rgba.size, (*towards, 255))
    out = Image.blend(rgba, veil, amount)
    out.putalpha(rgba.getchannel("A"))
    return out


def ink_for(colour: RGB) -> RGB:
    """Black or white letters, whichever reads on the colour."""
    r, g, b = colour
    return (0, 0, 0) if 0.3 * r + 0.59 * g + 0.11 * b > 140 else (255, 255, 255)


def plain_atom(atom: Atom, cell: int, density: int) -> Image.Image:
    """A stand-in atom: a disc in its CC colour with its letter (Slag: a grey block)."""
    img = Image.new("RGBA", (cell, cell), (0, 0, 0, 0))
    draw = ImageDraw.Draw(img)
    colour = CC_COLOURS[atom]
    m = max(1, cell // 13)
    if atom == Atom.SLAG:
        draw.rectangle((m, m, cell - 1 - m, cell - 1 - m), fill=(*colour, 255),
                       outline=(30, 30, 30, 255))
        return img
    draw.ellipse((m, m, cell - 1 - m, cell - 1 - m), fill=(*colour, 255),
                 outline=(0, 0, 0, 255))
    mask = get_font("bold", density // 72).render(atom.letter)
    ink = Image.new("RGBA", mask.size, (*ink_for(colour), 255))
    img.paste(ink, ((cell - mask.width) // 2, (cell - mask.height) // 2), mask)
    return img
