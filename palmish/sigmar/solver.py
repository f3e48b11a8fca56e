"""A solver: depth-first search over (atoms left, current metal) with a memo of dead positions.

Atoms never move, so a position is the mask of the atoms left plus the index
of the current metal (the pointer only matters through it). Prunes: a memo of
positions already proven dead; salt parity (every cardinal left in an odd
number needs a Salt of its own); Vitae and Mors, quicksilver and the metals
it must carry, left in matching numbers. Moves come in a useful order (the
gold, metals, like pairs, Vitae + Mors, then Salt) and the gold is taken at
once when it is free, since nothing else can block it.

Speed (docs/sigmar-rules.md, "The solver"): the metals still present and the
current metal travel down the search instead of being recounted at every
position; a move into a known dead position is skipped before the call;
after a restart, each position's moves are rotated by an offset from a salt
drawn once per restart, not shuffled one by one; and the memo of dead
positions is kept for the board between searches, so a Hint after a take
does not prove the same dead ends again.
"""

from __future__ import annotations

import random
from collections.abc import Generator
from dataclasses import dataclass, field

from palmish.sigmar.game import Game, take_of
from palmish.sigmar.rules import (
    CARDINALS,
    CODE_LOW,
    CODE_SHIFT,
    GOLD_INDEX,
    METAL_INDEX,
    METAL_ORDER,
    NO_METAL,
    Atom,
    Take,
    current_metal_index,
    metals_present,
    pointer_after,
    reaction_codes,
)
from palmish.stepped import finish

DEFAULT_MAX_NODES = 1_000_000
HINT_MAX_NODES = 200_000


FIRST_ATTEMPT = 2_000  # positions before the first restart
RESTART_SEED = 2002
# Dead positions kept for one board between searches; dropped past this many
# (some 40 MB), as a long game of Hints on a hard board could grow it.
MEMO_LIMIT = 500_000
_memo: tuple[tuple[int, ...], set[int]] | None = None  # (the board's kinds, its dead positions)


class _Restart(Exception):
    """This attempt's share of the budget is spent: try another move order."""


class SearchBudget(Exception):
    """The node budget ran out before the search could answer."""

    def __init__(self, nodes: int) -> None:
        super().__init__(f"the search gave up after {nodes} positions without an answer")
        self.nodes = nodes


@dataclass
class _Search:
    kinds: tuple[int, ...]
    slag: int
    atom_of: dict[int, Atom]
    max_nodes: int
    nodes: int = 0
    limit: int = 0  # this attempt's node limit (restarts); 0: max_nodes only
    salt: int = 0  # after a restart: varies the move order; 0: the preferred order
    dead: set[int] = field(default_factory=set)
    path: list[int] = field(default_factory=list)

    def feasible(self, occupied: int) -> bool:
        """Counting checks: a position failing them can never be cleared."""
        kinds = self.kinds
        salt = (occupied & kinds[Atom.SALT]).bit_count()
        odd = 0
        for cardinal in CARDINALS:
            odd += (occupied & kinds[cardinal]).bit_count() & 1
        if odd > salt or (salt - odd) & 1:
            return False
        if (occupied & kinds[Atom.VITAE]).bit_count() != (occupied & kinds[Atom.MORS]).bit_count():
            return False
        carried = 0
        for metal in METAL_ORDER[:GOLD_INDEX]:
            carried += (occupied & kinds[metal]).bit_count()
        return (occupied & kinds[Atom.QUICKSILVER]).bit_count() == carried

    def start(self, occupied: int, pointer: int, metals: int) -> bool:
        """Whether the position clears; `metals` is metals_present() of `occupied`."""
        if not occupied & ~self.slag:
            return True
        metal = current_metal_index(pointer, metals)
        if (occupied << 3) | metal in self.dead:
            return False
        return self.search(occupied, metal, metals)

    def search(self, occupied: int, metal: int, metals: int) -> bool:
        """start() past its checks: the position is not won nor known dead, and
        `metal` is the current metal's index (the pointer, resolved: metals
        passed over are gone for good, so it serves as the pointer below)."""
        key = (occupied << 3) | metal
        self.nodes += 1
        if self.nodes > self.max_nodes:
            raise SearchBudget(self.max_nodes)
        if self.limit and self.nodes > self.limit:
            raise _Restart
        kinds = self.kinds
        codes = reaction_codes(kinds, occupied, metal)
        if (
            codes and metal == GOLD_INDEX and not codes[0] & CODE_LOW
            and (occupied & kinds[Atom.GOLD]).bit_count() == 1
        ):
            # The only gold, free and current: no metal can move before it goes, and
            # waiting frees nothing, so taking it now loses no solution.
            codes = codes[:1]
        if self.salt and len(codes) > 1:
            turn = (key * self.salt >> 17) % len(codes)
            codes = codes[turn:] + codes[:turn]
        atom_of, dead, slag = self.atom_of, self.dead, self.slag
        salt = kinds[Atom.SALT]
        for code in codes:
            i, j = code >> CODE_SHIFT, code & CODE_LOW
            after = occupied & ~(1 << i)
            new_metal, new_metals = metal, metals
            atom = atom_of[i]
            if atom in METAL_INDEX:  # a take holds at most one metal
                if not after & kinds[atom]:
                    new_metals &= ~(1 << METAL_INDEX[atom])
                new_metal = current_metal_index(pointer_after(atom), new_metals)
            if j:
                after &= ~(1 << j)
                atom = atom_of[j]
                if atom in METAL_INDEX:
                    if not after & kinds[atom]:
                        new_metals &= ~(1 << METAL_INDEX[atom])
                    new_metal = current_metal_index(pointer_after(atom), new_metals)
                if (1 << i | 1 << j) & salt and not self._salt_enough(after):
                    continue
            if not after & ~slag:
                self.path.append(code)
                return True
            if (after << 3) | new_metal in dead:
                continue  # checked here: a call per dead end costs more than the test
            self.path.append(code)
            if self.search(after, new_metal, new_metals):
                return True
            self.path.pop()
        dead.add(key)
        return False

    def _salt_enough(self, after: int) -> bool:
        # Only a take with Salt can break salt parity; the other counts are kept.
        kinds = self.kinds
        odd = 0
        for cardinal in CARDINALS:
            odd += (after & kinds[cardinal]).bit_count() & 1
        return odd <= (after & kinds[Atom.SALT]).bit_count()


def _search_for(game: Game, max_nodes: int) -> _Search:
    kinds = game.kinds
    atom_of = {}
    for value, mask in enumerate(kinds):
        if mask:
            for i in _bits(mask):
                atom_of[i] = Atom(value)
    global _memo
    if _memo is None or _memo[0] != tuple(kinds) or len(_memo[1]) > MEMO_LIMIT:
        _memo = (tuple(kinds), set())
    return _Search(kinds, kinds[Atom.SLAG], atom_of, max_nodes, dead=_memo[1])


def _bits(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def solve(game: Game, max_nodes: int = DEFAULT_MAX_NODES) -> list[Take] | None:
    """The takes of a solution from the game's position, [] if it is won, None if none exists.

    Never changes the game; raises SearchBudget when `max_nodes` positions
    were searched without an answer.
    """
    return solve_counted(game, max_nodes)[0]


def solve_counted(game: Game, max_nodes: int = DEFAULT_MAX_NODES) -> tuple[list[Take] | None, int]:
    """solve() and the number of positions it searched (for benchmarks)."""
    return finish(_searching(game, max_nodes, None))  # without slices it never pauses


def _searching(
    game: Game, max_nodes: int, slice_nodes: int | None
) -> Generator[None, None, tuple[list[Take] | None, int]]:
    """The search of solve_counted() and solving(): the answer and the positions searched.

    The search restarts with a shuffled move order after FIRST_ATTEMPT
    positions, then after twice as many, and so on: a depth-first search
    that took a wrong turn early can spend millions of positions proving that
    turn dead, while another order finds a solution at once. The memo of
    dead positions is kept across restarts (a position is only marked dead
    once fully searched), so the last attempt still proves "no solution".
    With `slice_nodes` it also pauses (yields) after about that many positions
    (solving() says how it goes on); without, it never yields.
    """
    if game.won:
        return [], 0
    search = _search_for(game, max_nodes)
    occupied = game.occupancy
    if not search.feasible(occupied):
        return None, 0
    metal = game.metal_index
    pointer = 0 if metal == NO_METAL else metal
    metals = metals_present(search.kinds, occupied)
    order = random.Random(RESTART_SEED)  # fixed: the same position, the same answer
    attempt = FIRST_ATTEMPT
    attempt_end: int | None = attempt if attempt < max_nodes else None  # None: max_nodes only
    walk = 0  # the positions back down to where the last slice stopped, counted again
    while True:
        pause = None if slice_nodes is None else search.nodes + slice_nodes + walk
        ends = [end for end in (pause, attempt_end) if end is not None]
        search.limit = min(ends) if ends else 0
        search.path = []
        try:
            found = search.start(occupied, pointer, metals)
        except _Restart:
            if attempt_end is not None and search.nodes > attempt_end:
                search.salt = order.getrandbits(32) | 1  # once per restart
                attempt *= 2
                attempt_end = search.nodes + attempt
                attempt_end = attempt_end if attempt_end < max_nodes else None
            if pause is not None and search.nodes > pause:
                walk = len(search.path) + 1
                yield
            continue
        return ([take_of(code) for code in search.path] if found else None), search.nodes


def hint(game: Game, max_nodes: int = HINT_MAX_NODES) -> Take | None:
    """The first take of a solution from here; None when there is none ("Undo").

    Also None on a won game (nothing left to take). SearchBudget when the
    budget runs out first ("don't know").
    """
    takes = solve(game, max_nodes)
    return takes[0] if takes else None


SLICE_NODES = 300  # positions per slice of solving(): about 15 ms on a busy 2-core machine


def solving(
    game: Game, max_nodes: int = HINT_MAX_NODES, slice_nodes: int | None = None
) -> Generator[None, None, list[Take] | None]:
    """solve() a slice at a time, for a caller that must keep drawing (the Hint).

    Yields after about `slice_nodes` positions (SLICE_NODES) and returns what solve() returns
    (raising SearchBudget the same way). A recursive search cannot be frozen, so
    a pause ends the descent and the next slice starts again from the root: the
    memo of dead positions holds everything finished, so the search only walks
    back down its path (a few dozen positions) and goes on from there; before
    the first restart (and with any fixed move order) that is the very same search.
    """
    answer, _ = yield from _searching(game, max_nodes, slice_nodes or SLICE_NODES)
    return answer
