"""PalmIshido rules as pure functions over bitboards (docs/ishido-rules.md).

The board is kept as Python ints with one bit per cell. Each row is padded
with one always-empty guard column, so the cell (row, col) is bit
``row * STRIDE + col``; shifting a mask by 1 moves every tile one column and
by STRIDE one row, and the guard column keeps rows from leaking into each
other. Legality for every cell at once is then a boolean formula over the
shifted "occupied / same colour / same shape" masks, with no per-call board.

Nothing here imports the device, the frontend or game.py.
"""

from __future__ import annotations

import random
from typing import NamedTuple

ROWS = 8
COLS = 12
STRIDE = COLS + 1  # one guard column per row
COLORS = 6
SHAPES = 6
COPIES = 2

SCORINGS = ("modern", "scored")

# Where the six opening tiles go, in the order the deal takes them.
OPENING_CELLS: tuple[tuple[int, int], ...] = ((0, 0), (0, 11), (7, 0), (7, 11), (3, 5), (4, 6))

# The k-th four-way (k = 1, 2, ...) earns FOURWAY_BONUS[k - 1] in modern scoring;
# every four-way after the table's end earns its last entry.
FOURWAY_BONUS: tuple[int, ...] = (
    25, 50, 100, 200, 400, 600, 800, 1000, 5000, 10000, 25000, 50000,
)
SCORED_FOURWAY_BONUS = 25
# Neighbour-count points for 1, 2, 3, 4 neighbours, before doubling.
NEIGHBOUR_POINTS: tuple[int, ...] = (0, 1, 2, 4, 8)
# End-of-game bonus by tiles left (only the highest applies).
END_BONUS: dict[int, int] = {0: 1000, 1: 500, 2: 100}


class IllegalMove(ValueError):
    """A placement, undo or record the rules do not allow."""


class Tile(NamedTuple):
    """One tile: colour and shape indices 0..5."""

    color: int
    shape: int


# Every distinct tile, so the engine never allocates tiles while playing.
TILES: tuple[Tile, ...] = tuple(Tile(c, s) for c in range(COLORS) for s in range(SHAPES))


def tile(color: int, shape: int) -> Tile:
    """The shared Tile object for a colour and a shape."""
    if not (0 <= color < COLORS and 0 <= shape < SHAPES):
        raise ValueError(f"no tile with colour {color} and shape {shape} (both must be 0..5)")
    return TILES[color * SHAPES + shape]


# ---------------------------------------------------------------- cells


def cell_index(row: int, col: int) -> int:
    """The bit index of (row, col); ValueError when off the board."""
    if not (0 <= row < ROWS and 0 <= col < COLS):
        raise ValueError(f"cell ({row}, {col}) is off the 8x12 board")
    return row * STRIDE + col


def _build_tables() -> tuple[int, tuple[tuple[int, int] | None, ...], tuple[int, ...], int]:
    board = 0
    coords: list[tuple[int, int] | None] = [None] * (ROWS * STRIDE)
    around = [0] * (ROWS * STRIDE)
    edge = 0
    for r in range(ROWS):
        for c in range(COLS):
            i = r * STRIDE + c
            board |= 1 << i
            coords[i] = (r, c)
            if r in (0, ROWS - 1) or c in (0, COLS - 1):
                edge |= 1 << i
            for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
                rr, cc = r + dr, c + dc
                if 0 <= rr < ROWS and 0 <= cc < COLS:
                    around[i] |= 1 << (rr * STRIDE + cc)
    return board, tuple(coords), tuple(around), edge


# BOARD: every real cell; CELL_OF[i]: (row, col) of bit i or None for guards;
# AROUND[i]: the orthogonal neighbour cells of i; EDGE: the outer ring.
BOARD, CELL_OF, AROUND, EDGE = _build_tables()


def cells_of(mask: int) -> list[tuple[int, int]]:
    """The (row, col) cells of a mask, sorted by row then column."""
    mask &= BOARD
    out: list[tuple[int, int] | None] = []
    while mask:
        low = mask & -mask
        out.append(CELL_OF[low.bit_length() - 1])
        mask ^= low
    return out  # type: ignore[return-value]  # BOARD bits all have coordinates


# ---------------------------------------------------------------- legality


def legal_mask(occupied: int, same_color: int, same_shape: int) -> int:
    """Every empty cell where a tile may go, as a mask.

    `occupied` holds all tiles; `same_color` / `same_shape` the tiles sharing
    the new tile's colour / shape. For each of the four directions we shift
    those masks so that bit i says "the neighbour of i on that side is
    present / matches by colour / matches by shape"; the seed's rules are a
    formula over these twelve masks (an identical neighbour sets both).
    """
    empty = BOARD & ~occupied
    n_l, n_r, n_u, n_d = occupied << 1, occupied >> 1, occupied << STRIDE, occupied >> STRIDE
    candidates = empty & (n_l | n_r | n_u | n_d)
    if not candidates:
        return 0
    c_l, c_r = same_color << 1, same_color >> 1
    c_u, c_d = same_color << STRIDE, same_color >> STRIDE
    s_l, s_r = same_shape << 1, same_shape >> 1
    s_u, s_d = same_shape << STRIDE, same_shape >> STRIDE
    # A present neighbour matching neither way rules the cell out.
    mismatch = (
        (n_l & ~(c_l | s_l))
        | (n_r & ~(c_r | s_r))
        | (n_u & ~(c_u | s_u))
        | (n_d & ~(c_d | s_d))
    )
    candidates &= ~mismatch
    if not candidates:
        return 0
    four = n_l & n_r & n_u & n_d
    at_least_two = (n_l & (n_r | n_u | n_d)) | (n_r & (n_u | n_d)) | (n_u & n_d)
    # Two or three neighbours: some neighbour serves by colour and another by shape.
    split = (
        (c_l & (s_r | s_u | s_d))
        | (c_r & (s_l | s_u | s_d))
        | (c_u & (s_l | s_r | s_d))
        | (c_d & (s_l | s_r | s_u))
    )
    legal = candidates & ~four & (~at_least_two | split)
    if candidates & four:
        # Four neighbours: two serve by colour, the other two by shape.
        legal |= candidates & (
            (c_l & c_r & s_u & s_d)
            | (c_l & c_u & s_r & s_d)
            | (c_l & c_d & s_r & s_u)
            | (c_r & c_u & s_l & s_d)
            | (c_r & c_d & s_l & s_u)
            | (c_u & c_d & s_l & s_r)
        )
    return legal


# ---------------------------------------------------------------- scoring


def neighbour_points(index: int, neighbours: int, fourways_before: int) -> int:
    """Neighbour-count points of a tile placed at bit `index`.

    Nothing on the outer edge; inside 1/2/4/8 for 1..4 neighbours, doubled
    once for every four-way made before this tile.
    """
    if (EDGE >> index) & 1:
        return 0
    return NEIGHBOUR_POINTS[neighbours] << fourways_before


def fourway_bonus(number: int, scoring: str) -> int:
    """The bonus for the `number`-th four-way (1-based), not doubled."""
    if number < 1:
        raise ValueError("four-ways are counted from 1")
    if scoring == "scored":
        return SCORED_FOURWAY_BONUS
    return FOURWAY_BONUS[min(number, len(FOURWAY_BONUS)) - 1]


def end_bonus(tiles_left: int) -> int:
    """The end-of-game bonus: 1000 / 500 / 100 for 0 / 1 / 2 tiles left."""
    return END_BONUS.get(tiles_left, 0)


_ROMAN = (
    (1000, "M"), (900, "CM"), (500, "D"), (400, "CD"), (100, "C"), (90, "XC"),
    (50, "L"), (40, "XL"), (10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I"),
)


def roman(n: int) -> str:
    """`n` in Roman numerals; "" for 0 (no ancient score is shown yet)."""
    if n < 0:
        raise ValueError("Roman numerals have no negative numbers")
    out = []
    for value, letters in _ROMAN:
        count, n = divmod(n, value)
        out.append(letters * count)
    return "".join(out)


# ---------------------------------------------------------------- deal


def deal(seed: int) -> tuple[list[Tile], list[Tile]]:
    """The opening six tiles (in OPENING_CELLS order) and the pouch for `seed`.

    The 72 tiles in colour-major order are shuffled by random.Random(seed);
    one pass takes each tile whose colour and shape are both still unused
    until six are taken. Such a tile always lies ahead of the pass (any
    earlier one would have been taken), so the pass never runs dry.
    """
    order = list(TILES) * COPIES
    random.Random(seed).shuffle(order)
    opening: list[Tile] = []
    pouch: list[Tile] = []
    used_colors = used_shapes = 0  # bit sets
    for t in order:
        color_bit, shape_bit = 1 << t.color, 1 << t.shape
        if len(opening) < len(OPENING_CELLS) and not (
            used_colors & color_bit or used_shapes & shape_bit
        ):
            opening.append(t)
            used_colors |= color_bit
            used_shapes |= shape_bit
        else:
            pouch.append(t)
    return opening, pouch


# ---------------------------------------------------------------- cell names


def cell_name(row: int, col: int) -> str:
    """A cell's record name: column letter a..l then row number 1..8 ("a1" is top left)."""
    cell_index(row, col)
    return f"{chr(ord('a') + col)}{row + 1}"


def parse_cell(name: str) -> tuple[int, int]:
    """The (row, col) of a record name like "f4"; ValueError if it is not one."""
    text = name.strip().lower()
    if len(text) < 2 or not ("a" <= text[0] <= "l") or not text[1:].isdigit():
        raise ValueError(f"{name!r} is not a cell (column a..l then row 1..8)")
    row, col = int(text[1:]) - 1, ord(text[0]) - ord("a")
    if not 0 <= row < ROWS:
        raise ValueError(f"{name!r} is not a cell (column a..l then row 1..8)")
    return row, col
