"""Grid geometry shared by board games: cell <-> pixel, and board beside or above a panel.

All rectangles are in native LCD pixels. A game decides its cell size per
display configuration; `place_board` decides where the board and the panel go.
"""

from __future__ import annotations

from palmish.device.display import DisplayConfig
from palmish.device.geometry import Rect
from prc_tools.frozen import Frozen


class Grid(Frozen):
    """`rows` x `cols` cells of `cell_w` x `cell_h` with the top-left cell at (x, y)."""

    x: int
    y: int
    rows: int
    cols: int
    cell_w: int
    cell_h: int

    @property
    def rect(self) -> Rect:
        return Rect(self.x, self.y, self.cols * self.cell_w, self.rows * self.cell_h)

    def cell_rect(self, row: int, col: int) -> Rect:
        if not (0 <= row < self.rows and 0 <= col < self.cols):
            raise ValueError(f"no cell ({row}, {col}) on a {self.rows}x{self.cols} board")
        return Rect(self.x + col * self.cell_w, self.y + row * self.cell_h,
                    self.cell_w, self.cell_h)

    def cell_at(self, x: int, y: int) -> tuple[int, int] | None:
        """The (row, col) under a point, or None off the board."""
        if not self.rect.contains(x, y):
            return None
        return ((y - self.y) // self.cell_h, (x - self.x) // self.cell_w)


class BoardPlacement(Frozen):
    """Where the board, the panel and the leftover areas go in the app area."""

    board: Rect
    panel: Rect  # the rest of the app area, beside (right) or below the board
    fillers: tuple[Rect, ...]  # app area that is neither board nor panel
    stacked: bool  # True: the panel is below the board


def place_board(area: Rect, board_w: int, board_h: int, min_below: int) -> BoardPlacement:
    """Put a board of the given size in `area`, with the panel where there is most room.

    The panel goes below (the board centred above it) when the area has at least
    as much spare height as width and at least `min_below` pixels of it (Tall);
    otherwise the board sits at the top left and the panel is a strip at the right.
    ValueError if the board does not fit.
    """
    if area.w < board_w or area.h < board_h:
        raise ValueError(f"an app area of {area.w}x{area.h} cannot hold a "
                         f"{board_w}x{board_h} board")
    spare_w, spare_h = area.w - board_w, area.h - board_h
    if spare_h >= spare_w and spare_h >= min_below:
        left = area.x + spare_w // 2
        board = Rect(left, area.y, board_w, board_h)
        panel = Rect(area.x, board.bottom, area.w, area.bottom - board.bottom)
        fillers = tuple(r for r in (Rect(area.x, area.y, left - area.x, board_h),
                                    Rect(board.right, area.y, area.right - board.right, board_h))
                        if r.w > 0)
        return BoardPlacement(board, panel, fillers, stacked=True)
    board = Rect(area.x, area.y, board_w, board_h)
    panel = Rect(board.right, area.y, area.right - board.right, area.h)
    fillers = ()
    if area.bottom > board.bottom:
        fillers = (Rect(area.x, board.bottom, board_w, area.bottom - board.bottom),)
    return BoardPlacement(board, panel, fillers, stacked=False)


class AppLayout(Frozen):
    """What every game's layout starts with: its configuration and the app's area."""

    config: DisplayConfig
    bounds: Rect  # the app's whole area

    @property
    def scale(self) -> int:
        """Native pixels per low-density pixel: 1 or 2."""
        return self.config.scale

    @property
    def density(self) -> int:
        return self.config.density
