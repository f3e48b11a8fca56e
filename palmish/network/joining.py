"""Joining a table headless (`palmish join`): the link, the mirror, Silicon
playing the seat with `--auto`, and coming back after the host or the link
went away (docs/network.md, "Trouble")."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from palmish.network.engine import HostError, Mirror, engine_for
from palmish.network.protocol import PING_EVERY_S, VERSION, Message, ProtocolError
from palmish.network.transport import Link

RETRY_S = 0.5


class Refused(Exception):
    """The host refused this joiner (the host's one line)."""


@dataclass
class JoinRequest:
    host: str
    port: int
    code: str
    name: str
    token: str
    level: str | None = None  # Silicon plays the seat at this level (--auto)
    comeback_s: float = 60.0  # how long to keep trying when the host is gone
    app: str = field(kw_only=True)  # the game's id (a network game of the registry)

    def hello(self) -> Message:
        return {"t": "hello", "v": VERSION, "app": self.app, "code": self.code,
                "name": self.name, "token": self.token}


async def join_table(request: JoinRequest, log: Callable[[str], None],
                     mirror: Mirror | None = None) -> str:
    """Play (or watch) until the game's end; the record. Refused, HostError or
    OSError with one line when it cannot."""
    mirror = mirror or engine_for(request.app).new_mirror()
    lost_at: float | None = None
    while True:
        try:
            link = await Link.open(request.host, request.port)
        except (OSError, TimeoutError, asyncio.TimeoutError) as err:
            if lost_at is None and not mirror.started:
                raise OSError(f"cannot reach {request.host}:{request.port}: "
                              f"{getattr(err, 'strerror', None) or err or 'timed out'}") from None
            lost_at = lost_at or time.monotonic()
            if time.monotonic() - lost_at > request.comeback_s:
                raise OSError(f"the host at {request.host}:{request.port} did not come back"
                              ) from None
            await asyncio.sleep(RETRY_S)
            continue
        try:
            record = await _play(link, request, mirror, log)
        finally:
            await link.close()
        if record is not None:
            return record
        log(f"the host at {request.host}:{request.port} is gone; waiting for it")
        lost_at = time.monotonic()


async def _play(link: Link, request: JoinRequest, mirror: Mirror,
                log: Callable[[str], None]) -> str | None:
    """One connection: the record at the end, or None when the link broke."""
    link.send(request.hello())
    pinger = asyncio.create_task(_ping(link))
    asked_at: int | None = None  # the step count when Silicon last asked
    try:
        while True:
            try:
                msg = await link.receive()
            except (TimeoutError, asyncio.TimeoutError, ConnectionError):
                return None
            except ProtocolError as err:
                raise HostError(f"the host sent a bad line: {err}") from None
            if msg is None:
                return None
            if msg["t"] == "refused":
                raise Refused(msg["reason"])
            if msg["t"] == "bye":
                log(f"the host says: {msg['text']}")
                return None
            mirror.receive(msg)
            if msg["t"] == "error":
                log(f"the host says: {msg['text']}")
                asked_at = None
            if mirror.record is not None:
                return mirror.record
            if request.level is not None and mirror.my_turn and asked_at != len(mirror.steps):
                link.send(mirror.silicon_intent(request.level))
                asked_at = len(mirror.steps)
    finally:
        pinger.cancel()


async def _ping(link: Link) -> None:
    while True:
        await asyncio.sleep(PING_EVERY_S)
        link.send({"t": "ping"})


async def first_answer(request: JoinRequest) -> None:
    """Say hello once and read the answer: Refused, HostError or OSError when
    the window would only show trouble (the seat is taken back at once)."""
    try:
        link = await Link.open(request.host, request.port)
    except (OSError, asyncio.TimeoutError) as err:
        raise OSError(f"cannot reach {request.host}:{request.port}: "
                      f"{getattr(err, 'strerror', None) or err or 'timed out'}") from None
    try:
        link.send(request.hello())
        answer = await link.receive()
    except ProtocolError as err:
        raise HostError(f"the host sent a bad line: {err}") from None
    except (OSError, asyncio.TimeoutError):
        answer = None
    finally:
        await link.close()
    if answer is None:
        raise OSError(f"the host at {request.host}:{request.port} closed the connection")
    if answer["t"] == "refused":
        raise Refused(answer["reason"])
