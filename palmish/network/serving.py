"""A table's sessions (docs/network.md, "Connection"): the host's side of
protocol version 2, for the headless host and the window alike.

Connections are taken as the transport's Server takes them (its limits on
connections at once and a second), then each gets the session layer's
handshake (palmish/network/session/handshake.py: the join code as the
password, or the keys of a player coming back), its `join` (a seat proof is
checked here, against the table's id and this session), then sealed records
both ways. The handler (the table, or the window's relay to it) decides on
each join and leaves what it sends in its outbox, addressed peer by peer;
`flush` writes it once the owner saved what must survive a crash. A peer is
pinged only once it was welcomed, so its first record is `welcome` (or
`refused`). Anything that cannot be believed ends that peer's session with
one log line; the game goes on.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable
from typing import Any, cast

from palmish.network.deadline import within
from palmish.network.engine import Arrival, Handler
from palmish.network.protocol import RateLimit
from palmish.network.session.channel import PING_EVERY_S, Session, SessionError
from palmish.network.session.handshake import ServerSide, accept
from palmish.network.session.identity import check_seat
from palmish.network.session.kinds import VERSION, Bye, Error, Join, Ping, Refused, Welcome
from palmish.network.transport import Server

GOODBYE_DRAIN_S = 1.0


class TableServer(Server):
    """Serves one table's handler over sessions on one TCP address."""

    def __init__(self, handler: Handler, side: ServerSide, log: Callable[[str], None],
                 clock: Callable[[], float] = time.monotonic) -> None:
        super().__init__(cast(Any, handler), log, clock)
        self.table_handler, self.side = handler, side
        self._sessions: dict[int, Session] = {}
        self._welcomed: set[int] = set()
        self._joined: set[int] = set()

    async def start(self, host: str, port: int) -> tuple[str, int]:
        address = await super().start(host, port)
        self.side.prepare()  # the first SPAKE2 half, before anyone knocks
        return address

    def flush(self) -> None:
        """Write what the handler left in its outbox, peer by peer."""
        encoded: dict[int, bytes] = {}  # one encoding of a record sent to many
        for peer, record in self.table_handler.take_outbox():
            session = self._sessions.get(peer)
            if session is None or session.writer.is_closing():
                continue
            data = encoded.get(id(record))
            if data is None:
                data = encoded[id(record)] = record.encode()
            try:
                session.send_bytes(data)
            except SessionError as err:
                self.log(f"dropped peer {peer} {session.where}: {err}")
                continue
            if isinstance(record, Welcome):
                self._welcomed.add(peer)
            elif isinstance(record, Refused):  # close() sends what is buffered first
                self._welcomed.discard(peer)
                session.writer.close()

    def where(self, peer: int) -> str | None:
        """The address the peer's session came from (HOST:PORT), None once gone."""
        session = self._sessions.get(peer)
        return None if session is None else session.where

    def tell_all(self, text: str) -> None:
        """One line for every welcomed peer's person, as an `error` (nothing in the
        game changed; any joiner of version 2 shows or logs it): the host's own
        trouble, such as a disk that refuses its saves."""
        for peer in list(self._welcomed):
            session = self._sessions.get(peer)
            if session is not None:
                with contextlib.suppress(SessionError):
                    session.send(Error(text[:200]))

    async def _ping(self) -> None:
        while True:
            await asyncio.sleep(PING_EVERY_S)
            for peer in list(self._welcomed):
                session = self._sessions.get(peer)
                if session is not None:
                    with contextlib.suppress(SessionError):
                        session.send(Ping())

    async def say_goodbye(self, text: str) -> None:
        """Tell every welcomed peer the host is closing, and give it a moment to leave."""
        for peer in list(self._welcomed):
            session = self._sessions.get(peer)
            if session is not None:
                with contextlib.suppress(SessionError):
                    session.send(Bye(text))
        with contextlib.suppress(TimeoutError, asyncio.TimeoutError):
            await within(asyncio.gather(
                *(s.drain() for s in list(self._sessions.values()))), GOODBYE_DRAIN_S)

    async def close(self) -> None:
        await super().close()
        for session in list(self._sessions.values()):
            session.writer.close()
        self._sessions.clear()

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        peer = next(self._ids)
        try:
            session = await accept(reader, writer, self.side, self.log)
        except asyncio.CancelledError:
            writer.close()
            return
        if session is None:
            return
        self._sessions[peer] = session
        try:
            await self._converse_session(peer, session)
        except SessionError as err:
            self.log(f"dropped peer {peer} {session.where}: {err}")
        except asyncio.CancelledError:
            pass  # the host is closing with this peer still here
        finally:
            self._sessions.pop(peer, None)
            self._welcomed.discard(peer)
            if peer in self._joined:
                self._joined.discard(peer)
                self.table_handler.gone(peer, self.clock())
                self._activity.set()
            writer.close()

    async def _converse_session(self, peer: int, session: Session) -> None:
        """The join, then the peer's records until it goes."""
        first = await session.receive()
        if first is None:
            return
        if not isinstance(first, Join):
            raise SessionError(f"a {first.KIND} before its join")
        assert session.peer is not None
        seat_key = None
        if first.seat is not None:
            if not check_seat(first.seat, self.side.scope or b"", session.exporter):
                session.send(Refused(VERSION, "that seat proof is not for this game", "seat"))
                await session.drain()
                raise SessionError("a seat proof made for another game or session")
            seat_key = first.seat.key
        self._joined.add(peer)  # from now on the handler hears when it goes
        answer = self.table_handler.join(peer, first, Arrival(session.peer.key, seat_key),
                                         self.clock())
        self._activity.set()
        if answer is False:
            self.flush()
            await session.drain()
            return
        limit = RateLimit()
        while True:
            record = await session.receive()
            if record is None or isinstance(record, Bye):
                return
            pause = limit.delay(self.clock())
            if pause:
                await asyncio.sleep(pause)
            self.table_handler.receive(peer, record, self.clock())
            self._activity.set()
