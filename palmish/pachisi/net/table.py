"""The host's Pachisi table (docs/network.md, "The host"): seats, joiners and
the one true game. Pure: it reads messages and time and writes messages to
`outbox`; the transport, the window and the tests feed it the same way.

The host alone throws, from the game's generator seeded by the dice round
everyone contributed to (palmish/network/fairdice.py), and applies moves with
the engine; a joiner's intent that the rules refuse gets an `error` back and
changes nothing. A message goes to the peers welcomed when it is made, so a
peer's first message is always its `welcome` (or `refused`).
"""

from __future__ import annotations

import secrets
from collections.abc import Generator, Sequence
from dataclasses import dataclass, field
from typing import Any

from palmish.network.engine import Arrival, HostError, Outbox, same_name
from palmish.network.fairdice import HostRound, secret_from_number
from palmish.network.session import talk
from palmish.network.session.dice import DiceReveal
from palmish.network.session.kinds import SCOPE_BYTES, VERSION, Error, Join, Refused, Welcome
from palmish.network.session.records import Record
from palmish.pachisi import ai, rules
from palmish.pachisi.descriptor import GAME
from palmish.pachisi.game import PASS, Game, Phase, Player
from palmish.pachisi.net import messages as msg
from palmish.pachisi.net.mirror import replay, same_game, turn_message
from palmish.pachisi.net.seating import SEAT_KINDS, Peer, Seat
from palmish.pachisi.net.talking import TableTalk
from palmish.pachisi.rules import IllegalMove, Move

DEFAULT_WAIT_S = 60.0


def strongest_level() -> str:
    """Silicon's strongest level (ai.STRONGEST): the stand-in for an away player."""
    return ai.STRONGEST


def parse_seats(spec: str) -> list[str]:
    """`remote,computer,...` -> seat kinds in playing order; ValueError with one line."""
    kinds = [item.strip().lower() for item in spec.split(",")]
    for kind in kinds:
        if kind not in ("remote", "computer"):
            raise ValueError(f"seat {kind!r} is neither 'remote' nor 'computer'")
    if not 2 <= len(kinds) <= 4:
        raise ValueError(f"Pachisi needs 2 to 4 seats, not {len(kinds)}")
    return kinds


def _hex(value: bytes | None) -> str | None:
    return None if value is None else value.hex()


def _unhex(value: Any) -> bytes | None:
    return None if value is None else bytes.fromhex(str(value))


@dataclass
class HostTable(TableTalk):
    """Seats and game of one hosted Pachisi table."""

    seats: list[Seat]
    code: str
    table_name: str
    dice: str = "cowrie"
    seed: int | None = None
    wait_s: float = DEFAULT_WAIT_S
    turn_s: float | None = None  # the turn timer: Silicon acts for a seat this slow
    turn_since: float = 0.0  # when the seat in turn got its throw or move to make
    level: str = field(default_factory=strongest_level)
    game: Game | None = None
    steps: list[str] = field(default_factory=list)
    peers: dict[int, Peer] = field(default_factory=dict)  # the welcomed ones
    outbox: Outbox = field(default_factory=list)
    log: list[str] = field(default_factory=list)
    scope: bytes = field(default_factory=lambda: secrets.token_bytes(SCOPE_BYTES))
    dice_round: HostRound | None = None
    vote: talk.Vote | None = None  # the rematch proposed, until it is decided
    says: talk.SayLimit = field(default_factory=talk.SayLimit)
    vacate: str = "open"  # what a seat its person left becomes between games
    agrees: int = 0  # rematches the host's device takes without a person (headless --games)
    removed: set[bytes] = field(default_factory=set)  # the seat keys of removed people
    said: dict[int, str] = field(default_factory=dict)  # each seat's last table message
    heard: list[str] = field(default_factory=list)  # the table's lines, the last ones
    finished: list[str] = field(default_factory=list)  # the records of the games ended
    _players: list[Player] = field(default_factory=list)
    _now: float = 0.0

    def __post_init__(self) -> None:
        if self.dice_round is None:  # --seed fixes the host's part of the dice
            self.dice_round = HostRound(None if self.seed is None
                                        else secret_from_number(self.seed))

    @property
    def round(self) -> HostRound:
        assert self.dice_round is not None
        return self.dice_round

    @property
    def app(self) -> str:
        return GAME.id

    @classmethod
    def create(cls, kinds: Sequence[str], code: str, table_name: str, host_name: str = "You",
               **options: Any) -> HostTable:
        """Seats of these kinds; the host's own seats are `host_name` (then
        Player2, Player3 for more people at the host's device)."""
        seats = [Seat(kind) for kind in kinds]
        names = iter(rules.computer_names(sum(k == "computer" for k in kinds)))
        people = 0
        for i, seat in enumerate(seats):
            if seat.kind == "computer":
                seat.name = next(names)
            elif seat.kind == "host":
                seat.name = host_name if not people else f"Player{i + 1}"
                people += 1
        return cls(seats, code, table_name, **options)

    # ------------------------------------------------------------ queries

    @property
    def started(self) -> bool:
        return self.game is not None

    @property
    def over(self) -> bool:
        return self.game is not None and self.game.over

    def ready(self) -> bool:
        """Every seat has its player (the headless host then starts at once)."""
        return all(s.name is not None or s.kind == "computer" for s in self.seats)

    def seat_list(self, now: float) -> list[msg.SeatState]:
        return [msg.SeatState(s.name, s.kind, s.state(now, self.wait_s)) for s in self.seats]

    def trusts(self, identity: bytes) -> bool:
        """A seated player's identity: it comes back by keys, never locked out."""
        return any(s.identity == identity for s in self.seats if s.kind == "remote")

    def computer_plays(self, seat: int, now: float) -> bool:
        """Silicon plays this seat now: a computer seat, or a person away past the wait."""
        s = self.seats[seat]
        return s.kind == "computer" or s.state(now, self.wait_s) == "silicon"

    def computer_due(self, now: float) -> bool:
        game = self.game
        if game is None or game.over:
            return False
        late = self.turn_s is not None and now - self.turn_since >= self.turn_s
        return late or self.computer_plays(game.current, now)

    def record(self) -> str:
        assert self.game is not None
        return self.game.record()

    # ------------------------------------------------------------ joiners

    def join(self, peer: int, join: Join, arrival: Arrival, now: float) -> bool:
        """Seat or refuse a join; False when the peer is refused (close it)."""
        refusal = self._refusal(join, arrival)
        seat: int | str | None = None
        if refusal is None and not join.watch:
            seat = self._seat_for(join, arrival)
            if isinstance(seat, str):
                refusal = seat
        if refusal is not None:
            self.log.append(f"refused {join.name or 'a spectator'}: {refusal}")
            self._send(peer, Refused(VERSION, refusal, "seat"))
            return False
        assert seat is None or isinstance(seat, int)
        talks = join.table >= talk.TABLE_LEVEL
        self._send(peer, Welcome(VERSION, self.app, self.table_name, seat,
                                 self.round.commitment, talk.TABLE_LEVEL if talks else 0))
        self.peers[peer] = Peer(seat, join.name, talks)  # from now on it hears everything
        if seat is not None:
            s = self.seats[seat]
            s.name, s.peer, s.away_since = join.name, peer, None
            s.seat_key, s.identity = arrival.seat_key, arrival.identity
            if self.game is None and not self.round.open:
                s.pledge = join.dice
            self.log.append(f"{join.name} sits in seat {seat + 1}")
        self._broadcast_seats(now)
        self._catch_up(peer)
        return True

    def _catch_up(self, peer: int) -> None:
        """What a peer arriving after the start needs: the game, then the dice
        round so far (after the game: it was not there when the round opened)."""
        rnd = self.round
        if self.game is not None:
            self._send(peer, self._game_message())
        if rnd.commits is not None:
            self._send(peer, rnd.commits)
        if rnd.secrets is not None:
            self._send(peer, rnd.secrets)
        if self.game is not None:
            self._send(peer, turn_message(self.game, len(self.steps)))
            if self.game.over:
                self._send(peer, rnd.end())
                self._send(peer, msg.End(self.game.record()))

    def _refusal(self, join: Join, arrival: Arrival) -> str | None:
        if join.watch:
            return "a spectator has no name nor seat" if join.name or join.seat else None
        if join.name is None or arrival.seat_key is None:
            return "a name and a seat proof are needed to sit down"
        if not rules.valid_name(join.name):
            return f"{join.name!r} is not a player name"
        if arrival.seat_key in self.removed:
            return "the host removed you from this table"
        return None

    def _seat_for(self, join: Join, arrival: Arrival) -> int | str:
        """The seat a join takes back or gets, or a one-line refusal."""
        name = join.name
        for i, s in enumerate(self.seats):
            if s.kind == "remote" and s.name == name:
                if s.seat_key is None or not secrets.compare_digest(s.seat_key,
                                                                    arrival.seat_key or b""):
                    return f"the name {name} is taken"
                if s.peer is not None:  # the same device again: the old link is dead
                    self.peers.pop(s.peer, None)
                    self.log.append(f"{name} came back on a new connection")
                return i
        if any(s.name is not None and same_name(s.name, name or "") for s in self.seats):
            return f"the name {name} is taken"  # "ann" sits not beside "Ann"
        if self.game is not None or self.round.open:
            return "the game has started without an open seat"
        for i, s in enumerate(self.seats):
            if s.kind == "remote" and s.name is None:
                return i
        return "the game is full"

    def gone(self, peer: int, now: float) -> None:
        """A connection closed (or was dropped): its seat is away."""
        who = self.peers.pop(peer, None)
        if who is None or who.seat is None:
            return
        s = self.seats[who.seat]
        if s.peer != peer:
            return
        s.peer = None
        if self.game is None and not self.round.open:  # before the start: free again
            s.name = s.seat_key = s.identity = s.pledge = None
            self.log.append(f"{who.name} left seat {who.seat + 1}")
        else:
            s.away_since = now
            self.log.append(f"{who.name} is away")
        self._broadcast_seats(now)

    def tick(self, now: float) -> None:
        """Tell everyone when an away seat passes to Silicon."""
        for s in self.seats:
            if s.state(now, self.wait_s) != "silicon":
                s.silicon_told = False
            elif not s.silicon_told:
                s.silicon_told = True
                self.log.append(f"Silicon plays for {s.name} until they come back")
                self._broadcast_seats(now)
        if self.round.ready(now):
            self._begin(now)
        self.tick_talk(now)

    def receive(self, peer: int, record: Record, now: float) -> None:
        """An intent (or a dice reveal) from a seated joiner or spectator."""
        who = self.peers.get(peer)
        if who is None:
            return
        problem: str | None
        if isinstance(record, Join):
            problem = "already joined"
        elif who.seat is None:
            problem = "spectators watch"
        elif isinstance(record, DiceReveal):
            problem = self.round.reveal(who.seat, record.secret)
            if problem is None and self.round.ready(now):
                self._begin(now)
        elif isinstance(record, msg.Throw | msg.Choose | msg.Move | msg.Pass):
            piece = record.piece if isinstance(record, msg.Choose | msg.Move) else None
            problem = self.act(who.seat, record.KIND, piece, now)
        elif isinstance(record, talk.Say | talk.Again | talk.Leave):
            problem = self.table_request(who.seat, record, now)
        else:
            problem = f"no request {record.KIND!r} here"
        if problem is not None:
            self._send(peer, Error(problem))

    # ------------------------------------------------------------ the game

    def start(self, now: float) -> None:
        """Start with the seats as they are (open seats go to Silicon): the dice
        round opens; the game begins once the joiners revealed (`_begin`)."""
        if self.game is not None or self.round.open:
            return
        taken = {s.name.casefold() for s in self.seats if s.name}
        spare = (n for n in rules.computer_names(8) if n.casefold() not in taken)
        self._players = []
        for s in self.seats:
            if s.name is None:
                s.kind, s.name = "computer", next(spare)
            self._players.append(Player(s.name, s.kind == "computer"))
        pledged = {i: s.pledge for i, s in enumerate(self.seats)
                   if s.kind == "remote" and s.pledge is not None and s.peer is not None}
        self._broadcast_seats(now)
        self._broadcast(self.round.start(pledged, now))
        if self.round.ready(now):
            self._begin(now)

    def _begin(self, now: float) -> None:
        """The dice round closes (its seed is the game's) and the first turn comes."""
        revealed, seed = self.round.close()
        self._broadcast(revealed)
        self.game = Game.new(seed=seed, players=self._players, dice=self.dice)
        self.turn_since = self._now = now
        self.seed = seed
        self.log.append(f"the game starts: {self.game.record()}")
        self._broadcast(self._game_message())
        self._broadcast(turn_message(self.game, len(self.steps)))

    def act(self, seat: int, kind: str, piece: int | None, now: float) -> str | None:
        """A seat's intent: throw, choose (the marker), move or pass. One line
        saying why not, or None when done (and sent to everyone)."""
        game = self.game
        self._now = now
        if game is None:
            return "the game has not started"
        if game.over:
            return "the game is over"
        if game.current != seat:
            return f"it is {game.players[game.current].name}'s turn"
        try:
            if kind == "throw":
                self._step(f"T{game.throw()}")
            elif kind == "pass":
                game.pass_turn()
                self._step("P")
            elif kind == "choose":
                assert piece is not None
                if game.move_for(piece) is None:
                    return game.why_not(piece)
                self._broadcast(msg.Marker(seat, piece))
            elif kind == "move":
                assert piece is not None
                m = game.move_for(piece)
                if m is None:
                    return game.why_not(piece) or "that piece cannot move"
                game.move(m)
                self._step(f"M{m.pieces[0]}")
            else:
                return f"no intent {kind!r}"
        except IllegalMove as err:
            return str(err)
        return None

    def computer_thinking(self) -> Generator[None, None, ai.Choice] | None:
        """Silicon's choice for the seat in turn as a stepped search (a window runs
        it between frames, then hands it to `play_computer`); None at a throw."""
        game = self.game
        if game is None or game.over or game.phase != Phase.MOVE:
            return None
        return ai.choosing(game, self.level)

    def play_computer(self, now: float, choice: ai.Choice | None = None) -> None:
        """One action of Silicon for the current seat (a throw, or its move):
        `choice` if it was worked out already and is still open, else chosen now."""
        game = self.game
        assert game is not None and not game.over
        if game.phase == Phase.THROW:
            self.act(game.current, "throw", None, now)
            return
        open_now = choice in game.legal_moves() or (choice is PASS and game.can_pass)
        if not open_now:
            choice = ai.choose(game, self.level)
        if isinstance(choice, Move):
            self.act(game.current, "move", choice.pieces[0], now)
        else:
            self.act(game.current, "pass", None, now)

    def _step(self, step: str) -> None:
        self.turn_since = self._now
        self.said.clear()  # a table message shows in its corner until the next step
        self._broadcast(msg.Step(len(self.steps), step))
        self.steps.append(step)
        assert self.game is not None
        self._broadcast(turn_message(self.game, len(self.steps)))
        if self.game.over:  # the host's secret first: the end's check needs it
            self._broadcast(self.round.end())
            self._broadcast(msg.End(self.game.record()))
            self.log.append(f"the game is over: {self.game.record()}")
            self.finished.append(self.game.record())

    def _game_message(self) -> msg.GameSoFar:
        game = self.game
        assert game is not None
        players = tuple(msg.Player(p.name, p.computer) for p in game.players)
        return msg.GameSoFar(game.dice, players, tuple(self.steps))

    # ------------------------------------------------------------ sending

    def _send(self, peer: int, record: Record) -> None:
        self.outbox.append((peer, record))

    def _broadcast(self, record: Record) -> None:
        """To every peer welcomed by now (one arriving later gets `_catch_up`)."""
        self.outbox.extend((peer, record) for peer in self.peers)

    def _broadcast_seats(self, now: float) -> None:
        self._broadcast(msg.Seats(tuple(self.seat_list(now))))

    def take_outbox(self) -> Outbox:
        out, self.outbox = self.outbox, []
        return out

    # ------------------------------------------------------------ saving

    def snapshot(self) -> dict[str, Any]:
        """What the host keeps in its data folder to host the game again."""
        return {
            "v": 2, "app": self.app, "code": self.code, "table": self.table_name,
            "scope": self.scope.hex(), "dice": self.dice, "seed": self.seed,
            "wait_s": self.wait_s, "turn_s": self.turn_s, "fair": self.round.snapshot(),
            "record": self.game.record() if self.game is not None else None,
            "steps": list(self.steps),
            "seats": [{"kind": s.kind, "name": s.name, "seat_key": _hex(s.seat_key),
                       "identity": _hex(s.identity)} for s in self.seats],
            "vacate": self.vacate, "removed": sorted(key.hex() for key in self.removed),
        }

    @classmethod
    def restore(cls, saved: Any, now: float) -> HostTable:
        """A table from `snapshot()`; ValueError with one line when it is unusable.
        Every seated person starts away: they come back with their seat keys."""
        try:
            seats = [Seat(s["kind"], s["name"], _unhex(s["seat_key"]), _unhex(s["identity"]))
                     for s in saved["seats"]]
            if saved["v"] != 2 or saved["app"] != GAME.id:
                raise ValueError("another version or app")
            turn_s = saved.get("turn_s")
            scope = bytes.fromhex(saved["scope"])
            if len(scope) != SCOPE_BYTES:
                raise ValueError("a bad table id")
            table = cls(seats, str(saved["code"]), str(saved["table"]), dice=str(saved["dice"]),
                        seed=None if saved["seed"] is None else int(saved["seed"]),
                        wait_s=float(saved["wait_s"]),
                        turn_s=None if turn_s is None else float(turn_s), scope=scope,
                        dice_round=HostRound.restore(saved["fair"]))
            table.vacate = str(saved.get("vacate", "open"))  # (kept since table level 1)
            table.removed = {bytes.fromhex(str(key)) for key in saved.get("removed", [])}
            if table.vacate not in talk.VACATE:
                raise ValueError("a bad choice for seats left")
            steps = [str(step) for step in saved["steps"]]
            record = saved["record"]
        except (KeyError, TypeError, ValueError, AttributeError) as err:
            raise ValueError(f"the saved network game is damaged ({err})") from None
        if any(s.kind not in SEAT_KINDS for s in seats) or not 2 <= len(seats) <= 4:
            raise ValueError("the saved network game has bad seats")
        if record is not None:
            try:
                game = Game.from_record(str(record))
                players = game.players
                if not same_game(str(record), replay(players, game.dice, steps)):
                    raise ValueError("its steps and record differ")
            except (IllegalMove, HostError, ValueError) as err:
                raise ValueError(f"the saved network game does not replay: {err}") from None
            if table.round.secrets is None or game.seed != table.seed:
                raise ValueError("the saved network game's dice round is not closed")
            table.game, table.steps = game, steps
            for s in table.seats:
                if s.kind == "remote":
                    s.away_since = now
        else:
            for s in table.seats:
                if s.kind == "remote":
                    s.name = s.seat_key = s.identity = None
        return table
