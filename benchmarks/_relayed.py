"""benchmarks/network.py's relayed rows (not a benchmark of its own: `make bench`
skips files named _*): across the internet by code with Magic Wormhole's real
mailbox server and transit relay on 127.0.0.1, direct hints off, so every
byte goes through the relay. Traffic goes to 127.0.0.1 only."""

from __future__ import annotations

import asyncio
import socket
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from palmish.device.exchange import PLUGIN, BeamItem
from palmish.network.beam import wire
from palmish.network.beam.pairing import paired_receivers, paired_senders
from palmish.network.beam.receiver import DECLINED, Arrival, Desk
from palmish.network.beam.sender import send_item
from palmish.network.bridge import LoopThread
from palmish.network.engine import engine_for
from palmish.network.hosting import host_table
from palmish.network.internet import reactor as threaded
from palmish.network.internet.joining import Door, open_door
from palmish.network.internet.serving import Taking
from palmish.network.internet.settings import Settings
from palmish.network.joining import JoinRequest, first_answer
from palmish.network.session.identity import load_identity

LOOPBACK = "127.0.0.1"
JOINS = 10
BEAMS = 3
MIB = 1 << 20


def quiet(line: str) -> None:
    pass


def _free_port() -> int:
    with socket.socket() as s:
        s.bind((LOOPBACK, 0))
        return int(s.getsockname()[1])


class Servers:
    """`twist wormhole-mailbox` and `twist transitrelay` on 127.0.0.1."""

    def __init__(self, folder: Path) -> None:
        self.procs: list[subprocess.Popen[bytes]] = []
        self.ports: dict[str, int] = {}
        for plugin in ("wormhole-mailbox", "transitrelay"):
            port = self.ports[plugin] = _free_port()
            place = folder / plugin
            place.mkdir(parents=True, exist_ok=True)
            self.procs.append(subprocess.Popen(
                [sys.executable, "-m", "twisted", plugin,
                 f"--port=tcp:{port}:interface={LOOPBACK}"], cwd=place,
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
            deadline = time.monotonic() + 20
            while time.monotonic() < deadline:
                with socket.socket() as s:
                    if s.connect_ex((LOOPBACK, port)) == 0:
                        break
                time.sleep(0.05)

    def settings(self) -> Settings:
        return Settings(f"ws://{LOOPBACK}:{self.ports['wormhole-mailbox']}/v1",
                        f"tcp:{LOOPBACK}:{self.ports['transitrelay']}", (), ())  # relay only

    def close(self) -> None:
        for proc in self.procs:
            proc.kill()
            proc.wait(timeout=10)


def _ms(samples: list[float]) -> str:
    samples = sorted(samples)
    return (f"median {statistics.median(samples):.0f} ms, max {samples[-1]:.0f} ms "
            f"({len(samples)} runs)")


async def _joins(settings: Settings, folder: Path) -> list[float]:
    """A host on 127.0.0.1 taking joiners by code; spectators join by code, one at a time."""
    engine = engine_for("pachisi")
    table = engine.new_table(engine.parse_seats("remote,remote"), "1234", "Bench")
    taking = Taking(settings, "pachisi", "1234", quiet, quiet)
    listening: list[tuple[str, int]] = []
    game = asyncio.ensure_future(host_table(
        table, LOOPBACK, 0, say=quiet, log=quiet, data_dir=None,
        on_listening=lambda host, port: listening.append((host, port))))
    while not listening:
        await asyncio.sleep(0.01)
    await taking.start(*listening[0])
    code = taking.internet_code
    assert code is not None
    samples = []
    try:
        for i in range(JOINS):
            await asyncio.sleep(0.3)
            started = time.perf_counter()
            door = await open_door(settings, code, "pachisi", quiet, quiet)
            request = JoinRequest(LOOPBACK, door.port, door.table_code, None, app="pachisi",
                                  data_dir=folder / f"j{i}")
            await first_answer(request, quiet)
            samples.append((time.perf_counter() - started) * 1000)
            await door.close()
    finally:
        await taking.stop(final=False)
        game.cancel()
    return samples


async def _beams(settings: Settings, folder: Path) -> list[float]:
    """1 MiB of random bytes to a desk taking beams by code (declined once offered,
    so every byte went through the relay)."""
    import os

    def offered(arrival: Arrival) -> None:
        desk.finish(arrival.ticket, DECLINED, "measured")

    receiver, sender = folder / "r", folder / "s"
    desk = Desk("Bench", "1234", load_identity(receiver, quiet), paired_senders(receiver, quiet),
                offered, lambda ended: None, log=quiet)
    _, port = await desk.start(LOOPBACK, 0)
    taking = Taking(settings, wire.APP, "1234", quiet, quiet)
    await taking.start(LOOPBACK, port)
    code = taking.internet_code
    assert code is not None
    item = BeamItem(PLUGIN, data=os.urandom(MIB))
    identity, receivers = load_identity(sender, quiet), paired_receivers(sender, quiet)
    samples = []
    try:
        for _ in range(BEAMS):
            await asyncio.sleep(0.3)
            started = time.perf_counter()
            door = await open_door(settings, code, wire.APP, quiet, quiet)
            outcome = await send_item(item, LOOPBACK, door.port, name="Den", identity=identity,
                                      receivers=receivers, code=door.table_code)
            samples.append((time.perf_counter() - started) * 1000)
            assert outcome.status == "refused", outcome
            await door.close()
    finally:
        await taking.stop(final=False)
        await desk.close()
    return samples


def _latency(settings: Settings, throws: int, folder: Path,
             latency_game: Callable[..., None]) -> list[float]:
    samples: list[float] = []
    loop, join_loop = LoopThread(), LoopThread()
    open_: list[tuple[Taking, Door]] = []

    def route(port: int) -> int:
        taking = Taking(settings, "pachisi", "1234", quiet, quiet)
        loop.run(taking.start(LOOPBACK, port), timeout=30)
        code = taking.internet_code
        assert code is not None
        door: Door = join_loop.run(open_door(settings, code, "pachisi", quiet, quiet), 60)
        open_.append((taking, door))
        return door.port

    for game_number in range(20):
        if len(samples) >= throws:
            break
        latency_game(throws, folder / f"g{game_number}", samples, loop, join_loop, route)
        for taking, door in open_:
            loop.run(taking.stop(final=False), timeout=10)
            join_loop.run(door.close(), timeout=10)
        open_.clear()
    return samples


def relayed(throws: int, tmp: Path, latency_game: Callable[..., Any]) -> None:
    servers = Servers(tmp / "servers")
    try:
        settings = servers.settings()
        joins = asyncio.run(_joins(settings, tmp / "joins"))
        print(f"relayed: join by code (rendezvous, transit through the relay, the session "
              f"handshake) to the welcome: {_ms(joins)}")
        lan = Settings(settings.rendezvous, settings.relay, (), (LOOPBACK,))
        joins = asyncio.run(_joins(lan, tmp / "lan-joins"))
        print(f"relayed: join by code on the LAN path (rendezvous, the table's own listener "
              f"on 127.0.0.1, the session handshake) to the welcome: {_ms(joins)}")
        samples = _latency(settings, throws, tmp / "latency", latency_game)
        samples.sort()
        print(f"relayed: {len(samples)} throws, host throw -> joiner frame through the relay: "
              f"median {statistics.median(samples):.1f} ms, p95 "
              f"{samples[int(len(samples) * 0.95) - 1]:.1f} ms, max {samples[-1]:.1f} ms "
              "(goal 100 ms)")
        beams = asyncio.run(_beams(settings, tmp / "beams"))
        print(f"relayed: beam of 1 MiB by code through the relay (meeting included): "
              f"{_ms(beams)}")
    finally:
        servers.close()
        threaded.shutdown()
