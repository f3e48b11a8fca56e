"""The two gardens' boards as geometry: cells, neighbours, the free test, where each cell
is drawn and which cell a point falls in (docs/sigmar-rules.md, "One interface").

The engines work on bitboards; this is the slow, readable description the app
(drawing, hit tests, the keys' reading order) and the tests use. Both
geometries name a cell (row, col); reading order is sorted (row, col) in both,
which is top to bottom and left to right on the screen. Positions are in cell
widths from the top left of the field. The hexagon's geometry (`HEXAGON`) is the
hexagonal garden's own: palmish/sigmar/hexagonal/geometry.py.

Pure: nothing here imports the device or the frontend.
"""

from __future__ import annotations

import math
from collections.abc import Collection
from typing import Protocol

from palmish.sigmar import rules as square
from prc_tools.frozen import Frozen

Cell = tuple[int, int]


class Geometry(Protocol):
    """A garden's board."""

    @property
    def name(self) -> str:
        """"square" or "hexagonal"."""

    @property
    def rows(self) -> int:
        """Rows of the field the board is drawn in."""

    @property
    def cols(self) -> int:
        """Columns of that field (the hexagon's widest row)."""

    @property
    def locked_reason(self) -> str:
        """How a locked atom's message ends: "it needs two empty sides"."""

    def cells(self) -> tuple[Cell, ...]:
        """Every cell of the board, in reading order."""

    def contains(self, cell: Cell) -> bool:
        """Whether the cell is on the board."""

    def neighbours(self, cell: Cell) -> tuple[Cell | None, ...]:
        """The cell's neighbours clockwise from the east; None where the board ends."""

    def is_free(self, cell: Cell, occupied: Collection[Cell]) -> bool:
        """The free test for an atom on `cell` among the atoms on `occupied`."""

    def centre(self, cell: Cell) -> tuple[float, float]:
        """Where the cell's centre is drawn (x, y), in cell widths."""

    @property
    def size(self) -> tuple[float, float]:
        """The field's width and height, in cell widths."""

    def cell_at(self, x: float, y: float) -> Cell | None:
        """The board cell the point (x, y) falls in, or None."""

    def cell_name(self, cell: Cell) -> str:
        """The cell's name in records and messages ("f6")."""

    def parse_cell(self, name: str) -> Cell:
        """The cell a name gives; ValueError if it names none."""


class SquareGeometry(Frozen):
    """The square remake's field of rows x cols squares (a level's own size, up to 12)."""

    rows: int = 11
    cols: int = 11
    name = "square"
    locked_reason = "it needs two empty sides"
    _STEPS = ((0, 1), (1, 0), (0, -1), (-1, 0))  # E S W N

    def cells(self) -> tuple[Cell, ...]:
        return tuple((r, c) for r in range(self.rows) for c in range(self.cols))

    def contains(self, cell: Cell) -> bool:
        return 0 <= cell[0] < self.rows and 0 <= cell[1] < self.cols

    def neighbours(self, cell: Cell) -> tuple[Cell | None, ...]:
        steps = ((cell[0] + dr, cell[1] + dc) for dr, dc in self._STEPS)
        return tuple(n if self.contains(n) else None for n in steps)

    def is_free(self, cell: Cell, occupied: Collection[Cell]) -> bool:
        # Two of the four sides not atoms, anywhere around (docs/sigmar-rules.md).
        return sum(n is None or n not in occupied for n in self.neighbours(cell)) >= 2

    def centre(self, cell: Cell) -> tuple[float, float]:
        return (cell[1] + 0.5, cell[0] + 0.5)

    @property
    def size(self) -> tuple[float, float]:
        return (float(self.cols), float(self.rows))

    def cell_at(self, x: float, y: float) -> Cell | None:
        cell = (math.floor(y), math.floor(x))
        return cell if self.contains(cell) else None

    def cell_name(self, cell: Cell) -> str:
        return square.cell_name(*cell)

    def parse_cell(self, name: str) -> Cell:
        return square.parse_cell(name)
