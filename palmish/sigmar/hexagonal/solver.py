"""The hexagonal garden's solver: a depth-first search that pauses (docs/sigmar-rules.md,
"The hexagonal solver", which argues why each cut below is sound).

A position is the mask of the atoms left: atoms never move, and with one metal
of each the current metal is the first one still there. The search keeps its
own stack, so it can stop after any position and go on later from exactly
there (`solving` yields between slices; the app's Hint runs it between
frames). Cuts, none of which ever loses the last solution:

- positions proven dead are remembered (for the next search on the board too);
- counting: Vitae and Mors, quicksilver and the metals it must carry, left in
  equal numbers; an odd element needs a Salt of its own; Salt is only spent
  beyond that while two are to spare;
- the gold, free and current, is taken at once;
- forced takes: when a whole group is free (every Vitae and Mors, or an element
  and every Salt) one take of it is enough; when an atom's every possible
  partner is free, only that atom's takes are tried;
- before searching, the metal chain: a relaxed game where everything but the
  metals and quicksilver goes at will must still clear the board (chain_dead).

Restarts: the search starts again with another move order after FIRST_ATTEMPT
positions, then twice as many, and so on, keeping what it proved, so a wrong
early turn on a solvable board does not cost millions of positions while the
last attempt still proves "no solution".
"""

from __future__ import annotations

import random
from collections.abc import Generator
from dataclasses import dataclass, field

from palmish.bitmask import bits_of
from palmish.sigmar.atoms import (
    CARDINALS,
    CODE_LOW,
    CODE_SHIFT,
    GOLD_INDEX,
    METAL_ORDER,
    NO_METAL,
    Atom,
    Take,
    current_metal,
    pair_codes,
)
from palmish.sigmar.hexagonal.game import HexGame, take_of
from palmish.sigmar.hexagonal.rules import crowded
from palmish.sigmar.solver import SearchBudget
from palmish.stepped import finish

DEFAULT_MAX_NODES = 1_000_000
HINT_MAX_NODES = 200_000
SLICE_NODES = 300  # positions per slice of solving()
FIRST_ATTEMPT = 2_000  # positions before the first restart
RESTART_SEED = 2043
MEMO_LIMIT = 500_000  # dead positions kept for one board between searches
_memo: tuple[tuple[int, ...], set[int]] | None = None  # (the board's kinds, its dead positions)

_CARDINALS = tuple(int(a) for a in CARDINALS)
_METALS = tuple(int(m) for m in METAL_ORDER)
SALT, VITAE, MORS, QUICK, GOLD = (int(a) for a in (Atom.SALT, Atom.VITAE, Atom.MORS,
                                                    Atom.QUICKSILVER, Atom.GOLD))


def _low(mask: int) -> int:
    return (mask & -mask).bit_length() - 1


def _pair(i: int, j: int) -> int:
    return (i << CODE_SHIFT) | j if i < j else (j << CODE_SHIFT) | i


@dataclass
class _Board:
    """What a search needs of the board: the atoms' masks, fixed for a game."""

    kinds: tuple[int, ...]
    metal_bits: int = 0
    dead: set[int] = field(default_factory=set)

    def __post_init__(self) -> None:
        for value in _METALS:
            self.metal_bits |= self.kinds[value]

    def feasible(self, occupied: int) -> bool:
        """Counting checks: a position failing them can never be cleared."""
        kinds = self.kinds
        salt = (occupied & kinds[SALT]).bit_count()
        odd = sum((occupied & kinds[x]).bit_count() & 1 for x in _CARDINALS)
        if odd > salt or (salt - odd) & 1:
            return False
        if (occupied & kinds[VITAE]).bit_count() != (occupied & kinds[MORS]).bit_count():
            return False
        carried = sum((occupied & kinds[m]).bit_count() for m in _METALS[:GOLD_INDEX])
        return (occupied & kinds[QUICK]).bit_count() == carried

    def moves(self, occupied: int, metal: int) -> list[int]:
        """The takes worth trying from a position (a forced one alone), best first;
        [] when none is possible or an atom provably can never go."""
        kinds = self.kinds
        free = occupied & ~crowded(occupied)
        locked = occupied & ~free
        if metal == GOLD_INDEX:
            gold = free & kinds[GOLD]
            if gold:
                return [_low(gold) << CODE_SHIFT]  # nothing else can matter to it now
        vitae, mors = occupied & kinds[VITAE], occupied & kinds[MORS]
        if vitae and mors and not (vitae | mors) & locked:
            return [_pair(_low(vitae), _low(mors))]  # every Vitae and Mors is free
        salt = occupied & kinds[SALT]
        cardinals = odd = odds = 0  # odd: the kinds of the cardinals left in odd numbers
        for x in _CARDINALS:
            mine = occupied & kinds[x]
            if not mine:
                continue
            cardinals |= mine
            if mine.bit_count() & 1:
                odd |= kinds[x]
                odds += 1
            if mine & (mine - 1) and not (mine | salt) & locked:
                # Two of them, and every atom of this element and every Salt is free.
                low = mine & -mine
                return [_pair(low.bit_length() - 1, _low(mine ^ low))]
        if not cardinals and salt & (salt - 1) and not salt & locked:
            low = salt & -salt
            return [_pair(low.bit_length() - 1, _low(salt ^ low))]
        # One atom whose every possible partner is free: some solution takes it with one
        # of them now. The fewest such takes win; none at all means it can never go.
        best: list[int] | None = None
        if metal < GOLD_INDEX:
            quick = occupied & kinds[QUICK]
            metal_free = free & kinds[_METALS[metal]]
            if metal_free and not quick & locked:
                i = _low(metal_free)
                best = [_pair(i, j) for j in bits_of(quick)]
        for one, other in ((vitae, mors), (mors, vitae)):
            if one & free and not other & locked and (best is None or
                                                      other.bit_count() < len(best)):
                i = _low(one & free)
                best = [_pair(i, j) for j in bits_of(other)]
        if not salt & locked:
            for x in _CARDINALS:
                mine = occupied & kinds[x]
                if mine.bit_count() == 1 and mine & free and (best is None or
                                                              salt.bit_count() < len(best)):
                    best = [_pair(_low(mine), j) for j in bits_of(salt)]
        if best is not None:
            return best
        # Salt to spare, beyond the one each odd cardinal needs: without, Salt goes only
        # with the odd cardinals (anything else leaves one of them without a Salt).
        if salt.bit_count() - odds >= 2:
            return pair_codes(kinds, free, metal)
        return pair_codes(kinds, free, metal, salt_partners=odd, salt_pairs=False)


def _settle(kinds: tuple[int, ...], occupied: int, left: int) -> tuple[int, int]:
    """The relaxed game's fixpoint: from `left` (a subset of the position `occupied`),
    every free cardinal, Salt, Vitae and Mors that has a partner of its kind "at hand"
    goes, again and again, where at hand is free now or already gone in the relaxation
    (partners may be used twice). Returns what is left and its free atoms."""
    while True:
        free = left & ~crowded(left)
        at_hand = free | (occupied & ~left)
        salt = at_hand & kinds[SALT]
        cardinals = going = 0
        for x in _CARDINALS:
            mine = at_hand & kinds[x]
            cardinals |= mine
            if mine and (mine & (mine - 1) or salt):
                going |= mine
        if salt and (salt & (salt - 1) or cardinals):
            going |= salt
        if at_hand & kinds[VITAE] and at_hand & kinds[MORS]:
            going |= kinds[VITAE] | kinds[MORS]
        going &= free & left
        if not going:
            return left, free
        left &= ~going


def chain_dead(kinds: tuple[int, ...], occupied: int) -> bool:
    """Whether the metals can never all go, whatever is done with the other atoms: a
    sound proof of "no solution" (docs/sigmar-rules.md, "The metal chain").

    The relaxed game pairs the cardinals, Salt, Vitae and Mors at will (_settle) and
    plays only the metals exactly, choosing for each metal in turn which free
    quicksilver goes with it; quicksilver never goes otherwise. Whatever a real
    solution does, the relaxed board following its choices of quicksilver is never
    fuller than the real one, so if every choice leaves atoms, so does every game.
    """

    def clears(left: int) -> bool:
        left, free = _settle(kinds, occupied, left)
        if not left:
            return True
        metal = current_metal(kinds, left, 0)
        if metal == NO_METAL:
            return False
        here = free & kinds[_METALS[metal]]
        if not here:
            return False
        if metal == GOLD_INDEX:
            return clears(left & ~here)
        return any(clears(left & ~here & ~(1 << q)) for q in bits_of(free & kinds[QUICK]))

    return not clears(occupied)


def _board_for(game: HexGame) -> _Board:
    global _memo
    kinds = game.kinds
    if _memo is None or _memo[0] != kinds or len(_memo[1]) > MEMO_LIMIT:
        _memo = (kinds, set())
    return _Board(kinds, dead=_memo[1])


def _searching(game: HexGame, max_nodes: int, slice_nodes: int | None
               ) -> Generator[None, None, tuple[list[Take] | None, int]]:
    """The search: the takes of a solution (None: there is none) and the positions
    searched; yields after every `slice_nodes` positions (never without)."""
    if game.won:
        return [], 0
    board = _board_for(game)
    start = game.occupancy
    if not board.feasible(start) or chain_dead(board.kinds, start):
        return None, 0
    kinds, dead, metal_bits = board.kinds, board.dead, board.metal_bits
    moves_of = board.moves
    taken_of = _TAKEN
    order = random.Random(RESTART_SEED)  # fixed: the same position, the same answer
    nodes = 0
    pause = slice_nodes if slice_nodes else max_nodes + 1
    attempt = FIRST_ATTEMPT
    attempt_end = attempt
    turn = 0  # 0: the preferred order; after a restart, turns each position's moves
    while start not in dead:
        # The position being searched (mask, current metal, its moves, the next one to
        # try) and, below it, the positions it was reached from.
        occupied, metal = start, current_metal(kinds, start, 0)
        codes, k = moves_of(occupied, metal), 0
        if turn and len(codes) > 1:
            codes = _turned_moves(codes, occupied, turn)
        below: list[tuple[int, int, list[int], int]] = []
        nodes += 1
        while True:
            if k == len(codes):
                dead.add(occupied)
                if not below:
                    return None, nodes
                occupied, metal, codes, k = below.pop()
                continue
            code = codes[k]
            k += 1
            taken = taken_of[code]
            after = occupied & ~taken
            if after in dead:
                continue
            if not after:
                return [take_of(c[j - 1]) for _, _, c, j in below] + [take_of(code)], nodes
            next_metal = current_metal(kinds, after, 0) if taken & metal_bits else metal
            nodes += 1
            if nodes > max_nodes:
                raise SearchBudget(max_nodes)
            if nodes >= pause:
                pause = nodes + (slice_nodes or 0)
                yield
            below.append((occupied, metal, codes, k))
            occupied, metal = after, next_metal
            codes, k = moves_of(occupied, metal), 0
            if turn and len(codes) > 1:
                codes = _turned_moves(codes, occupied, turn)
            if nodes > attempt_end:
                break  # restart from the top with another move order
        turn = order.getrandbits(32) | 1
        attempt *= 2
        attempt_end = nodes + attempt
    return None, nodes


def _turned_moves(codes: list[int], occupied: int, turn: int) -> list[int]:
    """The moves turned round by an offset drawn from the position and the restart."""
    k = (occupied * turn >> 17) % len(codes)
    return codes[k:] + codes[:k]


class _Taken(dict[int, int]):
    """The atoms a take code removes, as a mask, worked out on first use."""

    def __missing__(self, code: int) -> int:
        low = code & CODE_LOW
        mask = self[code] = (1 << (code >> CODE_SHIFT)) | ((1 << low) if low else 0)
        return mask


_TAKEN = _Taken()


def solve(game: HexGame, max_nodes: int = DEFAULT_MAX_NODES) -> list[Take] | None:
    """The takes of a solution from the game's position, [] if it is won, None if none
    exists. Never changes the game; SearchBudget when `max_nodes` positions were not
    enough."""
    return solve_counted(game, max_nodes)[0]


def solve_counted(game: HexGame, max_nodes: int = DEFAULT_MAX_NODES
                  ) -> tuple[list[Take] | None, int]:
    """solve() and the number of positions it searched (for benchmarks)."""
    return finish(_searching(game, max_nodes, None))


def hint(game: HexGame, max_nodes: int = HINT_MAX_NODES) -> Take | None:
    """The first take of a solution from here; None when there is none (or the game is
    won). SearchBudget when the budget runs out first."""
    takes = solve(game, max_nodes)
    return takes[0] if takes else None


def solving(game: HexGame, max_nodes: int = HINT_MAX_NODES, slice_nodes: int | None = None
            ) -> Generator[None, None, list[Take] | None]:
    """solve() a slice at a time: yields after about `slice_nodes` positions (SLICE_NODES)
    and goes on from exactly there; returns what solve() returns."""
    answer, _ = yield from _searching(game, max_nodes, slice_nodes or SLICE_NODES)
    return answer


__all__ = ["DEFAULT_MAX_NODES", "HINT_MAX_NODES", "SLICE_NODES", "SearchBudget", "hint",
           "solve", "solve_counted", "solving"]
