"""Beam on loopback (docs/network.md, "Beam measured"): how long an item takes
from the sender's first byte to the receiver asking its person, and to the
sender's result, and the CPU time both sides spent on it (in one process), in
network version 2 (the session: SPAKE2 or paired keys, sealed records) side
by side with version 1 (lines in clear) in the same run; then 1 MiB again
with the receiver and the sender each in its own process, as two handhelds are.

    .venv/bin/python benchmarks/beam.py [--runs N] [--rounds N] [--v1 REV]

Version 2 runs in this process; version 1 in another, from the tree of git
revision REV (default: the last one whose Beam spoke version 1), extracted to
a temporary folder: blocks of each in turns, so the machine's load weighs on
both alike. A receiver's desk on 127.0.0.1 and the sender in one process; the
desk's person answers at once (declines, so nothing is installed). Items: the
Cherry Board plugin (81 KB, checked as `palmish install` checks it: header,
every bitmap) and 1 MiB of random bytes (the largest item; refused by the
checks as not a Palm database, after the whole transfer). Version 2 beams
with the code (a first meeting) and by paired keys. Traffic goes to
127.0.0.1 only.
"""

from __future__ import annotations

import argparse
import asyncio
import importlib
import json
import os
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
V1_REVISION = "6f91829"  # main before Beam moved onto the session layer
MIB = 1 << 20
CODE = "1234"


def _items(random_file: Path) -> dict[str, Any]:
    from palmish.device.exchange import PLUGIN, BeamItem
    from tests.network.beam_items import cherry

    return {"Cherry Board plugin (81 KB)": BeamItem(PLUGIN, data=cherry()),
            "1 MiB of random bytes": BeamItem(PLUGIN, data=random_file.read_bytes())}


# ------------------------------------------------------------------ version 2


Times = list[tuple[float, float, float]]  # to the person asked, to the result, CPU (s)


async def _v2(item: Any, runs: int, folder: Path, by_keys: bool) -> Times:
    from palmish.device.exchange import BeamItem
    from palmish.network.beam.pairing import paired_receivers, paired_senders
    from palmish.network.beam.receiver import ACCEPTED, DECLINED, Arrival, Desk
    from palmish.network.beam.sender import send_item
    from palmish.network.session.identity import load_identity

    asked: list[float] = []
    quiet = print if os.environ.get("BENCH_LOG") else (lambda line: None)
    verdict = [ACCEPTED if by_keys else DECLINED]

    def offered(arrival: Arrival) -> None:
        asked.append(time.perf_counter())
        desk.finish(arrival.ticket, verdict[0], "measured")

    receiver, sender = folder / "r", folder / "s"
    desk = Desk("Bench", CODE, load_identity(receiver, quiet), paired_senders(receiver, quiet),
                offered, lambda ended: None, log=quiet)
    _, port = await desk.start("127.0.0.1", 0)
    identity = load_identity(sender, quiet)
    receivers = paired_receivers(sender, quiet)
    times = []
    try:
        if by_keys:  # pair once, with the code, as a person would (a board: it passes)
            await send_item(BeamItem("board", "sigmar", number=1), "127.0.0.1", port,
                            name="Den", identity=identity, receivers=receivers, code=CODE)
            verdict[0] = DECLINED
        for _ in range(runs):
            asked.clear()
            await asyncio.sleep(0.15)  # beams come seconds apart: the desk makes its SPAKE2 half
            start, cpu = time.perf_counter(), time.process_time()
            outcome = await send_item(item, "127.0.0.1", port, name="Den", identity=identity,
                                      receivers=receivers, code=None if by_keys else CODE)
            end = time.perf_counter()
            assert outcome.status == "refused", outcome
            times.append(((asked[0] if asked else end) - start, end - start,
                          time.process_time() - cpu))
    finally:
        await desk.close()
    return times


# ------------------------------------------------------------------ version 1


async def _v1(item: Any, runs: int, folder: Path) -> Times:
    """Version 1's desk and sender, as REV had them (run in the other process)."""
    # Version 1's modules, which this tree no longer has: typed as what they are here.
    wire: Any = importlib.import_module("palmish.network.beam.wire")
    pairing: Any = importlib.import_module("palmish.network.beam.pairing")
    receiving: Any = importlib.import_module("palmish.network.beam.receiver")
    sending: Any = importlib.import_module("palmish.network.beam.sender")
    transport: Any = importlib.import_module("palmish.network.transport")
    Desk, DECLINED, serve = receiving.Desk, receiving.DECLINED, receiving.serve

    asked: list[float] = []

    def offered(arrival: Any) -> None:
        asked.append(time.perf_counter())
        desk.finish(arrival.ticket, DECLINED, "measured")

    desk = Desk("Bench", CODE, pairing.Pairings(folder), offered, lambda ended: None)
    server = transport.Server(desk, lambda line: None, kinds=wire.SENDER_KINDS,
                    line_limit=wire.MAX_SENDER_LINE)
    host, port = await server.start("127.0.0.1", 0)
    serving = asyncio.ensure_future(serve(desk, server))
    times = []
    try:
        for _ in range(runs):
            asked.clear()
            await asyncio.sleep(0.15)
            start, cpu = time.perf_counter(), time.process_time()
            await sending.send_item(item, host, port, name="Den", key="0" * 32, code=CODE)
            end = time.perf_counter()
            times.append(((asked[0] if asked else end) - start, end - start,
                          time.process_time() - cpu))
    finally:
        serving.cancel()
        await server.close()
    return times


def _as_v1(tree: str, runs: int, random_file: Path) -> int:
    """The other process: version 1's tree first on the path; times as JSON."""
    sys.path.insert(0, tree)
    out = {}
    for label, item in _items(random_file).items():
        with tempfile.TemporaryDirectory() as folder:
            out[label] = asyncio.run(_v1(item, runs, Path(folder)))
    print(json.dumps(out))
    return 0


# ------------------------------------------------------------- apart: three processes


def quiet(line: str) -> None:
    """A log that says nothing (the benchmark measures, it does not report)."""


def _modules(version: int, tree: str) -> dict[str, Any]:
    if version == 1:
        sys.path.insert(0, tree)
    names = {"receiver": "palmish.network.beam.receiver", "sender": "palmish.network.beam.sender",
             "pairing": "palmish.network.beam.pairing", "wire": "palmish.network.beam.wire"}
    if version == 1:
        names["transport"] = "palmish.network.transport"
    else:
        names["identity"] = "palmish.network.session.identity"
    return {key: importlib.import_module(name) for key, name in names.items()}


async def _receive_forever(version: int, tree: str, folder: Path) -> None:
    """A receiver alone in its process: its port on standard output, then every
    item declined (a board accepted: that is how a sender pairs)."""
    m = _modules(version, tree)

    def offered(arrival: Any) -> None:
        verdict = "accepted" if arrival.item.number is not None else "declined"
        desk.finish(arrival.ticket, verdict, "measured")
        if server is not None:
            server.flush()

    server, serving = None, None
    if version == 1:
        desk = m["receiver"].Desk("Bench", CODE, m["pairing"].Pairings(folder), offered, quiet)
        server = m["transport"].Server(desk, quiet, kinds=m["wire"].SENDER_KINDS,
                                       line_limit=m["wire"].MAX_SENDER_LINE)
        _, port = await server.start("127.0.0.1", 0)
        serving = asyncio.ensure_future(m["receiver"].serve(desk, server))
    else:
        desk = m["receiver"].Desk("Bench", CODE, m["identity"].load_identity(folder, quiet),
                                  m["pairing"].paired_senders(folder, quiet), offered, quiet)
        _, port = await desk.start("127.0.0.1", 0)
    print(port, flush=True)
    await asyncio.Event().wait()  # until the benchmark ends this process (serving runs on)
    assert serving is None or not serving.done()


async def _send_apart(version: int, tree: str, port: int, runs: int, random_file: Path,
                      folder: Path, by_keys: bool) -> list[tuple[float, float]]:
    """A sender alone in its process: (seconds to the result, its CPU) per beam."""
    m = _modules(version, tree)
    from palmish.device.exchange import PLUGIN, BeamItem

    item = BeamItem(PLUGIN, data=random_file.read_bytes())
    if version == 1:
        def beam(code: str | None, what: Any) -> Any:
            return m["sender"].send_item(what, "127.0.0.1", port, name="Den", key="0" * 32,
                                         code=code)
    else:
        identity = m["identity"].load_identity(folder, quiet)
        receivers = m["pairing"].paired_receivers(folder, quiet)

        def beam(code: str | None, what: Any) -> Any:
            return m["sender"].send_item(what, "127.0.0.1", port, name="Den",
                                         identity=identity, receivers=receivers, code=code)
    if by_keys:
        await beam(CODE, BeamItem("board", "sigmar", number=1))
    times = []
    for _ in range(runs):
        await asyncio.sleep(0.15)
        start, cpu = time.perf_counter(), time.process_time()
        outcome = await beam(None if by_keys else CODE, item)
        times.append((time.perf_counter() - start, time.process_time() - cpu))
        assert outcome.status == "refused", outcome
    return times


def _apart(tree: Path, runs: int, random_file: Path, base: Path) -> dict[str, list[Any]]:
    """One block of 1 MiB beams of each kind, receiver and sender in two processes."""
    out: dict[str, list[Any]] = {}
    for label, version, by_keys in (("version 1", 1, False), ("version 2, with the code", 2,
                                     False), ("version 2, by paired keys", 2, True)):
        with tempfile.TemporaryDirectory(dir=base) as place:
            receiver = subprocess.Popen(
                [sys.executable, __file__, "--serve", str(version), "--tree", str(tree),
                 "--folder", str(Path(place) / "r")], stdout=subprocess.PIPE, text=True,
                cwd=base)
            try:
                assert receiver.stdout is not None
                port = receiver.stdout.readline().strip()
                sent = subprocess.run(
                    [sys.executable, __file__, "--send", str(version), "--tree", str(tree),
                     "--port", port, "--runs", str(runs), "--random-file", str(random_file),
                     "--folder", str(Path(place) / "s"), *(["--by-keys"] if by_keys else [])],
                    capture_output=True, text=True, check=True, cwd=base, timeout=600)
            finally:
                receiver.terminate()
                receiver.wait(10)
            out[label] = json.loads(sent.stdout.splitlines()[-1])
    return out


def _extract(revision: str, into: Path) -> Path:
    """The palmish package and the tests' item helpers of `revision` (prc_tools, with
    its C speedups, is this tree's: the same at that revision)."""
    archive = into / "v1.tar"
    with archive.open("wb") as out:
        subprocess.run(["git", "-C", str(ROOT), "archive", revision, "palmish",
                        "tests/network/beam_items.py"],
                       stdout=out, check=True)
    tree = into / "v1"
    with tarfile.open(archive) as tar:
        tar.extractall(tree, filter="data")
    return tree


def _say(label: str, version: str, times: Times) -> None:
    asked = [a * 1000 for a, _, _ in times]
    done = [d * 1000 for _, d, _ in times]
    cpu = [c * 1000 for _, _, c in times]
    print(f"  {version:<26} to the person asked median {statistics.median(asked):6.1f} ms "
          f"(max {max(asked):6.1f}); to the result median {statistics.median(done):6.1f} ms "
          f"(max {max(done):6.1f}); CPU of both sides median {statistics.median(cpu):5.1f} ms;"
          f" {len(times)} beams")


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="beams per block")
    parser.add_argument("--rounds", type=int, default=4, help="blocks of each version")
    parser.add_argument("--v1", default=V1_REVISION, metavar="REV")
    parser.add_argument("--as-v1", metavar="TREE", help=argparse.SUPPRESS)
    parser.add_argument("--random-file", type=Path, help=argparse.SUPPRESS)
    for hidden in ("--serve", "--send", "--port"):
        parser.add_argument(hidden, type=int, help=argparse.SUPPRESS)
    parser.add_argument("--tree", help=argparse.SUPPRESS)
    parser.add_argument("--folder", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--by-keys", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.as_v1:
        return _as_v1(args.as_v1, args.runs, args.random_file)
    if args.serve:
        asyncio.run(_receive_forever(args.serve, args.tree, args.folder))
        return 0
    if args.send:
        print(json.dumps(asyncio.run(_send_apart(args.send, args.tree, args.port, args.runs,
                                                 args.random_file, args.folder,
                                                 args.by_keys))))
        return 0
    sys.path.insert(0, str(ROOT))
    with tempfile.TemporaryDirectory() as folder:
        base = Path(folder)
        random_file = base / "random.bin"
        random_file.write_bytes(os.urandom(MIB))
        tree = _extract(args.v1, base)
        items = _items(random_file)
        results: dict[tuple[str, str], Times] = {}
        apart: dict[str, list[Any]] = {}
        for _round in range(args.rounds):
            for label, times in _apart(tree, args.runs, random_file, base).items():
                apart.setdefault(label, []).extend(times)
            other = subprocess.run(
                [sys.executable, __file__, "--as-v1", str(tree), "--runs", str(args.runs),
                 "--random-file", str(random_file)],
                capture_output=True, text=True, check=True, cwd=folder)
            for label, times in json.loads(other.stdout.splitlines()[-1]).items():
                results.setdefault((label, "version 1"), []).extend(map(tuple, times))
            for label, item in items.items():
                for by_keys in (False, True):
                    kind = "version 2, by paired keys" if by_keys else "version 2, with the code"
                    with tempfile.TemporaryDirectory() as place:
                        times = asyncio.run(_v2(item, args.runs, Path(place), by_keys))
                    results.setdefault((label, kind), []).extend(times)
        load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
        print(f"Beam on loopback, {args.rounds} rounds of {args.runs} beams each "
              f"(load average {load:.1f}; version 1 from {args.v1}):")
        for label in items:
            print(label)
            for kind in ("version 1", "version 2, with the code", "version 2, by paired keys"):
                _say(label, kind, results[(label, kind)])
        print("1 MiB of random bytes, the receiver and the sender in two processes:")
        for kind, pairs in apart.items():
            done = [d * 1000 for d, _ in pairs]
            cpu = [c * 1000 for _, c in pairs]
            print(f"  {kind:<26} to the result median {statistics.median(done):6.1f} ms "
                  f"(max {max(done):6.1f}); the sender's CPU median "
                  f"{statistics.median(cpu):5.1f} ms; {len(pairs)} beams")
    return 0


if __name__ == "__main__":
    sys.exit(main())
