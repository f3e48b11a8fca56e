"""The app's view of a network game (palmish.pachisi.netplay.NetPlay): the
host's table or a joiner's mirror, fed by device events and sending through
a callable (the window's network thread, or a list in tests)."""

from __future__ import annotations

from collections.abc import Callable, Generator, Sequence

from palmish.device.events import NetworkClosed, NetworkLine
from palmish.network.engine import ALL, HostError, SendTo
from palmish.network.protocol import (
    HOST_KINDS,
    JOINER_KINDS,
    MAX_HOST_LINE,
    MAX_JOINER_LINE,
    Message,
    ProtocolError,
    decode,
)
from palmish.pachisi.ai import Choice
from palmish.pachisi.game import Game
from palmish.pachisi.net.mirror import Mirror
from palmish.pachisi.net.table import HostTable


class HostSeat:
    """The host's device: its person's seats, its table, its Silicon."""

    def __init__(self, table: HostTable, send: SendTo, close: Callable[[], None] = lambda: None,
                 save: Callable[[HostTable], None] = lambda table: None) -> None:
        self.table, self._send, self._close, self._save = table, send, close, save
        self.marker: tuple[int, int] | None = None
        self.log: list[str] = []
        self._now = 0.0

    @property
    def game(self) -> Game | None:
        return self.table.game

    @property
    def table_name(self) -> str:
        return self.table.table_name

    @property
    def code(self) -> str | None:
        return self.table.code

    def mine(self, seat: int) -> bool:
        return self.table.seats[seat].kind == "host"

    def ask(self, kind: str, piece: int | None = None) -> str | None:
        game = self.table.game
        if game is None:
            return "the game has not started"
        if not self.mine(game.current):
            return f"it is {game.players[game.current].name}'s turn"
        problem = self.table.act(game.current, kind, piece, self._now)
        self.flush()
        return problem

    def receive(self, event: NetworkLine | NetworkClosed, now_s: float) -> None:
        self._now = now_s
        if isinstance(event, NetworkClosed):
            self.table.gone(event.peer, now_s)
        else:
            try:
                msg = decode(event.text.encode("utf-8"), JOINER_KINDS, MAX_JOINER_LINE)
            except ProtocolError as err:
                self.log.append(f"ignored a line from peer {event.peer}: {err}")
                return
            if msg["t"] == "hello":
                self.table.hello(event.peer, msg, now_s)
            else:
                self.table.receive(event.peer, msg, now_s)
        if not self.table.started and self.table.ready():
            self.table.start(now_s)
        self.flush()

    def start(self) -> None:
        """Start now: open seats go to Silicon."""
        self.table.start(self._now)
        self.flush()

    def computer_due(self, now_s: float) -> bool:
        self._now = now_s
        self.table.tick(now_s)
        self.flush()
        return self.table.computer_due(now_s)

    def computer_thinking(self) -> Generator[None, None, Choice] | None:
        return self.table.computer_thinking()

    def play_computer(self, now_s: float, choice: Choice | None = None) -> None:
        self.table.play_computer(now_s, choice)
        self.flush()

    def seat_lines(self, now_s: float) -> Sequence[str]:
        return [f"{s['name'] or 'open'}: {s['state']}" for s in self.table.seat_list(now_s)]

    def status(self) -> str | None:
        return None

    def flush(self) -> None:
        """Save the table, then send its outbox (no joiner hears of a step the host
        could forget); "every joiner" means the table's seated peers."""
        out = self.table.take_outbox()
        if out:
            self._save(self.table)
        for peer, msg in out:
            if msg["t"] == "marker":
                self.marker = (msg["seat"], msg["piece"])
            elif msg["t"] == "step":
                self.marker = None
            for target in (list(self.table.peers) if peer == ALL else [peer]):
                self._send(target, msg)
        self.log.extend(self.table.log)
        self.table.log.clear()

    def close(self) -> None:
        for peer in list(self.table.peers):
            self._send(peer, {"t": "bye", "text": "the host left the game"})
        self._close()


class JoinSeat:
    """A joiner's device: its seat in the host's game."""

    def __init__(self, send: Callable[[Message], None], close: Callable[[], None] = lambda: None
                 ) -> None:
        self.mirror = Mirror()
        self._send, self._close = send, close
        self.trouble: str | None = None

    @property
    def game(self) -> Game | None:
        return self.mirror.game

    @property
    def table_name(self) -> str:
        return self.mirror.table

    @property
    def code(self) -> str | None:
        return None

    @property
    def marker(self) -> tuple[int, int] | None:
        return self.mirror.marker

    def mine(self, seat: int) -> bool:
        return self.mirror.seat == seat

    def ask(self, kind: str, piece: int | None = None) -> str | None:
        if not self.mirror.my_turn:
            return "it is not your turn"
        self._send({"t": kind} if piece is None else {"t": kind, "piece": piece})
        return None

    def receive(self, event: NetworkLine | NetworkClosed, now_s: float) -> None:
        if isinstance(event, NetworkClosed):
            if self.mirror.record is None:
                self.trouble = event.reason or "The host is gone; waiting for it."
            return
        try:
            msg = decode(event.text.encode("utf-8"), HOST_KINDS, MAX_HOST_LINE)
            if msg["t"] == "refused":
                self.trouble = f"Refused: {msg['reason']}"
            elif msg["t"] == "bye":
                self.trouble = f"The host says: {msg['text']}"
            else:
                self.mirror.receive(msg)
                self.trouble = None
        except (ProtocolError, HostError) as err:
            self.trouble = f"The host cannot be trusted: {err}"
            self._close()

    def computer_due(self, now_s: float) -> bool:
        return False

    def computer_thinking(self) -> Generator[None, None, Choice] | None:
        return None

    def play_computer(self, now_s: float, choice: Choice | None = None) -> None:
        raise AssertionError("a joiner's Silicon is the host's")

    def start(self) -> None:
        """Only the host starts a game."""

    def seat_lines(self, now_s: float) -> Sequence[str]:
        return [f"{s['name'] or 'open'}: {s['state']}" for s in self.mirror.seats]

    def status(self) -> str | None:
        return self.trouble

    def close(self) -> None:
        self._close()
