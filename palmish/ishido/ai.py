"""The PalmIshido computer player: `choose(game) -> (row, col)`.

It knows what a player knows: the board, the current tile, the score and how
many of each tile are still in the pouch (never their order). It searches an
expectimax tree: our placement, then every tile the pouch may give next,
weighted by how many of it are left, then our best reply, and so on, deepening
while the time budget lasts. Leaves are scored by mobility: for every tile
still to come, how many cells would take it; a tile with few or no cells is a
threat to the game. With aim="score" the leaves also value four-ways, made and
prepared. See docs/ai.md.
"""

from __future__ import annotations

import random
import time
from collections.abc import Generator, Sequence

from palmish.bitmask import bits_of
from palmish.ishido import rules
from palmish.ishido.game import Game
from palmish.ishido.rules import AROUND, BOARD, EDGE, STRIDE, IllegalMove
from palmish.stepped import finish

AIMS = ("clear", "score")
TYPES = len(rules.TILES)  # 36 distinct tiles, index color * 6 + shape
_TYPE_COLOR = tuple(t.color for t in rules.TILES)
_TYPE_SHAPE = tuple(t.shape for t in rules.TILES)

# Leaf weights, tuned by hand on seeds 1000..1079 (the benchmark reports 0..N).
NO_CELL = -10.0  # a tile to come that no cell would take
NEIGHBOUR_WEIGHT = 0.6  # per neighbour of a placement: fill holes, stay compact
EDGE_WEIGHT = 0.3  # per edge placement: the rim is cheap space for clearing
# aim="score": a four-way made, and a pocket (empty cell with four neighbours)
# that some tile still to come would fill as a four-way.
FOURWAY_MADE = 15.0
LIVE_POCKET = 10.0
PROTO_POCKET = 2.5  # an empty cell with three neighbours that some tile to come fits
SEED_POCKET = 0.3  # an inner empty cell with two neighbours that some tile to come fits
SCORE_MOBILITY = 1.5  # the weight of mobility when aiming at score
SCORE_NEIGHBOUR_WEIGHT = 1.0
SCORE_EDGE_WEIGHT = -0.3  # the rim scores nothing and holds no pockets
WIN = 1000.0  # every tile placed
LOSS = -500.0  # stuck; minus LOSS_PER_TILE for each tile left
LOSS_PER_TILE = 20.0


class _OutOfTime(Exception):
    pass


def legal_masks(
    occupied: int, colors: Sequence[int], shapes: Sequence[int], types: Sequence[int]
) -> list[int]:
    """rules.legal_mask for several tile types at once, sharing the shifted masks."""
    empty = BOARD & ~occupied
    n_l, n_r, n_u, n_d = occupied << 1, occupied >> 1, occupied << STRIDE, occupied >> STRIDE
    candidates = empty & (n_l | n_r | n_u | n_d)
    four = n_l & n_r & n_u & n_d
    single = ~((n_l & (n_r | n_u | n_d)) | (n_r & (n_u | n_d)) | (n_u & n_d))
    open_cells = candidates & ~four
    pockets = candidates & four
    # Shift each colour's and shape's tiles once; the tile types share them.
    color_sides = [(m << 1, m >> 1, m << STRIDE, m >> STRIDE) for m in colors]
    shape_sides = [(m << 1, m >> 1, m << STRIDE, m >> STRIDE) for m in shapes]
    out = []
    for k in types:
        c_l, c_r, c_u, c_d = color_sides[_TYPE_COLOR[k]]
        s_l, s_r, s_u, s_d = shape_sides[_TYPE_SHAPE[k]]
        mismatch = (
            (n_l & ~(c_l | s_l))
            | (n_r & ~(c_r | s_r))
            | (n_u & ~(c_u | s_u))
            | (n_d & ~(c_d | s_d))
        )
        split = (
            (c_l & (s_r | s_u | s_d))
            | (c_r & (s_l | s_u | s_d))
            | (c_u & (s_l | s_r | s_d))
            | (c_d & (s_l | s_r | s_u))
        )
        legal = open_cells & ~mismatch & (single | split)
        if pockets:
            legal |= pockets & (
                (c_l & c_r & s_u & s_d)
                | (c_l & c_u & s_r & s_d)
                | (c_l & c_d & s_r & s_u)
                | (c_r & c_u & s_l & s_d)
                | (c_r & c_d & s_l & s_u)
                | (c_u & c_d & s_l & s_r)
            )
        out.append(legal)
    return out


class _Search:
    """Expectimax over (our placement, next tile drawn) pairs on raw bitboards.

    Positions two or more plies deep are generators, so that a search sliced
    for the window (`thinking` with `slice_ms`) can stop between two of their
    children and go on where it stopped; a leaf (one ply) is a plain call. An
    unsliced search never yields: its generators just return their values.
    """

    def __init__(
        self, game: Game, aim: str, deadline: float, max_evals: int | None,
        slice_ms: float | None = None,
    ) -> None:
        self.scoring = aim == "score"
        self.deadline = deadline
        self.evals_left = max_evals
        self.slice_s = None if slice_ms is None else slice_ms / 1000.0
        self.slice_end = (None if self.slice_s is None
                          else time.perf_counter() + self.slice_s)
        self.occupied = 0
        self.colors = [0] * rules.COLORS
        self.shapes = [0] * rules.SHAPES
        for r in range(rules.ROWS):
            for c in range(rules.COLS):
                t = game.tile_at(r, c)
                if t is not None:
                    self._put(r * STRIDE + c, t.color * rules.SHAPES + t.shape)
        # What a player can count: the tiles still to come after the current one.
        self.counts = [0] * TYPES
        for t, n in game.pouch_counts().items():
            self.counts[t.color * rules.SHAPES + t.shape] = n
        self.left = sum(self.counts)
        self.ticks = 0

    # -------------------------------------------------------- board edits

    def _put(self, i: int, k: int) -> None:
        bit = 1 << i
        self.occupied |= bit
        self.colors[_TYPE_COLOR[k]] |= bit
        self.shapes[_TYPE_SHAPE[k]] |= bit

    def _remove(self, i: int, k: int) -> None:
        bit = ~(1 << i)
        self.occupied &= bit
        self.colors[_TYPE_COLOR[k]] &= bit
        self.shapes[_TYPE_SHAPE[k]] &= bit

    # -------------------------------------------------------- values

    def move_value(self, i: int) -> float:
        """What a placement on bit i is worth by itself (board before placing)."""
        neighbours = (self.occupied & AROUND[i]).bit_count()
        if self.scoring:
            value = SCORE_NEIGHBOUR_WEIGHT * neighbours
            if (EDGE >> i) & 1:
                value += SCORE_EDGE_WEIGHT
            if neighbours == 4:
                value += FOURWAY_MADE
            return value
        value = NEIGHBOUR_WEIGHT * neighbours
        if (EDGE >> i) & 1:
            value += EDGE_WEIGHT
        return value

    def _check_budget(self) -> None:
        self.ticks += 1
        if self.evals_left is not None:
            self.evals_left -= 1
            if self.evals_left < 0:
                raise _OutOfTime
        elif self.ticks & 7 == 0 and time.perf_counter() > self.deadline:
            raise _OutOfTime

    def _legal_now(self) -> tuple[list[int], list[int]]:
        """The tile types still to come and the cells each could take now (one eval)."""
        self._check_budget()
        present = [k for k in range(TYPES) if self.counts[k]]
        return present, legal_masks(self.occupied, self.colors, self.shapes, present)

    def leaf(self) -> float:
        """Value of the position after one of our placements, one ply deep."""
        if self.left == 0:
            return WIN
        present, masks = self._legal_now()
        counts = self.counts
        value = 0.0
        live = 0
        for k, legal in zip(present, masks, strict=True):
            cells = legal.bit_count()
            value += counts[k] * (NO_CELL if cells == 0 else -1.0 / cells)
            live |= legal
        if self.scoring:
            value *= SCORE_MOBILITY
            occupied = self.occupied
            n_l, n_r = occupied << 1, occupied >> 1
            n_u, n_d = occupied << STRIDE, occupied >> STRIDE
            pockets = n_l & n_r & n_u & n_d & ~occupied
            three = ((n_l & n_r & (n_u | n_d)) | (n_u & n_d & (n_l | n_r))) & ~pockets
            two = (n_l & (n_r | n_u | n_d)) | (n_r & (n_u | n_d)) | (n_u & n_d)
            two &= ~three & ~pockets
            value += LIVE_POCKET * (live & pockets).bit_count()
            value += PROTO_POCKET * (live & three & ~EDGE).bit_count()
            value += SEED_POCKET * (live & two & ~EDGE).bit_count()
        return value

    def after(self, depth: int) -> Generator[None, None, float]:
        """Value of the position after one of our placements, `depth` (2 or more)
        plies deep; yields where a slice of thinking ends."""
        if self.left == 0:
            return WIN
        present, masks = self._legal_now()
        counts = self.counts
        total = 0.0
        loss = LOSS - LOSS_PER_TILE * self.left
        for k, legal in zip(present, masks, strict=True):
            n = counts[k]
            if not legal:
                total += n * loss
                continue
            counts[k] = n - 1
            self.left -= 1
            best = -1e18
            try:
                while legal:
                    low = legal & -legal
                    i = low.bit_length() - 1
                    legal ^= low
                    value = self.move_value(i)
                    self._put(i, k)
                    try:
                        value += self.leaf() if depth == 2 else (yield from self.after(depth - 1))
                    finally:
                        self._remove(i, k)
                    best = max(best, value)
                    yield from self.pause_if_due()
            finally:
                self.left += 1
                counts[k] = n
            total += n * best
        return total / self.left

    def value_of(self, i: int, k: int, depth: int) -> Generator[None, None, float]:
        """Value of placing tile type k (the current tile) on bit i."""
        value = self.move_value(i)
        self._put(i, k)
        try:
            return value + (self.leaf() if depth <= 1 else (yield from self.after(depth)))
        finally:
            self._remove(i, k)

    def pause_if_due(self) -> Generator[None, None, None]:
        """End the slice here once it has run its time (sliced searches only). The
        budget counts thinking, not the pause: the deadline moves on by the pause."""
        if self.slice_end is None or time.perf_counter() < self.slice_end:
            return
        paused = time.perf_counter()
        yield
        resumed = time.perf_counter()
        self.deadline += resumed - paused
        assert self.slice_s is not None
        self.slice_end = resumed + self.slice_s


def choose(
    game: Game,
    budget_ms: float = 100.0,
    aim: str = "clear",
    *,
    rng: random.Random | None = None,
    deadline: float | None = None,
    max_evals: int | None = None,
) -> tuple[int, int]:
    """A legal (row, col) for the game's current tile.

    aim="clear" plays to place all 72 tiles; aim="score" for the modern
    score. The search stops at `deadline` (a time.perf_counter() value) if
    given, else after `budget_ms`; with `max_evals` it stops after that many
    positions evaluated instead, which makes it reproducible whatever the
    machine's load. `rng` only breaks ties between equal moves. Whatever the
    limit, the answer is legal (at worst the first candidate looked at).
    """
    if deadline is None:
        deadline = time.perf_counter() + budget_ms / 1000.0
    return finish(thinking(game, aim, deadline, rng or random.Random(0), max_evals))


def thinking(
    game: Game, aim: str, deadline: float, rng: random.Random,
    max_evals: int | None = None, slice_ms: float | None = None,
) -> Generator[None, None, tuple[int, int]]:
    """`choose`'s search as a generator, its limits given outright. With `slice_ms`
    it yields each time it has thought that long and goes on from there when
    resumed (a boardgame SlicedJob runs it between frames); the deadline moves on
    by every pause, so only the thinking counts. The same answer as `choose` for
    the same evaluations."""
    if aim not in AIMS:
        raise ValueError(f"unknown aim {aim!r} (use 'clear' or 'score')")
    current = game.current
    if current is None:
        raise IllegalMove("the game is over: there is no tile to place")
    candidates = bits_of(game.legal_mask())
    rng.shuffle(candidates)  # ties go to a random move, reproducibly with rng
    if len(candidates) == 1:
        return divmod(candidates[0], STRIDE)
    search = _Search(game, aim, deadline, max_evals, slice_ms)
    k = current.color * rules.SHAPES + current.shape
    best = candidates[0]
    depth = 1
    # Iterative deepening; a depth beyond the tiles left adds nothing.
    while depth <= search.left + 1:
        scored: list[tuple[float, int]] = []
        try:
            for i in candidates:
                scored.append(((yield from search.value_of(i, k, depth)), i))
                yield from search.pause_if_due()
        except _OutOfTime:
            pass
        # Candidates run best-first, so a partial deeper pass that finished the
        # previous best is still a fair comparison among those it finished.
        if scored and (depth == 1 or scored[0][1] == best):
            scored.sort(key=lambda pair: -pair[0])
            best = scored[0][1]
            finished = [i for _, i in scored]
            candidates = finished + [i for i in candidates if i not in finished]
        if len(scored) < len(candidates):
            break
        depth += 1
    return divmod(best, STRIDE)
