"""The hexagonal garden's boards (generator version 1, docs/sigmar-rules.md), each with a
solution by construction, and their difficulty.

The board is built backwards from the empty hexagon: gold on the centre, then
the takes of a solution, last removal first, each dropped onto two empty
cells of a template so that both atoms are free the moment they land. That is
the very condition the forward take needs (the atoms placed later are gone by
then in forward play), so playing the plan forwards clears the board.

The template is 55 cells with the turns of Opus Magnum's own layouts: the
board is the same after a third of a turn (most boards) or a sixth of a turn.

Everything comes from random.Random(number).random() in a fixed order, so a
Board Number gives the same board on every Python; changing anything here
changes boards, so a new algorithm must come as version 2 beside this one.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Generator, Iterator

from palmish.bitmask import bits_of
from palmish.sigmar.atoms import (
    CARDINALS,
    CODE_LOW,
    CODE_SHIFT,
    METAL_INDEX,
    Atom,
    current_metal,
)
from palmish.sigmar.generator import (
    DIFFICULTIES,
    EASY_WINS,
    HARD_WINS,
    MAX_DRAWS,
    METAL_CHAIN,
    RATING_PLAYOUTS,
    STANDARD_COUNTS,
    band,
    pick,
    shuffle,
)
from palmish.sigmar.hexagonal.rules import (
    AROUND,
    BOARD,
    CELL_OF,
    CENTRE,
    CENTRE_BIT,
    STRIDE,
    Cell,
    crowded,
    distance,
    reaction_codes,
)
from palmish.stepped import finish

VERSION = 1
ATOM_COUNT = 55
# The turns a template keeps, as the share of boards that get each: a third of a
# turn as in most of the original's layouts, a sixth as in its rings.
TURNS = ((3, 0.7), (6, 0.3))
GROW = 0.8  # chance that the next cells of a template touch it (else anywhere: islands)
SALT_SHARE = 0.35  # chance that a cardinal gives two of its atoms to Salt
FILLS_PER_TEMPLATE = 12
CANDIDATES = 8  # cells tried for each atom of a take, best first
JITTER = 2.5
STEP_TAKES = 7  # takes a stepped build places between pauses (about one playout's time)
KEEP_DEALT = 16  # boards New Game dealt lately, kept built (a few per garden and difficulty)
_DEALT: dict[int, dict[int, Atom]] = {}  # number -> board, oldest first


def _turned(cell: Cell, sixths: int) -> Cell:
    """The cell after `sixths` sixths of a turn clockwise round the centre."""
    dr, dc = cell[0] - CENTRE[0], cell[1] - CENTRE[1]
    for _ in range(sixths):
        dr, dc = dc, dc - dr
    return (dr + CENTRE[0], dc + CENTRE[1])


def _orbits(order: int) -> dict[int, int]:
    """For each bit, the mask of the cells it turns into under `order` equal turns."""
    out = {}
    for i in bits_of(BOARD):
        cell = CELL_OF[i]
        assert cell is not None
        mask = 0
        for k in range(0, 6, 6 // order):
            r, c = _turned(cell, k)
            mask |= 1 << (r * STRIDE + c)
        out[i] = mask
    return out


_ORBITS = {order: _orbits(order) for order, _ in TURNS}
_DISTANCE = {i: distance(CELL_OF[i], CENTRE) for i in bits_of(BOARD)}  # type: ignore[arg-type]


def grow_template(rng: random.Random) -> int:
    """55 cells round the centre, the same after the template's turn, as a mask."""
    roll = rng.random()
    order = TURNS[-1][0]
    for turns, share in TURNS:
        if roll < share:
            order = turns
            break
        roll -= share
    orbits = _ORBITS[order]
    shape = 1 << CENTRE_BIT
    while shape.bit_count() < ATOM_COUNT:
        ring = 0
        if rng.random() < GROW:
            for i in bits_of(shape):
                ring |= AROUND[i]
        choices = bits_of((ring or BOARD) & ~shape)
        shape |= orbits[choices[pick(rng, len(choices))]]
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
    chain, rest = iter(METAL_CHAIN), iter(others)
    plan = [(next(chain), Atom.QUICKSILVER) if k in slots else next(rest) for k in range(total)]
    return [(y, x) if rng.random() < 0.5 else (x, y) for x, y in plan]


def _ranked(rng: random.Random, cells: int, occupied: int) -> list[int]:
    """Cells to try, best first: near the centre, next to many atoms, with jitter."""
    keyed = []
    for i in bits_of(cells):
        near = (occupied & AROUND[i]).bit_count()
        keyed.append((_DISTANCE[i] - 0.75 * near + JITTER * rng.random(), i))
    keyed.sort()
    return [i for _, i in keyed[:CANDIDATES]]


def _filling(rng: random.Random, shape: int,
             plan: list[tuple[Atom, Atom]]) -> Generator[None, None, dict[int, Atom] | None]:
    """Place the plan onto the template, or None when it gets stuck; pauses after
    every STEP_TAKES takes placed."""
    board = {CENTRE_BIT: Atom.GOLD}
    occupied = 1 << CENTRE_BIT
    for n, (x, y) in enumerate(plan, start=1):
        if n % STEP_TAKES == 0:
            yield
        placed = False
        open_a = shape & ~occupied & ~crowded(occupied)
        for a in _ranked(rng, open_a, occupied):
            with_a = occupied | (1 << a)
            open_b = shape & ~with_a & ~crowded(with_a)
            for b in _ranked(rng, open_b, with_a):
                both = with_a | (1 << b)
                packed = crowded(both)
                # Both must be free now, and no empty template cell may lose its last
                # three empty neighbours in a row: no free atom could land there again.
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


def building(rng: random.Random) -> Generator[None, None, dict[int, Atom]]:
    """build() in small steps (a few takes placed each, about a rating playout's time),
    for an app that deals in slices: the pauses take nothing from the stream, so the
    board is build()'s."""
    while True:
        shape = grow_template(rng)
        for _ in range(FILLS_PER_TEMPLATE):
            board = yield from _filling(rng, shape, take_plan(rng))
            if board is not None:
                return board


def build(rng: random.Random) -> dict[int, Atom]:
    """One standard board from the generator's random stream (bit -> atom)."""
    return finish(building(rng))


def _keep(seed: int, board: dict[int, Atom]) -> None:
    """Remember a board New Game dealt, so showing it builds nothing (bounded)."""
    _DEALT.pop(seed, None)
    _DEALT[seed] = board
    while len(_DEALT) > KEEP_DEALT:
        del _DEALT[next(iter(_DEALT))]


def generate(seed: int) -> dict[Cell, Atom]:
    """The board of Board Number `seed` as (row, col) -> atom, in reading order."""
    if seed < 0:
        raise ValueError("a board number is a whole number >= 0")
    board = _DEALT.get(seed) or build(random.Random(seed))
    return {CELL_OF[i]: board[i] for i in sorted(board)}  # type: ignore[misc]  # board bits


# ---------------------------------------------------------------- difficulty
#
# As in the square garden (palmish/sigmar/generator.py): a number is rated by random
# play on its own board, the stream of Random(number) going on after the build, with
# the same playouts and thresholds; New Game draws numbers until one has the rating.


def playouts_of(board: dict[int, Atom], rng: random.Random) -> Iterator[bool]:
    """Random playouts of the board, one after another: whether each one won."""
    kinds = [0] * 16
    start = 0
    for i, atom in board.items():
        kinds[atom] |= 1 << i
        start |= 1 << i
    metal_bits = 0
    for each in METAL_INDEX:
        metal_bits |= kinds[each]
    start_metal = current_metal(kinds, start, 0)
    while True:
        occupied, metal = start, start_metal
        while True:
            codes = reaction_codes(kinds, occupied, metal)
            if not codes:
                break
            code = codes[pick(rng, len(codes))]
            i, j = code >> CODE_SHIFT, code & CODE_LOW
            taken = (1 << i) | ((1 << j) if j else 0)
            occupied &= ~taken
            if taken & metal_bits:
                metal = current_metal(kinds, occupied, 0)
        yield not occupied


def clear_rate(board: dict[int, Atom], rng: random.Random, playouts: int) -> float:
    """The share of random playouts (a uniformly random legal take each time) that win."""
    outcomes = playouts_of(board, rng)
    return sum(next(outcomes) for _ in range(playouts)) / playouts


def rating(seed: int, wanted: str | None = None) -> str:
    """The difficulty of board `seed`: "easy", "normal" or "hard" by its wins in
    RATING_PLAYOUTS random playouts (stopping once the rest cannot change the answer,
    or, with `wanted`, cannot make it `wanted`)."""
    return finish(rating_steps(seed, wanted))


def rating_steps(seed: int, wanted: str | None = None) -> Generator[None, None, str]:
    """rating() a playout at a time: yields while building and after each playout."""
    rated, _ = yield from _rating(seed, wanted)
    return rated


def _rating(seed: int, wanted: str | None) -> Generator[None, None, tuple[str, dict[int, Atom]]]:
    """rating_steps(), with the board it built."""
    rng = random.Random(seed)
    board = yield from building(rng)
    outcomes = playouts_of(board, rng)
    order = ("hard", "normal", "easy")
    wins = 0
    for played in range(RATING_PLAYOUTS):
        yield
        low, high = order.index(band(wins)), order.index(band(wins + RATING_PLAYOUTS - played))
        if low == high or (wanted is not None and not low <= order.index(wanted) <= high):
            break
        wins += next(outcomes)
    return band(wins), board


def deal(difficulty: str | None, draw: Callable[[], int]) -> int:
    """A Board Number for New Game: `draw()` itself without a difficulty, else the first
    drawn number rated `difficulty` (the last one drawn after MAX_DRAWS)."""
    return finish(dealing(difficulty, draw))


def dealing(difficulty: str | None, draw: Callable[[], int]) -> Generator[None, None, int]:
    """deal() in small steps (a rating playout, a few takes of a build), for an app
    that deals in slices. The board of the number dealt is built here too and kept
    (KEEP_DEALT), so showing it (generate) costs nothing on the frame path."""
    if difficulty is not None and difficulty not in DIFFICULTIES:
        raise ValueError(f"unknown difficulty {difficulty!r} (use {', '.join(DIFFICULTIES)})")
    seed = draw()
    board: dict[int, Atom] | None = None
    for _ in range(MAX_DRAWS if difficulty else 0):
        rated, board = yield from _rating(seed, difficulty)
        if rated == difficulty:
            break
        seed, board = draw(), None
    if board is None:
        board = yield from building(random.Random(seed))
    _keep(seed, board)
    return seed


__all__ = ["DIFFICULTIES", "EASY_WINS", "HARD_WINS", "VERSION", "build", "building",
           "clear_rate", "deal",
           "dealing", "generate", "grow_template", "rating", "rating_steps"]
