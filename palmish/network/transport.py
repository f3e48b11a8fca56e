"""TCP with asyncio streams (docs/network.md, "Transport"): a server that
reads bounded, validated lines from many peers and a link from a joiner.

The server accepts on its own listening sockets rather than asyncio's
`start_server`: a connection over the limits (MAX_PEERS at once, ACCEPT_RATE
a second) is closed straight after accept(), before any stream, task or timer
is made for it, so a crowd of connections costs the host (and the window
sharing its interpreter) little and a bounded amount.

The server knows nothing of games: a `Handler` seats or refuses hellos,
takes messages and hears of peers gone, and leaves what it sends in its
outbox. The server's owner writes the outbox (`flush`) when `wait_activity`
returns, after saving what must survive a crash: no peer ever hears of a
step the host could forget. Anything malformed, too
big, too fast or too slow drops that peer with one line in the log.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import socket
import time
from collections.abc import Callable
from typing import Protocol

from palmish.device.disk.storage import parse_json
from palmish.network import protocol
from palmish.network.deadline import within
from palmish.network.protocol import (
    HELLO_TIMEOUT_S,
    MAX_HOST_LINE,
    MAX_JOINER_LINE,
    PING_EVERY_S,
    SILENCE_LIMIT_S,
    VERSION,
    FromJoiner,
    Message,
    ProtocolError,
    RateLimit,
)

ALL = -1
MAX_PEERS = 64  # connections at once, seated or not; more are closed at once
# New connections given a stream: ACCEPT_BURST at once, then ACCEPT_RATE a
# second; more are closed at once (a joiner retries). Room for every seat and
# spectator coming back together, far below what a crowd can send.
ACCEPT_RATE = 20.0
ACCEPT_BURST = 20
LISTEN_BACKLOG = 100  # what the kernel holds for accept(), as asyncio's default
LOAD_LOG_EVERY_S = 10.0  # connections closed for load: one log line this often at most
ACCEPT_RETRY_S = 1.0  # accept() failed (no descriptors left): listen again after this
MAX_WRITE_BUFFER = 4 * MAX_HOST_LINE  # a peer that stops reading is dropped


class Handler(Protocol):
    def hello(self, peer: int, msg: Message, now: float) -> bool | None:
        """True: welcomed; False: refused (close after the outbox); None: decided
        later (a `refused` message in the outbox then closes the peer)."""
    def receive(self, peer: int, msg: Message, now: float) -> None: ...
    def gone(self, peer: int, now: float) -> None: ...
    def take_outbox(self) -> list[tuple[int, Message]]: ...


def version_refusal(msg: Message) -> str | None:
    """A hello in another protocol version gets this one line (and is closed)."""
    if msg["v"] != VERSION:
        return f"protocol version {msg['v']} is not spoken here (this host speaks {VERSION})"
    return None


def read_hello(line: bytes, kinds: FromJoiner, limit: int = MAX_JOINER_LINE) -> Message:
    """The first line. Its version is read before its fields are judged, so a
    client of another version whose hello has other fields still hears why."""
    try:
        return protocol.decode(line, {"hello": kinds["hello"]}, limit)
    except ProtocolError:
        claimed = claimed_version(line, limit)
        if claimed is not None and claimed != VERSION:
            return {"t": "hello", "v": claimed, "app": "", "code": ""}
        raise


def claimed_version(line: bytes, limit: int) -> int | None:
    """The `v` of a line that is a JSON object, however else it is malformed."""
    try:
        value = parse_json(line, limit)
    except ValueError:
        return None
    if isinstance(value, dict) and type(value.get("v")) is int:
        return int(value["v"])
    return None


class Server:
    """Serves one handler on one TCP address. `kinds` and `line_limit` are what its
    peers may send (a game's joiners by default; a beam's sender: docs/network.md)."""

    def __init__(self, handler: Handler, log: Callable[[str], None],
                 clock: Callable[[], float] = time.monotonic, kinds: FromJoiner | None = None,
                 line_limit: int = MAX_JOINER_LINE) -> None:
        self.handler, self.log, self.clock = handler, log, clock
        self.kinds, self.line_limit = kinds or {}, line_limit  # none: a subclass reads
        self._writers: dict[int, asyncio.StreamWriter] = {}
        self._seated: set[int] = set()
        self._ids = itertools.count(1)
        self._listeners: list[socket.socket] = []
        self._pinger: asyncio.Task[None] | None = None
        self._peers = 0  # connections accepted and not yet closed
        self._accepts = RateLimit(ACCEPT_RATE, ACCEPT_BURST)
        self._tasks: set[asyncio.Task[None]] = set()
        self.refused_for_load = 0
        self._load_logged_at: float | None = None
        self._activity = asyncio.Event()

    async def start(self, host: str, port: int) -> tuple[str, int]:
        """Listen on every address `host` names (as asyncio's start_server does)."""
        loop = asyncio.get_running_loop()
        infos = await loop.getaddrinfo(host, port, type=socket.SOCK_STREAM,
                                       flags=socket.AI_PASSIVE)
        try:
            for family, kind, proto, _, address in dict.fromkeys(infos):
                listener = socket.socket(family, kind, proto)
                self._listeners.append(listener)
                listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
                if family == socket.AF_INET6:
                    listener.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
                listener.bind((address[0], port, *address[2:]))
                listener.listen(LISTEN_BACKLOG)
                listener.setblocking(False)
                port = port or listener.getsockname()[1]  # port 0: the others take the same
        except OSError:
            self._stop_listening()
            raise
        for listener in self._listeners:
            loop.add_reader(listener.fileno(), self._accept, listener, loop)
        self._pinger = asyncio.create_task(self._ping())
        address = self._listeners[0].getsockname()
        return str(address[0]), int(address[1])

    def _accept(self, listener: socket.socket, loop: asyncio.AbstractEventLoop) -> None:
        """Take what the kernel queued: a stream for each connection within the
        limits, a close for the others (no stream, task or timer made)."""
        for _ in range(LISTEN_BACKLOG):
            try:
                conn, _ = listener.accept()
            except (BlockingIOError, InterruptedError):
                return
            except ConnectionAbortedError:  # gone while queued
                continue
            except OSError as err:  # no descriptors left: pause, or the loop would spin
                self.log(f"cannot accept connections ({err.strerror or err}); "
                         f"trying again in {ACCEPT_RETRY_S:.0f} s")
                loop.remove_reader(listener.fileno())
                loop.call_later(ACCEPT_RETRY_S, self._listen_again, listener, loop)
                return
            now = self.clock()
            if self._peers >= MAX_PEERS or not self._accepts.take(now):
                self.refused_for_load += 1
                conn.close()
                self._log_load(now)
                continue
            self._peers += 1
            task = loop.create_task(self._open(conn))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    def _listen_again(self, listener: socket.socket, loop: asyncio.AbstractEventLoop) -> None:
        if listener in self._listeners:  # not closed meanwhile
            loop.add_reader(listener.fileno(), self._accept, listener, loop)

    def _log_load(self, now: float) -> None:
        if self._load_logged_at is None or now - self._load_logged_at >= LOAD_LOG_EVERY_S:
            self._load_logged_at = now
            self.log(f"closing new connections over the limits ({MAX_PEERS} at once, "
                     f"{ACCEPT_RATE:.0f} a second): {self.refused_for_load} so far")

    async def _open(self, conn: socket.socket) -> None:
        try:
            try:
                reader, writer = await asyncio.open_connection(sock=conn, limit=self.line_limit)
            except OSError:
                conn.close()
                return
            await self._serve(reader, writer)
        finally:
            self._peers -= 1

    def _stop_listening(self) -> None:
        for listener in self._listeners:
            with contextlib.suppress(ValueError, RuntimeError):  # not registered, loop closed
                asyncio.get_running_loop().remove_reader(listener.fileno())
            listener.close()
        self._listeners.clear()

    async def close(self) -> None:
        if self._pinger is not None:
            self._pinger.cancel()
        self._stop_listening()
        for writer in list(self._writers.values()):
            writer.close()
        self._writers.clear()

    async def wait_activity(self, timeout: float) -> None:
        """Until a peer said something (or `timeout` seconds)."""
        with contextlib.suppress(TimeoutError, asyncio.TimeoutError):
            await within(self._activity.wait(), timeout)
        self._activity.clear()

    def flush(self) -> None:
        """Write what the handler left in its outbox."""
        for peer, msg in self.handler.take_outbox():
            data = protocol.encode(msg)
            targets = list(self._seated) if peer == ALL else [peer]
            for target in targets:
                writer = self._writers.get(target)
                if writer is None or writer.is_closing():
                    continue
                if writer.transport.get_write_buffer_size() > MAX_WRITE_BUFFER:
                    self.log(f"dropped peer {target}: it does not read what it is sent")
                    writer.close()
                    continue
                writer.write(data)
                if msg["t"] == "refused":  # written first: close() sends what is buffered
                    self._seated.discard(target)
                    writer.close()

    async def _ping(self) -> None:
        while True:
            await asyncio.sleep(PING_EVERY_S)
            for peer in list(self._seated):
                writer = self._writers.get(peer)
                if writer is not None and not writer.is_closing():
                    writer.write(protocol.encode({"t": "ping"}))

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        peer = next(self._ids)
        where = writer.get_extra_info("peername")
        self._writers[peer] = writer
        try:
            await self._converse(peer, reader, writer)
        except ProtocolError as err:
            self.log(f"dropped peer {peer} {where}: {err}")
        except (TimeoutError, asyncio.TimeoutError):
            self.log(f"dropped peer {peer} {where}: silent for too long")
        except ValueError:  # readline's limit
            self.log(f"dropped peer {peer} {where}: line longer than {self.line_limit} bytes")
        except (ConnectionError, asyncio.IncompleteReadError):
            pass
        except asyncio.CancelledError:
            # The host is shutting down with this peer still connected. Ending the
            # task normally keeps Python 3.11's stream callback from printing a
            # traceback when it asks a cancelled task for its exception.
            pass
        finally:
            self._writers.pop(peer, None)
            if peer in self._seated:
                self._seated.discard(peer)
                self.handler.gone(peer, self.clock())
                self._activity.set()
            writer.close()

    async def _converse(self, peer: int, reader: asyncio.StreamReader,
                        writer: asyncio.StreamWriter) -> None:
        line = await within(reader.readline(), HELLO_TIMEOUT_S)
        if not line.endswith(b"\n"):
            return  # closed before a whole hello
        hello = read_hello(line, self.kinds, self.line_limit)
        refusal = version_refusal(hello)
        if refusal is not None:
            self.log(f"refused peer {peer}: {refusal}")
            writer.write(protocol.encode({"t": "refused", "v": VERSION, "reason": refusal}))
            await _drain(writer)
            return
        self._seated.add(peer)
        welcomed = self.handler.hello(peer, hello, self.clock())
        self._activity.set()
        if welcomed is False:
            self._seated.discard(peer)
            self.flush()
            await _drain(writer)
            return
        limit = RateLimit()
        while True:
            line = await within(reader.readline(), SILENCE_LIMIT_S)
            if not line.endswith(b"\n"):
                return  # the peer closed
            pause = limit.delay(self.clock())
            if pause:
                await asyncio.sleep(pause)
            msg = protocol.decode(line, self.kinds, self.line_limit)
            self.handler.receive(peer, msg, self.clock())
            self._activity.set()


async def _drain(writer: asyncio.StreamWriter) -> None:
    with contextlib.suppress(ConnectionError, TimeoutError, asyncio.TimeoutError):
        await within(writer.drain(), 2.0)


class Link:
    """A joiner's connection to a host (or a beam sender's to a receiver: `kinds`)."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter,
                 kinds: FromJoiner) -> None:
        self.reader, self.writer, self.kinds = reader, writer, kinds

    @classmethod
    async def open(cls, host: str, port: int, *, kinds: FromJoiner, timeout: float = 5.0
                   ) -> Link:
        reader, writer = await within(
            asyncio.open_connection(host, port, limit=MAX_HOST_LINE), timeout)
        return cls(reader, writer, kinds)

    def send(self, msg: Message) -> None:
        if not self.writer.is_closing():
            self.writer.write(protocol.encode(msg))

    async def receive(self) -> Message | None:
        """The next host message; None when the host closed; ProtocolError for
        a bad line; TimeoutError when the host went silent."""
        line = await within(self.reader.readline(), SILENCE_LIMIT_S)
        if not line.endswith(b"\n"):
            return None
        try:
            return protocol.decode(line, self.kinds, MAX_HOST_LINE)
        except ProtocolError:
            claimed = claimed_version(line, MAX_HOST_LINE)
            if claimed is not None and claimed != VERSION:
                raise ProtocolError(
                    f"the host speaks protocol version {claimed}; this is {VERSION}") from None
            raise

    async def close(self) -> None:
        self.writer.close()
        with contextlib.suppress(ConnectionError, TimeoutError, asyncio.TimeoutError):
            await within(self.writer.wait_closed(), 1.0)
