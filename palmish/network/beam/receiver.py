"""The receiving side of a beam (docs/network.md, "Beam"): a listener whose
connections open sessions (the session layer: the code, or paired keys) and
take one sender at a time through join -> offer -> data -> end, keep the item
in memory, check it, and hand it to the owner to ask the person.

It writes nothing but a pairing: the owner installs an accepted item
(items.install, or the game's open for a board or a deal) and then calls
`finish`, which tells the sender. It runs on one event loop; its callbacks
are called there.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from palmish.device.exchange import BeamItem, Checked
from palmish.network.beam import items, wire
from palmish.network.deadline import within
from palmish.network.session.channel import Session, SessionError
from palmish.network.session.guesses import Guesses
from palmish.network.session.handshake import ServerSide, accept
from palmish.network.session.identity import Identity, fingerprint
from palmish.network.session.kinds import CODE_AUTH, VERSION, Join, Refused, Welcome
from palmish.network.session.peers import KnownPeers
from palmish.network.session.records import Record

ACCEPTED, DECLINED, FAILED, REFUSED, INTERRUPTED = (
    "accepted", "declined", "failed", "refused", "interrupted")
MAX_CONNECTIONS = 64  # at once, in their handshake or beaming; more are closed at once
JOIN_S = 5.0  # from the handshake to the sender's join, at most
BUSY = "busy: receiving another beam"


@dataclass(frozen=True)
class Arrival:
    """An item that passed the checks, held in memory while the person decides.
    `sender` is the name it gave (validated: printable, one line); `key` its
    identity, which the person's Accept pairs; `paired_as` the name that key was
    paired under when it is another; `new` when the two met by the code."""

    ticket: int
    sender: str
    key: bytes
    item: BeamItem
    checked: Checked
    size: int
    new: bool = False
    paired_as: str | None = None

    @property
    def fingerprint(self) -> str:
        return fingerprint(self.key)

    @property
    def note(self) -> str:
        """What the person is told of the sender's key: its fingerprint when it is
        new here, or the name it was paired as; else nothing."""
        if self.new:
            return f"new here, key {self.fingerprint}"
        if self.paired_as is not None:
            return f"paired as {self.paired_as}"
        return ""


@dataclass(frozen=True)
class Ended:
    """A beam is over: `ok` (accepted, and installed or opened), else why not (`text`).
    What it was: the arrival once it passed the checks, else what was offered
    (`kind`, `size`; empty before the offer)."""

    ticket: int
    verdict: str  # ACCEPTED, DECLINED, FAILED (accepted, then not installed), REFUSED, INTERRUPTED
    text: str
    sender: str
    kind: str = ""
    size: int = 0
    arrival: Arrival | None = None

    @property
    def ok(self) -> bool:
        return self.verdict == ACCEPTED


@dataclass
class _Beam:
    ticket: int
    sender: str
    session: Session
    offer: wire.Offer | None = None
    arrival: Arrival | None = None
    answer: asyncio.Future[tuple[str, str]] | None = None


class _Over(Exception):
    """The beam ends with this verdict and line (told to the sender, then closed)."""

    def __init__(self, verdict: str, text: str) -> None:
        super().__init__(text)
        self.verdict, self.text = verdict, text


class Desk:
    """One receiver: its name, its identity, its code while it listens, the
    senders paired with it, and its guessing limits (5 wrong codes a minute in
    all, 2 from one source; paired senders are never counted).

    `on_offer(arrival)`: ask the person, then call `finish(ticket, verdict, text)`.
    `on_progress(ticket, received, size)`, `on_done(ended)`: news for the person
    (a headless receiver prints a line for each `on_done`)."""

    def __init__(self, name: str, code: str, identity: Identity, senders: KnownPeers,
                 on_offer: Callable[[Arrival], None],
                 on_done: Callable[[Ended], None],
                 on_progress: Callable[[int, int, int], None] = lambda t, r, s: None,
                 log: Callable[[str], None] = lambda line: None,
                 guesses: Guesses | None = None) -> None:
        self.name, self.code, self.senders = name, code, senders
        self.on_offer, self.on_done, self.on_progress, self.log = (
            on_offer, on_done, on_progress, log)
        self.side = ServerSide(wire.APP, identity, code, guesses=guesses or Guesses(),
                               trusts=senders.trusts, hears=wire.SENDER_SAYS,
                               hear_limit=wire.MAX_SENDER_RECORD, busy=self._busy)
        self.beam: _Beam | None = None
        self._tickets = 0
        self._connections = 0
        self._server: asyncio.Server | None = None
        self._tasks: set[asyncio.Task[None]] = set()

    @property
    def fingerprint(self) -> str:
        return self.side.identity.fingerprint

    # ------------------------------------------------------------------ listening

    async def start(self, host: str, port: int) -> tuple[str, int]:
        """Listen on every address `host` names; (the first one, its port)."""
        self._server = await asyncio.start_server(self._connected, host, port,
                                                  limit=2 * wire.MAX_SENDER_RECORD)
        self.side.prepare()
        address = self._server.sockets[0].getsockname()
        return str(address[0]), int(address[1])

    async def close(self) -> None:
        """Stop listening and end every connection (a beam under way is interrupted)."""
        if self._server is not None:
            self._server.close()
        for task in list(self._tasks):
            task.cancel()
        for task in list(self._tasks):
            with contextlib.suppress(BaseException):
                await task

    def _connected(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        if self._connections >= MAX_CONNECTIONS:
            writer.close()  # no handshake, no task: a crowd costs little
            return
        self._connections += 1
        task = asyncio.get_running_loop().create_task(self._serve(reader, writer))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            session = await accept(reader, writer, self.side, self.log)
            if session is not None:
                await self._take(session)
        finally:
            self._connections -= 1
            writer.close()

    def _busy(self) -> Refused | None:
        return Refused(VERSION, BUSY, "busy") if self.beam is not None else None

    # ------------------------------------------------------------------ one beam

    async def _take(self, session: Session) -> None:
        peer = session.peer
        assert peer is not None
        if self.beam is not None:  # another sender's handshake ended first
            await _refuse(session, BUSY, "busy")
            return
        pinger = asyncio.ensure_future(session.keep_alive())
        try:
            join = await within(session.receive(), JOIN_S)
        except SessionError as err:
            self.log(f"{session.where}: {err}")
            join = None
        except (asyncio.TimeoutError, TimeoutError):
            self.log(f"{session.where}: no join within {JOIN_S:.0f} s")
            join = None
        if join is None or not isinstance(join, Join) or join.name is None or join.watch:
            pinger.cancel()
            if join is not None:
                self.log(f"{session.where}: a beam starts with a join naming its sender")
                await _refuse(session, "a beam starts with a join naming its sender", "other")
            await session.close()
            return
        if not join.name.isprintable():  # the wire refuses controls; this, the rest
            pinger.cancel()
            self.log(f"{session.where}: the sender's name holds unprintable characters")
            await _refuse(session, "the sender's name holds unprintable characters", "other")
            return
        self._tickets += 1
        beam = _Beam(self._tickets, join.name, session)
        self.beam = beam
        try:
            await self._beam(beam, peer.mode == CODE_AUTH, self.senders.name_of(peer.key))
        finally:
            pinger.cancel()
            self.beam = None
            await session.close()

    async def _beam(self, beam: _Beam, new: bool, paired_as: str | None) -> None:
        session = beam.session
        session.send(Welcome(VERSION, wire.APP, self.name))
        try:
            await within(self._transfer(beam, new, paired_as), wire.TRANSFER_S)
            verdict, text = await self._decision(beam)
        except _Over as over:
            verdict, text = over.verdict, over.text
        except (asyncio.TimeoutError, TimeoutError):
            verdict, text = REFUSED, f"too slow: not here whole within {wire.TRANSFER_S:.0f} s"
        except SessionError as err:
            self.log(f"{session.where}: {err}")
            broke = str(err).startswith("the connection broke")  # the channel's words
            self.on_done(_ended(beam, INTERRUPTED, _gone(beam) if broke
                                else f"{err}; nothing was kept"))
            return
        if verdict == INTERRUPTED:
            self.on_done(_ended(beam, verdict, text))
            return
        if verdict == ACCEPTED and beam.arrival is not None:
            self._pair(beam.arrival)
        with contextlib.suppress(SessionError):
            session.send(wire.Result(verdict == ACCEPTED, wire.one_line(text)))
            await session.drain()
        self.on_done(_ended(beam, verdict, text))

    def _pair(self, arrival: Arrival) -> None:
        """Keep the sender of an accepted item by its key (or its new name), saying so."""
        try:
            renamed = self.senders.remember(arrival.key, arrival.sender)
        except OSError as err:  # the item is in; only the pairing is lost
            self.log(f"cannot keep the pairing with {arrival.sender!r}: {err.strerror or err}")
            return
        if arrival.new:
            self.log(f"paired with {arrival.sender!r} (key {arrival.fingerprint})")
        elif renamed is not None:
            self.log(f"{renamed!r} is now called {arrival.sender!r}")

    async def _next(self, beam: _Beam, kind: type[Record]) -> Record:
        record = await beam.session.receive()
        if record is None:
            raise _Over(INTERRUPTED, _gone(beam))
        if not isinstance(record, kind):
            raise SessionError(f"{record.KIND} when {kind.KIND} was due")
        return record

    async def _transfer(self, beam: _Beam, new: bool, paired_as: str | None) -> None:
        session = beam.session
        offer = await self._next(beam, wire.Offer)
        assert isinstance(offer, wire.Offer)
        beam.offer = offer
        refusal = wire.too_large(offer.size)
        if refusal is None and offer.number is not None and offer.size:
            refusal = "a number item carries no data"
        if refusal is not None:
            raise _Over(REFUSED, refusal)
        session.send(wire.Ready())
        data = bytearray()
        expected = 0
        while len(data) < offer.size:
            chunk = await self._next(beam, wire.Data)
            assert isinstance(chunk, wire.Data)
            if chunk.n != expected:
                raise SessionError(f"data: chunk {chunk.n}, expected {expected}")
            expected += 1
            if len(data) + len(chunk.chunk) > offer.size:
                raise SessionError("data: more than was offered")
            data += chunk.chunk
            session.send(wire.Progress(len(data)))
            self.on_progress(beam.ticket, len(data), offer.size)
        end = await self._next(beam, wire.End)
        assert isinstance(end, wire.End)
        if not hmac.compare_digest(hashlib.sha256(data).digest(), end.sha256):
            raise _Over(REFUSED, "damaged on the way (its SHA-256 differs)")
        item = BeamItem(offer.kind, offer.app, offer.name, offer.number, bytes(data))
        try:
            checked = items.check(item)
        except ValueError as err:
            raise _Over(REFUSED, wire.one_line(str(err))) from None
        peer = session.peer
        assert peer is not None
        beam.arrival = Arrival(beam.ticket, beam.sender, peer.key, item, checked, len(data),
                               new=new and paired_as is None,
                               paired_as=paired_as if paired_as != beam.sender else None)

    async def _decision(self, beam: _Beam) -> tuple[str, str]:
        """Ask the person (on_offer) and wait for `finish`, at most DECIDE_S, while
        watching the sender: gone, or saying anything but pings, ends the beam."""
        arrival = beam.arrival
        assert arrival is not None
        session = beam.session
        session.send(wire.Asking(wire.one_line(arrival.checked.title),
                                 wire.one_line(arrival.checked.what)))
        answer: asyncio.Future[tuple[str, str]] = asyncio.get_running_loop().create_future()
        beam.answer = answer
        self.on_offer(arrival)
        watch: asyncio.Future[Record | None] = asyncio.ensure_future(session.receive())
        try:
            either: list[asyncio.Future[Any]] = [answer, watch]
            await asyncio.wait(either, timeout=wire.DECIDE_S,
                               return_when=asyncio.FIRST_COMPLETED)
        finally:
            watch.cancel()
        if answer.done():
            return answer.result()
        answer.cancel()
        if watch.done() and not watch.cancelled():
            said = watch.result()  # raises SessionError for a bad frame or silence
            if said is None:
                raise _Over(INTERRUPTED, _gone(beam))
            raise SessionError(f"{said.KIND} while its person decides")
        return DECLINED, "declined: no answer"

    # ------------------------------------------------------------- the owner's side

    def finish(self, ticket: int, verdict: str, text: str) -> bool:
        """The person's answer and what came of it (ACCEPTED: installed or opened;
        DECLINED; FAILED: accepted, then it could not be installed); False when that
        beam is already over (its sender went away or the wait ran out). Called on
        the desk's loop."""
        beam = self.beam
        if (beam is None or beam.ticket != ticket or beam.answer is None
                or beam.answer.done()):
            return False
        beam.answer.set_result((verdict, text))
        return True


async def _refuse(session: Session, reason: str, why: str) -> None:
    with contextlib.suppress(SessionError):
        session.send(Refused(VERSION, reason, why))
        await session.drain()
    await session.close()


def _gone(beam: _Beam) -> str:
    return f"{beam.sender} went away before the end; nothing was kept"


def _ended(beam: _Beam, verdict: str, text: str) -> Ended:
    offer = beam.offer
    return Ended(beam.ticket, verdict, text, beam.sender, offer.kind if offer else "",
                 offer.size if offer else 0, beam.arrival)
