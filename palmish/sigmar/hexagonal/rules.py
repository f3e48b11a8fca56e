"""The hexagonal garden's board as bitboards (docs/sigmar-rules.md, "The hexagonal garden").

The board is Opus Magnum's: a hexagon of side 6, 91 cells in rows of 6, 7, ...,
11, ..., 7, 6. A cell is (row, col) in axial coordinates: row 0..10 from the
top, col 0..10 with `-5 <= col - row <= 5`, so row r runs from column
max(0, r - 5) to min(10, r + 5) and the centre is (5, 5). Drawn with pointy
tops, cell (r, c) sits at x = c - r / 2 (in cell widths), so within a row the
columns go left to right, and the six neighbours, clockwise from the east, are

    E (r, c+1)   SE (r+1, c+1)   SW (r+1, c)   W (r, c-1)   NW (r-1, c-1)   NE (r-1, c)

Bit i of a position is cell (i // STRIDE, i % STRIDE) with STRIDE = 12: one
always-empty guard column per row keeps the shifts by 1 and by 13 from
wrapping into the next row, and the cells of the 11x11 square outside the
hexagon are never set either, so a neighbour off the board is simply an empty
one (the original's edge rule).

An atom is free when three of its six neighbours that are next to each other
around it are all empty. Pure: nothing here imports the device, the frontend or
a game.
"""

from __future__ import annotations

from palmish.bitmask import bits_of
from palmish.sigmar.atoms import pair_codes

SIDE = 6
ROWS = COLS = 2 * SIDE - 1  # 11
STRIDE = COLS + 1  # one guard column per row
CENTRE = (SIDE - 1, SIDE - 1)
CELL_COUNT = 3 * SIDE * (SIDE - 1) + 1  # 91

Cell = tuple[int, int]

# Clockwise from the east, as (row, col) steps; the bit step of each is dr * STRIDE + dc.
DIRECTIONS: tuple[Cell, ...] = ((0, 1), (1, 1), (1, 0), (0, -1), (-1, -1), (-1, 0))
DIRECTION_NAMES = ("E", "SE", "SW", "W", "NW", "NE")


def on_board(row: int, col: int) -> bool:
    """Whether (row, col) is one of the 91 cells."""
    return 0 <= row < ROWS and 0 <= col < COLS and -(SIDE - 1) <= col - row <= SIDE - 1


def cell_index(row: int, col: int) -> int:
    """The bit of (row, col); ValueError for a cell off the hexagon."""
    if not on_board(row, col):
        raise ValueError(f"cell ({row}, {col}) is off the hexagonal board")
    return row * STRIDE + col


def row_span(row: int) -> range:
    """The columns of a row, left to right."""
    return range(max(0, row - (SIDE - 1)), min(COLS, row + SIDE))


# Every cell in reading order: row by row from the top, left to right.
CELLS: tuple[Cell, ...] = tuple((r, c) for r in range(ROWS) for c in row_span(r))


def _tables() -> tuple[int, tuple[Cell | None, ...], tuple[tuple[int, ...], ...], tuple[int, ...]]:
    board = 0
    coords: list[Cell | None] = [None] * (ROWS * STRIDE)
    rings: list[tuple[int, ...]] = [()] * (ROWS * STRIDE)
    around = [0] * (ROWS * STRIDE)
    for r, c in CELLS:
        i = r * STRIDE + c
        board |= 1 << i
        coords[i] = (r, c)
        ring = []
        for dr, dc in DIRECTIONS:
            if on_board(r + dr, c + dc):
                ring.append((r + dr) * STRIDE + c + dc)
                around[i] |= 1 << ring[-1]
            else:
                ring.append(-1)
        rings[i] = tuple(ring)
    return board, tuple(coords), tuple(rings), tuple(around)


# BOARD: the 91 cells; CELL_OF[i]: the cell of bit i (None off the board);
# RING[i]: the six neighbour bits of bit i clockwise from the east (-1 off the board);
# AROUND[i]: the neighbours of bit i as a mask.
BOARD, CELL_OF, RING, AROUND = _tables()
CENTRE_BIT = CENTRE[0] * STRIDE + CENTRE[1]


def distance(a: Cell, b: Cell) -> int:
    """Steps between two cells (hex distance in axial coordinates)."""
    dr, dc = a[0] - b[0], a[1] - b[1]
    return max(abs(dr), abs(dc), abs(dr - dc))


def cells_of(mask: int) -> list[Cell]:
    """The cells of a mask, in reading order."""
    return [CELL_OF[i] for i in bits_of(mask & BOARD)]  # type: ignore[misc]  # BOARD bits have cells


def crowded(occupied: int) -> int:
    """The cells (atoms or not) with no three neighbours in a row empty: an atom there
    is locked, and an atom dropped there would be."""
    e, w = occupied >> 1, occupied << 1
    se, sw = occupied >> (STRIDE + 1), occupied >> STRIDE
    nw, ne = occupied << (STRIDE + 1), occupied << STRIDE
    # The six windows of three neighbours in a row: E-SE-SW, SE-SW-W, SW-W-NW,
    # W-NW-NE, NW-NE-E, NE-E-SE; a cell is crowded when every window holds an atom.
    east, west, north = e | se, sw | w, nw | ne
    return ((east | sw) & (se | west) & (west | nw) & (w | north) & (north | e) & (ne | east)
            & BOARD)


def free_mask(occupied: int) -> int:
    """The free atoms: three neighbours next to each other around it are empty."""
    return occupied & ~crowded(occupied)


def reaction_codes(kinds: list[int] | tuple[int, ...], occupied: int, metal: int) -> list[int]:
    """Every legal take as a code (atoms.CODE_SHIFT), in the solvers' preferred order.

    `kinds[v]` is the mask of the atoms of value v; `metal` the current
    metal's index in METAL_ORDER (NO_METAL if none).
    """
    return pair_codes(kinds, occupied & ~crowded(occupied), metal)


# ---------------------------------------------------------------- cell names


def cell_name(row: int, col: int) -> str:
    """A cell's record name: column letter a..k, then row 1..11 ("f6" is the centre)."""
    cell_index(row, col)
    return f"{chr(ord('a') + col)}{row + 1}"


def parse_cell(name: str) -> Cell:
    """The cell of a record name like "f6"; ValueError if it names no cell of the hexagon."""
    text = name.strip().lower()
    bad = ValueError(f"{name!r} is not a cell of the hexagon (column a..k then row 1..11)")
    if len(text) < 2 or not ("a" <= text[0] <= "k") or not text[1:].isdigit():
        raise bad
    row, col = int(text[1:]) - 1, ord(text[0]) - ord("a")
    if not on_board(row, col):
        raise bad
    return row, col
