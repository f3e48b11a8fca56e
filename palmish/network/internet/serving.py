"""A table served on its listener and across the internet by code (docs/network.md,
"Across the internet"): `host_table` as on the LAN, with an `InternetHost`
started once it listens and stopped when the game ends."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

from palmish.network.engine import Table
from palmish.network.hosting import host_table
from palmish.network.internet import reactor as threaded
from palmish.network.internet.hosting import InternetHost
from palmish.network.internet.meeting import MeetError
from palmish.network.internet.settings import Settings


async def host_over_internet(settings: Settings, table: Table, listen: str, port: int, *,
                             say: Callable[[str], None], log: Callable[[str], None],
                             data_dir: Path | None, advertise: bool = False) -> str:
    """The record; MeetError when the rendezvous cannot be reached at first."""
    tasks: list[asyncio.Task[None]] = []
    hosts: list[InternetHost] = []

    def listening(host: str, bound: int) -> None:
        internet = InternetHost(settings, table.app, table.code, (host, bound), say, log)
        hosts.append(internet)
        tasks.append(asyncio.ensure_future(internet.run()))

    game: asyncio.Task[str] = asyncio.ensure_future(host_table(
        table, listen, port, say=say, log=log, data_dir=data_dir, on_listening=listening,
        advertise=advertise))
    try:
        while not game.done():
            await asyncio.wait([game, *tasks], timeout=0.5,  # tasks: once it listens
                               return_when=asyncio.FIRST_COMPLETED)
            for task in tasks:
                if task.done() and not task.cancelled() and task.exception() is not None:
                    error = task.exception()
                    if hosts and hosts[0].code is None:  # never met the rendezvous: exit
                        raise error if isinstance(error, MeetError) else MeetError(
                            f"joiners by code: {error}")
                    log(f"joiners by code: {error}")
            tasks[:] = [t for t in tasks if not t.done()]
        return game.result()
    finally:
        running: list[asyncio.Future[Any]] = [*tasks, game]
        for future in running:
            future.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await future
        await linger_then_stop()


LINGER_S = 1.0  # the last bytes a pump holds reach the relay before the reactor stops


async def linger_then_stop() -> None:
    await asyncio.sleep(LINGER_S)
    await asyncio.to_thread(threaded.shutdown)


class Taking:
    """Joiners (or beam senders) by code for a listener already open: `start` once
    the listener listens, `stop` when done (the reactor stopped too)."""

    def __init__(self, settings: Settings, app: str, code: str,
                 say: Callable[[str], None], log: Callable[[str], None]) -> None:
        self.settings, self.app, self.code, self.say, self.log = settings, app, code, say, log
        self.task: asyncio.Task[None] | None = None
        self.internet: InternetHost | None = None

    @property
    def internet_code(self) -> str | None:
        return None if self.internet is None else self.internet.code

    async def start(self, host: str, port: int) -> None:
        """Once the code is said; MeetError when the rendezvous cannot be reached."""
        internet = self.internet = InternetHost(self.settings, self.app, self.code,
                                                (host, port), self.say, self.log)
        self.task = asyncio.ensure_future(internet.run())
        while internet.code is None and not self.task.done():
            await asyncio.wait([self.task], timeout=0.1)
        if internet.code is None:
            await self.task  # its MeetError

    async def stop(self, final: bool = True) -> None:
        """final: the reactor too (it cannot start again in this process)."""
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self.task
        if final:
            await linger_then_stop()
