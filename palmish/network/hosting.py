"""Hosting a table (docs/network.md): the one host coroutine the window and
`palmish host` share (listen, announce, serve, say goodbye, close), and the
headless host's drive of its table (Silicon's moves at once, the save after
every change, the end)."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import TypeVar

from palmish.device.addresses import address_text
from palmish.network import keep
from palmish.network.discovery import Advertisement, lan_addresses
from palmish.network.engine import Handler, Table, engine_for
from palmish.network.serving import TableServer
from palmish.network.session import dice
from palmish.network.session.handshake import ServerSide
from palmish.network.session.identity import Identity, load_identity
from palmish.network.session.kinds import FROM_CLIENT

STEP_S = 0.05  # the host loop's longest sleep: away timers are checked this often
GOODBYE_S = 1.0  # after the end, time for the last messages to leave
CLOSED = "the table is closed"  # the headless host's bye after its last game


R = TypeVar("R")


async def serve_host(
    handler: Handler, side: ServerSide, listen: str, port: int, *,
    log: Callable[[str], None], listening: Callable[[TableServer, str, int], None],
    drive: Callable[[TableServer], Awaitable[R]], goodbye: Callable[[], str | None],
    announce_as: tuple[str, str] | None = None, prefer: int | None = None,
) -> R:
    """The one host coroutine, for `palmish host` and the window alike: listen
    (OSError when it cannot), say where (`listening`), announce the game (as
    (table name, app), when asked), let `drive` run the table until it returns,
    then tell the peers (`goodbye()`'s line, None: nothing to say), close and stop
    announcing. `prefer`: a port tried first (a resumed game's), `port` if taken.
    The headless host drives the table itself; the window's drive
    waits while its relay posts every join and record to the device."""
    server = TableServer(handler, side, log)
    address: tuple[str, int] | None = None
    if prefer is not None and prefer != port:
        with contextlib.suppress(OSError):  # taken now: the port asked for
            address = await server.start(listen, prefer)
    host, port = address if address is not None else await server.start(listen, port)
    listening(server, host, port)
    announced = (await announce(announce_as[0], listen, port, log, announce_as[1])
                 if announce_as is not None else None)
    try:
        return await drive(server)
    finally:
        text = goodbye()
        if text is not None:
            await server.say_goodbye(text)
        await server.close()
        if announced is not None:
            await asyncio.to_thread(announced.close)


async def host_table(
    table: Table, listen: str, port: int, *, say: Callable[[str], None],
    log: Callable[[str], None], data_dir: Path | None,
    on_listening: Callable[[str, int], None] | None = None, advertise: bool = False,
    prefer: int | None = None,
) -> str:
    """Serve `table` headless until it is closed (its game over, no rematch to
    come); the last game's record (an earlier game's is said as `record: ...`
    when its rematch starts). `prefer`: the port a resumed game listened on,
    tried first."""
    where: list[int] = []

    def listening(server: TableServer, host: str, port: int) -> None:
        where.append(port)
        say(f"listening on {address_text(host, port)} code {table.code}")
        if on_listening is not None:
            on_listening(host, port)

    return await serve_host(
        table, server_side(table, data_dir, log), listen, port, log=log,
        listening=listening,
        drive=lambda server: drive_table(table, server, log, data_dir, where[0],
                                         lambda record: say(f"record: {record}")),
        goodbye=lambda: CLOSED if table.over else "the host stopped; the game is kept",
        announce_as=(table.table_name, table.app) if advertise else None, prefer=prefer)


async def drive_table(table: Table, server: TableServer, log: Callable[[str], None],
                      data_dir: Path | None, port: int | None = None,
                      earlier: Callable[[str], None] = lambda record: None) -> str:
    """The headless host's table: its clock, its start, Silicon's moves at once, the
    save before anyone hears of a change, the log; the last record once it is
    closed (`earlier` hears each earlier game's when its rematch starts)."""
    kept: object = None
    told = 0  # the games whose record `earlier` heard
    saves = keep.HostSaves(data_dir, table.app, log) if data_dir is not None else None
    while True:
        now = time.monotonic()
        table.tick(now)
        if not table.started and table.ready():
            table.start(now)
        while True:
            kept, trouble = _save(table, saves, kept, port)
            server.flush()
            if trouble is not None:  # after the steps it concerns
                log(trouble)
                server.tell_all(trouble)
            if not table.computer_due(now):
                break
            table.play_computer(now)
            await asyncio.sleep(0)  # let the joiners' lines in between
            now = time.monotonic()
        for line in table.log:
            log(line)
        table.log.clear()
        if not table.over:  # a rematch started: the games before it are done
            for record in table.finished[told:]:
                earlier(record)
            told = len(table.finished)
        if table.closed:
            break
        await server.wait_activity(STEP_S)
    await asyncio.sleep(GOODBYE_S / 4)
    server.flush()
    if data_dir is not None:
        keep.forget_host_game(data_dir, table.app)
    return table.record()


def server_side(table: Table, data_dir: Path | None, log: Callable[[str], None]) -> ServerSide:
    """The handshakes of `table`'s host: its code, its id, its seated players' keys,
    and what its joiners may say (the session's kinds, the dice's, the game's)."""
    identity = load_identity(data_dir, log) if data_dir is not None else Identity.new()
    engine = engine_for(table.app)
    return ServerSide(table.app, identity, table.code, scope=table.scope, trusts=table.trusts,
                      hears=FROM_CLIENT + dice.FROM_JOINER + engine.from_joiner)


async def announce(table: str, listen: str, port: int, log: Callable[[str], None],
                   app: str) -> Advertisement | None:
    """Announce the game on the local network; one log line when that cannot be."""
    try:
        return await asyncio.to_thread(Advertisement, table, app, port,
                                       lan_addresses(listen))
    except Exception as err:  # zeroconf raises many kinds: no multicast, no interface
        log(f"cannot advertise the game ({type(err).__name__}: {err}); join by address")
        return None


def table_log(table: Table) -> Callable[[str], None]:
    return table.log.append


def _save(table: Table, saves: keep.HostSaves | None, kept: object,
          port: int | None) -> tuple[object, str | None]:
    """Save the table when it changed (before anyone hears of the change); a line
    when the disk starts or stops refusing (the table plays on from memory)."""
    if saves is None:
        return kept, None
    snapshot = table.snapshot()
    if snapshot == kept:
        return kept, None
    saves.log = table_log(table)
    return snapshot, saves.save(snapshot, port)
