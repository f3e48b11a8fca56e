"""What the learned `hard` player sees in a position: a short list of numbers
per player (race, risk, threat, blocking, entering, mobility, tempo).

`player_features(state)` gives one row per player. The learned evaluation
(`learned.py`) scores each row with the same weights and turns the scores
into win chances with a softmax, so one set of weights serves every seat and
any number of players. Pure Python, no game objects: the trainer and the
search call it on plain position lists.
"""

from __future__ import annotations

from collections.abc import Sequence

from palmish.pachisi.rules import CAUTION, FINISH, GRACE, ODDS, RING, SAFE_KEYS

# Piece progress on the ring as a piecewise-linear table: a piece at ring
# position q adds to the two knots around q (so the learned value of a
# position is any broken line through these knots).
KNOTS = (1, 12, 24, 36, 48, 60, 68)
HOME = tuple(range(RING + 1, CAUTION))  # 69..74: each its own value (exact throws)
BLOCK_SPAN = 12  # a double ahead within this many squares holds a piece up
OWN_CACHE = 20_000  # the cache of own numbers starts again past this many entries

NAMES: tuple[str, ...] = (
    "start",
    *(f"ring{k}" for k in KNOTS),
    *(f"home{p}" for p in HOME),
    "stuck",
    "finished",
    # chance-weighted count of my singles an opponent can take before my
    # next turn, split by how far each had come (the ring's knots)
    *(f"risk{k}" for k in KNOTS),
    "risk_to_move",  # the chance-weighted count when I throw next (I may still run)
    # how much of the opponents' progress my pieces can take, the same way
    *(f"threat{k}" for k in KNOTS),
    "threat_to_move",
    "safe",  # my pieces on safe ring squares
    "remaining2",  # (steps I still have to go / 76) squared: progress counts more late
    "doubles",  # my doubles on the ring
    "blocking",  # opponents' pieces held up behind my doubles
    "blocked",  # my pieces held up behind opponents' doubles
    "mobility",  # chance my next throw has a move that is not a caution move
    "idle",  # nothing on the board: only 6, 10 or 25 can be used
    "same_home",  # pairs of my pieces the same distance from the finish
    "first_turn",
    "order1",  # players to throw before me: 1, 2 or 3 (0: I throw next)
    "order2",
    "order3",
)
COUNT = len(NAMES)
_INDEX = {name: i for i, name in enumerate(NAMES)}
_START = _INDEX["start"]
_RING0 = _INDEX["ring1"]
_HOME0 = _INDEX["home69"]
_STUCK = _INDEX["stuck"]
_FINISHED = _INDEX["finished"]
_RISK = _INDEX["risk1"]
_RISK_TO_MOVE = _INDEX["risk_to_move"]
_THREAT = _INDEX["threat1"]
_THREAT_TO_MOVE = _INDEX["threat_to_move"]
_SAFE = _INDEX["safe"]
_REMAINING2 = _INDEX["remaining2"]
_DOUBLES = _INDEX["doubles"]
_BLOCKING = _INDEX["blocking"]
_BLOCKED = _INDEX["blocked"]
_MOBILITY = _INDEX["mobility"]
_IDLE = _INDEX["idle"]
_SAME_HOME = _INDEX["same_home"]
_FIRST = _INDEX["first_turn"]
_ORDER = _INDEX["order1"] - 1

# _RING_SPLIT[q]: (knot index, weight on it, weight on the next knot) for ring q.
_RING_SPLIT: list[tuple[int, float, float]] = [(0, 0.0, 0.0)]
for _q in range(1, RING + 1):
    _i = max(i for i in range(len(KNOTS) - 1) if KNOTS[i] <= _q) if _q < RING else len(KNOTS) - 2
    _t = (_q - KNOTS[_i]) / (KNOTS[_i + 1] - KNOTS[_i])
    _RING_SPLIT.append((_i, 1.0 - _t, _t))


class Tables:
    """The throw odds turned into reach chances, for one kind of dice."""

    def __init__(self, dice: str) -> None:
        odds = ODDS[dice]
        self.odds = tuple(odds.items())
        # reach[d]: chance one turn carries a piece exactly d squares (a throw,
        # or a grace throw and one more); enter[d] the same for a piece
        # entering from the start area after the first turn (grace first).
        reach = [0.0] * (2 * FINISH)
        enter = [0.0] * (2 * FINISH)
        for v, pv in odds.items():
            reach[v] += pv
            if v in GRACE:
                enter[v] += pv
                for w, pw in odds.items():
                    reach[v + w] += pv * pw
                    enter[v + w] += pv * pw
        self.reach = reach
        self.enter = enter
        # a player's own numbers by (pieces, first turn): see _own_numbers
        self.own: dict[tuple[tuple[int, ...], bool], list[float]] = {}


_TABLES: dict[str, Tables] = {}


def tables(dice: str) -> Tables:
    found = _TABLES.get(dice)
    if found is None:
        found = _TABLES[dice] = Tables(dice)
    return found


def _own_numbers(ps: tuple[int, ...], first: bool, t: Tables) -> list[float]:
    """The part of a player's row that depends on its own pieces alone (the
    race, mobility, entering and the first turn): the search meets the same
    pieces again and again, so `player_features` keeps these per Tables."""
    row = [0.0] * COUNT
    # race: where each piece stands
    for q in ps:
        if q == 0:
            row[_START] += 1.0
        elif q <= RING:
            i, a, b = _RING_SPLIT[q]
            row[_RING0 + i] += a
            row[_RING0 + i + 1] += b
        elif q < CAUTION:
            row[_HOME0 + q - RING - 1] += 1.0
        elif q == CAUTION:
            row[_STUCK] += 1.0
        else:
            row[_FINISHED] += 1.0
    # mobility: chance the next throw can move something (blocks ignored)
    can = 0.0
    for v, pv in t.odds:
        for q in ps:
            if (q == 0 and (first or v in GRACE)) or (
                    q > 0 and q + v <= FINISH and q + v != CAUTION):
                can += pv
                break
    row[_MOBILITY] = can
    row[_IDLE] = 1.0 if all(q == 0 or q >= CAUTION for q in ps) and 0 in ps else 0.0
    homes = [FINISH - q for q in ps if RING < q < CAUTION]
    row[_SAME_HOME] = float(len(homes) - len(set(homes)))
    row[_FIRST] = 1.0 if first else 0.0
    row[_REMAINING2] = (sum(FINISH - q for q in ps) / FINISH) ** 2
    row[_SAFE] = float(sum(1 for q in ps if 0 < q <= RING and q - 1 in SAFE_KEYS))
    return row


def player_features(
    pos: Sequence[Sequence[int]],
    seats: Sequence[int],
    first: Sequence[bool],
    to_move: int,
    t: Tables,
) -> list[list[float]]:
    """One row of COUNT numbers per player for the position `pos` (own
    positions per player), with player `to_move` throwing next."""
    n = len(pos)
    rows: list[list[float]] = [[] for _ in range(n)]
    # Ring squares: key -> [(player, count)], and the players' ring pieces.
    board: dict[int, list[list[int]]] = {}
    for pl in range(n):
        off = 17 * seats[pl]
        for q in pos[pl]:
            if 0 < q <= RING:
                k = (q - 1 + off) % RING
                here = board.setdefault(k, [])
                for entry in here:
                    if entry[0] == pl:
                        entry[1] += 1
                        break
                else:
                    here.append([pl, 1])
    reach = t.reach
    own = t.own
    if len(own) > OWN_CACHE:
        own.clear()
    for pl in range(n):
        ps = tuple(pos[pl])
        key = (ps, first[pl])
        found = own.get(key)
        if found is None:
            found = own[key] = _own_numbers(ps, first[pl], t)
        row = rows[pl] = found.copy()
        order = (pl - to_move) % n
        if order:
            row[_ORDER + order] = 1.0
    # risk and threat: each single on an unsafe ring square, and who can reach it
    for k, here in board.items():
        if k in SAFE_KEYS or len(here) != 1 or here[0][1] != 1:
            continue
        owner = here[0][0]
        own_q = (k - 17 * seats[owner]) % RING + 1
        i, a, b = _RING_SPLIT[own_q]
        survive = 1.0
        for pl in range(n):
            if pl == owner:
                continue
            r = (k - 17 * seats[pl]) % RING + 1
            miss = 1.0
            for q in pos[pl]:
                if q == 0:
                    chance = reach[r] if first[pl] else t.enter[r]
                elif q < r:
                    chance = reach[r - q]
                else:
                    continue
                miss *= 1.0 - chance
            hit = 1.0 - miss
            if hit:
                survive *= miss
                row = rows[pl]
                row[_THREAT + i] += hit * a
                row[_THREAT + i + 1] += hit * b
                if pl == to_move:
                    row[_THREAT_TO_MOVE] += hit
        risk = 1.0 - survive
        if risk:
            row = rows[owner]
            row[_RISK + i] += risk * a
            row[_RISK + i + 1] += risk * b
            if owner == to_move:
                row[_RISK_TO_MOVE] += risk
    # doubles: how many pieces they hold up behind them
    for k, here in board.items():
        for owner, count in here:
            if count < 2:
                continue
            rows[owner][_DOUBLES] += 1.0
            for pl in range(n):
                if pl == owner:
                    continue
                r = (k - 17 * seats[pl]) % RING + 1
                held = sum(1 for q in pos[pl] if 0 < q < r <= q + BLOCK_SPAN)
                if held:
                    rows[owner][_BLOCKING] += held
                    rows[pl][_BLOCKED] += held
    return rows
