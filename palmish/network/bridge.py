"""The network thread of the window (docs/network.md, "The window"): an
asyncio loop in its own thread runs the sessions; every record received goes
into the device's inbox (a thread-safe queue the window's clock polls) as a
NetworkRecord (decoded once, here) or NetworkClosed event, and what the
device sends is handed to the loop with call_soon_threadsafe. Nothing here
waits on the window, and the window never waits on the network."""

from __future__ import annotations

import asyncio
import concurrent.futures
import threading
import weakref
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from palmish.device.events import Event, NetworkClosed
from palmish.network.engine import TABLE_CLOSED, Arrival, HostError, Outbox, record_event
from palmish.network.fairdice import JoinerDice
from palmish.network.hosting import serve_host
from palmish.network.joining import Joiner, JoinRequest, Refused
from palmish.network.serving import TableServer
from palmish.network.session.handshake import ServerSide
from palmish.network.session.kinds import Join, Welcome
from palmish.network.session.records import Record
from palmish.network.session.talk import TABLE_LEVEL

if TYPE_CHECKING:
    from palmish.device.machine.system import Device

Post = Callable[[Event], None]
COMEBACK_S = 60.0
START_S = 10.0  # the window waits this long at most for its host to listen


class LoopThread:
    """One asyncio event loop in a daemon thread."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self.loop.run_forever, name="palmish-network",
                                        daemon=True)
        self._thread.start()

    def run(self, coro: Any, timeout: float = 10.0) -> Any:
        """Run a coroutine on the loop and wait for its result (start-up only)."""
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(timeout)

    def call(self, function: Callable[..., Any], *args: Any) -> None:
        self.loop.call_soon_threadsafe(function, *args)


_WINDOW_LOOPS: weakref.WeakKeyDictionary[Device, LoopThread] = weakref.WeakKeyDictionary()


def window_loop(device: Device) -> LoopThread:
    """The device's one network thread, shared by its network games and its beams,
    made at the first use; from then on the window's clock polls the inbox."""
    thread = _WINDOW_LOOPS.get(device)
    if thread is None:
        thread = _WINDOW_LOOPS[device] = LoopThread()
    device.polled = True
    return thread


class Relay:
    """A TableServer handler that passes everything to the device as events: the
    table lives on the device's side, which decides on each join."""

    def __init__(self, post: Post) -> None:
        self.post = post
        self.outbox: Outbox = []
        self.names: dict[int, str] = {}  # the peers here: the name each joined as

    def join(self, peer: int, join: Join, arrival: Arrival, now: float) -> bool | None:
        self.names[peer] = join.name or ""
        self.post(record_event(peer, join, arrival))
        return None

    def receive(self, peer: int, record: Record, now: float) -> None:
        self.post(record_event(peer, record))

    def gone(self, peer: int, now: float) -> None:
        self.names.pop(peer, None)
        self.post(NetworkClosed(peer))

    def take_outbox(self) -> Outbox:
        out, self.outbox = self.outbox, []
        return out


class HostLink:
    """The window's host: the one host coroutine (palmish/network/hosting.py) on the
    loop thread, its relay posting every join and record to the device, where the
    table lives. Made once it listens (OSError when it cannot)."""

    def __init__(self, thread: LoopThread, post: Post, listen: str, port: int,
                 log: Callable[[str], None], side: ServerSide,
                 announce_as: tuple[str, str] | None = None, prefer: int | None = None) -> None:
        self.thread = thread
        self.relay = Relay(post)
        self._goodbye: str | None = None
        self._server: TableServer | None = None
        self._stop = asyncio.Event()  # set on the loop thread by close()
        ready: concurrent.futures.Future[tuple[str, int]] = concurrent.futures.Future()

        def listening(server: TableServer, host: str, port: int) -> None:
            self._server = server
            ready.set_result((host, port))

        async def until_closed(server: TableServer) -> None:
            await self._stop.wait()

        def ended(task: concurrent.futures.Future[None]) -> None:
            if not ready.done():  # it never listened: the caller hears why
                error = task.exception()
                ready.set_exception(error or OSError("the host stopped"))

        task = asyncio.run_coroutine_threadsafe(serve_host(
            self.relay, side, listen, port, log=log, listening=listening,
            drive=until_closed, goodbye=lambda: self._goodbye, announce_as=announce_as,
            prefer=prefer),
            thread.loop)
        task.add_done_callback(ended)
        self.address: tuple[str, int] = ready.result(START_S)

    @property
    def server(self) -> TableServer:
        """The sessions (set before the link is made: it listens)."""
        assert self._server is not None
        return self._server

    def send(self, peer: int, record: Record) -> None:
        def deliver() -> None:
            self.relay.outbox.append((peer, record))
            self.server.flush()

        self.thread.call(deliver)

    def peers(self) -> list[tuple[str, str | None]]:
        """The people here: (name joined as, where the table sees them), read from
        the device's thread (a copy of the loop's dictionary)."""
        server = self._server
        return [(name, server.where(peer) if server is not None else None)
                for peer, name in list(self.relay.names.items()) if name]

    def tell_all(self, text: str) -> None:
        """One line for every joiner's person (TableServer.tell_all)."""
        self.thread.call(self.server.tell_all, text)

    def close(self, goodbye: str | None = None) -> None:
        def stop() -> None:
            self._goodbye = goodbye
            self._stop.set()

        self.thread.call(stop)


Keep = Callable[[str | None], None]  # the table's name once welcomed; None: not kept


def _no_keep(table: str | None) -> None:
    """Nothing kept (a joiner without a data folder)."""


class EventSink:
    """The window's joiner: every record of the host goes to the device's inbox;
    `keep` hears the table's name at the welcome and None at the end (a host
    that speaks the table's kinds keeps the table past the end, for a rematch,
    until this device leaves it or the host closes it)."""

    def __init__(self, post: Post, keep: Keep = _no_keep) -> None:
        self.post, self.keep = post, keep
        self._ended = False
        self._talks = False

    @property
    def done(self) -> bool:
        return self._ended and not self._talks

    @property
    def finished(self) -> bool:
        return self._ended

    def take(self, record: Record) -> Sequence[Record]:
        self.post(record_event(0, record))
        if isinstance(record, Welcome):
            self._talks = record.table >= TABLE_LEVEL
            self.keep(record.name)
        elif record.KIND == "end" and not self._ended and not self._talks:
            self.keep(None)
        if record.KIND == "rematch" and getattr(record, "state", "") == "on":
            self._ended = False  # the next game: a bye now is the host stopping
        self._ended = self._ended or record.KIND == "end"
        return ()  # the device answers through JoinLink.send

    def lost(self, line: str) -> None:
        self.post(NetworkClosed(0, "The host is gone; waiting for it."))

    def closed(self, text: str) -> None:
        self.keep(None)
        self.post(NetworkClosed(0, TABLE_CLOSED))


class JoinLink:
    """The window's joiner: the one Joiner (palmish/network/joining.py) on the
    loop thread, its records posted to the device, its trouble as NetworkClosed;
    `keep` as EventSink's, and None when refused or left."""

    def __init__(self, thread: LoopThread, post: Post, request: JoinRequest,
                 dice: JoinerDice, log: Callable[[str], None], keep: Keep = _no_keep) -> None:
        self.thread, self.post, self.keep = thread, post, keep
        self.joiner = Joiner(request, EventSink(post, keep), log, dice)
        self._task = asyncio.run_coroutine_threadsafe(self._run(), thread.loop)

    async def _run(self) -> None:
        try:
            await self.joiner.run()
        except Refused as err:
            self.keep(None)
            self.post(NetworkClosed(0, f"Refused: {err}"))
        except (OSError, HostError) as err:
            self.post(NetworkClosed(0, str(err)))

    def send(self, record: Record) -> None:
        self.thread.call(self.joiner.send, record)

    def close(self) -> None:
        self.keep(None)  # left on purpose: not offered again
        self.thread.call(self.joiner.stop)
