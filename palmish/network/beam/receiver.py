"""The receiving side of a beam (docs/network.md, "Beam"): a transport handler
that takes one sender at a time through hello -> offer -> data -> end, keeps
the item in memory, checks it, and hands it to its owner to ask the person.

It writes nothing: the owner installs an accepted item (items.install, or the
game's open for a board or a deal) and then calls `finish`, which tells the
sender. It runs on the network loop; its callbacks are called there.
"""

from __future__ import annotations

import hashlib
import hmac
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from palmish.device.exchange import BeamItem, Checked
from palmish.network.beam import items, wire
from palmish.network.beam.pairing import Pairings
from palmish.network.protocol import VERSION, Message, ProtocolError
from palmish.network.transport import Server

STEP_S = 0.05  # the loop's longest sleep between answers
ACCEPTED, DECLINED, FAILED, REFUSED, INTERRUPTED = (
    "accepted", "declined", "failed", "refused", "interrupted")


@dataclass(frozen=True)
class Arrival:
    """An item that passed the checks, held in memory while the person decides."""

    ticket: int
    sender: str  # validated: printable, one line; escape it to show it all the same
    key: str
    item: BeamItem
    checked: Checked
    size: int


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
class _Session:
    peer: int
    ticket: int
    sender: str
    key: str
    started: float
    phase: str = "offer"  # offer -> data -> end -> asking
    offer: Message = field(default_factory=dict)
    data: bytearray = field(default_factory=bytearray)
    chunks: int = 0
    asked_at: float = 0.0
    arrival: Arrival | None = None


class Desk:
    """One receiver: its name, its code for this session, its paired senders.

    `on_offer(arrival)`: ask the person, then call `finish(ticket, verdict, text)`.
    `on_progress(ticket, received, size)`, `on_done(ended)`: news for the person
    (a headless receiver prints a line for each `on_done`)."""

    def __init__(self, name: str, code: str, pairings: Pairings,
                 on_offer: Callable[[Arrival], None],
                 on_done: Callable[[Ended], None],
                 on_progress: Callable[[int, int, int], None] = lambda t, r, s: None,
                 log: Callable[[str], None] = lambda line: None) -> None:
        self.name, self.code, self.pairings = name, code, pairings
        self.on_offer, self.on_done, self.on_progress, self.log = (
            on_offer, on_done, on_progress, log)
        self.outbox: list[tuple[int, Message]] = []
        self.session: _Session | None = None
        self._tickets = 0
        self._wrong_codes: list[float] = []

    # ----------------------------------------------------------- the transport's handler

    def hello(self, peer: int, msg: Message, now: float) -> bool | None:
        refusal = self._refusal(msg, now)
        if refusal is not None:
            reason, why = refusal
            self.log(f"refused peer {peer}: {reason}")
            self.outbox.append((peer, {"t": "refused", "v": VERSION, "reason": reason,
                                       "why": why}))
            return False
        self._tickets += 1
        self.session = _Session(peer, self._tickets, msg["name"], msg["key"], now)
        self.outbox.append((peer, {"t": "welcome", "v": VERSION, "app": wire.APP,
                                   "name": self.name}))
        return True

    def _refusal(self, msg: Message, now: float) -> tuple[str, str] | None:
        if msg["app"] != wire.APP:
            return f"this is a beam receiver, not a {msg['app'][:16]} game", "other"
        if "name" not in msg or "key" not in msg:
            return "a beam's hello names its sender and its key", "other"
        if not msg["name"].isprintable():  # the wire refuses controls; this, the rest
            return "the sender's name holds unprintable characters", "other"
        if self.session is not None:
            return "busy: receiving another beam", "busy"
        if self.pairings.name_of(msg["key"]) is not None:
            return None
        code = msg.get("code")
        if code is None:
            return "a pairing code is needed (the code on the receiver's screen)", "code"
        self._wrong_codes = [t for t in self._wrong_codes if now - t < wire.WRONG_CODE_WINDOW_S]
        if len(self._wrong_codes) >= wire.WRONG_CODES:
            return "too many wrong codes; try again in a minute", "code"
        if not hmac.compare_digest(code, self.code):
            self._wrong_codes.append(now)
            return "wrong pairing code", "code"
        return None

    def receive(self, peer: int, msg: Message, now: float) -> None:
        session = self.session
        if session is None or session.peer != peer:
            if msg["t"] != "ping":  # a sender that had its answer and talks on
                raise ProtocolError(f"{msg['t']} after the beam was over")
            return
        kind = msg["t"]
        if kind == "ping":
            return
        expected = {"offer": "offer", "data": "data", "end": "end"}.get(session.phase)
        if kind != expected:
            raise ProtocolError(f"{kind} while waiting for {expected or 'the person'}")
        if kind == "offer":
            self._offer(session, msg)
        elif kind == "data":
            self._data(session, msg)
        else:
            self._end(session, msg, now)

    def gone(self, peer: int, now: float) -> None:
        session = self.session
        if session is not None and session.peer == peer:
            self.session = None  # the bytes held go with it: nothing was written
            self.on_done(_ended(session, INTERRUPTED,
                                 f"{session.sender} went away before the end; nothing was kept"))

    def take_outbox(self) -> list[tuple[int, Message]]:
        out, self.outbox = self.outbox, []
        return out

    # ------------------------------------------------------------------ the steps

    def _offer(self, session: _Session, msg: Message) -> None:
        session.offer = msg
        refusal = wire.too_large(msg["size"])
        if refusal is None and msg["number"] is not None and msg["size"]:
            refusal = "a number item carries no data"
        if refusal is not None:
            self._close(session, REFUSED, refusal)
            return
        session.phase = "data" if msg["size"] else "end"
        self.outbox.append((session.peer, {"t": "ready"}))

    def _data(self, session: _Session, msg: Message) -> None:
        if msg["n"] != session.chunks:
            raise ProtocolError(f"data: chunk {msg['n']}, expected {session.chunks}")
        chunk = wire.decode_chunk(msg["bytes"])
        size = session.offer["size"]
        if len(chunk) > wire.CHUNK_BYTES or len(session.data) + len(chunk) > size:
            raise ProtocolError("data: more than was offered")
        session.data += chunk
        session.chunks += 1
        self.outbox.append((session.peer, {"t": "progress", "received": len(session.data)}))
        self.on_progress(session.ticket, len(session.data), size)
        if len(session.data) == size:
            session.phase = "end"

    def _end(self, session: _Session, msg: Message, now: float) -> None:
        data = bytes(session.data)
        if not hmac.compare_digest(hashlib.sha256(data).hexdigest(), msg["sha256"]):
            self._close(session, REFUSED, "damaged on the way (its SHA-256 differs)")
            return
        offer = session.offer
        item = BeamItem(offer["kind"], offer["app"], offer["name"], offer["number"], data)
        try:
            checked = items.check(item)
        except ValueError as err:
            self._close(session, REFUSED, _one_line(str(err)))
            return
        session.phase, session.asked_at = "asking", now
        session.arrival = Arrival(session.ticket, session.sender, session.key, item, checked,
                                  len(data))
        self.outbox.append((session.peer, {"t": "asking", "title": _one_line(checked.title),
                                           "what": _one_line(checked.what)}))
        self.on_offer(session.arrival)

    # ------------------------------------------------------------- the owner's side

    def finish(self, ticket: int, verdict: str, text: str) -> bool:
        """The person's answer and what came of it (ACCEPTED: installed or opened;
        DECLINED; FAILED: accepted, then it could not be installed); False when that
        beam is already over (its sender went away or the wait ran out)."""
        session = self.session
        if session is None or session.ticket != ticket or session.phase != "asking":
            return False
        if verdict == ACCEPTED:
            self.pairings.remember(session.sender, session.key)
        self._close(session, verdict, text)
        return True

    def tick(self, now: float) -> None:
        """Decline an item the person has not answered for wire.DECIDE_S; refuse one
        that has not arrived whole in wire.TRANSFER_S (a sender that pings and
        sends nothing would keep the receiver busy)."""
        session = self.session
        if session is None:
            return
        if session.phase == "asking" and now - session.asked_at > wire.DECIDE_S:
            self._close(session, DECLINED, "declined: no answer")
        elif session.phase != "asking" and now - session.started > wire.TRANSFER_S:
            self._close(session, REFUSED, f"too slow: not here whole within"
                                          f" {wire.TRANSFER_S:.0f} s")

    def _close(self, session: _Session, verdict: str, text: str) -> None:
        self.outbox.append((session.peer, {"t": "result", "accepted": verdict == ACCEPTED,
                                           "text": _one_line(text)}))
        self.session = None
        self.on_done(_ended(session, verdict, text))


def _ended(session: _Session, verdict: str, text: str) -> Ended:
    return Ended(session.ticket, verdict, text, session.sender, session.offer.get("kind", ""),
                 session.offer.get("size", 0), session.arrival)


async def serve(desk: Desk, server: Server, step_s: float = STEP_S) -> None:
    """The receiver's loop (until cancelled): what peers said is answered as soon as
    it comes, and a person who does not answer is timed out."""
    while True:
        await server.wait_activity(step_s)
        desk.tick(time.monotonic())
        server.flush()


def _one_line(text: str) -> str:
    """A line the wire takes: its first line, control characters as ?, 1-200 characters."""
    first = text.strip().splitlines()[0] if text.strip() else ""
    return "".join(c if c.isprintable() else "?" for c in first)[:200] or "?"
