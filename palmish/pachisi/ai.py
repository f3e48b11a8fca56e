"""Silicon, the computer player: `choose(game, level)` -> a Move or PASS.

`choosing` is the same choice as a stepped computation (palmish.stepped): the
window runs `hard`'s search between frames; the answer is the same.

- easy: the seed's marker (the most advanced movable piece), but never the
  caution move onto 75; passes when only caution moves are left.
- normal: one ply. Each move is scored by an evaluation of the position
  after it: progress (entering is worth a bonus, the home stretch is safe,
  75 is a lost piece), minus the chance each exposed piece is taken before
  the mover's next turn (from the throw odds, entering throws included)
  times what it would lose, plus blocking doubles, minus the opponents'
  progress (so captures count), plus the worth of an extra throw.
- lookahead (`hard` until the learned player; not offered in Preferences):
  looks further (expectimax over the throw values). A move that earns
  another throw is worth the expected best continuation over that throw;
  otherwise each opponent's answer is searched over its seven throws (it is
  assumed to play like `normal`, from this same position), and half the
  gain of the mover's own next throw is added.
- hard: the learned player (`learned.py`): the move after which its chance
  to win, by weights learned in self-play (`train.py`), is highest. A move
  that ends the turn is judged after the next two players' answers to
  each of their likely throws; a throw the move earns is searched one throw
  deep, each of its moves that ends the turn answered the same way. When
  the two best moves are close, each is played on for two rounds, sixteen
  times over the same throws, and the better mean wins. It passes when
  passing beats its best move; once another player has passed this game,
  only when by more than PASS_MARGIN of win chance
  (`hard_pass_margin`).
  `STRONGEST` names it.

Every level is deterministic (ties go to the most advanced move), never
makes a caution move unless the rules force it (first turn, nothing else),
and never passes while some move scores at least as well as passing. After
two rounds of throws in which no piece moved it stops passing too: the rules
allow endless passing, and a table of computers must still finish.
"""

from __future__ import annotations

from collections.abc import Generator, Sequence

from palmish.pachisi import features, learned, rules
from palmish.pachisi.game import PASS, Game, Phase, _Pass
from palmish.pachisi.learned import apply as _apply
from palmish.pachisi.rules import CAUTION, FINISH, GRACE, RING, SAFE_POSITIONS, Move
from palmish.stepped import finish

LEVELS = ("easy", "normal", "hard")  # the Preferences' choices, weakest first
# "lookahead" was `hard` until the learned player took the name; it stays for
# the benchmark (a level that looks ahead, but plays barely better than normal).
ALL_LEVELS = ("easy", "normal", "lookahead", "hard")
STRONGEST = "hard"  # the Hint and a stand-in for an absent network player use it

ENTER_BONUS = 12.0  # a piece on the board is worth more than its steps: entering is scarce
HOME_BONUS = 20.0  # in the home stretch nobody can take it
FINISH_BONUS = 25.0
STUCK = -150.0  # on 75 a piece can never finish: the game is lost
OPPONENT_WEIGHT = 0.35
EXTRA_THROW = 6.0
DOUBLE_BLOCK = 3.0
DOUBLE_RISK = 0.15  # only a double can take a double
STALL_ROUNDS = 2
NEXT_WEIGHT = 0.5
REPLIES = 3  # lookahead: how many opponents' answers it looks at
# once another player has passed, hard passes only when passing beats its best
# move by more than this chance to win: in a table of players who wait, most of
# its passes gained less than half a point (noise of the learned chances) and
# made a game a fifth longer (docs/pachisi-rules.md, Passing and the length of
# a game; `hard_pass_margin`)
PASS_MARGIN = 0.01

Positions = list[list[int]]


Choice = Move | _Pass


def choose(game: Game, level: str = "normal") -> Choice:
    """The computer's choice for the current throw (phase "move")."""
    return finish(choosing(game, level))


def choosing(game: Game, level: str = "normal") -> Generator[None, None, Choice]:
    """`choose`, stepped: only `hard` yields (its search takes up to some 100 ms);
    the others answer in the first step. The arguments are checked at once."""
    if level not in ALL_LEVELS:
        raise ValueError(f"unknown level {level!r} (use {', '.join(ALL_LEVELS)})")
    if game.phase != Phase.MOVE:
        raise ValueError("choose needs a throw waiting for its move (the computer always throws)")
    return _choosing(game, level)


def _choosing(game: Game, level: str) -> Generator[None, None, Choice]:
    moves = game.legal_moves()
    sane = rules.sane(moves)
    if not sane:
        return PASS if game.can_pass else moves[0]
    if level == "easy":
        return sane[0]
    if level == "hard":
        return (yield from choosing_learned(game, learned.weights(), keep_captures=True,
                                            reply=True, pass_margin=hard_pass_margin(game)))
    pos = [list(game.positions(p)) for p in range(len(game.players))]
    ctx = _Context(game)
    me = game.current
    throw = game.last_throw
    assert throw is not None  # phase "move": a throw is waiting
    scored = []
    for m in sane:
        after = _apply(pos, m)
        again = rules.throws_again(throw, m)
        if level == "lookahead":
            value = ctx.deep(after, me, again)
        else:
            value = ctx.evaluate(after, me) + (EXTRA_THROW if again else 0.0)
        scored.append((value, m.frm, m))
    best_value, _, best = max(scored, key=lambda t: (t[0], t[1]))
    if game.can_pass and not _stalled(game):
        stay = ctx.deep(pos, me, False) if level == "lookahead" else ctx.evaluate(pos, me)
        if best_value < stay:
            return PASS
    return best


def choose_learned(game: Game, w: Sequence[float], look: bool = True,
                   keep_captures: bool = False, reply: bool = False,
                   pass_margin: float = 0.0) -> Choice:
    """hard (and the trainer's self-play): the move with the best learned
    chance to win; `look` searches a throw the move earns one throw deep;
    `keep_captures` never passes while a move captures; it passes only when
    passing beats the best move by more than `pass_margin` (a chance)."""
    return finish(choosing_learned(game, w, look, keep_captures, reply, pass_margin))


def choosing_learned(game: Game, w: Sequence[float], look: bool = True,
                     keep_captures: bool = False, reply: bool = False,
                     pass_margin: float = 0.0) -> Generator[None, None, Choice]:
    """`choose_learned`, stepped."""
    moves = game.legal_moves()
    sane = rules.sane(moves)
    if not sane:
        return PASS if game.can_pass else moves[0]
    may_pass = game.can_pass and not _stalled(game)
    if len(sane) == 1 and not may_pass:
        return sane[0]
    n = len(game.players)
    me = game.current
    value = game.last_throw
    assert value is not None
    first = [game.in_first_turn(p) for p in range(n)]
    judge = learned.Evaluator(game.seats, first, features.tables(game.dice), w,
                              budget=learned.WIDE_SEARCH if reply else None)
    pos = [list(game.positions(p)) for p in range(n)]
    best, best_chance = yield from judge.best_move(pos, sane, value, look, reply)
    # hard never passes up a capture: the learned chances, mostly from
    # four-player games, can undervalue sending a lone far piece home (two
    # players). The trainer's self-play goes without, as the weights were made.
    captures = keep_captures and any(m.captures for m in sane)
    if may_pass and not captures:
        stay = ((yield from judge.answered(pos, me)) if reply
                else judge.chance(pos, me, (me + 1) % n))
        if stay > best_chance + pass_margin:
            return PASS
    return best


def hard_pass_margin(game: Game) -> float:
    """How much more than its best move passing must be worth before hard
    passes: nothing while no other player has passed this game (each has
    moved every throw it could use), PASS_MARGIN once one of them has.

    Hard's search judges a pass as if the next players must move (they do
    not pass in its answers). Against players who always move that holds, and
    a wait pays: they come into reach or go by. Against players who wait too,
    the pass is worth less than it looks and only lengthens the game."""
    others = (p for p in range(len(game.players)) if p != game.current)
    return PASS_MARGIN if any(game.has_passed(p) for p in others) else 0.0


def _stalled(game: Game) -> bool:
    """No piece has moved in the last round of throws: passing again could
    lock the game for ever (every player blocked or passing), so move."""
    span = STALL_ROUNDS * len(game.players)
    recent = game.history[-span - 1:-1]  # the throw waiting now excluded
    return len(recent) == span and all(t.outcome != "moved" for t in recent)


def piece_value(p: int) -> float:
    if p == 0:
        return 0.0
    if p == CAUTION:
        return STUCK
    if p == FINISH:
        return ENTER_BONUS + FINISH + HOME_BONUS + FINISH_BONUS
    if p > RING:
        return ENTER_BONUS + p + HOME_BONUS
    return ENTER_BONUS + p


class _Context:
    """What the evaluation needs from the game, computed once per decision."""

    def __init__(self, game: Game) -> None:
        self.seats = game.seats
        self.n = len(game.players)
        self.first = [game.in_first_turn(p) for p in range(self.n)]
        self.odds = rules.ODDS[game.dice]
        # Chance one turn's throws carry a piece exactly d squares: one throw,
        # or a grace throw and then one more.
        reach = [0.0] * 80
        for v, pv in self.odds.items():
            reach[v] += pv
            if v in GRACE:
                for w, pw in self.odds.items():
                    if v + w < 80:
                        reach[v + w] += pv * pw
        self.reach = reach
        # Chance an opponent enters and lands exactly r (entering needs a grace
        # throw after the first turn).
        self.enter_reach = [0.0] * 80
        for v, pv in self.odds.items():
            if v in GRACE:
                self.enter_reach[v] += pv
                for w, pw in self.odds.items():
                    if v + w < 80:
                        self.enter_reach[v + w] += pv * pw
        self.enter_first = reach

    def _own_pos(self, of: int, k: int) -> int:
        """Player `of`'s own ring position of ring key k."""
        return (k - 17 * self.seats[of]) % RING + 1

    def evaluate(self, pos: Positions, me: int) -> float:
        total = 0.0
        opp = 0.0
        seats = self.seats
        keys: dict[int, tuple[int, int]] = {}  # ring key -> (player, count)
        for pl in range(self.n):
            for p in pos[pl]:
                if 0 < p <= RING:
                    k = (p - 1 + 17 * seats[pl]) % RING
                    owner, c = keys.get(k, (pl, 0))
                    keys[k] = (pl, c + 1) if owner == pl else (owner, c)
        for pl in range(self.n):
            s = sum(piece_value(p) for p in pos[pl])
            if pl == me:
                total += s
            else:
                opp += s
        total -= OPPONENT_WEIGHT * opp / max(self.n - 1, 1)
        # Exposure of my pieces on unsafe ring squares.
        mine = pos[me]
        seen: set[int] = set()
        for p in mine:
            if not 0 < p <= RING or p in SAFE_POSITIONS or p in seen:
                continue
            seen.add(p)
            count = mine.count(p)
            k = (p - 1 + 17 * seats[me]) % RING
            survive = 1.0
            for pl in range(self.n):
                if pl == me:
                    continue
                r = self._own_pos(pl, k)
                for q in pos[pl]:
                    if q == 0:
                        table = self.enter_first if self.first[pl] else self.enter_reach
                        chance = table[r] if r < 80 else 0.0
                    elif q < r:
                        d = r - q
                        chance = self.reach[d] if d < 80 else 0.0
                    else:
                        continue
                    survive *= 1.0 - chance
            hit = 1.0 - survive
            if count >= 2:
                hit *= DOUBLE_RISK
            total -= hit * count * (piece_value(p) + OPPONENT_WEIGHT * 10)
            if count >= 2:
                # A double blocks opponents coming up behind it.
                for pl in range(self.n):
                    if pl != me:
                        r = self._own_pos(pl, k)
                        total += DOUBLE_BLOCK * sum(1 for q in pos[pl] if 0 < q < r <= q + 12)
        return total

    def reply(self, pos: Positions, me: int) -> float:
        """The evaluation once each opponent has answered: for every opponent
        (each from this same position), over each of its throws it plays as
        `normal` would from its own point of view; the changes add up."""
        base = self.evaluate(pos, me)
        total = base
        for step in range(1, REPLIES + 1):
            opp = (me + step) % self.n
            if opp == me:
                break
            expected = 0.0
            for v, pv in self.odds.items():
                moves = rules.distinct(rules.legal_moves(pos, self.seats, opp, v, self.first[opp]))
                best: Move | None = None
                best_value = 0.0
                for m in moves:
                    if m.caution:
                        continue
                    value = self.evaluate(_apply(pos, m), opp)
                    if best is None or value > best_value:
                        best, best_value = m, value
                expected += pv * (base if best is None else self.evaluate(_apply(pos, best), me))
            total += expected - base
        if NEXT_WEIGHT:
            total += NEXT_WEIGHT * (self.next_turn(pos, me) - base)
        return total

    def next_turn(self, pos: Positions, me: int) -> float:
        """The expected evaluation after the mover's own next throw, played
        at its best (or passed): how well the position uses the throws."""
        base = self.evaluate(pos, me)
        expected = 0.0
        for v, pv in self.odds.items():
            best = base
            for m in rules.sane(rules.legal_moves(pos, self.seats, me, v, False)):
                best = max(best, self.evaluate(_apply(pos, m), me))
            expected += pv * best
        return expected

    def deep(self, pos: Positions, me: int, again: bool) -> float:
        """lookahead: the evaluation, and when the mover throws again, the
        expected best continuation over that throw."""
        if not again:
            return self.reply(pos, me)
        base = self.evaluate(pos, me)
        expected = 0.0
        for v, pv in self.odds.items():
            moves = rules.sane(rules.legal_moves(pos, self.seats, me, v, self.first[me]))
            best = base  # passing (or a lost throw) keeps the position
            for m in moves:
                after = _apply(pos, m)
                bonus = EXTRA_THROW if rules.throws_again(v, m) else 0.0
                best = max(best, self.evaluate(after, me) + bonus)
            expected += pv * best
        return expected
