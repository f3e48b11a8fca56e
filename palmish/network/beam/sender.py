"""The sending side of a beam (docs/network.md, "Beam"): one item to one
receiver over one connection, with the receiver's progress and its answer.
Every wait is bounded: the connection (5 s), each line (the transport's 5 s
of silence; the receiver pings while its person decides)."""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
from collections.abc import Callable
from dataclasses import dataclass

from palmish.device.addresses import address_text
from palmish.device.exchange import BeamItem
from palmish.network.beam import wire
from palmish.network.protocol import PING_EVERY_S, VERSION, Message, ProtocolError
from palmish.network.transport import Link

ACCEPTED, REFUSED, CODE, BUSY, FAILED = "accepted", "refused", "code", "busy", "failed"


@dataclass(frozen=True)
class Outcome:
    """How a beam ended. `status`: ACCEPTED; REFUSED (declined, or the item
    refused: `text` says which); CODE (a pairing code is needed, or was wrong);
    BUSY; FAILED (unreachable, gone, not a beam receiver)."""

    status: str
    text: str  # one line for the person, as received: show through printable
    receiver: str = ""  # the receiver's name, once it said it

    @property
    def accepted(self) -> bool:
        return self.status == ACCEPTED


class _Over(Exception):
    def __init__(self, outcome: Outcome) -> None:
        super().__init__(outcome.text)
        self.outcome = outcome


async def send_item(item: BeamItem, host: str, port: int, *, name: str, key: str,
                    code: str | None = None,
                    on_progress: Callable[[int, int], None] = lambda done, total: None,
                    on_asking: Callable[[str, str], None] = lambda title, what: None,
                    ) -> Outcome:
    """Beam `item` to the receiver at host:port as the handheld `name` with its `key`
    (and the receiver's `code`, needed until the two are paired)."""
    where = address_text(host, port)
    try:
        link = await Link.open(host, port, kinds=wire.RECEIVER_KINDS)
    except ConnectionRefusedError:
        return Outcome(FAILED, f"cannot reach {where}: nothing receives there")
    except (OSError, asyncio.TimeoutError) as err:
        reason = getattr(err, "strerror", None) or "no answer within 5 s"
        return Outcome(FAILED, f"cannot reach {where}: {reason}")
    pinger = asyncio.ensure_future(_ping(link))
    receiver = ""
    try:
        hello: Message = {"t": "hello", "v": VERSION, "app": wire.APP, "name": name, "key": key}
        if code is not None:
            hello["code"] = code
        link.send(hello)
        welcome = await _next(link, where, "", "welcome")
        receiver = welcome["name"]
        size = len(item.data)
        link.send({"t": "offer", "kind": item.kind, "app": item.app, "name": item.name,
                   "number": item.number, "size": size})
        await _next(link, where, receiver, "ready")
        step = wire.chunk_bytes(size)
        for n, start in enumerate(range(0, size, step)):
            chunk = item.data[start:start + step]
            link.send({"t": "data", "n": n, "bytes": wire.encode_chunk(chunk)})
            progress = await _next(link, where, receiver, "progress")
            on_progress(progress["received"], size)
        link.send({"t": "end", "sha256": hashlib.sha256(item.data).hexdigest()})
        asking = await _next(link, where, receiver, "asking")
        on_asking(asking["title"], asking["what"])
        await _next(link, where, receiver, "never")  # the result ends it
        raise AssertionError("unreachable")  # pragma: no cover
    except _Over as over:
        return over.outcome
    except (ProtocolError, OSError, asyncio.TimeoutError) as err:
        text = str(err) or "silent for too long"
        return Outcome(FAILED, f"{receiver or where}: {text}", receiver)
    finally:
        pinger.cancel()
        await link.close()


async def _next(link: Link, where: str, receiver: str, kind: str) -> Message:
    """The receiver's next message but pings, which must be `kind`; a refusal or a
    result ends the beam (_Over)."""
    while True:
        msg = await link.receive()
        if msg is None and not receiver:  # a game's host drops a beam's hello unanswered
            raise _Over(Outcome(FAILED, f"{where} closed the connection without answering"
                                        " (is it a beam receiver?)"))
        if msg is None:
            raise _Over(Outcome(FAILED, f"{receiver!r} is gone (the connection closed)",
                                receiver))
        if msg["t"] == "ping":
            continue
        if msg["t"] == "refused":
            why = msg.get("why", "other")
            status = {"code": CODE, "busy": BUSY}.get(why, REFUSED)
            raise _Over(Outcome(status, msg["reason"], receiver))
        if msg["t"] == "result":
            raise _Over(Outcome(ACCEPTED if msg["accepted"] else REFUSED, msg["text"], receiver))
        if msg["t"] != kind:
            raise ProtocolError(f"{msg['t']} when {kind} was due")
        return msg


async def _ping(link: Link) -> None:
    while True:
        await asyncio.sleep(PING_EVERY_S)
        with contextlib.suppress(ConnectionError):
            link.send({"t": "ping"})
