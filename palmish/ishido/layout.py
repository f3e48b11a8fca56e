"""Where PalmIshido puts things in each display configuration (pure geometry).

All rectangles are in native LCD pixels. The board is always 12x8 cells; the
cell is 24x40 at double density in Square and Tall, 12x20 on the 160x160
device and 34x40 in Wide. The rest of the app area is the panel: the current
tile, the tiles left, the ancient score (Roman numerals) and the modern score
drawn vertically. Square and Wide have a narrow strip at the right; Tall puts a
larger panel below the board and centres the board above it.
"""

from __future__ import annotations

from palmish.boardgame.grid import AppLayout, BoardPlacement, Grid, place_board
from palmish.device.display import ConfigName, DisplayConfig
from palmish.device.geometry import Rect
from palmish.ishido.rules import COLS, ROWS


def cell_size(config: DisplayConfig) -> tuple[int, int]:
    """One cell in native pixels for this configuration."""
    if config.name is ConfigName.WIDE:
        return (34, 40)
    if config.density == 72:
        return (12, 20)
    return (24, 40)


class IshidoLayout(AppLayout):
    """Where everything goes in one display configuration."""

    cell_w: int
    cell_h: int
    board: Rect  # the 12x8 cells
    panel: Rect  # the information panel
    fillers: tuple[Rect, ...]  # app area that is neither board nor panel (Tall's side margins)
    tile_well: Rect  # where the current tile sits: one cell, times well_zoom
    tiles_left: Rect  # the count of tiles not yet on the board
    ancient: Rect  # Roman numerals (vertical in the narrow panels)
    modern: Rect  # the modern score, drawn vertically
    deal: Rect | None  # Tall only: the deal number
    vertical_text: bool  # narrow panels draw the ancient score vertically as well
    well_zoom: int = 1  # Tall shows the current tile at twice the size
    scoring: Rect | None = None  # Tall only: which scoring this game counts

    @property
    def grid(self) -> Grid:
        return Grid(self.board.x, self.board.y, ROWS, COLS, self.cell_w, self.cell_h)

    def cell_rect(self, row: int, col: int) -> Rect:
        return self.grid.cell_rect(row, col)

    def cell_at(self, x: int, y: int) -> tuple[int, int] | None:
        """The (row, col) under a point, or None off the board."""
        return self.grid.cell_at(x, y)


def layout_for(config: DisplayConfig, bounds: Rect | None = None) -> IshidoLayout:
    """The layout of the app area `bounds` (default: the configuration's app bounds)."""
    area = bounds if bounds is not None else config.app_bounds
    cw, ch = cell_size(config)
    u = config.density // 72  # one low-density pixel
    placed = place_board(area, COLS * cw, ROWS * ch, min_below=60 * u)
    if placed.stacked:
        return _below(config, area, placed, cw, ch, u)
    return _beside(config, area, placed, cw, ch, u)


def _beside(config: DisplayConfig, area: Rect, placed: BoardPlacement, cw: int, ch: int,
            u: int) -> IshidoLayout:
    """Board at the left, a narrow strip at the right (Square, Square-low, Wide)."""
    panel = placed.panel
    margin = 2 * u
    well = Rect(panel.x + (panel.w - cw) // 2, panel.y + margin, cw, ch)
    # Each value reads bottom-to-top with its label ("66 left", "II 4-way", "120 pts").
    apart = 6 * u  # between two phrases, so that they do not read as one
    tiles_left = Rect(panel.x, well.bottom + margin, panel.w, 38 * u)
    ancient = Rect(panel.x, tiles_left.bottom + apart, panel.w, 44 * u)
    modern = Rect(panel.x, ancient.bottom + apart, panel.w,
                  panel.bottom - margin - ancient.bottom - apart)
    return IshidoLayout(config, area, cw, ch, placed.board, panel, placed.fillers, well,
                        tiles_left, ancient, modern, None, vertical_text=True)


def _below(config: DisplayConfig, area: Rect, placed: BoardPlacement, cw: int, ch: int,
           u: int) -> IshidoLayout:
    """Board centred at the top, a large panel below it (Tall)."""
    panel = placed.panel
    margin = 4 * u
    # Left: the current tile, twice the size if it fits. Middle: text rows.
    # Right: the vertical score.
    zoom = 2 if 2 * ch + 2 * margin <= panel.h else 1
    well = Rect(panel.x + 8 * u, panel.y + (panel.h - zoom * ch) // 2, zoom * cw, zoom * ch)
    modern_w = 12 * u
    modern = Rect(panel.right - margin - modern_w, panel.y + margin, modern_w,
                  panel.h - 2 * margin)
    text_x = well.right + 8 * u
    text_w = modern.x - margin - text_x
    row_h, gap = 12 * u, 3 * u
    top = panel.y + (panel.h - 4 * row_h - 3 * gap) // 2
    deal, scoring, tiles_left, ancient = (
        Rect(text_x, top + i * (row_h + gap), text_w, row_h) for i in range(4))
    return IshidoLayout(config, area, cw, ch, placed.board, panel, placed.fillers, well,
                        tiles_left, ancient, modern, deal, vertical_text=False, well_zoom=zoom,
                        scoring=scoring)
