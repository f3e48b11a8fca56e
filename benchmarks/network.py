"""Network Pachisi on loopback (docs/network.md): latency, a soak, a host under fire.

    .venv/bin/python benchmarks/network.py [--only latency|soak|hostile]
        [--throws N] [--games N] [--seconds S]

1. latency: a throw on the host (a person's seat at the host's table, served
   on 127.0.0.1) to the new frame on a joiner: the joiner is a real Device
   running Pachisi whose network thread (palmish/network/bridge.py) puts the
   host's lines in the device's inbox, polled every INBOX_POLL_S as the
   window's clock does; the time is taken when the polled events leave
   damage on the joiner's screen. Goal: 50 ms. --throws host throws.
2. soak: --games games back to back, each a host (two remote seats and two
   computer seats) and two --auto joiners over loopback sockets in one
   process; every joiner's record must equal the host's and replay to a
   finished game.
3. hostile: the host's device (Pachisi with its table behind the network
   thread) makes a frame every 20 ms, as a window would, while 100 hostile
   connections at a time come and go (random bytes, huge lines, silence)
   for --seconds; the longest and the 99th-percentile gap between frames.
   Quiet turns (no connections) alternate with the hostile ones, every 2 s,
   for a yardstick of the machine's own load at the same time.
   Goal: a frame every 20 ms.

Traffic goes to 127.0.0.1 only.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import multiprocessing
import os
import queue
import socket
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from palmish.device.disk.resources import bundled_plugins
from palmish.device.display import CONFIGS, ConfigName
from palmish.device.machine.system import Device
from palmish.frontend.devicewindow import INBOX_POLL_S
from palmish.network.bridge import HostLink, JoinLink, LoopThread
from palmish.network.hosting import host_table
from palmish.network.joining import JoinRequest, join_table
from palmish.network.protocol import VERSION
from palmish.pachisi.app import PachisiApp
from palmish.pachisi.game import Game
from palmish.pachisi.net.seats import HostSeat, JoinSeat
from palmish.pachisi.net.table import HostTable, strongest_level

LOOPBACK = "127.0.0.1"
PLUGINS = bundled_plugins()


def device(data: Path) -> tuple[Device, PachisiApp]:
    app = PachisiApp()
    dev = Device(CONFIGS[ConfigName("square")], data, [app], start_app="pachisi",
                 bundled_plugins=PLUGINS, durable=False, alerts=False)
    dev.take_damage()
    return dev, app


def hello(name: str) -> dict[str, object]:
    return {"t": "hello", "v": VERSION, "app": "pachisi", "code": "1234", "name": name,
            "token": os.urandom(16).hex()}


def latency(throws: int, tmp: Path) -> None:
    loop = LoopThread()
    table = HostTable.create(["host", "remote"], "1234", "Bench", "Ann", seed=1,
                             level="easy")
    lock = threading.Lock()  # the host's table is touched by the benchmark and the relay
    pending: list[object] = []
    link = HostLink(loop, pending.append, LOOPBACK, 0, lambda line: None)
    seat = HostSeat(table, link.send)
    joiner, app = device(tmp / "joiner")
    join_loop = LoopThread()
    jlink = JoinLink(join_loop, joiner.inbox.put, LOOPBACK, link.address[1], hello("Bob"))
    app.net = JoinSeat(jlink.send, jlink.close)
    joiner.polled = True
    samples: list[float] = []

    def host_events() -> None:
        with lock:
            while pending:
                seat.receive(pending.pop(0), time.monotonic())  # type: ignore[arg-type]

    deadline = time.monotonic() + 120
    while len(samples) < throws and time.monotonic() < deadline:
        host_events()
        joiner.post_waiting()
        joiner.take_damage()
        game = table.game
        if game is None or game.over:
            if game is not None and game.over:
                break
            time.sleep(INBOX_POLL_S)
            continue
        if seat.mine(game.current):
            with lock:
                if game.phase == "throw":
                    started = time.perf_counter()
                    seat.ask("throw")
                    while time.perf_counter() - started < 2.0:
                        time.sleep(INBOX_POLL_S)  # the window's clock
                        if joiner.post_waiting() and joiner.take_damage():
                            samples.append((time.perf_counter() - started) * 1000)
                            break
                else:
                    move = game.default_move()
                    seat.ask("move" if move else "pass", move.pieces[0] if move else None)
        elif app.human_turn:
            from palmish.device.events import Key, KeyDown

            while joiner.modals:
                joiner.post(KeyDown(Key.SELECT))
            joiner.post(KeyDown(Key.SELECT))
            time.sleep(INBOX_POLL_S)
        else:
            time.sleep(INBOX_POLL_S)
    jlink.close()
    link.close()
    samples.sort()
    print(f"latency: {len(samples)} throws, host throw -> joiner frame: median "
          f"{statistics.median(samples):.1f} ms, p95 {samples[int(len(samples) * 0.95) - 1]:.1f}"
          f" ms, max {samples[-1]:.1f} ms (goal 50 ms; polled every {INBOX_POLL_S * 1000:.0f} ms)")


async def one_game(seed: int) -> tuple[str, list[str]]:
    table = HostTable.create(["remote", "computer", "remote", "computer"], "1234", "Soak",
                             seed=seed)
    ready = asyncio.get_running_loop().create_future()
    host = asyncio.ensure_future(host_table(
        table, LOOPBACK, 0, say=lambda line: None, log=lambda line: None, data_dir=None,
        on_listening=lambda h, p: ready.set_result(p)))
    port = await ready
    joins = [join_table(JoinRequest(LOOPBACK, port, "1234", name, os.urandom(16).hex(),
                                    level=strongest_level(), app="pachisi"), lambda line: None)
             for name in ("Ann", "Bob")]
    records = await asyncio.wait_for(asyncio.gather(*joins), 120)
    return await asyncio.wait_for(host, 30), list(records)


def soak(games: int) -> None:
    started = time.monotonic()
    for seed in range(games):
        record, joined = asyncio.run(one_game(seed))
        if joined != [record, record] or not Game.from_record(record).over:
            print(f"soak: game {seed}: the records differ or do not finish", file=sys.stderr)
            raise SystemExit(1)
        print(f"\rsoak: {seed + 1}/{games}", end="", file=sys.stderr)
    took = time.monotonic() - started
    print(f"\rsoak: {games} games (2 --auto joiners, 2 computer seats each) back to back, "
          f"every record identical and finished, in {took:.1f} s ({took / games:.2f} s a game)")


def hostile_crowd(port: int, stop: Any, fire: Any, counts: Any) -> None:
    """In its own process (the hostile peers are other machines, not the host's GIL):
    waves of 100 connections while `fire` is set, none while it is clear."""
    garbage = [os.urandom(600) + b"\n", b"x" * 5000 + b"\n", b"", b'{"t":"hello"}\n']
    while not stop.is_set():
        if not fire.wait(0.05):
            continue
        sockets = []
        for i in range(100):
            try:
                s = socket.create_connection((LOOPBACK, port), timeout=2)
                s.setblocking(False)
                with contextlib.suppress(OSError):
                    s.send(garbage[i % len(garbage)])
                sockets.append(s)
            except OSError:
                pass
        counts.put(len(sockets))
        time.sleep(0.2)
        for s in sockets:
            s.close()


def frame_gaps(dev: Device, seconds: float) -> list[float]:
    """A frame every 20 ms for `seconds`, as the window's clock asks: the gaps (ms)."""
    gaps: list[float] = []
    last = time.perf_counter()
    end = last + seconds
    while time.perf_counter() < end:
        time.sleep(max(0.0, 0.020 - (time.perf_counter() - last)))
        dev.set_clock(int(time.perf_counter() * 1000))
        dev.post_waiting()
        dev.take_damage()
        now = time.perf_counter()
        gaps.append((now - last) * 1000)
        last = now
    return gaps


def gap_line(gaps: list[float]) -> str:
    gaps = sorted(gaps)
    return (f"{len(gaps)} frames, gap median {statistics.median(gaps):.1f} ms, "
            f"p99 {gaps[int(len(gaps) * 0.99) - 1]:.1f} ms, max {gaps[-1]:.1f} ms")


def hostile(seconds: float, tmp: Path) -> None:
    """Frames under fire and quiet frames, interleaved in 2 s turns, so that the
    machine's own load (which varies) weighs on both alike."""
    host_dev, app = device(tmp / "host")
    loop = LoopThread()
    table = HostTable.create(["host", "remote", "computer"], "1234", "Bench", "Ann", seed=2,
                             level="easy")
    link = HostLink(loop, host_dev.inbox.put, LOOPBACK, 0, lambda line: None)
    app.net = HostSeat(table, link.send)
    host_dev.polled = True
    stop, fire = multiprocessing.Event(), multiprocessing.Event()
    counted: Any = multiprocessing.Queue()
    crowd = multiprocessing.Process(target=hostile_crowd,
                                    args=(link.address[1], stop, fire, counted))
    crowd.start()
    under_fire: list[float] = []
    quiet: list[float] = []
    turn, turns = 2.0, max(1, round(seconds / 2.0))
    for _ in range(turns):
        fire.set()
        under_fire += frame_gaps(host_dev, turn)
        fire.clear()
        time.sleep(0.3)  # the last wave closes
        quiet += frame_gaps(host_dev, turn)
    stop.set()
    counts = []
    while crowd.is_alive() or not counted.empty():
        with contextlib.suppress(queue.Empty):
            counts.append(counted.get(timeout=0.5))
    crowd.join(timeout=20)
    closed_at_once = link.server.refused_for_load
    link.close()
    print(f"hostile: {sum(counts)} hostile connections came and went ({len(counts)} waves of "
          f"up to 100; {closed_at_once} closed at accept by the limits) in {turns * turn:.0f}"
          f" s under fire: {gap_line(under_fire)}; quiet turns in between: {gap_line(quiet)}"
          f" (goal: a frame every 20 ms)")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", choices=("latency", "soak", "hostile"))
    parser.add_argument("--throws", type=int, default=50)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=10.0)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        if args.only in (None, "latency"):
            latency(args.throws, Path(tmp))
        if args.only in (None, "hostile"):
            hostile(args.seconds, Path(tmp))
        if args.only in (None, "soak"):
            soak(args.games)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
