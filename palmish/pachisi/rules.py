"""Pachisi rules as pure data and functions (docs/pachisi-rules.md): the track, the
seats, the safe squares, the throws and their odds.

Positions are a player's own step counts: 0 start area, 1..68 the shared
ring (1 the start square, 68 the own arm's tip), 69..75 the private home
stretch, 76 the finish. Squares are compared through `key()`, which maps a
player's position to one number per physical square.

Nothing here imports the device, the frontend or game.py.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import NamedTuple

PIECES = 4
RING = 68
CAUTION = 75  # the square before the finish: no 1 on the die, so stuck for ever
FINISH = 76
GRID = 19
CENTRE = (9, 9)

COLOURS = ("red", "gray", "white", "magenta")
SEAT_NAMES = ("South", "West", "North", "East")
# Seats by number of players: two sit on opposite arms.
SEATS: dict[int, tuple[int, ...]] = {2: (0, 2), 3: (0, 1, 2), 4: (0, 1, 2, 3)}

SAFE_POSITIONS = frozenset((4, 13, 17, 21, 30, 34, 38, 47, 51, 55, 64, 68))
# Ring keys 0..67 are South's positions 1..68; the safe set is the same for
# every seat because it repeats every 17 squares.
SAFE_KEYS = frozenset(p - 1 for p in SAFE_POSITIONS)

DICE = ("cowrie", "die7")
GRACE = frozenset((6, 10, 25))
FACES = (2, 3, 4, 5, 6, 10, 25)
# Six cowries, mouths up -> value; 0 up is 25 and 1 up is 10.
COWRIE_VALUE = (25, 10, 2, 3, 4, 5, 6)
_COWRIE_WAYS = {25: 1, 10: 6, 2: 15, 3: 20, 4: 15, 5: 6, 6: 1}
ODDS: dict[str, dict[int, float]] = {
    "cowrie": {v: n / 64 for v, n in _COWRIE_WAYS.items()},
    "die7": {v: 1 / 7 for v in FACES},
}


class IllegalMove(ValueError):
    """A move, pass, throw or record the rules do not allow (one line)."""


class Move(NamedTuple):
    """One legal move: `pieces` are one piece or a double (sorted), moved from
    `frm` to `to` in the player's own positions; `captures` are the (player,
    piece) pairs it sends home; `caution` is to == 75."""

    player: int
    pieces: tuple[int, ...]
    frm: int
    to: int
    captures: tuple[tuple[int, int], ...] = ()
    caution: bool = False

    @property
    def enters(self) -> bool:
        return self.frm == 0

    @property
    def finishes(self) -> bool:
        return self.to == FINISH


def draw(rng: random.Random, dice: str) -> int:
    """The next throw from the game's generator.

    Cowries: six fair shells from six bits of one getrandbits(6) call;
    the seven-faced die: rng.choice over FACES.
    """
    if dice == "cowrie":
        return COWRIE_VALUE[bin(rng.getrandbits(6)).count("1")]
    return rng.choice(FACES)


def _key(seat: int, pos: int) -> int:
    if 1 <= pos <= RING:
        return (pos - 1 + 17 * seat) % RING
    if RING < pos < FINISH:
        return RING + 7 * seat + (pos - RING - 1)
    return -1


# KEYS[seat][pos]: one number per physical square (see key()).
KEYS: tuple[tuple[int, ...], ...] = tuple(
    tuple(_key(seat, pos) for pos in range(FINISH + 1)) for seat in range(4)
)


def key(seat: int, player: int, pos: int) -> int:
    """One number per physical square: 0..67 the ring (South's position - 1),
    68 + 7 * seat + k the home-stretch square k of the player in that seat
    (private: one player per seat); -1 for the start area and the finish,
    which are not squares. `player` is kept for callers; the seat decides."""
    return KEYS[seat][pos]


def _south_path() -> tuple[tuple[int, int], ...]:
    path: list[tuple[int, int]] = []
    path += [(8, y) for y in range(18, 10, -1)]  # 1-8 up
    path += [(x, 10) for x in range(7, -1, -1)]  # 9-16 west
    path.append((0, 9))  # 17
    path += [(x, 8) for x in range(0, 8)]  # 18-25 east
    path += [(8, y) for y in range(7, -1, -1)]  # 26-33 up
    path.append((9, 0))  # 34
    path += [(10, y) for y in range(0, 8)]  # 35-42 down
    path += [(x, 8) for x in range(11, 19)]  # 43-50 east
    path.append((18, 9))  # 51
    path += [(x, 10) for x in range(18, 10, -1)]  # 52-59 west
    path += [(10, y) for y in range(11, 19)]  # 60-67 down
    path.append((9, 18))  # 68
    path += [(9, y) for y in range(17, 10, -1)]  # 69-75 up the middle
    return tuple(path)


def _turn(xy: tuple[int, int]) -> tuple[int, int]:
    x, y = xy
    return (GRID - 1 - y, x)


def _tracks() -> tuple[tuple[tuple[int, int] | None, ...], ...]:
    tracks = []
    path = _south_path()
    for _seat in range(4):
        tracks.append((None, *path, None))
        path = tuple(_turn(xy) for xy in path)
    return tuple(tracks)


# TRACK[seat][pos]: the (x, y) grid square of a position, None for 0 and 76.
TRACK = _tracks()
SAFE_SQUARES = frozenset(xy for p, xy in enumerate(TRACK[0]) if p in SAFE_POSITIONS)
START_SQUARE = tuple(TRACK[s][1] for s in range(4))


def valid_name(name: str) -> bool:
    """Names are 1-10 characters without spaces, commas or colons (records)."""
    return (
        1 <= len(name) <= 10
        and name.isprintable()
        and not any(c.isspace() or c in ",:" for c in name)
    )


Occupants = dict[int, list[tuple[int, list[int]]]]


def occupants(positions: Sequence[Sequence[int]], seats: Sequence[int]) -> Occupants:
    """Square key -> [(player, [pieces])] for every square with pieces on it."""
    occ: Occupants = {}
    for pl, ps in enumerate(positions):
        keys = KEYS[seats[pl]]
        for pc, pos in enumerate(ps):
            if 0 < pos < FINISH:
                here = occ.setdefault(keys[pos], [])
                for owner, pieces in here:
                    if owner == pl:
                        pieces.append(pc)
                        break
                else:
                    here.append((pl, [pc]))
    return occ


def legal_moves(
    positions: Sequence[Sequence[int]],
    seats: Sequence[int],
    player: int,
    value: int,
    first_turn: bool,
) -> list[Move]:
    """Every legal move of `player` for a throw, in MOVE ORDER: by `frm`,
    highest first; moves with equal `frm` (only entering moves share one)
    by piece index, lowest first.

    One move per square on the board (a double moves as one, named by both
    pieces), and one entering move per piece in the start area that may
    enter: the pieces there are alike, so their moves differ only in the
    piece that moves, and each waiting piece can be picked by its own move.
    """
    ps = positions[player]
    # counts[k][pl]: how many of player pl's pieces stand on square k
    counts: dict[int, dict[int, int]] = {}
    blocked: set[int] = set()
    for pl, others in enumerate(positions):
        keys = KEYS[seats[pl]]
        for pos in others:
            if 0 < pos < FINISH:
                k = keys[pos]
                here = counts.setdefault(k, {})
                c = here.get(pl, 0) + 1
                here[pl] = c
                if c >= 2:
                    blocked.add(k)
    keys = KEYS[seats[player]]
    moves: list[Move] = []
    done: set[int] = set()
    can_enter = first_turn or value in GRACE
    entering: Move | None = None  # the first waiting piece's move, copied for the others
    for piece in sorted(range(PIECES), key=lambda i: (-ps[i], i)):
        frm = ps[piece]
        if frm == 0 and entering is not None:
            moves.append(entering._replace(pieces=(piece,)))
            continue
        if frm in done or frm == FINISH or (frm == 0 and not can_enter):
            continue
        done.add(frm)  # a double's second piece, or a blocked start area's others
        to = frm + value
        if to > FINISH:
            continue
        if blocked and not blocked.isdisjoint(keys[frm + 1:to]):
            continue
        pieces = (piece,) if frm == 0 else tuple(i for i in range(PIECES) if ps[i] == frm)
        captures: tuple[tuple[int, int], ...] = ()
        if to < FINISH:
            k = keys[to]
            at_to = counts.get(k)
            if at_to:
                if at_to.get(player, 0) + len(pieces) > 2:
                    continue
                safe = k in SAFE_KEYS or to > RING
                ok = True
                taken: list[tuple[int, int]] = []
                for pl, c in at_to.items():
                    if pl == player:
                        continue
                    if c >= 2 and (len(pieces) == 1 or safe):
                        ok = False
                    elif not safe:
                        taken += [(pl, pc) for pc in range(PIECES) if positions[pl][pc] == (
                            (k - 17 * seats[pl]) % RING + 1)]
                if not ok:
                    continue
                captures = tuple(sorted(taken))
        moves.append(Move(player, pieces, frm, to, captures, to == CAUTION))
        if frm == 0:
            entering = moves[-1]
    return moves


def distinct(moves: Sequence[Move]) -> list[Move]:
    """Legal moves (in move order) without the start area's repeats: each
    waiting piece has its own entering move, but the pieces there are alike,
    so the first entering move (the lowest-numbered piece) stands for all.
    For players that weigh positions (the computer, benchmark baselines)."""
    return [m for i, m in enumerate(moves) if m.frm or not i or moves[i - 1].frm]


def sane(moves: Sequence[Move]) -> list[Move]:
    """The `distinct` moves but the caution ones (a piece to 75): the moves the
    computer and the benchmark baselines choose among."""
    return [m for m in distinct(moves) if not m.caution]


def throws_again(value: int, move: Move) -> bool:
    """Whether the mover throws again after `move` of throw `value`: a 6, 10
    or 25 earns a throw, and so does a capture."""
    return value in GRACE or bool(move.captures)


def computer_names(count: int) -> tuple[str, ...]:
    """The seed's names for the program's players: Silicon, Silicon1, Silicon2."""
    return tuple("Silicon" + (str(i) if i else "") for i in range(count))
