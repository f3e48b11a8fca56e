"""Across the internet in the window (docs/network.md, "Across the internet"):
the window's host taking joiners by code, a window joining by code, and what
the device shows of it (palmish.device.machine.services.Internet). Everything
runs on the window's network thread (bridge.LoopThread) and the reactor's
thread; the device hears of a change as a NetworkNews event and asks again,
so the window never waits on a rendezvous server.
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
from collections.abc import Callable
from typing import TYPE_CHECKING

from palmish.device.events import Event, NetworkClosed, NetworkNews
from palmish.device.machine.services import Internet
from palmish.network.bridge import EventSink, LoopThread
from palmish.network.engine import HostError
from palmish.network.fairdice import JoinerDice
from palmish.network.internet.meeting import MeetError
from palmish.network.internet.settings import Settings
from palmish.network.joining import Joiner, JoinRequest, Refused

if TYPE_CHECKING:
    from pathlib import Path

    from palmish.network.internet.joining import Door
    from palmish.network.internet.serving import Taking
    from palmish.network.session.records import Record

Post = Callable[[Event], None]
LAN = "LAN"


def path_of_peer(where: str | None, by_port: dict[int, str]) -> str:
    """How a peer the table sees at `where` ("HOST:PORT") came: through a pump of a
    meeting by code (on loopback, from a port the pumps used): direct or relayed;
    else straight to the table's listener: LAN."""
    if where is None:
        return ""
    host, _, port = where.rpartition(":")
    try:
        address = ipaddress.ip_address(host.strip("[]"))
    except ValueError:
        return LAN
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        address = address.ipv4_mapped  # a dual-stack listener's view of 127.0.0.1
    loopback = address.is_loopback
    if loopback and port.isdigit() and int(port) in by_port:
        return by_port[int(port)]
    return LAN


class _TakingByCode:
    """Taking joiners (or senders) by code for a listener at `local` (serving.Taking),
    started at once without waiting for the code; `_said` hears the engine's lines."""

    def __init__(self, thread: LoopThread, post: Post, settings: Settings, app: str,
                 table_code: str, local: tuple[str, int], log: Callable[[str], None]) -> None:
        from palmish.network.internet.serving import Taking

        self.thread, self.post, self.log = thread, post, log
        self.taking: Taking = Taking(settings, app, table_code, self._said, log)
        self._task = asyncio.run_coroutine_threadsafe(self._start(local), thread.loop)

    def _said(self, line: str) -> None:
        raise NotImplementedError

    def _failed(self, trouble: str) -> None:
        """The rendezvous could not be reached (one line)."""
        raise NotImplementedError

    async def _start(self, local: tuple[str, int]) -> None:
        try:
            await self.taking.start(*local)
        except MeetError as err:
            self.log(str(err))
            self._failed(str(err))

    def close(self) -> None:
        """Stop taking by code (the reactor goes on: another game may come)."""
        async def stop() -> None:
            await self.taking.stop(final=False)

        self._task.cancel()
        asyncio.run_coroutine_threadsafe(stop(), self.thread.loop)


class HostByCode(_TakingByCode):
    """The window's host taking joiners by code for its table's listener."""

    code = ""
    trouble = ""

    def _said(self, line: str) -> None:
        """The engine's lines: `code CODE` once, `path: ...` at each joiner."""
        if line.startswith("code "):
            self.code = line.removeprefix("code ")
            self.log(f"internet {line}")
        else:
            self.log(line)
        self.post(NetworkNews(line))

    def _failed(self, trouble: str) -> None:
        self.trouble = trouble
        self.post(NetworkNews(trouble))

    def paths(self) -> dict[int, str]:
        internet = self.taking.internet
        return dict(internet.paths) if internet is not None else {}


class JoinByCode:
    """The window's joiner by code: the meeting (internet.joining.open_door), then
    the Joiner through its door as bridge.JoinLink joins on the LAN. Records the
    device sends before the host welcomed it are dropped as JoinLink's are (the
    joiner sends only once connected)."""

    def __init__(self, thread: LoopThread, post: Post, settings: Settings, code: str,
                 app: str, name: str | None, dice: JoinerDice, data_dir: Path,
                 log: Callable[[str], None]) -> None:
        self.thread, self.post, self.log = thread, post, log
        self.settings, self.code, self.app, self.name = settings, code, app, name
        self.dice, self.data_dir = dice, data_dir
        self.path = ""
        self.trouble = ""
        self.joiner: Joiner | None = None
        self.door: Door | None = None
        self._stopped = False
        self._task = asyncio.run_coroutine_threadsafe(self._run(), thread.loop)

    def _said(self, line: str) -> None:
        if line.startswith("path: "):
            self.path = line.removeprefix("path: ")
            self.log(line)
            self.post(NetworkNews(line))

    async def _run(self) -> None:
        from palmish.network.internet.joining import open_door

        try:
            self.door = await open_door(self.settings, self.code, self.app, self._said,
                                        self.log)
            if self._stopped:
                return
            request = JoinRequest("127.0.0.1", self.door.port, self.door.table_code, self.name,
                                  app=self.app, data_dir=self.data_dir)
            self.joiner = Joiner(request, EventSink(self.post), self.log, self.dice)
            await self.joiner.run()
        except MeetError as err:
            self._trouble(str(err))
        except Refused as err:
            self._trouble(f"Refused: {err}")
        except (OSError, HostError) as err:
            self._trouble(str(err))
        finally:
            if self.door is not None:
                with contextlib.suppress(Exception):
                    await self.door.close()

    def _trouble(self, line: str) -> None:
        self.trouble = line
        self.post(NetworkClosed(0, line))

    def send(self, record: Record) -> None:
        def now() -> None:
            if self.joiner is not None:
                self.joiner.send(record)

        self.thread.call(now)

    def close(self) -> None:
        def stop() -> None:
            self._stopped = True
            if self.joiner is not None:
                self.joiner.stop()
            else:
                self._task.cancel()

        self.thread.call(stop)


def internet_view(host: HostByCode | None, joiner: JoinByCode | None,
                  peers: list[tuple[str, str | None]]) -> Internet | None:
    """What the device shows: `peers` are (name, where the table sees it)."""
    if host is not None:
        by_port = host.paths()
        return Internet(code=host.code, trouble=host.trouble, paths=tuple(
            (name, path_of_peer(where, by_port)) for name, where in peers))
    if joiner is not None:
        return Internet(path=joiner.path, trouble=joiner.trouble)
    return None


class ReceiveByCode(_TakingByCode):
    """Beam Receive taking senders by an internet code too, for the receiver's
    listener; the code, or the trouble, is said to the device as a NetworkNews
    about Beam (a line over whatever app runs)."""

    def __init__(self, thread: LoopThread, post: Post, settings: Settings, app: str,
                 desk_code: str, local: tuple[str, int], log: Callable[[str], None],
                 told: Callable[[str], None]) -> None:
        self.told = told
        super().__init__(thread, post, settings, app, desk_code, local, log)

    def _said(self, line: str) -> None:
        if line.startswith("code "):
            code = line.removeprefix("code ")
            self.log(f"receiving by internet code {code}")
            self.told(code)
            self.post(NetworkNews(f"Internet code: {code}. Your friend picks By code... in "
                                  "Beam and types it.", beam=True))
        else:
            self.log(line)

    def _failed(self, trouble: str) -> None:
        self.post(NetworkNews(trouble, beam=True))


async def door_to(settings: Settings, code: str, app: str,
                  log: Callable[[str], None]) -> Door:
    """The meeting of a beam by code: the door to send through (its table_code is
    the receiver's own code); MeetError with one line."""
    from palmish.network.internet.joining import open_door

    return await open_door(settings, code, app, log, log)
