"""Where Sigmar's Garden puts things in each display configuration (pure geometry).

All rectangles are in native LCD pixels. Cells are 13 px wide at 72 dpi and
26 px at 144 dpi, in every configuration and both gardens. A square board sits
centred in a field of 11x11 cells (12 in a direction where the board needs
12); the hexagon (pointy tops, rows sqrt(3)/2 of a cell apart, 11 cells wide
and 9.8 high) is centred in the same 11x11 field. The rest of the app area is the panel: Tall has a
block below the field, Wide a block beside it; Square and Square-low have a
strip at the right (the metal order, the atoms left by kind as far as they
fit) and a line below (the name, atoms left, wins).
"""

from __future__ import annotations

import math

from palmish.boardgame.grid import AppLayout, Grid
from palmish.device.display import ConfigName, DisplayConfig
from palmish.device.geometry import Rect
from palmish.sigmar.geometry import Geometry, SquareGeometry
from palmish.sigmar.hexagonal.geometry import HEXAGON
from prc_tools.frozen import Frozen

Cell = tuple[int, int]

FIELD_MIN = 11  # the field is at least 11x11 cells (a random board's size)


def cell_size(config: DisplayConfig) -> int:
    """One square cell in native pixels."""
    return 13 * config.density // 72


def hex_height(cell: int) -> int:
    """A pointy-topped hexagon's height for a width of `cell` pixels (13 -> 15)."""
    return round(cell * 2 / math.sqrt(3))


SIDE_HALVES = HEXAGON.rows // 2  # row 0's first cell is 2.5 cells in: 5 half-cells


class HexGrid(Frozen):
    """The hexagonal garden's 91 cells, `cell` pixels wide, the field's top left at (x, y).

    A cell's rectangle is its hexagon's bounding box (cell wide, hex_height tall):
    boxes of neighbouring rows overlap by a few pixels, which repainting a cell's
    box handles (every layer touching it is redrawn, clipped)."""

    x: int
    y: int
    cell: int

    rows = HEXAGON.rows
    cols = HEXAGON.cols

    @property
    def rect(self) -> Rect:
        return Rect(self.x, self.y, round(HEXAGON.size[0] * self.cell), hex_height(self.cell)
                    + round((self.rows - 1) * math.sqrt(3) / 2 * self.cell))

    def contains(self, cell: Cell) -> bool:
        return HEXAGON.contains(cell)

    def cell_rect(self, row: int, col: int) -> Rect:
        # Centres half a cell apart across rows: (2c - r + 5) half-cells from the left.
        left = self.x + (2 * col - row + SIDE_HALVES) * self.cell // 2
        top = self.y + round(row * math.sqrt(3) / 2 * self.cell)
        return Rect(left, top, self.cell, hex_height(self.cell))

    def cell_at(self, x: int, y: int) -> Cell | None:
        """The cell whose drawn hexagon holds pixel (x, y): the nearest drawn centre (a
        hexagon is the set of points nearer its centre than any other), measured from the
        pixel's middle, so a tap lands where the pictures are, to the pixel."""
        px, py = x + 0.5, y + 0.5
        h = hex_height(self.cell)
        guess = round((py - self.y - h / 2) / (self.cell * math.sqrt(3) / 2))
        best: tuple[float, Cell] | None = None
        for r in (guess - 1, guess, guess + 1):
            middle = math.floor((2 * (px - self.x) / self.cell - SIDE_HALVES + r - 1) / 2)
            for c in (middle - 1, middle, middle + 1, middle + 2):
                box = self.cell_rect(r, c)
                d = (box.x + self.cell / 2 - px) ** 2 + (box.y + h / 2 - py) ** 2
                if best is None or d < best[0]:
                    best = (d, (r, c))
        assert best is not None
        return best[1] if HEXAGON.contains(best[1]) else None


class SquareGrid(Grid):
    """A square board's cells (palmish.boardgame's Grid) with the test HexGrid has."""

    def contains(self, cell: Cell) -> bool:
        return 0 <= cell[0] < self.rows and 0 <= cell[1] < self.cols


class SigmarLayout(AppLayout):
    cell: int  # a cell's width (a square cell's side), native pixels
    field: Rect  # the 11x11..12x12 cell area the board is centred in (the hexagon's field)
    grid: SquareGrid | HexGrid  # the board's own cells, centred in the field
    panel: Rect  # the information panel (Tall, Wide) or the strip at the right (Square)
    line: Rect | None  # Square: the text line below the field
    stacked: bool  # Tall: the panel is below the field

    @property
    def compact(self) -> bool:
        """Square and Square-low: a narrow strip and one line instead of a panel block."""
        return self.line is not None

    @property
    def fillers(self) -> tuple[Rect, ...]:
        """App area that is neither field, panel nor line."""
        out = []
        b = self.bounds
        if self.stacked:
            out += [Rect(b.x, b.y, self.field.x - b.x, self.field.h),
                    Rect(self.field.right, b.y, b.right - self.field.right, self.field.h)]
        elif self.line is None:
            out += [Rect(b.x, b.y, b.w - self.panel.w, self.field.y - b.y),
                    Rect(b.x, self.field.bottom, b.w - self.panel.w,
                         b.bottom - self.field.bottom)]
        else:
            corner_y = self.panel.bottom
            out.append(Rect(self.panel.x, corner_y, self.panel.w, self.line.y - corner_y))
        return tuple(r for r in out if r.w > 0 and r.h > 0)

    geometry: Geometry  # the garden's board (cells, neighbours, reading order)

    @property
    def hexagonal(self) -> bool:
        return isinstance(self.grid, HexGrid)

    def cell_rect(self, row: int, col: int) -> Rect:
        return self.grid.cell_rect(row, col)

    def atom_spot(self, row: int, col: int) -> tuple[int, int]:
        """Where a cell's atom picture (cell x cell pixels) goes: centred in its cell."""
        r = self.grid.cell_rect(row, col)
        return r.x, r.y + (r.h - self.cell) // 2

    def on_board(self, cell: Cell) -> bool:
        return self.grid.contains(cell)

    def cells(self) -> tuple[Cell, ...]:
        """Every cell of the board in reading order."""
        return self.geometry.cells()

    def cell_at(self, x: int, y: int) -> tuple[int, int] | None:
        """The board cell (row, col) under a point, or None off the board."""
        return self.grid.cell_at(x, y)


def layout_for(config: DisplayConfig, rows: int, cols: int,
               bounds: Rect | None = None, hexagonal: bool = False) -> SigmarLayout:
    """The layout of the app area `bounds` (default: the configuration's) for a square
    board of rows x cols cells (at most 12x12), or the hexagon."""
    area = bounds if bounds is not None else config.app_bounds
    cell = cell_size(config)
    if hexagonal:
        # The hexagon (11 x 9.8 cells) centred in the square garden's 11 x 11 field, so
        # the strip, the line and the panels are the same in both gardens.
        field_w = field_h = FIELD_MIN * cell
    else:
        field_w = max(FIELD_MIN, cols) * cell
        field_h = max(FIELD_MIN, rows) * cell
    line: Rect | None = None
    if config.name is ConfigName.TALL or (area.h - field_h >= 120 * config.density // 72
                                          and area.h > area.w):
        field = Rect(area.x + (area.w - field_w) // 2, area.y, field_w, field_h)
        panel = Rect(area.x, field.bottom, area.w, area.bottom - field.bottom)
        stacked = True
    elif area.w - field_w >= 60 * config.density // 72:
        field = Rect(area.x, area.y + (area.h - field_h) // 2, field_w, field_h)
        panel = Rect(field.right, area.y, area.right - field.right, area.h)
        stacked = False
    else:
        field = Rect(area.x, area.y, field_w, field_h)
        panel = Rect(field.right, area.y, area.right - field.right, field_h)
        line = Rect(area.x, field.bottom, area.w, area.bottom - field.bottom)
        stacked = False
    grid: SquareGrid | HexGrid
    geometry: Geometry
    if hexagonal:
        spare = field.h - HexGrid(0, 0, cell).rect.h
        grid, geometry = HexGrid(field.x, field.y + spare // 2, cell), HEXAGON
    else:
        # Centre the board in the field to the pixel (a 7-column board sits 2 cells in).
        gx = field.x + (field.w - cols * cell) // 2
        gy = field.y + (field.h - rows * cell) // 2
        grid, geometry = SquareGrid(gx, gy, rows, cols, cell, cell), SquareGeometry(rows, cols)
    return SigmarLayout(config, area, cell, field, grid, panel, line, stacked, geometry)
