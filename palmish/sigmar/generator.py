"""Random boards that always have a solution (generator version 1, docs/sigmar-rules.md).

The board is built backwards from the empty board: the takes of a solution,
last removal first, are dropped onto empty cells so that both atoms are free
the moment they land. That is the very condition the forward take needs (the
atoms placed later are gone by then in forward play), so every board comes
with a solution. Shape: a 55-cell template grown from the centre of the 11x11
field, symmetric under the half turn (r, c) -> (10 - r, 10 - c).

Everything is drawn from random.Random(seed).random() in a fixed order, so a
seed gives the same board on every Python; changing anything here changes
boards, so a new algorithm must come as version 2 beside this one.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Generator, Iterator
from typing import Any

from palmish.bitmask import bits_of
from palmish.sigmar.rules import (
    AROUND,
    CARDINALS,
    CODE_LOW,
    CODE_SHIFT,
    METAL_INDEX,
    STRIDE,
    Atom,
    crowded,
    current_metal_index,
    metals_present,
    pointer_after,
    reaction_codes,
)
from palmish.stepped import finish

VERSION = 1
SIDE = 11
CENTRE = (SIDE // 2, SIDE // 2)
ATOM_COUNT = 55
DIFFICULTIES = ("easy", "normal", "hard")

# The standard 55: 8 of each cardinal, 4 Salt, 4 Vitae, 4 Mors, 5 quicksilver, one of each metal.
STANDARD_COUNTS: dict[Atom, int] = {
    **{a: 8 for a in CARDINALS},
    Atom.SALT: 4, Atom.VITAE: 4, Atom.MORS: 4, Atom.QUICKSILVER: 5,
    Atom.LEAD: 1, Atom.TIN: 1, Atom.IRON: 1, Atom.COPPER: 1, Atom.SILVER: 1, Atom.GOLD: 1,
}

# Metal takes in placement (= reverse removal) order; gold goes first, alone, at the centre.
METAL_CHAIN = (Atom.SILVER, Atom.COPPER, Atom.IRON, Atom.TIN, Atom.LEAD)
SALT_SHARE = 0.35  # chance that a cardinal gives two of its atoms to Salt
FILLS_PER_TEMPLATE = 12
CANDIDATES = 8  # cells tried for each atom of a take, best first
JITTER = 2.5

# Difficulty: random playouts per candidate board and the clear-rate band of each level.
PLAYOUTS = 24
BANDS: dict[str, tuple[float, float]] = {
    "easy": (0.30, 1.01),
    "normal": (0.10, 0.30),
    "hard": (0.0, 0.10),
}
MAX_CANDIDATES = 40  # boards tried for a difficulty; the closest one wins after that

_SIDE_MASK = sum(1 << (r * STRIDE + c) for r in range(SIDE) for c in range(SIDE))
_CENTRE_BIT = CENTRE[0] * STRIDE + CENTRE[1]


def _mirror(i: int) -> int:
    r, c = divmod(i, STRIDE)
    return (SIDE - 1 - r) * STRIDE + (SIDE - 1 - c)


_DISTANCE = {
    i: abs(i // STRIDE - CENTRE[0]) + abs(i % STRIDE - CENTRE[1]) for i in bits_of(_SIDE_MASK)
}


def pick(rng: random.Random, n: int) -> int:
    return min(int(rng.random() * n), n - 1)


def shuffle(rng: random.Random, items: list[Any]) -> None:
    for i in range(len(items) - 1, 0, -1):
        j = pick(rng, i + 1)
        items[i], items[j] = items[j], items[i]


def grow_template(rng: random.Random) -> int:
    """A 4-connected, half-turn symmetric set of 55 cells around the centre, as a mask."""
    shape = 1 << _CENTRE_BIT
    size = 1
    while size < ATOM_COUNT:
        ring = 0
        for i in bits_of(shape):
            ring |= AROUND[i]
        frontier = bits_of(ring & _SIDE_MASK & ~shape)
        cell = frontier[pick(rng, len(frontier))]
        shape |= (1 << cell) | (1 << _mirror(cell))
        size += 2
    return shape


def take_plan(rng: random.Random) -> list[tuple[Atom, Atom]]:
    """The 27 takes besides the gold, in placement order (the reverse of removal)."""
    salts = STANDARD_COUNTS[Atom.SALT]
    others: list[tuple[Atom, Atom]] = []
    order = list(CARDINALS)
    shuffle(rng, order)
    for cardinal in order:
        # A cardinal must give an even number to Salt, or one of it is left alone.
        given = 2 if salts >= 2 and rng.random() < SALT_SHARE else 0
        salts -= given
        others += [(cardinal, Atom.SALT)] * given
        others += [(cardinal, cardinal)] * ((STANDARD_COUNTS[cardinal] - given) // 2)
    others += [(Atom.SALT, Atom.SALT)] * (salts // 2)
    others += [(Atom.VITAE, Atom.MORS)] * STANDARD_COUNTS[Atom.VITAE]
    shuffle(rng, others)
    total = len(others) + len(METAL_CHAIN)
    slots: set[int] = set()
    while len(slots) < len(METAL_CHAIN):
        slots.add(pick(rng, total))
    plan: list[tuple[Atom, Atom]] = []
    chain = iter(METAL_CHAIN)
    rest = iter(others)
    for k in range(total):
        plan.append((next(chain), Atom.QUICKSILVER) if k in slots else next(rest))
    return [(y, x) if rng.random() < 0.5 else (x, y) for x, y in plan]


def _ranked(rng: random.Random, cells: int, occupied: int) -> list[int]:
    """Cells to try, best first: near the centre, next to many atoms, with jitter."""
    keyed = []
    for i in bits_of(cells):
        near = (occupied & AROUND[i]).bit_count()
        keyed.append((_DISTANCE[i] - 0.75 * near + JITTER * rng.random(), i))
    keyed.sort()
    return [i for _, i in keyed[:CANDIDATES]]


def _fill(rng: random.Random, shape: int, plan: list[tuple[Atom, Atom]]) -> dict[int, Atom] | None:
    """Place the plan onto the template, or None when it gets stuck."""
    board = {_CENTRE_BIT: Atom.GOLD}
    occupied = 1 << _CENTRE_BIT
    for x, y in plan:
        placed = False
        open_a = shape & ~occupied & ~crowded(occupied)
        for a in _ranked(rng, open_a, occupied):
            with_a = occupied | (1 << a)
            open_b = shape & ~with_a & ~crowded(with_a)
            for b in _ranked(rng, open_b, with_a):
                both = with_a | (1 << b)
                packed = crowded(both)
                # Both must be free now, and no empty template cell may get a third
                # neighbour: it could never be filled by a free atom again.
                if packed & ((1 << a) | (1 << b)) or packed & shape & ~both:
                    continue
                board[a], board[b] = x, y
                occupied = both
                placed = True
                break
            if placed:
                break
        if not placed:
            return None
    return board


def build(rng: random.Random) -> dict[int, Atom]:
    """One standard board from the generator's random stream (bit -> atom)."""
    while True:
        shape = grow_template(rng)
        for _ in range(FILLS_PER_TEMPLATE):
            board = _fill(rng, shape, take_plan(rng))
            if board is not None:
                return board


def to_cells(board: dict[int, Atom]) -> dict[tuple[int, int], Atom]:
    return {(i // STRIDE, i % STRIDE): a for i, a in sorted(board.items())}


# ---------------------------------------------------------------- difficulty


def clear_rate(board: dict[int, Atom], rng: random.Random, playouts: int = PLAYOUTS) -> float:
    """The share of random playouts (a uniformly random legal take each time) that win."""
    outcomes = playouts_of(board, rng)
    return sum(next(outcomes) for _ in range(playouts)) / playouts


def playouts_of(board: dict[int, Atom], rng: random.Random) -> Iterator[bool]:
    """Random playouts of the board, one after another: whether each one won."""
    kinds = [0] * 16
    start = 0
    for i, atom in board.items():
        kinds[atom] |= 1 << i
        start |= 1 << i
    slag = kinds[Atom.SLAG]
    atom_of = [Atom.SLAG] * (max(board) + 1)
    for i, atom in board.items():
        atom_of[i] = atom
    while True:
        occupied, pointer = start, 0
        while True:
            metal = current_metal_index(pointer, metals_present(kinds, occupied))
            codes = reaction_codes(kinds, occupied, metal)
            if not codes:
                break
            code = codes[pick(rng, len(codes))]
            i, j = code >> CODE_SHIFT, code & CODE_LOW
            occupied &= ~((1 << i) | (1 << j if j else 0))
            for bit in (i, j) if j else (i,):
                if atom_of[bit] in METAL_INDEX:
                    pointer = pointer_after(atom_of[bit])
        yield not occupied & ~slag


def generate(seed: int, difficulty: str | None = None) -> dict[tuple[int, int], Atom]:
    """The board of `seed` as (row, col) -> atom; `difficulty` filters by random-play clear rate."""
    if seed < 0:
        raise ValueError("a board seed is a whole number >= 0")
    rng = random.Random(seed)
    if difficulty is None:
        return to_cells(build(rng))
    if difficulty not in BANDS:
        raise ValueError(f"unknown difficulty {difficulty!r} (use {', '.join(DIFFICULTIES)})")
    low, high = BANDS[difficulty]
    best: tuple[float, dict[int, Atom]] | None = None
    for _ in range(MAX_CANDIDATES):
        board = build(rng)
        rate = clear_rate(board, rng)
        if low <= rate < high:
            return to_cells(board)
        miss = low - rate if rate < low else rate - high
        if best is None or miss < best[0]:
            best = (miss, board)
    assert best is not None
    return to_cells(best[1])


# ---------------------------------------------------------------- dealing by difficulty
#
# Board N is always generate(N): the number alone names the board. A difficulty
# only chooses which numbers New Game deals: a number is rated by random play on
# its own board (the stream of Random(N) goes on after the build, so the rating is
# a property of the number), and New Game draws numbers until one has the rating.
# generate(seed, difficulty) above stays as it was, for the saved games and
# records made before (`difficulty=` in a record).

RATING_PLAYOUTS = 128
# A number's rating by its wins in RATING_PLAYOUTS playouts: fewer than HARD_WINS
# is hard (under 7 %, so the hard boards dealt average well under the 10 % the docs
# promise, though a 128-playout count is only an estimate), EASY_WINS or more is easy.
HARD_WINS = 9
EASY_WINS = 40  # 31 %
MAX_DRAWS = 1000  # numbers tried for one deal; about 1 in 25 boards rates hard


def band(wins: int) -> str:
    if wins < HARD_WINS:
        return "hard"
    return "easy" if wins >= EASY_WINS else "normal"


def rating(seed: int, wanted: str | None = None) -> str:
    """The difficulty of board `seed`: "easy", "normal" or "hard" by its wins in
    RATING_PLAYOUTS random playouts. The count stops once the rest cannot change the
    answer, or, with `wanted`, cannot make it `wanted` (then it is another band, as
    counted so far: only a `wanted` answer is sure to be the full count's)."""
    return finish(rating_steps(seed, wanted))


def rating_steps(seed: int, wanted: str | None = None) -> Generator[None, None, str]:
    """rating() a playout at a time: yields after the build and after each playout,
    so an app can rate numbers in slices between frames (the same answer)."""
    rng = random.Random(seed)
    outcomes = playouts_of(build(rng), rng)
    order = ("hard", "normal", "easy")
    wins = 0
    for played in range(RATING_PLAYOUTS):
        yield
        low, high = order.index(band(wins)), order.index(band(wins + RATING_PLAYOUTS - played))
        if low == high or (wanted is not None and not low <= order.index(wanted) <= high):
            break
        wins += next(outcomes)
    return band(wins)


def deal(difficulty: str | None, draw: Callable[[], int]) -> int:
    """A board number for New Game: `draw()` itself without a difficulty, else the
    first drawn number rated `difficulty` (the last one drawn after MAX_DRAWS)."""
    return finish(dealing(difficulty, draw))


def dealing(difficulty: str | None, draw: Callable[[], int]) -> Generator[None, None, int]:
    """deal() a playout at a time (rating_steps): New Game on Hard runs it in slices."""
    if difficulty is not None and difficulty not in BANDS:
        raise ValueError(f"unknown difficulty {difficulty!r} (use {', '.join(DIFFICULTIES)})")
    seed = draw()
    for _ in range(MAX_DRAWS if difficulty else 0):
        if (yield from rating_steps(seed, difficulty)) == difficulty:
            break
        seed = draw()
    return seed


__all__ = ["VERSION", "build", "clear_rate", "deal", "dealing", "generate",
           "grow_template", "rating", "rating_steps"]
