"""Sigmar's Garden rules as pure functions over bitboards (docs/sigmar-rules.md).

A position is an int with one bit per atom. Each row of the 12x12 field is
padded with one always-empty guard column, so (row, col) is bit
``row * STRIDE + col``; shifting by 1 moves every atom one column and by
STRIDE one row, and the guard column keeps rows apart. Off-board squares are
never set, so they count as non-atoms, which is exactly the seed's edge rule.

Atoms never move, so which kind sits on a bit is fixed for a whole game: a
position is "the atoms still there" plus the metal pointer.

Nothing here imports the device, the frontend or game.py. The atoms, their
reactions and the metal order are shared with the hexagonal garden (atoms.py)
and imported here under their old names.
"""

from __future__ import annotations

from palmish.bitmask import bits_of
from palmish.sigmar.atoms import (
    CARDINALS,
    CODE_LOW,
    CODE_SHIFT,
    GOLD_INDEX,
    METAL_INDEX,
    METAL_ORDER,
    NO_METAL,
    Atom,
    IllegalMove,
    Take,
    current_metal,
    metals_present,
    pair_codes,
    reacts,
    take_sort_key,
)

MAX_ROWS = 12
MAX_COLS = 12
STRIDE = MAX_COLS + 1  # one guard column per row


# `.dat` character -> atom; every other character (5, spaces, upper case...) is empty.
ATOM_OF_CHAR: dict[str, Atom] = {a.digit: a for a in Atom}


# ---------------------------------------------------------------- cells


def cell_index(row: int, col: int) -> int:
    """The bit of (row, col); ValueError when off the 12x12 field."""
    if not (0 <= row < MAX_ROWS and 0 <= col < MAX_COLS):
        raise ValueError(f"cell ({row}, {col}) is off the board")
    return row * STRIDE + col


def on_field(row: int, col: int) -> bool:
    return 0 <= row < MAX_ROWS and 0 <= col < MAX_COLS


def _build_tables() -> tuple[int, tuple[tuple[int, int] | None, ...], tuple[int, ...]]:
    field = 0
    coords: list[tuple[int, int] | None] = [None] * (MAX_ROWS * STRIDE)
    around = [0] * (MAX_ROWS * STRIDE)
    for r in range(MAX_ROWS):
        for c in range(MAX_COLS):
            i = r * STRIDE + c
            field |= 1 << i
            coords[i] = (r, c)
            for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
                if on_field(r + dr, c + dc):
                    around[i] |= 1 << ((r + dr) * STRIDE + c + dc)
    return field, tuple(coords), tuple(around)


# FIELD: every real cell; CELL_OF[i]: (row, col) of bit i (None for guards);
# AROUND[i]: the orthogonal neighbours of bit i on the field.
FIELD, CELL_OF, AROUND = _build_tables()


def cells_of(mask: int) -> list[tuple[int, int]]:
    """The (row, col) cells of a mask, in row-major order."""
    return [CELL_OF[i] for i in bits_of(mask & FIELD)]  # type: ignore[misc]  # FIELD bits have cells


def crowded(occupied: int) -> int:
    """Cells with at least three occupied orthogonal neighbours (any cell, atom or not)."""
    left, right = occupied << 1, occupied >> 1
    up, down = occupied << STRIDE, occupied >> STRIDE
    return ((left & right & (up | down)) | (up & down & (left | right))) & FIELD


def free_mask(occupied: int) -> int:
    """The free atoms: at least two of the four neighbours are not atoms."""
    return occupied & ~crowded(occupied)


# ---------------------------------------------------------------- metals


def current_metal_index(pointer: int, metals_present: int) -> int:
    """Index in METAL_ORDER of the current metal, or NO_METAL.

    `metals_present` has bit k set when METAL_ORDER[k] is still on the board;
    the current metal is the first present one at or after the pointer.
    """
    if not metals_present:
        return NO_METAL
    for step in range(NO_METAL):
        k = (pointer + step) % NO_METAL
        if (metals_present >> k) & 1:
            return k
    return NO_METAL  # unreachable: some bit is set


def pointer_after(metal: Atom) -> int:
    """Where the pointer goes once `metal` has been removed."""
    return (METAL_INDEX[metal] + 1) % NO_METAL


# ---------------------------------------------------------------- cell names


def cell_name(row: int, col: int) -> str:
    """A cell's record name: column letter a..l then row 1..12 ("a1" is the top left)."""
    cell_index(row, col)
    return f"{chr(ord('a') + col)}{row + 1}"


def parse_cell(name: str) -> tuple[int, int]:
    """The (row, col) of a record name like "c4"; ValueError if it is not one."""
    text = name.strip().lower()
    bad = ValueError(f"{name!r} is not a cell (column a..l then row 1..12)")
    if len(text) < 2 or not ("a" <= text[0] <= "l") or not text[1:].isdigit():
        raise bad
    row, col = int(text[1:]) - 1, ord(text[0]) - ord("a")
    if not 0 <= row < MAX_ROWS:
        raise bad
    return row, col


# ---------------------------------------------------------------- reactions over bits


def reaction_codes(kinds: list[int] | tuple[int, ...], occupied: int, metal: int) -> list[int]:
    """Every legal take as a code, in the solver's preferred order.

    `kinds[d]` is the mask of atoms with digit d (fixed for a game);
    `occupied` the atoms still there; `metal` the current metal's index in
    METAL_ORDER (NO_METAL if none). The order is atoms.pair_codes'.
    """
    left, right = occupied << 1, occupied >> 1
    up, down = occupied << STRIDE, occupied >> STRIDE
    free = occupied & ~((left & right & (up | down)) | (up & down & (left | right)))
    return pair_codes(kinds, free, metal)


__all__ = [
    "AROUND", "ATOM_OF_CHAR", "CARDINALS", "CELL_OF", "CODE_LOW", "CODE_SHIFT", "FIELD",
    "GOLD_INDEX", "MAX_COLS", "MAX_ROWS", "METAL_INDEX", "METAL_ORDER", "NO_METAL", "STRIDE",
    "Atom", "IllegalMove", "Take", "cell_index", "cell_name", "cells_of", "crowded",
    "current_metal", "current_metal_index", "free_mask", "metals_present", "on_field",
    "parse_cell", "pointer_after", "reaction_codes", "reacts", "take_sort_key",
]
