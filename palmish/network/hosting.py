"""Hosting a table headless (`palmish host`): the sessions, the table, Silicon's
moves at once, the save after every change, the end (docs/network.md)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from pathlib import Path

from palmish.device.addresses import address_text
from palmish.network import keep
from palmish.network.discovery import Advertisement, lan_addresses
from palmish.network.engine import Table, engine_for
from palmish.network.serving import TableServer
from palmish.network.session import dice
from palmish.network.session.handshake import ServerSide
from palmish.network.session.identity import Identity, load_identity
from palmish.network.session.kinds import FROM_CLIENT

STEP_S = 0.05  # the host loop's longest sleep: away timers are checked this often
GOODBYE_S = 1.0  # after the end, time for the last messages to leave


async def host_table(
    table: Table, listen: str, port: int, *, say: Callable[[str], None],
    log: Callable[[str], None], data_dir: Path | None,
    on_listening: Callable[[str, int], None] | None = None, advertise: bool = False,
) -> str:
    """Serve `table` until its game is over; the record."""
    server = TableServer(table, server_side(table, data_dir, log), log)
    host, port = await server.start(listen, port)
    say(f"listening on {address_text(host, port)} code {table.code}")
    if on_listening is not None:
        on_listening(host, port)
    announced = (await announce(table.table_name, listen, port, log, table.app)
                 if advertise else None)
    kept: object = None
    saves = keep.HostSaves(data_dir, table.app, log) if data_dir is not None else None
    try:
        while True:
            now = time.monotonic()
            table.tick(now)
            if not table.started and table.ready():
                table.start(now)
            while True:
                kept, trouble = _save(table, saves, kept)
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
            if table.over:
                break
            await server.wait_activity(STEP_S)
        await asyncio.sleep(GOODBYE_S / 4)
        server.flush()
        if data_dir is not None:
            keep.forget_host_game(data_dir, table.app)
        return table.record()
    finally:
        if not table.over:  # stopped (Ctrl+C, a signal): the others are told
            await server.say_goodbye("the host stopped; the game is kept")
        await server.close()
        if announced is not None:
            await asyncio.to_thread(announced.close)


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


def _save(table: Table, saves: keep.HostSaves | None, kept: object) -> tuple[object, str | None]:
    """Save the table when it changed (before anyone hears of the change); a line
    when the disk starts or stops refusing (the table plays on from memory)."""
    if saves is None:
        return kept, None
    snapshot = table.snapshot()
    if snapshot == kept:
        return kept, None
    saves.log = table_log(table)
    return snapshot, saves.save(snapshot)
