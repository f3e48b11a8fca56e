"""Where Sigmar's Garden puts things in each display configuration (pure geometry).

All rectangles are in native LCD pixels. Cells are square: 13 px at 72 dpi and
26 px at 144 dpi, in every configuration. The board sits centred in a field of
11x11 cells (12 in a direction where the board needs 12). The rest of the app
area is the panel: Tall has a block below the field, Wide a block beside it;
Square and Square-low have a strip at the right (the metal order, the atoms
left by kind as far as they fit) and a line below (the name, atoms left, wins).
"""

from __future__ import annotations

from palmish.boardgame.grid import AppLayout, Grid
from palmish.device.display import ConfigName, DisplayConfig
from palmish.device.geometry import Rect

FIELD_MIN = 11  # the field is at least 11x11 cells (a random board's size)


def cell_size(config: DisplayConfig) -> int:
    """One square cell in native pixels."""
    return 13 * config.density // 72


class SigmarLayout(AppLayout):
    cell: int  # side of a square cell, native pixels
    field: Rect  # the 11x11..12x12 cell area the board is centred in
    grid: Grid  # the board's own rows x cols cells, centred in the field
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

    def cell_rect(self, row: int, col: int) -> Rect:
        return self.grid.cell_rect(row, col)

    def cell_at(self, x: int, y: int) -> tuple[int, int] | None:
        """The board cell (row, col) under a point, or None off the board."""
        return self.grid.cell_at(x, y)


def layout_for(config: DisplayConfig, rows: int, cols: int,
               bounds: Rect | None = None) -> SigmarLayout:
    """The layout of the app area `bounds` (default: the configuration's) for a board of
    rows x cols cells (at most 12x12)."""
    area = bounds if bounds is not None else config.app_bounds
    cell = cell_size(config)
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
    # Centre the board in the field to the pixel (a 7-column board sits 2 cells in).
    gx = field.x + (field.w - cols * cell) // 2
    gy = field.y + (field.h - rows * cell) // 2
    grid = Grid(gx, gy, rows, cols, cell, cell)
    return SigmarLayout(config, area, cell, field, grid, panel, line, stacked)
