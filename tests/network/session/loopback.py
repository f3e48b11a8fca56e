"""Session servers and a man in the middle on loopback, for the session tests
(every wait bounded; nothing but 127.0.0.0/8)."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from palmish.network.session.channel import Session
from palmish.network.session.handshake import ServerSide, accept
from palmish.network.session.kinds import FROM_CLIENT, FROM_SERVER

ADDRESS = "127.0.0.1"
BOTH = FROM_CLIENT + FROM_SERVER  # what an echoing server and its client hear
Serve = Callable[[Session], Awaitable[None]]


@dataclass
class Served:
    """A session server: its port, its log lines and the sessions it opened."""

    side: ServerSide
    port: int = 0
    log: list[str] = field(default_factory=list)
    sessions: list[Session] = field(default_factory=list)
    server: asyncio.Server | None = None

    async def close(self) -> None:
        assert self.server is not None
        self.server.close()
        for session in self.sessions:
            await session.close()


async def serve(side: ServerSide, then: Serve | None = None, address: str = ADDRESS) -> Served:
    """Listen on `address` (a free port); each connection's handshake, then `then`."""
    served = Served(side)

    async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        # Ended quietly when the test's loop stops (as transport.Server's peers do).
        with contextlib.suppress(asyncio.CancelledError):
            session = await accept(reader, writer, side, served.log.append)
            if session is None:
                return
            served.sessions.append(session)
            if then is not None:
                try:
                    await then(session)
                except Exception as err:  # what the server would log
                    served.log.append(f"{session.where}: {err}")

    served.server = await asyncio.start_server(handle, address, 0, limit=1 << 20)
    served.port = served.server.sockets[0].getsockname()[1]
    return served


async def echo(session: Session) -> None:
    """Answer every record with itself until the peer goes."""
    while True:
        record = await session.receive()
        if record is None:
            return
        session.send(record)


Rewrite = Callable[[str, bytes], list[bytes]]  # (direction "c2s"/"s2c", chunk) -> chunks to pass


@dataclass
class Proxy:
    """A TCP proxy that logs every byte each way and may rewrite, hold back,
    repeat or reorder them (`rewrite`)."""

    target: int
    rewrite: Rewrite = lambda direction, chunk: [chunk]
    seen: dict[str, bytearray] = field(
        default_factory=lambda: {"c2s": bytearray(), "s2c": bytearray()})
    port: int = 0
    server: asyncio.Server | None = None

    async def start(self) -> Proxy:
        self.server = await asyncio.start_server(self._handle, ADDRESS, 0)
        self.port = self.server.sockets[0].getsockname()[1]
        return self

    async def _handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        up_reader, up_writer = await asyncio.open_connection(ADDRESS, self.target)
        await asyncio.gather(self._pump("c2s", reader, up_writer),
                             self._pump("s2c", up_reader, writer), return_exceptions=True)

    async def _pump(self, direction: str, reader: asyncio.StreamReader,
                    writer: asyncio.StreamWriter) -> None:
        try:
            while True:
                chunk = await asyncio.wait_for(reader.read(65536), 10)
                if not chunk:
                    break
                self.seen[direction] += chunk
                for piece in self.rewrite(direction, chunk):
                    writer.write(piece)
                await writer.drain()
        finally:
            writer.close()

    def close(self) -> None:
        assert self.server is not None
        self.server.close()
