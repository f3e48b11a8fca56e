"""The network thread of the window (docs/network.md, "The window"): an
asyncio loop in its own thread runs the transport; every line received goes
into the device's inbox (a thread-safe queue the window's clock polls) as a
NetworkLine or NetworkClosed event, and what the device sends is handed to
the loop with call_soon_threadsafe. Nothing here waits on the window, and
the window never waits on the network."""

from __future__ import annotations

import asyncio
import threading
import time
import weakref
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from palmish.device.events import Event, NetworkClosed, NetworkLine
from palmish.network.joining import RETRY_S
from palmish.network.protocol import PING_EVERY_S, Message, ProtocolError, encode
from palmish.network.transport import Link, Server

if TYPE_CHECKING:
    from palmish.device.machine.system import Device

Post = Callable[[Event], None]
COMEBACK_S = 60.0


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
    """A Server handler that passes everything to the device as events: the
    table lives on the device's side."""

    def __init__(self, post: Post) -> None:
        self.post = post
        self.outbox: list[tuple[int, Message]] = []

    def hello(self, peer: int, msg: Message, now: float) -> bool | None:
        self.post(NetworkLine(peer, encode(msg).decode("ascii").rstrip("\n")))
        return None

    def receive(self, peer: int, msg: Message, now: float) -> None:
        if msg["t"] != "ping":
            self.post(NetworkLine(peer, encode(msg).decode("ascii").rstrip("\n")))

    def gone(self, peer: int, now: float) -> None:
        self.post(NetworkClosed(peer))

    def take_outbox(self) -> list[tuple[int, Message]]:
        out, self.outbox = self.outbox, []
        return out


class HostLink:
    """The window's host: a server on the loop thread relaying to the device."""

    def __init__(self, thread: LoopThread, post: Post, listen: str, port: int,
                 log: Callable[[str], None]) -> None:
        self.thread = thread
        self.relay = Relay(post)
        self.server = Server(self.relay, log)
        self.address: tuple[str, int] = thread.run(self.server.start(listen, port))

    def send(self, peer: int, msg: Message) -> None:
        def deliver() -> None:
            self.relay.outbox.append((peer, msg))
            self.server.flush()

        self.thread.call(deliver)

    def close(self) -> None:
        self.thread.call(lambda: asyncio.ensure_future(self.server.close()))


class JoinLink:
    """The window's joiner: one connection to the host, kept up (reconnecting
    for a minute when it breaks), relaying the host's lines to the device."""

    def __init__(self, thread: LoopThread, post: Post, host: str, port: int,
                 hello: Message) -> None:
        self.thread, self.post, self.host, self.port, self.hello = thread, post, host, port, hello
        self._link: Link | None = None
        self._closed = False
        self._task = asyncio.run_coroutine_threadsafe(self._run(), thread.loop)

    async def _run(self) -> None:
        lost_at: float | None = None
        while not self._closed:
            try:
                link = await Link.open(self.host, self.port)
            except (OSError, asyncio.TimeoutError) as err:
                lost_at = lost_at or time.monotonic()
                if time.monotonic() - lost_at > COMEBACK_S:
                    self.post(NetworkClosed(0, f"Cannot reach {self.host}:{self.port}: {err}"))
                    return
                await asyncio.sleep(RETRY_S)
                continue
            lost_at = None
            self._link = link
            link.send(self.hello)
            pinger = asyncio.ensure_future(self._ping(link))
            try:
                while True:
                    try:
                        msg = await link.receive()
                    except (ProtocolError, OSError, asyncio.TimeoutError):
                        msg = None
                    if msg is None:
                        break
                    if msg["t"] != "ping":
                        self.post(NetworkLine(0, encode(msg).decode("ascii").rstrip("\n")))
                    if msg["t"] in ("refused", "end"):
                        self._closed = True
            finally:
                pinger.cancel()
                self._link = None
                await link.close()
            if not self._closed:
                self.post(NetworkClosed(0, "The host is gone; waiting for it."))
                await asyncio.sleep(RETRY_S)

    @staticmethod
    async def _ping(link: Link) -> None:
        while True:
            await asyncio.sleep(PING_EVERY_S)
            link.send({"t": "ping"})

    def send(self, msg: Message) -> None:
        def deliver() -> None:
            if self._link is not None:
                self._link.send(msg)

        self.thread.call(deliver)

    def close(self) -> None:
        def stop() -> None:
            self._closed = True
            if self._link is not None:
                self._link.writer.close()

        self.thread.call(stop)
