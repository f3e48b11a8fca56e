"""The pictures Pachisi draws with, taken from its Board and Pieces plugins.

Bitmaps are read at the screen's density and fitted to the layout's cell;
anything a plugin lacks is drawn plainly (palmish.pachisi.pictures), and
`notes` says what, so a missing or broken plugin never stops the game.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from PIL import Image

from palmish.boardgame.plugin_art import PluginLike, colour_value, fit
from palmish.pachisi import pictures
from palmish.pachisi.layout import PachisiLayout
from palmish.pachisi.rules import COLOURS, FACES
from palmish.pachisi.schema import SCHEMA

RGB = tuple[int, int, int]
IDS = SCHEMA.bitmaps
YELLOW = (255, 220, 0)
KINDS = ("pawn", "double", "finished")


@dataclass
class Art:
    cell: int
    board: Image.Image  # exactly the board's size
    mark: Image.Image  # one cell: the yellow marker on the piece to move
    target: Image.Image  # one cell: where it would go
    movable: Image.Image  # one cell: every other piece that can move
    turn: Image.Image  # a corner: frames the player to move
    panel: Image.Image | None  # Tall/Wide panel background, tiled
    pieces: dict[tuple[str, str], Image.Image]  # (kind, colour) -> one cell
    dice: dict[int, Image.Image]  # value -> 2x2 cells
    shells: tuple[Image.Image, Image.Image]  # mouth up, mouth down
    text_colour: RGB = (0, 0, 0)  # names and values in the corners
    panel_text: RGB = (0, 0, 0)
    notes: list[str] = field(default_factory=list)
    _small: dict[tuple[str, str], Image.Image] = field(default_factory=dict)

    def piece(self, kind: str, colour: str) -> Image.Image:
        return self.pieces[(kind, colour)]

    def small_piece(self, kind: str, colour: str) -> Image.Image:
        """Half a cell: several players sharing a safe square."""
        key = (kind, colour)
        if key not in self._small:
            half = max(2, self.cell // 2)
            self._small[key] = self.pieces[key].resize((half, half), Image.Resampling.NEAREST)
        return self._small[key]


def load_art(layout: PachisiLayout, pieces: PluginLike | None,
             board: PluginLike | None) -> Art:
    density, c = layout.density, layout.cell
    notes: list[str] = []

    def from_plugin(plugin: PluginLike | None, name: str, size: tuple[int, int],
                    what: str) -> Image.Image | None:
        if plugin is None:
            return None
        img = fit(plugin.bitmap(IDS[name], density), size)
        if img is None:
            notes.append(f"{what} plugin lacks {name}")
        return img

    side = layout.board.w
    board_img = from_plugin(board, "board", (side, side), "board")
    if board_img is None:
        board_img = pictures.draw_board(c)
    mark = from_plugin(board, "mark", (c, c), "board") or pictures.frame(
        (c, c), YELLOW, max(2, c // 5))
    target = from_plugin(board, "target", (c, c), "board") or pictures.target_mark(c, YELLOW)
    movable = pictures.movable_mark(c, YELLOW)
    corner = layout.corner(0)
    turn = from_plugin(board, "turn", (corner.w, corner.h), "board") or pictures.frame(
        (corner.w, corner.h), YELLOW, max(2, c // 4))
    panel = board.bitmap(IDS["panel"], density) if board is not None else None
    fields = board.info.fields if board is not None else {}
    text_colour = colour_value(fields.get("text_color")) or (0, 0, 0)
    panel_text = colour_value(fields.get("panel_text_color")) or (0, 0, 0)

    table: dict[tuple[str, str], Image.Image] = {}
    for kind in KINDS:
        for colour in COLOURS:
            img = from_plugin(pieces, f"{kind}_{colour}", (c, c), "pieces")
            table[(kind, colour)] = img or pictures.plain_piece(colour, c, kind)
    dice = {}
    for value in FACES:
        img = from_plugin(pieces, f"die_{value}", (2 * c, 2 * c), "pieces")
        dice[value] = img or pictures.plain_die(value, 2 * c)
    up = from_plugin(pieces, "shell_up", (c, c), "pieces") or pictures.plain_shell(c, True)
    down = from_plugin(pieces, "shell_down", (c, c), "pieces") or pictures.plain_shell(c, False)
    return Art(c, board_img, mark, target, movable, turn, panel, table, dice, (up, down),
               text_colour, panel_text, notes)
