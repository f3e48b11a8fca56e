"""Network Pachisi on loopback (docs/network.md): latency, a soak, a host under fire.

    .venv/bin/python benchmarks/network.py [--only handshake|latency|soak|hostile]
        [--throws N] [--games N] [--seconds S] [--rounds N] [--versus REV]

0. handshake: a spectator's join on loopback, from connecting to its `welcome`,
   against a `palmish host` process: the whole version 2 handshake (SPAKE2
   with the code, the joiner's half made ahead as its idle loop does, the
   auths) and the sealed join. --rounds joins, 0.15 s apart. Goal: median
   20 ms.

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
4. relayed (benchmarks/_relayed.py): across the internet by code
   (docs/network.md, "Across the internet") with Magic Wormhole's real
   mailbox server and transit relay started on 127.0.0.1, direct hints off
   (every byte through the relay): join by code to the welcome, a throw ->
   joiner frame through the relay (goal 100 ms), a 1 MiB beam.
3. hostile: the host's device (Pachisi with its table behind the network
   thread) makes a frame every 20 ms, as a window would, while 100 hostile
   connections at a time come and go (random bytes, huge lines, silence)
   for --seconds; the longest and the 99th-percentile gap between frames.
   Quiet turns (no connections) alternate with the hostile ones, every 2 s,
   for a yardstick of the machine's own load at the same time.
   Goal: a frame every 20 ms.

--versus REV (a git revision of this repository, e.g. one before version 2):
the handshake and latency are measured for that revision too, in the same
run, taking turns with this one (`git archive REV` unpacked in a temporary
folder: its `palmish host` answers raw hellos, its own benchmark measures its
latency), and printed side by side.

Traffic goes to 127.0.0.1 only.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import multiprocessing
import os
import queue
import re
import socket
import statistics
import subprocess
import sys
import tarfile
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from palmish.device.disk.resources import bundled_plugins
from palmish.device.display import CONFIGS, ConfigName
from palmish.device.machine.system import Device
from palmish.frontend.devicewindow import INBOX_POLL_S
from palmish.network.bridge import HostLink, JoinLink, LoopThread
from palmish.network.fairdice import JoinerDice
from palmish.network.hosting import host_table, server_side
from palmish.network.joining import JoinRequest, join_table
from palmish.network.session import dice
from palmish.network.session.crypto import PakeSupply
from palmish.network.session.handshake import connect
from palmish.network.session.identity import Identity
from palmish.network.session.kinds import FROM_SERVER, Join, Welcome
from palmish.pachisi.app import PachisiApp
from palmish.pachisi.game import Game
from palmish.pachisi.net import messages
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


def no_log(line: str) -> None:
    """No log."""


def host_process(tree: Path | None, data: Path) -> tuple[subprocess.Popen[str], int]:
    """`palmish host` (of `tree`, another revision's sources, or this one) with four
    remote seats (so the game never starts): the process and its port."""
    env = dict(os.environ)
    if tree is not None:
        env["PYTHONPATH"] = str(tree)
    process = subprocess.Popen(
        [sys.executable, "-m", "palmish", "host", "--app", "pachisi", "--code", "1234",
         "--data-dir", str(data)], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
        text=True, env=env, cwd=tree or None)
    assert process.stdout is not None
    line = process.stdout.readline()
    found = re.search(r":(\d+) code", line)
    if found is None:
        process.kill()
        raise SystemExit(f"the host did not start: {line!r}")
    return process, int(found.group(1))


async def v2_join(port: int, supply: PakeSupply) -> float:
    """A spectator's join, connecting to welcome (ms)."""
    hears = FROM_SERVER + dice.FROM_HOST + messages.FROM_HOST
    started = time.perf_counter()
    session = await connect(LOOPBACK, port, app="pachisi", identity=Identity.new(),
                            code="1234", hears=hears, pake=supply)
    session.send(Join(watch=True))
    while not isinstance(await session.receive(), Welcome):
        pass
    took = (time.perf_counter() - started) * 1000
    await session.close()
    return took


def v1_join(port: int) -> float:
    """Version 1's spectator hello to its welcome line (ms)."""
    started = time.perf_counter()
    with socket.create_connection((LOOPBACK, port), timeout=5) as s:
        s.sendall(b'{"t":"hello","v":1,"app":"pachisi","code":"1234","watch":true}\n')
        line = s.makefile("rb").readline()
    assert b'"welcome"' in line, line
    return (time.perf_counter() - started) * 1000


def handshake(rounds: int, tmp: Path, old: Path | None) -> None:
    new_host, new_port = host_process(None, tmp / "hs-new")
    old_host, old_port = host_process(old, tmp / "hs-old") if old else (None, 0)
    supply = PakeSupply("1234", True, "pachisi")
    ours: list[float] = []
    theirs: list[float] = []
    try:
        asyncio.run(v2_join(new_port, supply))  # imports, warm caches
        for _ in range(rounds):  # in turns, so the machine's load weighs on each alike
            supply.refill()  # a joiner makes its half between tries, outside the time
            ours.append(asyncio.run(v2_join(new_port, supply)))
            if old_host is not None:
                theirs.append(v1_join(old_port))
            time.sleep(0.15)  # joins come seconds apart; the host makes its next half
    finally:
        for process in (new_host, old_host):
            if process is not None:
                process.kill()
                process.wait(10)
    line = f"handshake: {rounds} spectator joins, connect -> welcome: version 2 " + spread(ours)
    if theirs:
        line += f"; version 1 ({old.name if old else ''}) " + spread(theirs)
    print(line + " (goal: median 20 ms)")


def spread(samples: list[float]) -> str:
    samples = sorted(samples)
    return (f"median {statistics.median(samples):.1f} ms, p95 "
            f"{samples[max(0, int(len(samples) * 0.95) - 1)]:.1f} ms, max {samples[-1]:.1f} ms")


def old_tree(revision: str, tmp: Path) -> Path:
    """This repository's `revision` unpacked (git archive) in a folder of `tmp`."""
    tree = tmp / f"rev-{revision.replace('/', '_')}"
    tree.mkdir()
    archive = subprocess.run(["git", "archive", revision, "palmish", "prc_tools", "skins",
                              "benchmarks"], capture_output=True, check=True,
                             cwd=Path(__file__).resolve().parent.parent).stdout
    archive_path = tmp / "rev.tar"
    archive_path.write_bytes(archive)
    with tarfile.open(archive_path) as tar:
        tar.extractall(tree, filter="data")
    prebuilt = Path(__file__).resolve().parent.parent / "skins" / "prebuilt"
    if prebuilt.is_dir():  # the plugins it bundles, built once here
        subprocess.run(["cp", "-a", str(prebuilt), str(tree / "skins")], check=True)
    return tree


def old_latency(tree: Path, throws: int) -> str:
    """The other revision's own latency line, measured by its own benchmark."""
    env = {**os.environ, "PYTHONPATH": str(tree)}
    done = subprocess.run([sys.executable, "benchmarks/network.py", "--only", "latency",
                           "--throws", str(throws)], capture_output=True, text=True, env=env,
                          cwd=tree, timeout=300)
    lines = [line for line in done.stdout.splitlines() if line.startswith("latency:")]
    return lines[0] if lines else f"(no figure: {done.stderr.strip()[-200:]})"


def latency(throws: int, tmp: Path) -> None:
    """Games one after another until `throws` throws were timed (the dice round
    makes each game another: one may end before enough throws)."""
    samples: list[float] = []
    loop, join_loop = LoopThread(), LoopThread()
    for game_number in range(20):
        if len(samples) >= throws:
            break
        latency_game(throws, tmp / f"g{game_number}", samples, loop, join_loop)
    samples.sort()
    print(f"latency: {len(samples)} throws, host throw -> joiner frame: median "
          f"{statistics.median(samples):.1f} ms, p95 {samples[int(len(samples) * 0.95) - 1]:.1f}"
          f" ms, max {samples[-1]:.1f} ms (goal 50 ms; polled every {INBOX_POLL_S * 1000:.0f} ms)")


def latency_game(throws: int, tmp: Path, samples: list[float], loop: LoopThread,
                 join_loop: LoopThread, route: Callable[[int], int] | None = None) -> None:
    """route: the port the joiner connects to for the host's (relayed: a door)."""
    table = HostTable.create(["host", "remote"], "1234", "Bench", "Ann", seed=1,
                             level="easy")
    lock = threading.Lock()  # the host's table is touched by the benchmark and the relay
    pending: list[object] = []
    link = HostLink(loop, pending.append, LOOPBACK, 0, no_log, server_side(table, None, no_log))
    seat = HostSeat(table, link.send)
    joiner, app = device(tmp / "joiner")
    part = JoinerDice()
    port = link.address[1] if route is None else route(link.address[1])
    request = JoinRequest(LOOPBACK, port, "1234", "Bob", app="pachisi",
                          data_dir=tmp / "joiner")
    jlink = JoinLink(join_loop, joiner.inbox.put, request, part, no_log)
    app.net = JoinSeat(jlink.send, jlink.close, part)
    joiner.polled = True

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


async def one_game(seed: int) -> tuple[str, list[str]]:
    table = HostTable.create(["remote", "computer", "remote", "computer"], "1234", "Soak",
                             seed=seed)
    ready = asyncio.get_running_loop().create_future()
    host = asyncio.ensure_future(host_table(
        table, LOOPBACK, 0, say=lambda line: None, log=lambda line: None, data_dir=None,
        on_listening=lambda h, p: ready.set_result(p)))
    port = await ready
    joins = [join_table(JoinRequest(LOOPBACK, port, "1234", name, level=strongest_level(),
                                    app="pachisi"), no_log)
             for name in ("Ann", "Bob")]
    ended = await asyncio.wait_for(asyncio.gather(*joins), 120)
    if any(verdict != "verified" for _, verdict in ended):
        raise SystemExit(f"soak: the dice did not verify: {ended}")
    return await asyncio.wait_for(host, 30), [record for record, _ in ended]


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
    link = HostLink(loop, host_dev.inbox.put, LOOPBACK, 0, no_log,
                    server_side(table, None, no_log))
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
    parser.add_argument("--only", choices=("handshake", "latency", "soak", "hostile",
                                           "relayed"))
    parser.add_argument("--throws", type=int, default=50)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--rounds", type=int, default=40)
    parser.add_argument("--versus", metavar="REV", help="measure this git revision too")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        old = old_tree(args.versus, Path(tmp)) if args.versus else None
        if args.only in (None, "handshake"):
            handshake(args.rounds, Path(tmp), old)
        if args.only in (None, "latency"):
            latency(args.throws, Path(tmp))
            if old is not None:
                print(f"  version 1 ({args.versus}), same run: {old_latency(old, args.throws)}")
        if args.only in (None, "hostile"):
            hostile(args.seconds, Path(tmp))
        if args.only in (None, "soak"):
            soak(args.games)
        if args.only in (None, "relayed"):
            from _relayed import relayed
            relayed(args.throws, Path(tmp), latency_game)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
