"""Beam on loopback (docs/network.md, "Beam"): how long an item takes from the
sender's hello to the receiver asking its person, and to the sender's result.

    .venv/bin/python benchmarks/beam.py [--runs N]

A receiver's desk served on 127.0.0.1 (the transport, the checks) and the
sender in one process; the desk's person answers at once. Items: the Cherry
Board plugin (81 KB, checked as `palmish install` checks it: header, every
bitmap) and 1 MiB of random bytes (the largest item; refused by the checks as
not a Palm database, after the whole transfer). Traffic goes to 127.0.0.1 only.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from palmish.device.exchange import MAX_ITEM_BYTES, PLUGIN, BeamItem
from palmish.network.beam import wire
from palmish.network.beam.pairing import Pairings
from palmish.network.beam.receiver import DECLINED, Arrival, Desk, serve
from palmish.network.beam.sender import send_item
from palmish.network.transport import Server
from tests.network.beam_items import cherry


async def _measure(item: BeamItem, runs: int, data_dir: Path) -> list[tuple[float, float]]:
    asked: list[float] = []

    def offered(arrival: Arrival) -> None:
        asked.append(time.perf_counter())
        desk.finish(arrival.ticket, DECLINED, "measured")

    desk = Desk("Bench", "1234", Pairings(data_dir), offered, lambda ended: None)
    server = Server(desk, lambda line: None, kinds=wire.SENDER_KINDS,
                    line_limit=wire.MAX_SENDER_LINE)
    host, port = await server.start("127.0.0.1", 0)
    serving = asyncio.ensure_future(serve(desk, server))
    times = []
    try:
        for _ in range(runs):
            asked.clear()
            start = time.perf_counter()
            await send_item(item, host, port, name="Den", key="0" * 32, code="1234")
            end = time.perf_counter()
            times.append(((asked[0] if asked else end) - start, end - start))
    finally:
        serving.cancel()
        await server.close()
    return times


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=20)
    args = parser.parse_args()
    items = {"Cherry Board plugin (81 KB)": BeamItem(PLUGIN, data=cherry()),
             "1 MiB of random bytes": BeamItem(PLUGIN, data=os.urandom(MAX_ITEM_BYTES))}
    with tempfile.TemporaryDirectory() as folder:
        for label, item in items.items():
            times = asyncio.run(_measure(item, args.runs, Path(folder)))
            asked = [a * 1000 for a, _ in times]
            done = [d * 1000 for _, d in times]
            print(f"{label}: to the person asked median {statistics.median(asked):.1f} ms,"
                  f" max {max(asked):.1f} ms; to the result median"
                  f" {statistics.median(done):.1f} ms, max {max(done):.1f} ms"
                  f" ({args.runs} runs)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
