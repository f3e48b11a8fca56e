"""The host's Pachisi table (docs/network.md, "The host"): seats, joiners and
the one true game. Pure: it reads messages and time and writes messages to
`outbox`; the transport, the window and the tests feed it the same way.

The host alone throws (the game's seeded generator) and applies moves with
the engine; a joiner's intent that the rules refuse gets an `error` back and
changes nothing.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Generator, Sequence
from dataclasses import dataclass, field
from typing import Any

from palmish.network.engine import ALL, HostError
from palmish.network.protocol import VERSION, Message
from palmish.pachisi import ai, rules
from palmish.pachisi.descriptor import GAME
from palmish.pachisi.game import PASS, Game, Phase, Player
from palmish.pachisi.net.mirror import replay, same_game, turn_message
from palmish.pachisi.rules import IllegalMove, Move

SEAT_KINDS = ("remote", "computer", "host")
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


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("ascii")).hexdigest()


@dataclass
class Seat:
    kind: str  # remote, computer or host
    name: str | None = None
    token_hash: str | None = None  # remote: the sitter's token, hashed
    peer: int | None = None  # remote: the connection sitting here, None when away
    away_since: float | None = None
    silicon_told: bool = False  # everyone heard that Silicon plays this away seat

    def state(self, now: float, wait_s: float) -> str:
        if self.kind != "remote":
            return "here"
        if self.name is None:
            return "open"
        if self.peer is not None:
            return "here"
        assert self.away_since is not None
        return "silicon" if now - self.away_since >= wait_s else "away"


@dataclass
class Peer:
    seat: int | None = None  # None: a spectator
    name: str | None = None


@dataclass
class HostTable:
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
    peers: dict[int, Peer] = field(default_factory=dict)
    outbox: list[tuple[int, Message]] = field(default_factory=list)
    log: list[str] = field(default_factory=list)
    _now: float = 0.0

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
        return all(s.name is not None for s in self.seats)

    def seat_list(self, now: float) -> list[Message]:
        return [{"name": s.name, "kind": s.kind, "state": s.state(now, self.wait_s)}
                for s in self.seats]

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

    def connected(self, peer: int) -> None:
        """A connection said a valid hello (the transport checked the version)."""

    def hello(self, peer: int, msg: Message, now: float) -> bool:
        """Seat or refuse a hello; False when the peer is refused (close it)."""
        refusal = self._refusal(msg)
        if refusal is None:
            seat = None if msg.get("watch") else self._seat_for(msg)
            if isinstance(seat, str):
                refusal = seat
        if refusal is not None:
            self.log.append(f"refused {msg.get('name', 'a spectator')!s}: {refusal}")
            self._send(peer, {"t": "refused", "v": VERSION, "reason": refusal})
            return False
        assert seat is None or isinstance(seat, int)
        self.peers[peer] = Peer(seat, msg.get("name"))
        self._send(peer, {"t": "welcome", "v": VERSION, "app": self.app,
                          "table": self.table_name, "seat": seat})
        if seat is not None:
            s = self.seats[seat]
            s.name, s.peer, s.away_since = msg["name"], peer, None
            s.token_hash = token_hash(msg["token"])
            self.log.append(f"{msg['name']} sits in seat {seat + 1}")
        self._broadcast_seats(now)
        if self.game is not None:
            self._send(peer, self._game_message())
            self._send(peer, turn_message(self.game, len(self.steps)))
            if self.game.over:
                self._send(peer, {"t": "end", "record": self.game.record()})
        return True

    def _refusal(self, msg: Message) -> str | None:
        if msg["app"] != self.app:
            return f"this host plays {self.app}, not {msg['app']}"
        if not secrets.compare_digest(msg["code"], self.code):
            return "wrong join code"
        if not msg.get("watch") and ("name" not in msg or "token" not in msg):
            return "a name and a token are needed to sit down"
        return None

    def _seat_for(self, msg: Message) -> int | str:
        """The seat a hello takes back or gets, or a one-line refusal."""
        name, hashed = msg["name"], token_hash(msg["token"])
        for i, s in enumerate(self.seats):
            if s.kind == "remote" and s.name == name:
                if s.token_hash != hashed:
                    return f"the name {name} is taken"
                if s.peer is not None:  # the same device again: the old link is dead
                    self.peers.pop(s.peer, None)
                    self.log.append(f"{name} came back on a new connection")
                return i
        if any(s.name == name for s in self.seats):
            return f"the name {name} is taken"
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
        if self.game is None:  # before the start a seat is simply free again
            s.name = s.token_hash = None
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

    def receive(self, peer: int, msg: Message, now: float) -> None:
        """An intent (or ping) from a seated joiner or spectator."""
        who = self.peers.get(peer)
        kind = msg["t"]
        if who is None or kind == "ping":
            return
        if kind == "hello":
            self._send(peer, {"t": "error", "text": "already said hello"})
            return
        if who.seat is None:
            self._send(peer, {"t": "error", "text": "spectators watch"})
            return
        problem = self.act(who.seat, kind, msg.get("piece"), now)
        if problem is not None:
            self._send(peer, {"t": "error", "text": problem})

    # ------------------------------------------------------------ the game

    def start(self, now: float) -> None:
        """Start with the seats as they are: open seats go to Silicon."""
        if self.game is not None:
            return
        taken = {s.name for s in self.seats if s.name}
        spare = (n for n in rules.computer_names(8) if n not in taken)
        players = []
        for s in self.seats:
            if s.name is None:
                s.kind, s.name = "computer", next(spare)
            players.append(Player(s.name, s.kind == "computer"))
        self.game = Game.new(seed=self.seed, players=players, dice=self.dice)
        self.turn_since = self._now = now
        self.seed = self.game.seed
        self.log.append(f"the game starts: {self.game.record()}")
        self._broadcast_seats(now)
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
                self._broadcast({"t": "marker", "seat": seat, "piece": piece})
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
        self._broadcast({"t": "step", "n": len(self.steps), "step": step})
        self.steps.append(step)
        assert self.game is not None
        self._broadcast(turn_message(self.game, len(self.steps)))
        if self.game.over:
            self._broadcast({"t": "end", "record": self.game.record()})
            self.log.append(f"the game is over: {self.game.record()}")

    def _game_message(self) -> Message:
        game = self.game
        assert game is not None
        players = [[p.name, "c" if p.computer else "h"] for p in game.players]
        return {"t": "game", "dice": game.dice, "players": players, "steps": list(self.steps)}

    # ------------------------------------------------------------ sending

    def _send(self, peer: int, msg: Message) -> None:
        self.outbox.append((peer, msg))

    def _broadcast(self, msg: Message) -> None:
        self.outbox.append((ALL, msg))

    def _broadcast_seats(self, now: float) -> None:
        self._broadcast({"t": "seats", "seats": self.seat_list(now)})

    def take_outbox(self) -> list[tuple[int, Message]]:
        out, self.outbox = self.outbox, []
        return out

    # ------------------------------------------------------------ saving

    def snapshot(self) -> dict[str, Any]:
        """What the host keeps in its data folder to host the game again."""
        return {
            "v": 1, "app": self.app, "code": self.code, "table": self.table_name,
            "dice": self.dice, "seed": self.seed, "wait_s": self.wait_s, "turn_s": self.turn_s,
            "record": self.game.record() if self.game is not None else None,
            "steps": list(self.steps),
            "seats": [{"kind": s.kind, "name": s.name, "token_hash": s.token_hash}
                      for s in self.seats],
        }

    @classmethod
    def restore(cls, saved: Any, now: float) -> HostTable:
        """A table from `snapshot()`; ValueError with one line when it is unusable.
        Every seated person starts away: they come back with their tokens."""
        try:
            seats = [Seat(s["kind"], s["name"], s["token_hash"]) for s in saved["seats"]]
            if saved["v"] != 1 or saved["app"] != GAME.id:
                raise ValueError("another version or app")
            turn_s = saved.get("turn_s")
            table = cls(seats, str(saved["code"]), str(saved["table"]), dice=str(saved["dice"]),
                        seed=int(saved["seed"]), wait_s=float(saved["wait_s"]),
                        turn_s=None if turn_s is None else float(turn_s))
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
            table.game, table.steps = game, steps
            for s in table.seats:
                if s.kind == "remote":
                    s.away_since = now
        else:
            for s in table.seats:
                if s.kind == "remote":
                    s.name = s.token_hash = None
        return table
