"""Sigmar's Garden rules as pure functions over bitboards (docs/sigmar-rules.md).

A position is an int with one bit per atom. Each row of the 12x12 field is
padded with one always-empty guard column, so (row, col) is bit
``row * STRIDE + col``; shifting by 1 moves every atom one column and by
STRIDE one row, and the guard column keeps rows apart. Off-board squares are
never set, so they count as non-atoms, which is exactly the seed's edge rule.

Atoms never move, so which kind sits on a bit is fixed for a whole game: a
position is "the atoms still there" plus the metal pointer.

Nothing here imports the device, the frontend or game.py.
"""

from __future__ import annotations

from enum import IntEnum
from typing import NamedTuple

from palmish.bitmask import bits_of

MAX_ROWS = 12
MAX_COLS = 12
STRIDE = MAX_COLS + 1  # one guard column per row


class IllegalMove(ValueError):
    """A take, undo or record the rules do not allow (one line)."""


class Atom(IntEnum):
    """The atoms; each value is the atom's `.dat` digit (5 is an empty square)."""

    VITAE = 0x0
    COPPER = 0x1
    LEAD = 0x2
    AIR = 0x3
    GOLD = 0x4
    SILVER = 0x6
    SLAG = 0x7
    SALT = 0x8
    IRON = 0x9
    QUICKSILVER = 0xA
    WATER = 0xB
    TIN = 0xC
    EARTH = 0xD
    FIRE = 0xE
    MORS = 0xF

    def __bool__(self) -> bool:
        # Vitae's value is 0; every atom is still "something" (`if g.atom_at(r, c):`).
        return True

    @property
    def title(self) -> str:
        """The name players read: "Fire", "quicksilver" (metals in lower case, as the seed)."""
        return _TITLES[self]

    @property
    def digit(self) -> str:
        """The `.dat` character of this atom."""
        return "0123456789abcdef"[self.value]

    @property
    def letter(self) -> str:
        """The letter drawn on the atom: metals lower case, others upper, Slag none."""
        return _LETTERS[self]

    @property
    def is_metal(self) -> bool:
        return self in METAL_ORDER

    @property
    def is_cardinal(self) -> bool:
        return self in CARDINALS


_TITLES = {
    Atom.VITAE: "Vitae", Atom.COPPER: "copper", Atom.LEAD: "lead", Atom.AIR: "Air",
    Atom.GOLD: "gold", Atom.SILVER: "silver", Atom.SLAG: "Slag", Atom.SALT: "Salt",
    Atom.IRON: "iron", Atom.QUICKSILVER: "quicksilver", Atom.WATER: "Water", Atom.TIN: "tin",
    Atom.EARTH: "Earth", Atom.FIRE: "Fire", Atom.MORS: "Mors",
}
_LETTERS = {
    Atom.VITAE: "V", Atom.COPPER: "c", Atom.LEAD: "l", Atom.AIR: "A", Atom.GOLD: "g",
    Atom.SILVER: "s", Atom.SLAG: "", Atom.SALT: "S", Atom.IRON: "i", Atom.QUICKSILVER: "q",
    Atom.WATER: "W", Atom.TIN: "t", Atom.EARTH: "E", Atom.FIRE: "F", Atom.MORS: "M",
}

# The Order of Projection; after gold the pointer loops back to lead.
METAL_ORDER: tuple[Atom, ...] = (
    Atom.LEAD, Atom.TIN, Atom.IRON, Atom.COPPER, Atom.SILVER, Atom.GOLD,
)
METAL_INDEX: dict[Atom, int] = {m: i for i, m in enumerate(METAL_ORDER)}
GOLD_INDEX = METAL_INDEX[Atom.GOLD]
NO_METAL = len(METAL_ORDER)  # "current metal" index when the board holds no metal
CARDINALS: tuple[Atom, ...] = (Atom.AIR, Atom.FIRE, Atom.WATER, Atom.EARTH)

# `.dat` character -> atom; every other character (5, spaces, upper case...) is empty.
ATOM_OF_CHAR: dict[str, Atom] = {a.digit: a for a in Atom}


def reacts(x: Atom, y: Atom, current: Atom | None) -> bool:
    """Whether two atoms react (both free is checked elsewhere).

    `current` is the current metal: quicksilver pairs only with it, and never
    with gold (gold goes alone).
    """
    if x in CARDINALS:
        return y == x or y == Atom.SALT
    if y in CARDINALS:
        return x == Atom.SALT
    if x == Atom.SALT:
        return y == Atom.SALT
    if {x, y} == {Atom.VITAE, Atom.MORS}:
        return True
    if current is None or current == Atom.GOLD:
        return False
    return (x == Atom.QUICKSILVER and y == current) or (y == Atom.QUICKSILVER and x == current)


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


# ---------------------------------------------------------------- takes


class Take(NamedTuple):
    """One move: two cells that react, `a < b` in row-major order, or the gold alone (b None)."""

    a: tuple[int, int]
    b: tuple[int, int] | None = None


def take_sort_key(t: Take) -> tuple[tuple[int, int], tuple[int, int]]:
    """Row-major order of takes; a gold take sorts before any pair on the same first cell."""
    return (t.a, t.b if t.b is not None else (-1, -1))


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

# A take as one int: (i << 8) | j for the pair of bits i < j, (i << 8) for the gold
# alone. Codes sort in the same row-major order as takes (gold before pairs on i).
CODE_SHIFT = 8
CODE_LOW = (1 << CODE_SHIFT) - 1

_CARDINAL_VALUES = tuple(int(a) for a in CARDINALS)
_METAL_VALUES = tuple(int(m) for m in METAL_ORDER)


def metals_present(kinds: list[int] | tuple[int, ...], occupied: int) -> int:
    """Bit k set when METAL_ORDER[k] is still on the board."""
    present = 0
    for k, value in enumerate(_METAL_VALUES):
        if occupied & kinds[value]:
            present |= 1 << k
    return present


def current_metal(kinds: list[int] | tuple[int, ...], occupied: int, pointer: int) -> int:
    """current_metal_index() straight from the board: the first metal present from the pointer."""
    for step in range(NO_METAL):
        k = (pointer + step) % NO_METAL
        if occupied & kinds[_METAL_VALUES[k]]:
            return k
    return NO_METAL


def _few_bits(mask: int) -> list[int]:
    # bits_of with the common one- and two-atom cases done without a loop.
    n = mask.bit_count()
    if n == 1:
        return [mask.bit_length() - 1]
    if n == 2:
        return [(mask & -mask).bit_length() - 1, mask.bit_length() - 1]
    return bits_of(mask)


def reaction_codes(kinds: list[int] | tuple[int, ...], occupied: int, metal: int) -> list[int]:
    """Every legal take as a code, in the solver's preferred order.

    `kinds[d]` is the mask of atoms with digit d (fixed for a game);
    `occupied` the atoms still there; `metal` the current metal's index in
    METAL_ORDER (NO_METAL if none). Order: the gold alone, metal +
    quicksilver, cardinal pairs, Vitae + Mors, cardinal + Salt, Salt + Salt
    -- forced and harmless moves first, salt spending last.
    """
    left, right = occupied << 1, occupied >> 1
    up, down = occupied << STRIDE, occupied >> STRIDE
    free = occupied & ~((left & right & (up | down)) | (up & down & (left | right)))
    out: list[int] = []
    append = out.append
    if metal == GOLD_INDEX:
        for i in _few_bits(free & kinds[4]):
            append(i << 8)
    elif metal != NO_METAL:
        metal_free = free & kinds[_METAL_VALUES[metal]]
        quick_free = free & kinds[10]
        if metal_free and quick_free:
            for i in _few_bits(metal_free):
                for j in _few_bits(quick_free):
                    append((i << 8) | j if i < j else (j << 8) | i)
    salt_free = free & kinds[8]
    cardinal_bits = []
    for value in _CARDINAL_VALUES:
        f = free & kinds[value]
        if not f:
            continue
        low = f & -f
        rest = f ^ low
        if not rest:
            bits = [low.bit_length() - 1]
        elif not rest & (rest - 1):
            i, j = low.bit_length() - 1, rest.bit_length() - 1
            append((i << 8) | j)
            bits = [i, j]
        else:
            bits = bits_of(f)
            n = len(bits)
            for x in range(n - 1):
                high = bits[x] << 8
                for y in range(x + 1, n):
                    append(high | bits[y])
        if salt_free:
            cardinal_bits.append(bits)
    vitae = free & kinds[0]
    mors = free & kinds[15] if vitae else 0
    if mors:
        for i in _few_bits(vitae):
            for j in _few_bits(mors):
                append((i << 8) | j if i < j else (j << 8) | i)
    if salt_free:
        salt_bits = _few_bits(salt_free)
        for bits in cardinal_bits:
            for i in bits:
                for j in salt_bits:
                    append((i << 8) | j if i < j else (j << 8) | i)
        n = len(salt_bits)
        for x in range(n - 1):
            high = salt_bits[x] << 8
            for y in range(x + 1, n):
                append(high | salt_bits[y])
    return out
