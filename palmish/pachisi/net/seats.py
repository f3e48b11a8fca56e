"""The app's view of a network game (palmish.pachisi.netplay.NetPlay): the
host's table or a joiner's mirror, fed by device events and sending through
a callable (the window's network thread, or a list in tests).

A live event carries its record, decoded once by the session
(bridge.NetworkRecord); a line from an event script (`net PEER LINE`) is
decoded here, as the session would.
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Mapping, Sequence

from palmish.device.events import NetworkClosed, NetworkLine
from palmish.network.engine import (
    CANNOT_SAVE,
    SAVED_AGAIN,
    TABLE_CLOSED,
    Arrival,
    HostError,
    SendTo,
)
from palmish.network.fairdice import JoinerDice
from palmish.network.session import dice, talk
from palmish.network.session.handshake import MAX_CLIENT_MESSAGE, MAX_SERVER_MESSAGE
from palmish.network.session.kinds import FROM_CLIENT, FROM_SERVER, Bye, Error, Join, Refused
from palmish.network.session.records import MessageError, Record, Vocabulary
from palmish.pachisi.ai import Choice
from palmish.pachisi.game import Game
from palmish.pachisi.net import messages
from palmish.pachisi.net.mirror import Mirror
from palmish.pachisi.net.table import HostTable

REFUSED = "Refused: "  # how the link says the host closed this device's session for good
HOST_HEARS = FROM_CLIENT + dice.FROM_JOINER + messages.FROM_JOINER
JOINER_HEARS = FROM_SERVER + dice.FROM_HOST + messages.FROM_HOST


def _record_of(event: NetworkLine, hears: Vocabulary, limit: int) -> Record:
    """The event's record: the session's, or a script's line decoded now."""
    record = getattr(event, "record", None)
    if isinstance(record, Record):
        return record
    return hears.decode(event.text.encode("utf-8"), limit)


class HostSeat:
    """The host's device: its person's seats, its table, its Silicon."""

    def __init__(self, table: HostTable, send: SendTo, close: Callable[[], None] = lambda: None,
                 save: Callable[[HostTable], None] = lambda table: None) -> None:
        self.table, self._send, self._close, self._save = table, send, close, save
        self.marker: tuple[int, int] | None = None
        self.log: list[str] = []
        self._now = 0.0
        self._saved: dict[str, object] | None = None

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
                record = _record_of(event, HOST_HEARS, MAX_CLIENT_MESSAGE)
            except MessageError as err:
                self.log.append(f"ignored a line from peer {event.peer}: {err}")
                return
            if isinstance(record, Join):
                arrival = getattr(event, "arrival", None)
                if not isinstance(arrival, Arrival):  # a script's: no session proved a seat
                    arrival = Arrival(b"", None)
                self.table.join(event.peer, record, arrival, now_s)
            else:
                self.table.receive(event.peer, record, now_s)
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
        return [f"{s.name or 'open'}: {s.state}" for s in self.table.seat_list(now_s)]

    def status(self) -> str | None:
        return None

    def flush(self) -> None:
        """Save the table, then send its outbox (no joiner hears of a step the host
        could forget); "every joiner" means the table's seated peers."""
        out = self.table.take_outbox()
        snapshot = self.table.snapshot()  # (a message to nobody may still change the game)
        if snapshot != self._saved:
            self._save(self.table)
            self._saved = snapshot
        for peer, record in out:
            self._send(peer, record)
        self._mark(out)  # the marker shows on the host's board too
        self.log.extend(self.table.log)
        self.table.log.clear()

    def _mark(self, out: Sequence[tuple[int, Record]]) -> None:
        for _, record in out:
            if isinstance(record, messages.Marker):
                self.marker = (record.seat, record.piece)
            elif isinstance(record, messages.Step):
                self.marker = None

    def close(self) -> None:
        self._close()

    # ------------------------------------------------------------ at the table

    def table_lines(self) -> Sequence[str]:
        return self.table.heard

    def said(self) -> Mapping[int, str]:
        return self.table.said

    def say(self, text: str, now_s: float) -> str | None:
        self._now = now_s
        seat = self._person_seat()
        msg = talk.message_id(text)
        if seat is None or msg is None:
            return "only a player at the table speaks to it"
        problem = self.table.say(seat, msg, self._now)
        self.flush()
        return problem

    def _person_seat(self) -> int | None:
        """The seat of this device's own person, if one sits at the table."""
        return next((i for i, s in enumerate(self.table.seats) if s.kind == "host"), None)

    def rematch_question(self) -> str | None:
        vote = self.table.vote
        if vote is None or vote.host is not None:
            return None
        return f"{self.table.seats[vote.by].name if vote.by is not None else 'The host'}" \
               " proposes a rematch."

    def again(self, yes: bool, vacate: str | None = None) -> str | None:
        if vacate in talk.VACATE:
            self.table.vacate = str(vacate)
        problem = self.table.again(self._person_seat(), yes, self._now)
        self.flush()
        return problem

    def leave_table(self) -> None:
        self.close()

    def removable(self) -> Sequence[tuple[int, str]]:
        return [(i, s.name) for i, s in enumerate(self.table.seats)
                if s.kind == "remote" and s.name is not None]

    def remove(self, seat: int, vacate: str) -> str | None:
        seats = self.table.seats
        if not 0 <= seat < len(seats) or seats[seat].kind != "remote" or not seats[seat].name:
            return "nobody of another handheld sits there"
        if vacate in talk.VACATE:
            self.table.vacate = vacate
        self.table.vacate_seat(seat, self._now, removed=True, how=vacate,
                               why=f"{self.table.table_name[:60]}'s host removed you"
                                   " from the table")
        self.flush()
        return None

    def ended(self) -> str | None:
        return None


class JoinSeat:
    """A joiner's device: its seat in the host's game."""

    def __init__(self, send: Callable[[Record], None], close: Callable[[], None] = lambda: None,
                 dice_part: JoinerDice | None = None) -> None:
        self.mirror = Mirror(dice_part or JoinerDice())
        self._send, self._close = send, close
        self.trouble: str | None = None
        self.host_note: str | None = None  # the host's own trouble (its disk), while it lasts
        self.told_verdict = False
        self.gone: str | None = None  # removed from the table (or left it): why
        self._says = talk.SayLimit()

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
        self._send(messages.intent(kind, piece))
        return None

    def receive(self, event: NetworkLine | NetworkClosed, now_s: float) -> None:
        if isinstance(event, NetworkClosed):
            reason = event.reason or "The host is gone; waiting for it."
            if reason.startswith(REFUSED) and self.mirror.table:  # after the welcome
                self.gone = reason.removeprefix(REFUSED)
            elif self.mirror.record is None:
                self.trouble = reason
            else:  # after a game: the host closed the table, or went
                self.host_note = reason
            return
        try:
            record = _record_of(event, JOINER_HEARS, MAX_SERVER_MESSAGE)
            if isinstance(record, Refused) and self.mirror.table:  # after the welcome
                self.gone = record.reason
            elif isinstance(record, Refused):
                self.trouble = f"Refused: {record.reason}"
            elif isinstance(record, Bye):
                self.trouble = f"The host says: {record.text}"
            elif isinstance(record, Error) and record.text.startswith(CANNOT_SAVE):
                self.host_note = f"The host {record.text}."
            elif isinstance(record, Error) and record.text == SAVED_AGAIN:
                self.host_note = None
            else:
                self.mirror.receive(record)
                self.trouble = None
                for answer in self.mirror.outbox:  # a dice reveal
                    self._send(answer)
                self.mirror.outbox.clear()
        except (MessageError, HostError) as err:
            self.trouble = f"The host cannot be trusted: {err}"
            self._close()
            return
        verdict = self.mirror.verdict
        if verdict is not None and verdict != "verified":
            self.trouble = f"Dice {verdict}"

    def computer_due(self, now_s: float) -> bool:
        return False

    def computer_thinking(self) -> Generator[None, None, Choice] | None:
        return None

    def play_computer(self, now_s: float, choice: Choice | None = None) -> None:
        raise AssertionError("a joiner's Silicon is the host's")

    def start(self) -> None:
        """Only the host starts a game."""

    def seat_lines(self, now_s: float) -> Sequence[str]:
        return [f"{s.name or 'open'}: {s.state}" for s in self.mirror.seats]

    def status(self) -> str | None:
        return self.trouble or self.host_note

    def close(self) -> None:
        self._close()

    # ------------------------------------------------------------ at the table

    def table_lines(self) -> Sequence[str]:
        return self.mirror.table_lines

    def said(self) -> Mapping[int, str]:
        return self.mirror.said

    def _talk_problem(self) -> str | None:
        if self.host_note == TABLE_CLOSED:
            return "the host closed the table"
        if not self.mirror.talks:
            return "this host plays one game and takes no table messages"
        if self.mirror.seat is None:
            return "spectators watch"
        return None

    def say(self, text: str, now_s: float) -> str | None:
        msg = talk.message_id(text)
        problem = self._talk_problem() or (None if msg else f"no table message {text!r}")
        if problem is None and not self._says.allow(0, now_s):  # the host's limit, here
            problem = talk.TOO_MANY
        if problem is None and msg is not None:
            self._send(talk.Say(msg))
        return problem

    def rematch_question(self) -> str | None:
        mirror = self.mirror
        vote = mirror.vote
        if vote is None or mirror.answered or mirror.seat is None:
            return None
        who = "The host" if vote.by is None else mirror.seat_name(vote.by)
        return f"{who} proposes a rematch."

    def again(self, yes: bool, vacate: str | None = None) -> str | None:
        problem = self._talk_problem()
        if problem is not None:
            return problem
        if self.mirror.record is None:
            return "a rematch is proposed once the game is over"
        if not yes:  # no more games at this table: leave it now
            self.leave_table()
            return None
        if self.mirror.answered:  # said yes already (its dice commitment stands)
            return None
        self._send(self.mirror.again(True))
        if self.mirror.vote is None:
            self.mirror.log_line("You propose a rematch")
        return None

    def leave_table(self) -> None:
        if self.mirror.talks and self.mirror.seat is not None:
            self._send(talk.Leave())
        self._close()

    def removable(self) -> Sequence[tuple[int, str]]:
        return ()

    def remove(self, seat: int, vacate: str) -> str | None:
        return "only the host removes a player"

    def ended(self) -> str | None:
        return self.gone
