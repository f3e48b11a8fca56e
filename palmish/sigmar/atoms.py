"""What both of Sigmar's Gardens share (docs/sigmar-rules.md): the atoms, how they
react, the Order of Projection and the shape of a take.

The square garden (rules.py) and the hexagonal one (hexagonal/rules.py) differ
only in their boards (cells, neighbours, when an atom is free) and in what a
board may hold (Slag and repeated metals are the square remake's). Pure: it
imports nothing of the device, the frontend or a game.
"""

from __future__ import annotations

from enum import IntEnum
from typing import NamedTuple

from palmish.bitmask import bits_of


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

# The Order of Projection. After gold the square garden's pointer loops back to
# lead; the hexagonal garden holds one of each metal and simply ends.
METAL_ORDER: tuple[Atom, ...] = (
    Atom.LEAD, Atom.TIN, Atom.IRON, Atom.COPPER, Atom.SILVER, Atom.GOLD,
)
METAL_INDEX: dict[Atom, int] = {m: i for i, m in enumerate(METAL_ORDER)}
GOLD_INDEX = METAL_INDEX[Atom.GOLD]
NO_METAL = len(METAL_ORDER)  # "current metal" index when the board holds no metal
CARDINALS: tuple[Atom, ...] = (Atom.AIR, Atom.FIRE, Atom.WATER, Atom.EARTH)

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


class Take(NamedTuple):
    """One move: two cells that react, `a < b` in row-major order, or the gold alone (b None)."""

    a: tuple[int, int]
    b: tuple[int, int] | None = None


def take_sort_key(t: Take) -> tuple[tuple[int, int], tuple[int, int]]:
    """Row-major order of takes; a gold take sorts before any pair on the same first cell."""
    return (t.a, t.b if t.b is not None else (-1, -1))


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
    """The index in METAL_ORDER of the first metal present at or after `pointer` (NO_METAL
    if none). The square garden keeps a pointer (its metals loop); the hexagonal one
    passes 0: one metal of each, so the current metal is simply the first present."""
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


def pair_codes(kinds: list[int] | tuple[int, ...], free: int, metal: int, *,
               salt_partners: int = -1, salt_pairs: bool = True) -> list[int]:
    """Every legal take among the free atoms `free`, as codes, in the solvers' preferred order.

    `kinds[d]` is the mask of the atoms of value d (fixed for a game); `metal`
    the current metal's index in METAL_ORDER (NO_METAL if none). Order: the
    gold alone, metal + quicksilver, cardinal pairs, Vitae + Mors, cardinal +
    Salt, Salt + Salt -- forced and harmless moves first, salt spending last.
    Each garden works out `free` by its own rule. A solver that counts Salt
    narrows it: Salt only with the cardinals in `salt_partners` (a mask), and
    Salt with Salt only if `salt_pairs`.
    """
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
        if salt_free and kinds[value] & salt_partners:
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
        n = len(salt_bits) if salt_pairs else 0
        for x in range(n - 1):
            high = salt_bits[x] << 8
            for y in range(x + 1, n):
                append(high | salt_bits[y])
    return out


