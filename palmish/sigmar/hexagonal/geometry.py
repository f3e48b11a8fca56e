"""The hexagonal garden's board as geometry (`HEXAGON`, a `Geometry` of
palmish/sigmar/geometry.py): cells, neighbours, the free test, where each
hexagon is drawn and which one a point falls in.

Pure: nothing here imports the device or the frontend.
"""

from __future__ import annotations

import math
from collections.abc import Collection

from palmish.sigmar.geometry import Cell
from palmish.sigmar.hexagonal import rules as hexagon
from prc_tools.frozen import Frozen

# Pointy-topped hexagons one cell width across: rows are sqrt(3)/2 apart and a
# hexagon is 2/sqrt(3) tall.
ROW_PITCH = math.sqrt(3) / 2
HEX_HEIGHT = 2 / math.sqrt(3)


class HexGeometry(Frozen):
    """Opus Magnum's hexagon of side 6 (palmish/sigmar/hexagonal/rules.py)."""

    name = "hexagonal"
    rows = hexagon.ROWS
    cols = hexagon.COLS
    locked_reason = "it needs three empty sides in a row"

    def cells(self) -> tuple[Cell, ...]:
        return hexagon.CELLS

    def contains(self, cell: Cell) -> bool:
        return hexagon.on_board(*cell)

    def neighbours(self, cell: Cell) -> tuple[Cell | None, ...]:
        steps = ((cell[0] + dr, cell[1] + dc) for dr, dc in hexagon.DIRECTIONS)
        return tuple(n if self.contains(n) else None for n in steps)

    def is_free(self, cell: Cell, occupied: Collection[Cell]) -> bool:
        # Three sides in a row empty (the board's edge counts as empty).
        empty = [n is None or n not in occupied for n in self.neighbours(cell)]
        return any(empty[k] and empty[(k + 1) % 6] and empty[(k + 2) % 6] for k in range(6))

    def centre(self, cell: Cell) -> tuple[float, float]:
        r, c = cell
        return (c - r / 2 + (hexagon.SIDE - 1) / 2 + 0.5, HEX_HEIGHT / 2 + r * ROW_PITCH)

    @property
    def size(self) -> tuple[float, float]:
        return (float(self.cols), (self.rows - 1) * ROW_PITCH + HEX_HEIGHT)

    def cell_at(self, x: float, y: float) -> Cell | None:
        # A hexagon is the set of points nearer its centre than any other centre of the
        # lattice, so the nearest lattice centre (on the board or not) names the cell.
        guess = round((y - HEX_HEIGHT / 2) / ROW_PITCH)
        best: tuple[float, Cell] | None = None
        for r in (guess - 1, guess, guess + 1):
            middle = x - (hexagon.SIDE - 1) / 2 - 0.5 + r / 2
            for c in (math.floor(middle), math.floor(middle) + 1):
                cx, cy = self.centre((r, c))
                d = (cx - x) ** 2 + (cy - y) ** 2
                if best is None or d < best[0]:
                    best = (d, (r, c))
        assert best is not None
        return best[1] if self.contains(best[1]) else None

    def cell_name(self, cell: Cell) -> str:
        return hexagon.cell_name(*cell)

    def parse_cell(self, name: str) -> Cell:
        return hexagon.parse_cell(name)


HEXAGON = HexGeometry()
