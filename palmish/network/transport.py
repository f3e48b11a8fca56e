"""TCP with asyncio streams (docs/network.md, "Transport"): a server that
reads bounded, validated lines from many peers and a link from a joiner.

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
import time
from collections.abc import Callable
from typing import Protocol

from palmish.device.storage import parse_json
from palmish.network import protocol
from palmish.network.protocol import (
    HELLO_TIMEOUT_S,
    HOST_KINDS,
    JOINER_KINDS,
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


def read_hello(line: bytes, kinds: FromJoiner = JOINER_KINDS,
               limit: int = MAX_JOINER_LINE) -> Message:
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
                 clock: Callable[[], float] = time.monotonic, kinds: FromJoiner = JOINER_KINDS,
                 line_limit: int = MAX_JOINER_LINE) -> None:
        self.handler, self.log, self.clock = handler, log, clock
        self.kinds, self.line_limit = kinds, line_limit
        self._writers: dict[int, asyncio.StreamWriter] = {}
        self._seated: set[int] = set()
        self._ids = itertools.count(1)
        self._server: asyncio.Server | None = None
        self._pinger: asyncio.Task[None] | None = None
        self.refused_for_load = 0
        self._activity = asyncio.Event()

    async def start(self, host: str, port: int) -> tuple[str, int]:
        self._server = await asyncio.start_server(self._serve, host, port, limit=self.line_limit)
        self._pinger = asyncio.create_task(self._ping())
        address = self._server.sockets[0].getsockname()
        return str(address[0]), int(address[1])

    async def close(self) -> None:
        if self._pinger is not None:
            self._pinger.cancel()
        if self._server is not None:
            self._server.close()
        for writer in list(self._writers.values()):
            writer.close()
        self._writers.clear()

    async def wait_activity(self, timeout: float) -> None:
        """Until a peer said something (or `timeout` seconds)."""
        with contextlib.suppress(TimeoutError, asyncio.TimeoutError):
            await asyncio.wait_for(self._activity.wait(), timeout)
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
        if len(self._writers) >= MAX_PEERS:
            self.refused_for_load += 1
            writer.close()
            return
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
        line = await asyncio.wait_for(reader.readline(), HELLO_TIMEOUT_S)
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
            line = await asyncio.wait_for(reader.readline(), SILENCE_LIMIT_S)
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
        await asyncio.wait_for(writer.drain(), 2.0)


class Link:
    """A joiner's connection to a host (or a beam sender's to a receiver: `kinds`)."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter,
                 kinds: FromJoiner = HOST_KINDS) -> None:
        self.reader, self.writer, self.kinds = reader, writer, kinds

    @classmethod
    async def open(cls, host: str, port: int, timeout: float = 5.0,
                   kinds: FromJoiner = HOST_KINDS) -> Link:
        reader, writer = await asyncio.wait_for(
            asyncio.open_connection(host, port, limit=MAX_HOST_LINE), timeout)
        return cls(reader, writer, kinds)

    def send(self, msg: Message) -> None:
        if not self.writer.is_closing():
            self.writer.write(protocol.encode(msg))

    async def receive(self) -> Message | None:
        """The next host message; None when the host closed; ProtocolError for
        a bad line; TimeoutError when the host went silent."""
        line = await asyncio.wait_for(self.reader.readline(), SILENCE_LIMIT_S)
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
            await asyncio.wait_for(self.writer.wait_closed(), 1.0)
