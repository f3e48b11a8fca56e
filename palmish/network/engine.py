"""What network play needs from a game (docs/network.md, "A game's network engine").

The network knows no game: a game offers network play by naming a
`NetworkEngine` in its descriptor (`network="module:name"`, palmish/games.py),
and the commands, the window's service, discovery and the kept files find it
through the registry here. The engine makes the host's `Table` (the one true
game: seats, intents in, steps out) and a joiner's `Mirror` (the host's
game replayed), and the app's views of both for the window.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

from palmish.device.events import NetworkLine
from palmish.games import load, network_games
from palmish.network.fairdice import JoinerDice
from palmish.network.session.kinds import Join
from palmish.network.session.records import Record, Vocabulary

SendTo = Callable[[int, Record], None]  # (peer, message)
# The host's own trouble, told to every joiner as an `error` (keep.HostSaves): how
# its line starts while the disk refuses its saves, and the line once it saves again.
CANNOT_SAVE = "cannot save the game: "
SAVED_AGAIN = "the game is saved again"
TABLE_CLOSED = "The host closed the table."  # a window joiner's line at the host's bye
Outbox = list[tuple[int, Record]]


class HostError(ValueError):
    """The host sent something that does not fit the game (one line)."""


@dataclass(frozen=True)
class Arrival:
    """What the session proved about a client asking to sit or watch."""

    identity: bytes  # its identity key (the handshake's)
    seat_key: bytes | None  # the seat key its seat proof verified, or None (no proof)


class NetworkRecord(NetworkLine):
    """A record the network thread received and decoded (the text is for the log
    and event scripts): the device's side takes `record`, never decodes again.
    `arrival`: what the session proved of a peer asking to join."""

    record: Any = None
    arrival: Any = None


def record_event(peer: int, record: Record, arrival: Arrival | None = None) -> NetworkRecord:
    text = record.KIND if isinstance(record, Join) else record.encode().decode("ascii")
    return NetworkRecord(peer, text, record=record, arrival=arrival)


class Handler(Protocol):
    """What a host's session server serves: joins, records, peers gone."""

    def join(self, peer: int, join: Join, arrival: Arrival, now: float) -> bool | None:
        """True: welcomed; False: refused (closed after the outbox); None: decided
        later (the window's table decides on the device; its `refused` closes)."""

    def receive(self, peer: int, record: Record, now: float) -> None: ...

    def gone(self, peer: int, now: float) -> None: ...

    def take_outbox(self) -> Outbox: ...


class Table(Handler, Protocol):
    """The host's table: what hosting it (headless or in the window) needs."""

    code: str
    table_name: str
    wait_s: float
    turn_s: float | None
    steps: list[str]  # the host's steps so far (docs/network.md, "Messages")
    log: list[str]  # lines for the host's log, taken by whoever hosts
    outbox: Outbox

    @property
    def scope(self) -> bytes:
        """The table's id (16 bytes): the seats' keys and proofs are bound to it."""

    def trusts(self, identity: bytes) -> bool:
        """A seated player's identity: it may come back by keys (never locked out)."""

    @property
    def app(self) -> str:
        """The game's id (the hello's `app`, the kept file's name)."""

    @property
    def started(self) -> bool: ...

    @property
    def over(self) -> bool: ...

    @property
    def closed(self) -> bool:
        """Its game is over and no rematch is coming (the headless host then stops)."""

    agrees: int  # rematches the host's device proposes and takes on its own (headless)
    vacate: str  # what a seat its person left becomes between games: open or silicon
    finished: list[str]  # the records of the games ended at this table, in order

    def ready(self) -> bool:
        """Every seat has its player (the headless host then starts)."""

    def start(self, now: float) -> None: ...

    def tick(self, now: float) -> None:
        """Time passed: away seats may pass to Silicon."""

    def computer_due(self, now: float) -> bool:
        """Silicon acts for the seat in turn now."""

    def play_computer(self, now: float) -> None: ...

    def record(self) -> str:
        """The game's record (once started)."""

    def snapshot(self) -> dict[str, Any]:
        """What the host keeps to host the game again (JSON values)."""


class Mirror(Protocol):
    """A joiner's copy of the host's game."""

    steps: list[str]
    dice: JoinerDice  # the joiner's part of the dice, and its check of the host's
    outbox: list[Record]  # what the mirror answers (a dice reveal), sent by whoever joins

    @property
    def started(self) -> bool:
        """The host's game has reached this joiner."""

    @property
    def record(self) -> str | None:
        """The final record, once the host ended the game and it checked out."""

    @property
    def my_turn(self) -> bool: ...

    @property
    def verdict(self) -> str | None:
        """The dice's check at the end ("verified" or what did not match), or None."""

    def receive(self, msg: Record) -> None:
        """A validated host message; HostError when it contradicts the game."""

    def silicon_intent(self, level: str) -> Record:
        """What Silicon at `level` would ask for in this seat now (its turn)."""

    # The table's kinds (palmish/network/session/talk.py), when the host speaks them.
    talks: bool  # the host's welcome said it speaks them
    seat: int | None  # this device's seat (None: watching)
    table_lines: list[str]  # what was said and done at the table, the last ones
    lines_said: int  # how many table lines there were in all
    games: int  # the games that ended here

    @property
    def vote(self) -> Any:
        """The open rematch proposal (a `rematch` record), or None."""

    @property
    def answered(self) -> bool:
        """This device answered the open rematch proposal."""

    def again(self, yes: bool) -> Record:
        """This device's proposal of, or answer to, a rematch."""


@runtime_checkable
class NetworkEngine(Protocol):
    """What a game's descriptor names for network play."""

    @property
    def from_host(self) -> Vocabulary:
        """The game's own kinds a host sends (the session adds its own)."""

    @property
    def from_joiner(self) -> Vocabulary:
        """The game's own kinds a joiner sends."""

    @property
    def strongest_level(self) -> str:
        """Silicon's level for `palmish join --auto` and for away seats."""

    def parse_seats(self, spec: str) -> list[str]:
        """`remote,computer,...` -> seat kinds; ValueError with one line."""

    def name_problem(self, name: str) -> str | None:
        """Why `name` is not a player name of this game (one line), or None."""

    def new_table(self, kinds: Sequence[str], code: str, table_name: str, *,
                  host_name: str = "You", seed: int | None = None, wait_s: float = 60.0,
                  turn_s: float | None = None) -> Table:
        """A table with seats of these kinds (remote, computer, host)."""

    def restore_table(self, saved: Any, now: float) -> Table:
        """A table from its snapshot; ValueError with one line when unusable."""

    def new_mirror(self, dice: JoinerDice) -> Mirror: ...

    def host_play(self, table: Table, send: SendTo, close: Callable[[], None],
                  save: Callable[[Table], None]) -> object:
        """The app's view of hosting `table` in the window (the game's own type)."""

    def join_play(self, send: Callable[[Record], None], close: Callable[[], None],
                  dice: JoinerDice) -> object:
        """The app's view of a joined game in the window."""


@runtime_checkable
class JoinsNetwork(Protocol):
    """An app that opens on joining a network game (`palmish join` without --auto)."""

    def join_network(self, address: str, code: str, name: str | None) -> None: ...


def engine_for(app: str) -> NetworkEngine:
    """The network engine of the game `app`; ValueError with one line when it has none."""
    for game in network_games():
        if game.id == app:
            assert game.network is not None
            found = load(game.network)
            if not isinstance(found, NetworkEngine):
                raise ValueError(f"{game.network} is not a network engine")
            return found
    raise ValueError(f"no network game {app!r}")


def same_name(one: str, other: str) -> bool:
    """Two player names are one at a table regardless of case ("Ann" and "ann"):
    a host refuses the second, and Silicon's spare names avoid both."""
    return one.casefold() == other.casefold()
