"""A Pachisi game (docs/pachisi-rules.md): whose turn, the throw, the legal moves,
passing, the end, the message lines, the throw history and the record."""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from enum import Enum
from typing import NamedTuple

from palmish.outcome import Outcome, Termination
from palmish.pachisi import rules
from palmish.pachisi.rules import CAUTION, FINISH, GRACE, PIECES, RING, IllegalMove, Move
from palmish.records import split_record

RECORD_MAGIC = "pachisi"
RECORD_VERSION = "1"
NO_MOVE = "You can't move any piece!"  # the seed's words (the player called You)
CAUTION_TEXT = (
    "This piece would stop one square before the finish: "
    "with no 1 on the die it could never finish."
)


class Phase(str, Enum):
    """Where the game stands: waiting for the current player's throw, for their
    move (or pass), or over. A str, so records and network messages keep the words."""

    THROW = "throw"
    MOVE = "move"
    OVER = "over"


class Player(NamedTuple):
    """A seat's occupant: a name and whether the program plays it."""

    name: str
    computer: bool = False


class _Pass:
    """The choice to pass (ai.choose's answer when passing is best)."""

    _instance: _Pass | None = None

    def __new__(cls) -> _Pass:
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "PASS"


PASS = _Pass()


class Throw(NamedTuple):
    """One throw in the history: who threw, the value, and what came of it:
    "moved", "lost" (nothing could move), "passed", or "pending"."""

    player: int
    value: int
    outcome: str
    move: Move | None = None


class Event(NamedTuple):
    """One message line for the app: kind is throw, grace, lost, move, enter,
    capture, finish, caution, pass, win or draw (the app maps kinds to sounds)."""

    kind: str
    player: int
    text: str


class Game:
    """One game. Build with Game.new(...), Game.from_record(text) or, for
    tests and puzzles, Game.from_position(...)."""

    def __init__(
        self,
        players: Sequence[Player],
        positions: Sequence[Sequence[int]],
        *,
        dice: str,
        seed: int | None,
        current: int = 0,
        first_turn: Sequence[bool] | None = None,
        throws: Iterable[int] = (),
    ) -> None:
        players = tuple(Player(str(p.name), bool(p.computer)) for p in players)
        if not 2 <= len(players) <= 4:
            raise ValueError(f"Pachisi needs 2 to 4 players, not {len(players)}")
        for p in players:
            if not rules.valid_name(p.name):
                raise ValueError(
                    f"bad player name {p.name!r} (1-10 characters, no spaces, commas or colons)"
                )
        if dice not in rules.DICE:
            raise ValueError(f"unknown dice {dice!r} (use 'cowrie' or 'die7')")
        if len(positions) != len(players) or any(len(p) != PIECES for p in positions):
            raise ValueError("positions need four pieces for each player")
        if any(not 0 <= q <= FINISH for p in positions for q in p):
            raise ValueError("positions run from 0 (start area) to 76 (finished)")
        if not 0 <= current < len(players):
            raise ValueError(f"current must name a player, not {current}")
        self.players: tuple[Player, ...] = players
        self.dice = dice
        self.seed = seed
        self.seats: tuple[int, ...] = rules.SEATS[len(players)]
        self._pos = [list(p) for p in positions]
        self._first = (
            [True] * len(players) if first_turn is None else [bool(f) for f in first_turn]
        )
        self._forced = list(throws)
        self._forced.reverse()
        self._rng = random.Random(seed)
        self.current = current
        self.phase: Phase = Phase.THROW
        self.last_throw: int | None = None
        self.winner: int | None = None
        self.history: list[Throw] = []
        self._turn_start = 0  # where the current player's turn begins in history
        self.events: list[Event] = []
        self._decisions: list[str] = []
        self._passed = [False] * len(players)  # each player, once it has passed
        self._legal: list[Move] = []
        self._check_squares()
        self._check_won()
        self._check_end()

    # ------------------------------------------------------------ builders

    @classmethod
    def new(
        cls, seed: int | None = None, players: Sequence[Player] = (), dice: str = "cowrie"
    ) -> Game:
        """A new game; without a seed one is picked at random (see .seed)."""
        if seed is None:
            seed = random.SystemRandom().randrange(1 << 31)
        players = tuple(players) or (Player("You"), Player("Silicon", computer=True))
        start = [[0] * PIECES for _ in players]
        return cls(players, start, dice=dice, seed=seed)

    @classmethod
    def from_position(
        cls,
        players: Sequence[Player],
        positions: Sequence[Sequence[int]],
        *,
        dice: str = "cowrie",
        current: int = 0,
        first_turn: Sequence[bool] | bool = False,
        throws: Iterable[int] = (),
        seed: int = 0,
    ) -> Game:
        """A game set up at any position, for tests and puzzles.

        `positions[i]` are player i's four positions; `first_turn` says which
        players are still in their first turn (one bool for all); the next
        throws come from `throws` in order, then from the seeded generator.
        The game starts in the throw phase of player `current`. Such a game
        has no record (record() raises ValueError).
        """
        firsts = [first_turn] * len(players) if isinstance(first_turn, bool) else first_turn
        game = cls(
            players, positions, dice=dice, seed=seed, current=current,
            first_turn=firsts, throws=throws,
        )
        game._decisions = []
        game._set_up = True
        return game

    _set_up = False

    # ------------------------------------------------------------ queries

    @property
    def over(self) -> bool:
        return self.phase == Phase.OVER

    def outcome(self) -> Outcome | None:
        """None while the game goes on; the winner home with all four pieces, or a
        deadlock (every player stuck before the finish) that nobody wins."""
        if not self.over:
            return None
        if self.winner is None:
            return Outcome(Termination.DEADLOCK)
        return Outcome(Termination.COMPLETED, winner=self.winner)

    @property
    def first_turn(self) -> bool:
        """The current player is still in their first turn (any throw enters; no pass)."""
        return self._first[self.current]

    def in_first_turn(self, player: int) -> bool:
        return self._first[player]

    @property
    def can_pass(self) -> bool:
        return self.phase in (Phase.THROW, Phase.MOVE) and not self._first[self.current]

    def has_passed(self, player: int) -> bool:
        """Whether the player has passed in this game (before or after a throw)."""
        return self._passed[player]

    def position(self, player: int, piece: int) -> int:
        return self._pos[player][piece]

    def positions(self, player: int) -> tuple[int, ...]:
        return tuple(self._pos[player])

    def square(self, player: int, piece: int) -> tuple[int, int] | None:
        """(x, y) on the 19x19 grid; None in the start area and once finished."""
        return rules.TRACK[self.seats[player]][self._pos[player][piece]]

    def pieces_at(self, x: int, y: int) -> list[tuple[int, int]]:
        """The (player, piece) pairs on a grid square."""
        return [
            (pl, pc)
            for pl in range(len(self.players))
            for pc in range(PIECES)
            if self.square(pl, pc) == (x, y)
        ]

    def colour(self, player: int) -> str:
        return rules.COLOURS[self.seats[player]]

    def waiting(self, player: int) -> int:
        """Pieces in the player's start area."""
        return self._pos[player].count(0)

    def finished(self, player: int) -> int:
        """Pieces the player has brought home."""
        return self._pos[player].count(FINISH)

    def is_safe(self, player: int, pos: int) -> bool:
        """Nobody is taken here: the twelve safe squares and the home stretch."""
        return pos in rules.SAFE_POSITIONS or RING < pos < FINISH

    def key(self, player: int, pos: int) -> int:
        return rules.key(self.seats[player], player, pos)

    def _occupants(self) -> dict[int, list[tuple[int, list[int]]]]:
        return rules.occupants(self._pos, self.seats)

    # ------------------------------------------------------------ moves

    def legal_moves(self) -> list[Move]:
        """The current throw's legal moves in move order (empty outside the
        move phase): highest `frm` first, equal `frm` by piece index. Each
        piece in the start area that may enter has its own entering move."""
        return list(self._legal) if self.phase == Phase.MOVE else []

    def default_move(self) -> Move | None:
        """The seed's marker: the legal move with the highest `frm`, the
        first in move order on a tie (the lowest-numbered waiting piece)."""
        return self._legal[0] if self.phase == Phase.MOVE and self._legal else None

    def move_for(self, piece: int) -> Move | None:
        """The legal move that moves this piece (with its double, or its own
        entering move when it waits in the start area), or None."""
        if self.phase != Phase.MOVE:
            return None
        for m in self._legal:
            if piece in m.pieces:
                return m
        return None

    def why_not(self, piece: int) -> str | None:
        """One line saying why the current player's piece cannot move with
        the current throw, or None when it (or its double) can."""
        if self.phase == Phase.OVER:
            return "the game is over"
        if self.phase == Phase.THROW:
            return "throw first"
        if not 0 <= piece < PIECES:
            return f"there is no piece {piece}"
        if self.move_for(piece) is not None:
            return None
        assert self.last_throw is not None
        return self._reason(self.current, piece, self.last_throw)

    def _reason(self, player: int, piece: int, value: int) -> str:
        ps = self._pos[player]
        frm = ps[piece]
        if frm == FINISH:
            return "that piece has already finished"
        if frm == CAUTION:
            return "one square from the finish it needs a 1, and the die has none"
        if frm == 0 and not self._first[player] and value not in GRACE:
            return "enter with 6, 10 or 25"
        to = frm + value
        if to > FINISH:
            return f"needs an exact {FINISH - frm} to finish"
        occ = self._occupants()
        for step in range(frm + 1, to):
            if any(len(pcs) >= 2 for _, pcs in occ.get(self.key(player, step), ())):
                return "a double blocks the way"
        if to == FINISH:  # pragma: no cover - a finish is always legal when unblocked
            return "it cannot finish"
        moving = 2 if frm and ps.count(frm) == 2 else 1
        here = occ.get(self.key(player, to), [])
        own = sum(len(pcs) for pl, pcs in here if pl == player)
        if own + moving > 2:
            return "two of your pieces are already there" if own == 2 else (
                "a double cannot join another of your pieces"
            )
        if moving == 1:
            return "a single can't land on an opponent's double"
        return "a double can't land on an opponent's double on a safe square"

    def _moves_for(self, player: int, value: int) -> list[Move]:
        return rules.legal_moves(self._pos, self.seats, player, value, self._first[player])

    # ------------------------------------------------------------ actions

    def throw(self, value: int | None = None) -> int:
        """Throw for the current player; a throw nothing can use is lost at once.
        `value`: a throw made elsewhere (a network game's host throws for every
        device, docs/network.md) instead of the game's own generator."""
        if self.phase != Phase.THROW:
            raise IllegalMove(
                "the game is over" if self.over else "move or pass first: the throw is waiting"
            )
        if value is not None and value not in rules.FACES:
            raise IllegalMove(f"{value} is not a throw of the dice")
        if value is None:
            value = self._forced.pop() if self._forced else rules.draw(self._rng, self.dice)
        self.last_throw = value
        player = self.current
        name = self.players[player].name
        self._legal = self._moves_for(player, value)
        grace = value in GRACE
        again = f" and {_verb(name, 'throws')} again" if grace else ""
        self._say("throw", f"{name} threw {value}{again}")
        if self._legal:
            self.phase = Phase.MOVE
            self.history.append(Throw(player, value, "pending"))
            return value
        self.history.append(Throw(player, value, "lost"))
        self._decisions.append("-")
        # the player's own name: at one device "You" would mean every person
        self._say("lost", f"{name} can't move any piece!")
        self._after(grace)
        return value

    def move(self, m: Move) -> Move:
        """Make a legal move of the current throw; IllegalMove otherwise."""
        if self.phase != Phase.MOVE:
            raise IllegalMove("throw first" if self.phase == Phase.THROW else "the game is over")
        if m not in self._legal:
            raise IllegalMove(f"{m!r} is not a legal move for this throw")
        player = self.current
        name = self.players[player].name
        for pc in m.pieces:
            self._pos[player][pc] = m.to
        for pl, pc in m.captures:
            self._pos[pl][pc] = 0
        self._decisions.append(str(m.pieces[0]))
        self.history[-1] = Throw(player, self.history[-1].value, "moved", m)
        what = "double" if len(m.pieces) == 2 else "piece"
        if m.enters:
            self._say("enter", f"{name} {_verb(name, 'enters')} a piece")
        elif m.finishes:
            self._say("finish", f"{name} {_verb(name, 'brings')} a {what} home")
        else:
            self._say("move", f"{name} {_verb(name, 'moves')} a {what} {m.to - m.frm}")
        if m.captures:
            taken = sorted({self.players[pl].name for pl, _ in m.captures})
            self._say("capture", f"{name} {_verb(name, 'sends')} {', '.join(taken)} home and "
                      f"{_verb(name, 'throws')} again")
        if m.caution:
            self._say("caution", f"{name} {_verb(name, 'stops')} one square before the finish")
        self._legal = []
        if self.finished(player) == PIECES:
            self.winner = player
            self.phase = Phase.OVER
            self._say("win", f"{name} {_verb(name, 'wins')}!")
            return m
        if self._check_end():
            return m
        assert self.last_throw is not None
        self._after(rules.throws_again(self.last_throw, m))
        return m

    def pass_turn(self) -> None:
        """Pass the rest of the turn, before or after a throw (not in the first turn)."""
        if self.over:
            raise IllegalMove("the game is over")
        if self._first[self.current]:
            raise IllegalMove("no passing in your first turn")
        self._passed[self.current] = True
        if self.phase == Phase.MOVE:
            self._decisions.append("p")
            self.history[-1] = self.history[-1]._replace(outcome="passed")
        else:
            self._decisions.append("P")
        self._say("pass", f"{self.players[self.current].name} "
                  f"{_verb(self.players[self.current].name, 'passes')}")
        self._legal = []
        self._after(False)

    def _after(self, again: bool) -> None:
        """Another throw for the same player, or the next player's turn."""
        self.phase = Phase.THROW
        if not again:
            self._first[self.current] = False
            self.current = (self.current + 1) % len(self.players)
            self._turn_start = len(self.history)

    @property
    def turn_throws(self) -> list[int]:
        """The values the current player has thrown in this turn (none yet: empty)."""
        return [throw.value for throw in self.history[self._turn_start:]]

    def _check_end(self) -> bool:
        """Over with no winner once every player has a piece stuck on 75."""
        if self.phase != Phase.OVER and all(CAUTION in ps for ps in self._pos):
            self.phase = Phase.OVER
            self._legal = []
            self._say("draw", "Nobody can win any more: every player has a stuck piece")
            return True
        return False

    def _check_squares(self) -> None:
        for k, owners in self._occupants().items():
            if any(len(pcs) > 2 for _, pcs in owners):
                raise ValueError("at most two of a player's pieces share a square")
            if len(owners) > 1 and k not in rules.SAFE_KEYS:
                raise ValueError("two players share a square that is not safe")
            if sum(len(pcs) == 2 for _, pcs in owners) > 1:
                raise ValueError("two players' doubles share a square")

    def _check_won(self) -> None:
        """A set-up where a player has brought all four home is a game won."""
        done = [pl for pl in range(len(self.players)) if self.finished(pl) == PIECES]
        if len(done) > 1:
            raise ValueError("only one player can have all four pieces home")
        if done:
            self.winner = done[0]
            self.phase = Phase.OVER

    def _say(self, kind: str, text: str) -> None:
        self.events.append(Event(kind, self.current, text))

    @property
    def message(self) -> str | None:
        """The latest message line, or None before anything happened."""
        return self.events[-1].text if self.events else None

    # ------------------------------------------------------------ records

    def record(self) -> str:
        """One line: seed, dice, players and every decision (see docs/pachisi-rules.md)."""
        if self._set_up:
            raise ValueError("a set-up position has no record")
        players = ",".join(f"{p.name}:{'c' if p.computer else 'h'}" for p in self.players)
        moves = list(self._decisions)
        if self.phase == Phase.MOVE:
            moves.append("t")
        return (
            f"{RECORD_MAGIC} {RECORD_VERSION} seed={self.seed} dice={self.dice} "
            f"players={players} moves={' '.join(moves)}"
        ).rstrip()

    @classmethod
    def from_record(cls, text: str) -> Game:
        """Replay a record made by record(); IllegalMove with one line if it is bad."""
        fields, moves = split_record(
            text, magic=RECORD_MAGIC, version=RECORD_VERSION,
            fields_known=("seed", "dice", "players"), what="a Pachisi record", error=IllegalMove,
        )
        for need in ("seed", "dice", "players"):
            if need not in fields:
                raise IllegalMove(f"record has no {need}=")
        if moves is None:
            raise IllegalMove("record has no moves=")
        try:
            seed = int(fields["seed"])
        except ValueError:
            raise IllegalMove(f"record seed {fields['seed']!r} is not a number") from None
        players = []
        for entry in fields["players"].split(","):
            name, colon, kind = entry.rpartition(":")
            if not colon or kind not in ("h", "c"):
                raise IllegalMove(f"record player {entry!r} is not NAME:h or NAME:c")
            players.append(Player(name, kind == "c"))
        try:
            game = cls.new(seed=seed, players=players, dice=fields["dice"])
        except ValueError as err:
            raise IllegalMove(f"record set-up is bad: {err}") from None
        for i, token in enumerate(moves, start=1):
            game._replay(i, token, last=i == len(moves))
        return game

    def _replay(self, i: int, token: str, *, last: bool) -> None:
        where = f"record decision {i} ({token})"
        if self.over:
            raise IllegalMove(f"{where} comes after the end of the game")
        try:
            if token == "P":
                if self.phase != Phase.THROW:
                    raise IllegalMove("a pass before the throw needs the throw phase")
                self.pass_turn()
                return
            if self.phase == Phase.THROW:
                self.throw()
                lost = not self.legal_moves()  # no move phase: the throw was lost
                if token == "-":
                    if not lost:
                        raise IllegalMove(f"the throw {self.last_throw} could be used")
                    return
                if lost:
                    raise IllegalMove(f"the throw {self.last_throw} could not be used")
            elif token == "-":
                raise IllegalMove("a lost throw needs the throw phase")
            if token == "t":
                if not last:
                    raise IllegalMove("a waiting throw can only end the record")
                return
            if token == "p":
                self.pass_turn()
                return
            if token not in ("0", "1", "2", "3"):
                raise IllegalMove("not a decision (0-3, p, P, -, t)")
            piece = int(token)
            m = self.move_for(piece)
            if m is None:
                raise IllegalMove(self.why_not(piece) or "that piece cannot move")
            if m.pieces[0] != piece:
                raise IllegalMove(f"a double is named by its lower piece, {m.pieces[0]}")
            self.move(m)
        except IllegalMove as err:
            if str(err).startswith("record "):
                raise
            raise IllegalMove(f"{where} is not legal: {err}") from None


# The default player name is "You": "You moves a piece" reads wrong in the log.
_SECOND_PERSON = {"throws": "throw", "enters": "enter", "brings": "bring", "moves": "move",
                  "sends": "send", "stops": "stop", "wins": "win", "passes": "pass"}


def _verb(name: str, third_person: str) -> str:
    """The verb agreeing with the player's name (only "You" takes the plain form)."""
    return _SECOND_PERSON[third_person] if name == "You" else third_person
