"""The sending side of a beam (docs/network.md, "Beam"): one item to one
receiver over one session, with the receiver's progress and its answer.

Without a code the sender meets the receiver by keys (a receiver it paired
with, which paired with it); a receiver it does not know, or that does not
know it, asks for the code, and the code is the password of the session's key
exchange: it never crosses. Every wait is bounded: the connection and the
handshake (5 s each), each record (the session's 5 s of silence; both sides
ping every second, the receiver also while its person decides)."""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
from collections.abc import Callable
from dataclasses import dataclass

from palmish.device.addresses import address_text
from palmish.device.exchange import BeamItem
from palmish.network.beam import wire
from palmish.network.session.channel import Session, SessionError
from palmish.network.session.handshake import (
    HandshakeError,
    LockedOut,
    NotTrusted,
    Refusal,
    WrongCode,
    connect,
)
from palmish.network.session.identity import Identity, fingerprint
from palmish.network.session.kinds import CODE_AUTH, Join, Refused, Welcome
from palmish.network.session.peers import KnownPeers
from palmish.network.session.records import Record

ACCEPTED, REFUSED, CODE, BUSY, FAILED, UNKNOWN = (
    "accepted", "refused", "code", "busy", "failed", "unknown")
CODE_NEEDED = "a pairing code is needed (the code on the receiver's screen)"


@dataclass(frozen=True)
class Outcome:
    """How a beam ended. `status`: ACCEPTED; REFUSED (declined, or the item
    refused: `text` says which; or too many wrong codes); CODE (a pairing code is
    needed, or was wrong); BUSY; FAILED (unreachable, gone, not a beam receiver);
    UNKNOWN (gone after asking its person: it may have kept the item).
    `note`: what the person should know of the receiver's key (paired now, with
    its fingerprint; or paired under another name), or ""."""

    status: str
    text: str  # one line for the person, as received: show through printable
    receiver: str = ""  # the receiver's name, once it said it
    note: str = ""

    @property
    def accepted(self) -> bool:
        return self.status == ACCEPTED


class _Over(Exception):
    def __init__(self, outcome: Outcome) -> None:
        super().__init__(outcome.text)
        self.outcome = outcome


async def send_item(item: BeamItem, host: str, port: int, *, name: str, identity: Identity,
                    receivers: KnownPeers, code: str | None = None,
                    on_progress: Callable[[int, int], None] = lambda done, total: None,
                    on_asking: Callable[[str, str], None] = lambda title, what: None,
                    ) -> Outcome:
    """Beam `item` to the receiver at host:port as the handheld `name`: by keys
    when no `code` is given (a receiver in `receivers`), else with the receiver's
    code (the first meeting; an accepted beam pairs the two)."""
    where = address_text(host, port)
    try:
        session = await _open(host, port, where, identity, receivers, code)
    except _Over as over:
        return over.outcome
    pinger = asyncio.ensure_future(session.keep_alive())
    receiver = ""
    try:
        session.send(Join(name=name))
        welcome = await _next(session, where, "", Welcome)
        assert isinstance(welcome, Welcome)
        receiver = welcome.name
        outcome = await _beam(session, item, where, receiver, on_progress, on_asking)
    except _Over as over:
        outcome = over.outcome
    except SessionError as err:
        outcome = Outcome(FAILED, f"{receiver or where}: {err}", receiver)
    finally:
        pinger.cancel()
        await session.close()
    return _paired(outcome, session, receivers)


async def _open(host: str, port: int, where: str, identity: Identity, receivers: KnownPeers,
                code: str | None) -> Session:
    """The session with the receiver; _Over with the outcome when there is none."""
    try:
        if code is None:
            return await connect(host, port, app=wire.APP, identity=identity,
                                 trusts=receivers.trusts, hears=wire.RECEIVER_SAYS,
                                 hear_limit=wire.MAX_RECEIVER_RECORD,
                                 say_limit=wire.MAX_SENDER_RECORD)
        return await connect(host, port, app=wire.APP, identity=identity, code=code,
                             hears=wire.RECEIVER_SAYS, hear_limit=wire.MAX_RECEIVER_RECORD,
                             say_limit=wire.MAX_SENDER_RECORD)
    except ConnectionRefusedError:
        raise _Over(Outcome(FAILED, f"cannot reach {where}: nothing receives there")) from None
    except NotTrusted:
        raise _Over(Outcome(CODE, f"{CODE_NEEDED}: this handheld has not paired with it"))\
            from None
    except WrongCode:
        raise _Over(Outcome(CODE, "wrong pairing code")) from None
    except LockedOut as err:
        raise _Over(Outcome(REFUSED, str(err))) from None
    except Refusal as err:
        status = {"code": CODE, "busy": BUSY}.get(err.why or "", REFUSED)
        raise _Over(Outcome(status, str(err))) from None
    except HandshakeError as err:
        raise _Over(Outcome(FAILED, str(err))) from None
    except OSError as err:
        reason = err.strerror or str(err) or "no answer within 5 s"
        text = reason if reason.startswith("cannot reach") else f"cannot reach {where}: {reason}"
        raise _Over(Outcome(FAILED, text)) from None


async def _beam(session: Session, item: BeamItem, where: str, receiver: str,
                on_progress: Callable[[int, int], None],
                on_asking: Callable[[str, str], None]) -> Outcome:
    size = len(item.data)
    session.send(wire.Offer(item.kind, item.app, item.name, item.number, size))
    await _next(session, where, receiver, wire.Ready)
    step = wire.chunk_bytes(size)
    unanswered = 0  # chunks sent whose `progress` has not come yet
    for n, start in enumerate(range(0, size, step)):
        session.send(wire.Data(n, item.data[start:start + step]))
        unanswered += 1
        while unanswered >= wire.AHEAD or (unanswered and start + step >= size):
            progress = await _next(session, where, receiver, wire.Progress)
            assert isinstance(progress, wire.Progress)
            unanswered -= 1
            on_progress(progress.received, size)
    session.send(wire.End(hashlib.sha256(item.data).digest()))
    asking = await _next(session, where, receiver, wire.Asking)
    assert isinstance(asking, wire.Asking)
    on_asking(asking.title, asking.what)
    try:
        await _next(session, where, receiver, wire.Result)  # the result ends it (_Over)
    except _Over as over:
        if over.outcome.status == FAILED:  # gone while its person decided or installed
            raise _Over(_unknown(receiver or where)) from None
        raise
    except SessionError:
        raise _Over(_unknown(receiver or where)) from None
    raise AssertionError("unreachable")  # pragma: no cover


def _unknown(receiver: str) -> Outcome:
    """The receiver went away after it asked its person: it may have kept the item
    (installed, then killed before its answer left), so the sender cannot say."""
    return Outcome(UNKNOWN, f"unknown: check the receiver ({receiver!r} went away while"
                   " its person was asked)", receiver)


async def _next(session: Session, where: str, receiver: str, kind: type[Record]) -> Record:
    """The receiver's next record but pings, which must be `kind`; a refusal or a
    result ends the beam (_Over)."""
    record = await session.receive()
    if record is None:
        raise _Over(Outcome(FAILED, f"{receiver!r} is gone (the connection closed)"
                            if receiver else f"{where} closed the connection", receiver))
    if isinstance(record, Refused):  # busy, or (by keys) a receiver that does not know it
        status = {"busy": BUSY, "key": CODE}.get(record.why or "", REFUSED)
        raise _Over(Outcome(status, CODE_NEEDED if record.why == "key" else record.reason,
                            receiver))
    if isinstance(record, wire.Result):
        raise _Over(Outcome(ACCEPTED if record.accepted else REFUSED, record.text, receiver))
    if not isinstance(record, kind):
        raise SessionError(f"{record.KIND} when {kind.KIND} was due")
    return record


def _paired(outcome: Outcome, session: Session, receivers: KnownPeers) -> Outcome:
    """Keep the receiver's key once it accepted; say what the person should know."""
    peer = session.peer
    if peer is None or not outcome.receiver:
        return outcome
    known = receivers.name_of(peer.key)
    note = ""
    if outcome.accepted:
        with contextlib.suppress(OSError):
            receivers.remember(peer.key, outcome.receiver)
        if peer.mode == CODE_AUTH and known is None:
            note = f"paired with {outcome.receiver!r}: its key is {fingerprint(peer.key)}"
    if known is not None and known != outcome.receiver:
        note = f"{outcome.receiver!r} was paired as {known!r} (the same key)"
    return Outcome(outcome.status, outcome.text, outcome.receiver, note)
