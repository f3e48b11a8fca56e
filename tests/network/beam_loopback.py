"""A beam receiver's desk and senders in one process on loopback, for the Beam
tests (every wait bounded; nothing but 127.0.0.0/8)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from palmish.device.exchange import BeamItem
from palmish.network.beam import wire
from palmish.network.beam.pairing import paired_receivers, paired_senders
from palmish.network.beam.receiver import ACCEPTED, Arrival, Desk, Ended
from palmish.network.beam.sender import Outcome, send_item
from palmish.network.session.channel import Session
from palmish.network.session.guesses import Guesses
from palmish.network.session.handshake import open_client
from palmish.network.session.identity import Identity, load_identity

T = TypeVar("T")
CODE = "4821"
ADDRESS = "127.0.0.1"


def run(coro: Coroutine[Any, Any, T], timeout: float = 60) -> T:
    return asyncio.run(asyncio.wait_for(coro, timeout))


@dataclass
class Receiver:
    """A desk answering its person's question with `verdict` (None: nobody answers)."""

    data_dir: Path
    verdict: str | None = ACCEPTED
    name: str = "Kitchen-Counter"
    code: str = CODE
    guesses: Guesses | None = None
    offers: list[Arrival] = field(default_factory=list)
    ended: list[Ended] = field(default_factory=list)
    log: list[str] = field(default_factory=list)
    desk: Desk | None = None
    port: int = 0
    over: asyncio.Event = field(default_factory=asyncio.Event)

    async def start(self) -> Receiver:
        self.over = asyncio.Event()
        identity = load_identity(self.data_dir, self.log.append)
        self.desk = Desk(self.name, self.code, identity,
                         paired_senders(self.data_dir, self.log.append), self._offered,
                         self._ended, log=self.log.append, guesses=self.guesses)
        _, self.port = await self.desk.start(ADDRESS, 0)
        return self

    def _offered(self, arrival: Arrival) -> None:
        self.offers.append(arrival)
        if self.verdict is not None:
            assert self.desk is not None
            self.desk.finish(arrival.ticket, self.verdict, f"{self.verdict} here")

    def _ended(self, ended: Ended) -> None:
        self.ended.append(ended)
        self.over.set()

    async def wait_ended(self, count: int) -> list[Ended]:
        while len(self.ended) < count:
            self.over.clear()
            await asyncio.wait_for(self.over.wait(), 20)
        return self.ended

    @property
    def key(self) -> bytes:
        assert self.desk is not None
        return self.desk.side.identity.public

    async def close(self) -> None:
        assert self.desk is not None
        await self.desk.close()


async def beam(item: BeamItem, port: int, data_dir: Path, *, code: str | None = None,
               name: str = "Denholm-Study",
               progress: Callable[[int, int], None] = lambda done, total: None) -> Outcome:
    """`palmish beam` in-process: the data folder's identity and paired receivers."""
    return await send_item(item, ADDRESS, port, name=name,
                           identity=load_identity(data_dir, lambda line: None),
                           receivers=paired_receivers(data_dir, lambda line: None), code=code,
                           on_progress=progress)


async def session_from(source: str, port: int, code: str | None,
                       identity: Identity | None = None,
                       trusts: Callable[[bytes], bool] | None = None) -> Session:
    """A sender's session opened from the loopback address `source` (another
    source for the guessing limits); HandshakeError and its kinds as `connect`."""
    reader, writer = await asyncio.open_connection(ADDRESS, port, local_addr=(source, 0))
    try:
        return await asyncio.wait_for(open_client(
            reader, writer, app=wire.APP, identity=identity or Identity.new(), code=code,
            trusts=trusts, hears=wire.RECEIVER_SAYS, hear_limit=wire.MAX_RECEIVER_RECORD,
            say_limit=wire.MAX_SENDER_RECORD, where=f"{ADDRESS}:{port}"), 10)
    except BaseException:
        writer.close()
        raise
