"""Where Pachisi puts things in each display configuration (pure geometry).

All rectangles are native LCD pixels. The board is the 19x19 grid of the
cross: 8 px cells on the 160x160 device, 16 px at 144 dpi (152 or 304 px
square). Each of the four 8x8-cell corners between the arms belongs to one
seat (South bottom-left, West top-left, North top-right, East bottom-right, as
the start squares go round clockwise) and shows the player's name, the pieces
waiting, the pieces finished and, on the player's turn, the die. Tall puts a
panel below the board and Wide one beside it: whose turn, the last throws, a
short message log and the Throw and Pass buttons. Square has only a thin
strip beside the board, too narrow for a panel: the board is centred there.
"""

from __future__ import annotations

from dataclasses import dataclass

from palmish.boardgame.grid import AppLayout, Grid, place_board
from palmish.device.display import DisplayConfig
from palmish.device.geometry import Rect
from palmish.pachisi.rules import GRID, PIECES

CORNER = 8  # cells per side of a corner
# Each seat's corner, as its top-left (x, y) cell.
CORNER_CELLS = ((0, 11), (0, 0), (11, 0), (11, 11))
FINISH_CELL = (9, 9)  # the centre of the cross: where a finishing move goes
PANEL_MIN = 60  # standard pixels a panel needs both ways to be worth showing


def cell_size(config: DisplayConfig) -> int:
    return 8 if config.density == 72 else 16


@dataclass(frozen=True)
class Panel:
    """Tall and Wide's panel: text lines above (or left of) two buttons."""

    rect: Rect
    text: Rect  # whose turn, the throws, the message log
    throw_button: Rect
    pass_button: Rect


class PachisiLayout(AppLayout):
    cell: int
    board: Rect  # the 19x19 grid
    strip: Rect  # the rest of the app area beside or below the board
    fillers: tuple[Rect, ...]
    panel: Panel | None  # None in Square (the strip is too small)

    @property
    def grid(self) -> Grid:
        return Grid(self.board.x, self.board.y, GRID, GRID, self.cell, self.cell)

    def square_rect(self, xy: tuple[int, int]) -> Rect:
        """The rect of grid square (x, y) (x right, y down, as the engine counts)."""
        x, y = xy
        return self.grid.cell_rect(y, x)

    def square_at(self, px: int, py: int) -> tuple[int, int] | None:
        """The (x, y) grid square under a point, or None off the board."""
        rc = self.grid.cell_at(px, py)
        return None if rc is None else (rc[1], rc[0])

    def corner(self, seat: int) -> Rect:
        x, y = CORNER_CELLS[seat]
        c = self.cell
        return Rect(self.board.x + x * c, self.board.y + y * c, CORNER * c, CORNER * c)

    def name_rect(self, seat: int) -> Rect:
        r, c = self.corner(seat), self.cell
        return Rect(r.x + c // 2, r.y + c // 4, r.w - c, 3 * c // 2)

    def _slot(self, seat: int, row: float, i: int) -> Rect:
        r, c = self.corner(seat), self.cell
        return Rect(r.x + c // 2 + i * 3 * c // 2, r.y + round(row * c), c, c)

    def waiting_slot(self, seat: int, i: int) -> Rect:
        """Where the i-th waiting piece of the seat is drawn."""
        return self._slot(seat, 2, i)

    def finished_slot(self, seat: int, i: int) -> Rect:
        return self._slot(seat, 3.5, i)

    def waiting_row(self, seat: int) -> Rect:
        first, last = self.waiting_slot(seat, 0), self.waiting_slot(seat, PIECES - 1)
        return first.union(last)

    def die_rect(self, seat: int) -> Rect:
        """The die (2x2 cells) or the six cowries (3x2 cells): tap it to throw."""
        r, c = self.corner(seat), self.cell
        return Rect(r.x + c // 2, r.y + 5 * c, 3 * c, 2 * c)

    def value_rect(self, seat: int) -> Rect:
        """Beside the die: the value thrown (or 'Throw' while waiting for one)."""
        r, c = self.corner(seat), self.cell
        die = self.die_rect(seat)
        x = die.right + c // 4
        return Rect(x, die.y, r.right - c // 4 - x, die.h)


def layout_for(config: DisplayConfig, bounds: Rect | None = None) -> PachisiLayout:
    area = bounds if bounds is not None else config.app_bounds
    c = cell_size(config)
    u = config.density // 72
    side = GRID * c
    placed = place_board(area, side, side, min_below=PANEL_MIN * u)
    strip = placed.panel
    if strip.w >= PANEL_MIN * u and strip.h >= PANEL_MIN * u and placed.stacked:
        below = _panel(strip, u, beside=False)
        return PachisiLayout(config, area, c, placed.board, strip, placed.fillers, below)
    # Square has no room for a panel: the board sits in the middle (at the top left it
    # left one 16 px strip); Wide's board is centred in the height beside its panel.
    panel: Panel | None = None
    left = area  # where the board is centred
    if strip.w >= PANEL_MIN * u and strip.h >= PANEL_MIN * u:
        panel = _panel(strip, u, beside=True)
        left = Rect(area.x, area.y, side, area.h)
    board = Rect(left.x + (left.w - side) // 2, area.y + (area.h - side) // 2, side, side)
    around = (Rect(left.x, left.y, left.w, board.y - left.y),
              Rect(left.x, board.bottom, left.w, left.bottom - board.bottom),
              Rect(left.x, board.y, board.x - left.x, side),
              Rect(board.right, board.y, left.right - board.right, side))
    fillers = tuple(r for r in around if r.w > 0 and r.h > 0)
    if panel is None:
        strip = Rect(board.right, board.y, 0, 0)
    return PachisiLayout(config, area, c, board, strip, fillers, panel)


def _panel(rect: Rect, u: int, beside: bool) -> Panel:
    m = 4 * u
    bw, bh, gap = 44 * u, 12 * u, 6 * u
    if beside:  # Wide: text on top, the two buttons side by side at the bottom
        bw = (rect.w - 2 * m - gap) // 2
        y = rect.bottom - m - bh
        throw = Rect(rect.x + m, y, bw, bh)
        passb = Rect(throw.right + gap, y, bw, bh)
        text = Rect(rect.x + m, rect.y + m, rect.w - 2 * m, y - m - rect.y - m)
    else:  # Tall: text at the left, the buttons one above the other at the right
        x = rect.right - m - bw
        top = rect.y + (rect.h - 2 * bh - gap) // 2
        throw = Rect(x, top, bw, bh)
        passb = Rect(x, top + bh + gap, bw, bh)
        text = Rect(rect.x + m, rect.y + m, x - m - rect.x - m, rect.h - 2 * m)
    return Panel(rect, text, throw, passb)
