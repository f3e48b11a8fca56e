"""A second, plain implementation of docs/pachisi-rules.md (Pachisi), written from the
rules page and the seed alone, to play differentially against
palmish.pachisi. It imports nothing from the engine: it is told each throw's
value (the engine's seeded generator makes the throws) and says what the
rules allow.

Positions are the player's own: 0 start area, 1-68 ring, 69-75 home
stretch, 76 finished.
"""

from __future__ import annotations

from dataclasses import dataclass, field

PIECES = 4
FINISH = 76
LAST = 75  # one square before the finish: a caution square
RING = 68
GRACE = frozenset({6, 10, 25})
SAFE = frozenset({4, 13, 17, 21, 30, 34, 38, 47, 51, 55, 64, 68})
FACES = (2, 3, 4, 5, 6, 10, 25)
SEATS_FOR = {2: (0, 2), 3: (0, 1, 2), 4: (0, 1, 2, 3)}  # South, West, North, East


def _south_path() -> dict[int, tuple[int, int]]:
    """South's positions 1-75 on the 19x19 grid, as §8 spells them out."""
    cells: list[tuple[int, int]] = []
    cells += [(8, y) for y in range(18, 10, -1)]  # 1-8 up
    cells += [(x, 10) for x in range(7, -1, -1)]  # 9-16 west
    cells += [(0, 9)]  # 17
    cells += [(x, 8) for x in range(0, 8)]  # 18-25 east
    cells += [(8, y) for y in range(7, -1, -1)]  # 26-33 up
    cells += [(9, 0)]  # 34
    cells += [(10, y) for y in range(0, 8)]  # 35-42 down
    cells += [(x, 8) for x in range(11, 19)]  # 43-50 east
    cells += [(18, 9)]  # 51
    cells += [(x, 10) for x in range(18, 10, -1)]  # 52-59 west
    cells += [(10, y) for y in range(11, 19)]  # 60-67 down
    cells += [(9, 18)]  # 68
    cells += [(9, y) for y in range(17, 10, -1)]  # 69-75 up the middle
    assert len(cells) == LAST
    return {p: c for p, c in enumerate(cells, start=1)}


SOUTH = _south_path()


def turn(cell: tuple[int, int], quarters: int) -> tuple[int, int]:
    """A quarter turn clockwise per step: (x, y) -> (18 - y, x)."""
    x, y = cell
    for _ in range(quarters % 4):
        x, y = 18 - y, x
    return x, y


def grid(seat: int, pos: int) -> tuple[int, int] | None:
    if pos <= 0 or pos >= FINISH:
        return None
    return turn(SOUTH[pos], seat)


def ring_as_south(seat: int, pos: int) -> int:
    """Seat s's ring position p as South's position."""
    return ((pos - 1 + 17 * seat) % RING) + 1


def cowrie_value(mouths_up: int) -> int:
    return {0: 25, 1: 10}.get(mouths_up, mouths_up)


@dataclass(frozen=True)
class RefMove:
    pieces: tuple[int, ...]
    frm: int
    to: int
    captures: frozenset[tuple[int, int]]
    caution: bool


@dataclass
class Reference:
    """The state of one game under §8."""

    n: int
    pos: list[list[int]]
    current: int = 0
    first: list[bool] = field(default_factory=list)  # still in (or before) the first turn
    phase: str = "throw"
    last_throw: int | None = None
    winner: int | None = None

    @classmethod
    def start(cls, n: int) -> Reference:
        return cls.setup([[0] * PIECES for _ in range(n)], current=0, first=[True] * n)

    @classmethod
    def setup(cls, positions: list[list[int]], current: int, first: list[bool]) -> Reference:
        ref = cls(len(positions), [list(p) for p in positions], current, list(first))
        won = [pl for pl in range(ref.n) if ref.pos[pl].count(FINISH) == PIECES]
        if won:  # a set-up where someone has all four home is a game won
            ref.winner, ref.phase = won[0], "over"
        else:
            ref._check_end()
        return ref

    # --- where things are -------------------------------------------------

    @property
    def seats(self) -> tuple[int, ...]:
        return SEATS_FOR[self.n]

    @property
    def over(self) -> bool:
        return self.phase == "over"

    @property
    def first_turn(self) -> bool:
        return self.first[self.current]

    @property
    def can_pass(self) -> bool:
        return self.phase in ("throw", "move") and not self.first_turn

    def square_id(self, player: int, pos: int) -> tuple[object, ...]:
        """A board-wide name of the square at a player's own position."""
        if 1 <= pos <= RING:
            return ("ring", ring_as_south(self.seats[player], pos))
        return ("home", player, pos)

    def square(self, player: int, piece: int) -> tuple[int, int] | None:
        return grid(self.seats[player], self.pos[player][piece])

    def who_is_on(self, sq: tuple[object, ...]) -> dict[int, list[int]]:
        out: dict[int, list[int]] = {}
        for pl in range(self.n):
            for pc, p in enumerate(self.pos[pl]):
                if 1 <= p <= LAST and self.square_id(pl, p) == sq:
                    out.setdefault(pl, []).append(pc)
        return out

    def double_on(self, sq: tuple[object, ...]) -> bool:
        return any(len(pcs) == 2 for pcs in self.who_is_on(sq).values())

    # --- the rules --------------------------------------------------------

    def _try(self, pieces: tuple[int, ...], frm: int, throw: int) -> RefMove | None:
        me = self.current
        to = frm + throw
        if to > FINISH:
            return None  # the finish needs the exact throw
        for between in range(frm + 1, to):  # an entering piece passes 1..t-1
            if self.double_on(self.square_id(me, between)):
                return None
        if to == FINISH:
            return RefMove(pieces, frm, to, frozenset(), False)
        there = self.who_is_on(self.square_id(me, to))
        mine = len(there.pop(me, []))
        if mine + len(pieces) > 2:
            return None  # a third may not join
        safe = to > RING or to in SAFE
        opp_double = any(len(pcs) == 2 for pcs in there.values())
        if len(pieces) == 1 and opp_double:
            return None  # a single never lands on an opponent's double
        if len(pieces) == 2 and safe and opp_double:
            return None  # a double can neither take nor share there
        captures: frozenset[tuple[int, int]] = frozenset()
        if not safe:
            captures = frozenset((pl, pc) for pl, pcs in there.items() for pc in pcs)
        return RefMove(pieces, frm, to, captures, to == LAST)

    def legal(self, throw: int | None = None) -> list[RefMove]:
        if throw is None:
            if self.phase != "move":
                return []
            throw = self.last_throw
        assert throw is not None
        me = self.current
        out: list[RefMove] = []
        if self.first[me] or throw in GRACE:
            # every piece in the start area may be the one that enters
            for pc in range(PIECES):
                if self.pos[me][pc] == 0:
                    m = self._try((pc,), 0, throw)
                    if m:
                        out.append(m)
        groups: dict[int, list[int]] = {}
        for pc, p in enumerate(self.pos[me]):
            if 1 <= p <= LAST:
                groups.setdefault(p, []).append(pc)
        for p, pcs in groups.items():
            m = self._try(tuple(sorted(pcs)), p, throw)
            if m:
                out.append(m)
        return out

    def can_move(self, piece: int) -> bool:
        return any(piece in m.pieces for m in self.legal())

    def default_move(self) -> RefMove | None:
        """The highest `frm`; among entering moves the lowest piece."""
        moves = self.legal()
        return min(moves, key=lambda m: (-m.frm, m.pieces[0])) if moves else None

    # --- playing ----------------------------------------------------------

    def throw(self, value: int) -> None:
        assert self.phase == "throw"
        self.last_throw = value
        if self.legal(value):
            self.phase = "move"
        elif value in GRACE:
            pass  # lost, but a grace throw gives another throw all the same
        else:
            self._end_turn()

    def move(self, m: RefMove) -> None:
        assert self.phase == "move" and m in self.legal()
        me = self.current
        for pc in m.pieces:
            self.pos[me][pc] = m.to
        for pl, pc in m.captures:
            self.pos[pl][pc] = 0
        if all(p == FINISH for p in self.pos[me]):
            self.winner = me
            self.phase = "over"
            return
        if self._check_end():
            return
        if self.last_throw in GRACE or m.captures:
            self.phase = "throw"  # one more throw, never two
        else:
            self._end_turn()

    def pass_turn(self) -> None:
        assert self.can_pass
        self._end_turn()

    def _end_turn(self) -> None:
        self.first[self.current] = False
        self.current = (self.current + 1) % self.n
        self.phase = "throw"

    def _check_end(self) -> bool:
        """No winner once every player has a piece stuck on 75."""
        if all(LAST in self.pos[pl] for pl in range(self.n)):
            self.phase = "over"
            return True
        return False
