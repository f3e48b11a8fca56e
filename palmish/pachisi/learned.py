"""The `hard` player: a learned evaluation and a short look-ahead.

Each player's feature row (`features.py`) times one weight vector is a
score; the softmax of the scores is each player's chance to win. The weights
come from self-play (`python -m palmish.pachisi.train`, which writes
`hard-weights.json`); they are read the first time `hard` plays.

A move is worth the mover's chance to win after it. For `hard`, a move
that ends the turn is worth that chance once the next player has answered:
over each of its throws (but the rarest) it makes the move best for itself,
and the mover's chances after those answers are averaged by the throw odds.
The player after it answers the same position too, and the change its
answer makes is added.
A move that earns another throw (a 6, 10 or 25, or a capture) is worth the
expected best continuation over the seven throws, each continuation that
ends the turn (and passing) answered the same way. Passing is worth the
present position, answered the same way. When the two best moves are
within ROLLOUT_MARGIN, hard plays each on for a few throws many times
(rollouts, the same throws for both) and keeps the better mean. The
trainer's learner looks at the position only (the weights were made so;
search only at play).
"""

from __future__ import annotations

import json
import math
import random
import zlib
from collections.abc import Generator, Sequence
from functools import lru_cache
from importlib import resources
from operator import mul

from palmish.pachisi import rules
from palmish.pachisi.features import COUNT, NAMES, Tables, player_features
from palmish.pachisi.rules import FINISH, GRACE, Move

WEIGHTS_FILE = "hard-weights.json"
# The next player's throws rarer than this are not searched (cowrie 6 and 25,
# 1 in 64 each): a third less time for a 32nd of the odds.
RARE_THROW = 0.03
# How many of the players after the mover answer a move that ends its turn
# (the next one, then the one after it).
ANSWERS = 2
# The most positions one decision may look at in the answers before hard
# judges an earned throw's continuations on the bare position instead (the
# cheaper search, started again): a count, not a clock, so the choice stays
# the same for the same position. About 50-80 ms of search on this machine;
# hit only where an earned throw meets many moves (mostly the 7-sided die).
WIDE_SEARCH = 1000
# Close calls settled by rollouts: the top ROLLOUT_MOVES moves by the
# search, when within ROLLOUT_MARGIN of the best, are each played on for
# ROLLOUT_THROWS throws (about two rounds), ROLLOUTS times, every player
# making its best move by the learned chances; the dice are the same for
# every move and seeded by the position.
ROLLOUTS = 16
ROLLOUT_MOVES = 2
ROLLOUT_MARGIN = 0.01
ROLLOUT_THROWS = 8
# A decision whose search has already looked at more positions than this
# (some 40 ms of work) is not rolled out: the rollouts of two moves cost up
# to some 60-75 ms more, and the slowest decision must stay under 250 ms.
ROLLOUT_SEARCH_LIMIT = 500

Positions = list[list[int]]
# The search (best_move, after_move, next_throw, answered, settle) is written as
# generators: they yield after each answer and each rollout (a fraction of a
# millisecond to a few), so a window can run a decision between frames, and
# palmish.stepped.finish runs one at once; the answer does not depend on where
# it paused.
Steps = Generator[None, None, float]


class SearchTooWide(Exception):
    """The answers have looked at more than the evaluator's budget of positions."""


class WeightsError(ValueError):
    """A weights file that does not fit the features (one line)."""


def parse_weights(text: str, source: str = WEIGHTS_FILE) -> tuple[float, ...]:
    """The weight vector of a weights file's text; WeightsError if it does not
    name exactly the features this version computes."""
    try:
        data = json.loads(text)
    except ValueError as exc:
        raise WeightsError(f"{source}: not JSON ({exc})") from None
    if not isinstance(data, dict) or not isinstance(data.get("weights"), dict):
        raise WeightsError(f"{source}: no 'weights' table")
    table = data["weights"]
    if sorted(table) != sorted(NAMES):
        raise WeightsError(f"{source}: the weights do not name this version's features")
    values = [table[name] for name in NAMES]
    if not all(isinstance(v, (int, float)) and math.isfinite(v) for v in values):
        raise WeightsError(f"{source}: a weight is not a finite number")
    return tuple(float(v) for v in values)


@lru_cache(maxsize=1)
def weights() -> tuple[float, ...]:
    """The packaged weights, read once."""
    text = resources.files("palmish.pachisi").joinpath(WEIGHTS_FILE).read_text("utf-8")
    return parse_weights(text)


def chances(rows: Sequence[Sequence[float]], w: Sequence[float]) -> list[float]:
    """Each player's chance to win: the softmax of the rows' scores."""
    scores = [math.fsum(map(mul, row, w)) for row in rows]  # the rows are COUNT long
    top = max(scores)
    exp = [math.exp(s - top) for s in scores]
    total = sum(exp)
    return [e / total for e in exp]


def rollout_seed(pos: Sequence[Sequence[int]], first: Sequence[bool], value: int,
                 me: int) -> int:
    """The seed of a decision's rollout throws (rollout r uses seed + r): made
    from the position, the first turns, the throw and the mover alone, so the
    same position always gets the same move."""
    return zlib.crc32(repr(([list(p) for p in pos], list(first), value, me)).encode())


def apply(pos: Sequence[Sequence[int]], m: Move) -> Positions:
    after = [list(p) for p in pos]
    for pc in m.pieces:
        after[m.player][pc] = m.to
    for pl, pc in m.captures:
        after[pl][pc] = 0
    return after


class Evaluator:
    """The win chance of positions for one game's seats, dice and turn state."""

    def __init__(self, seats: Sequence[int], first: Sequence[bool], t: Tables,
                 w: Sequence[float] | None = None, budget: int | None = None) -> None:
        self.seats = tuple(seats)
        self.first = list(first)
        self.n = len(seats)
        self.t = t
        self.w = weights() if w is None else tuple(w)
        assert len(self.w) == COUNT
        self.budget = budget  # positions the answers may look at (None: no bound)
        self.looked = 0
        self.earned_answers = True  # an earned throw's continuations answered too
        self._rolled: dict[Move, float] = {}  # rolled_out's sums, by move

    def chance(self, pos: Sequence[Sequence[int]], me: int, to_move: int) -> float:
        first = self.first
        if to_move != me and first[me]:  # the mover's first turn ends with it
            first = list(first)
            first[me] = False
        rows = player_features(pos, self.seats, first, to_move, self.t)
        return chances(rows, self.w)[me]

    def best_move(self, pos: Positions, moves: Sequence[Move], value: int, look: bool,
                  reply: bool) -> Generator[None, None, tuple[Move, float]]:
        """The move of throw `value` with the best chance (`after_move`), and that
        chance; ties go to the first. Past the budget the moves are searched again
        with an earned throw's continuations on the bare position; the budget is
        then spent, so what is asked after (passing) is judged unbounded."""
        try:
            found = yield from self._best_of(pos, moves, value, look, reply)
        except SearchTooWide:
            found = None
        self.budget = None
        if found is None:
            self.earned_answers = False
            found = yield from self._best_of(pos, moves, value, look, reply)
        return found

    def _best_of(self, pos: Positions, moves: Sequence[Move], value: int, look: bool,
                 reply: bool) -> Generator[None, None, tuple[Move, float]]:
        scored = []
        for m in moves:
            scored.append(((yield from self.after_move(pos, m, value, look, reply)), m))
        # best first; sorted() is stable, so ties go to the most advanced move
        scored.sort(key=lambda cm: -cm[0])
        best_chance, best = scored[0]
        if ROLLOUTS and reply and self.looked <= ROLLOUT_SEARCH_LIMIT:
            close = [m for c, m in scored[:ROLLOUT_MOVES] if c >= best_chance - ROLLOUT_MARGIN]
            if len(close) > 1:
                best = yield from self.settle(pos, close, value)
                best_chance = next(c for c, m in scored if m == best)
        return best, best_chance

    def settle(self, pos: Positions, moves: Sequence[Move],
               value: int) -> Generator[None, None, Move]:
        """The move of `moves` (of throw `value`) whose ROLLOUTS rollouts give
        the mover the best mean chance; ties go to the first. Every move is
        played on with the same throws, drawn from a seed the position makes,
        so the same position always gets the same move. A pause after each
        rollout."""
        best, best_total = moves[0], -1.0
        for m in moves:
            total = yield from self.rolled_out(pos, m, value)
            if total > best_total:
                best, best_total = m, total
        return best

    def rolled_out(self, pos: Positions, m: Move, value: int) -> Steps:
        """The sum of the mover's chances over the ROLLOUTS rollouts after move `m` of
        throw `value` (remembered: passing compares with the same sum). A pause after
        each rollout."""
        if m not in self._rolled:
            me = m.player
            nxt = me if rules.throws_again(value, m) else (me + 1) % self.n
            self._rolled[m] = yield from self._rollouts(apply(pos, m), me, nxt, pos, value)
        return self._rolled[m]

    def pass_gain(self, pos: Positions, best: Move, value: int) -> Steps:
        """How much passing beats move `best` (of throw `value`) by the rollouts: the
        mean of the mover's chance after passing less that after the move, both
        played on with the same throws as `settle` uses."""
        me = best.player
        moved = yield from self.rolled_out(pos, best, value)
        passed = yield from self._rollouts(pos, me, (me + 1) % self.n, pos, value)
        return (passed - moved) / ROLLOUTS

    def _rollouts(self, after: Positions, me: int, nxt: int, pos: Positions,
                  value: int) -> Steps:
        """The sum of ROLLOUTS rollouts from `after` (`nxt` throwing first), their
        throws drawn from the seed of the decision (position `pos`, throw `value`)."""
        seed = rollout_seed(pos, self.first, value, me)
        outcomes = []
        for r in range(ROLLOUTS):
            outcomes.append(self.rollout(after, me, nxt, random.Random(seed + r)))
            yield
        return math.fsum(outcomes)

    def rollout(self, pos: Positions, me: int, player: int, rng: random.Random) -> float:
        """The mover's chance after ROLLOUT_THROWS throws from `pos`, `player`
        throwing first; every player makes the move best for itself by the
        learned chances, one ply, and a throw no move can use is lost (the
        rollout never passes). 1 or 0 when someone wins on the way."""
        pos = [list(p) for p in pos]
        first = list(self.first)
        if player != me:
            first[me] = False  # the mover's turn has ended
        for _ in range(ROLLOUT_THROWS):
            value = self._draw(rng)
            moves = rules.sane(rules.legal_moves(pos, self.seats, player, value, first[player]))
            again = value in GRACE
            if moves:
                _, pos, again = self._greedy(pos, moves, value, first)
                if all(q == FINISH for q in pos[player]):
                    return 1.0 if player == me else 0.0
            if not again:
                first[player] = False
                player = (player + 1) % self.n
        rows = player_features(pos, self.seats, first, player, self.t)
        return chances(rows, self.w)[me]

    def _greedy(self, pos: Positions, moves: Sequence[Move], value: int,
                first: Sequence[bool]) -> tuple[list[float], Positions, bool]:
        """The move of `moves` best for its player by the learned chances (one
        ply, no search; ties go to the first): every player's chances after it,
        the position after it, and whether that player throws again."""
        player = moves[0].player
        ended = list(first)
        ended[player] = False
        best: tuple[list[float], Positions, bool] | None = None
        for m in moves:
            again = rules.throws_again(value, m)
            after = apply(pos, m)
            rows = player_features(after, self.seats, first if again else ended,
                                   player if again else (player + 1) % self.n, self.t)
            c = chances(rows, self.w)
            if best is None or c[player] > best[0][player]:
                best = (c, after, again)
        assert best is not None  # `moves` is never empty
        return best

    def _draw(self, rng: random.Random) -> int:
        """One throw by the dice's odds."""
        x = rng.random()
        for v, pv in self.t.odds:
            x -= pv
            if x < 0.0:
                return v
        return self.t.odds[-1][0]

    def after_move(self, pos: Sequence[Sequence[int]], m: Move, value: int,
                   look: bool, reply: bool = False) -> Steps:
        """The mover's chance after a move of throw `value`; with `look`, a
        further throw it earns is searched one throw deep; with `reply`, a
        move that ends the turn is worth the chance after the next player's
        answer (`answered`)."""
        me = m.player
        after = apply(pos, m)
        if not rules.throws_again(value, m):
            if reply:
                return (yield from self.answered(after, me))
            return self.chance(after, me, (me + 1) % self.n)
        if not look:
            return self.chance(after, me, me)
        return (yield from self.next_throw(after, me, reply and self.earned_answers))

    def next_throw(self, pos: Positions, me: int, reply: bool = False) -> Steps:
        """Expected chance over the mover's next throw, played at its best
        (passing, when allowed, keeps the position for the next player);
        with `reply`, a move (or pass) that ends the turn there is judged
        after the answers too, as the first throw's moves are."""
        stay = ((yield from self.answered(pos, me)) if reply
                else self.chance(pos, me, (me + 1) % self.n))
        expected = 0.0
        for v, pv in self.t.odds:
            moves = rules.legal_moves(pos, self.seats, me, v, self.first[me])
            best = -1.0
            for m in rules.sane(moves):
                best = max(best, (yield from self.after_move(pos, m, v, False, reply)))
            if best < 0.0 or not self.first[me]:
                best = max(best, stay)  # no move, or passing is allowed
            expected += pv * best
        return expected

    def answered(self, pos: Positions, me: int) -> Steps:
        """The mover's expected chance once the next ANSWERS players have
        answered. Each is searched from this same position (`answer`), as if
        it threw next; the first one's result counts, and for each later one
        the change it makes to the position as it stands is added (a chain
        of answers to answers would cost the product of their throws).
        SearchTooWide once the budget of positions is spent."""
        if self.budget is not None and self.looked > self.budget:
            raise SearchTooWide
        total = 0.0
        for step in range(1, min(ANSWERS, self.n - 1) + 1):
            after, standing = self.answer(pos, me, (me + step) % self.n)
            total += after if step == 1 else after - standing
            yield
        return total

    def answer(self, pos: Positions, me: int, by: int) -> tuple[float, float]:
        """The mover's expected chance once player `by` has thrown and
        answered as hard would (its move best for its own chance, one ply; a
        throw it cannot use leaves the position), and its chance with `by`
        to throw before that. Throws rarer than RARE_THROW are not searched:
        the position as it stands counts."""
        after_by = (by + 1) % self.n
        first = list(self.first)
        first[me] = False  # the mover's turn has ended
        done = list(first)
        done[by] = False  # and so has the next player's
        standing = self.chance(pos, me, by)  # `first` as chance() makes it: by is not me
        unused = -1.0  # the chance when `by` cannot use its throw, worked out once
        expected = 0.0
        for v, pv in self.t.odds:
            if pv < RARE_THROW:
                expected += pv * standing
                continue
            moves = rules.sane(rules.legal_moves(pos, self.seats, by, v, first[by]))
            if not moves:
                if unused < 0.0:
                    rows = player_features(pos, self.seats, done, after_by, self.t)
                    unused = chances(rows, self.w)[me]
                expected += pv * unused
                continue
            self.looked += len(moves)
            expected += pv * self._greedy(pos, moves, v, first)[0][me]
        return expected, standing
