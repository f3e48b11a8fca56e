"""Network version 2's session layer on loopback (docs/network-session.md),
side by side with version 1's plain lines in the same run.

    .venv/bin/python benchmarks/network_session.py [--rounds N] [--messages N]

1. handshake: from `connect` to an open session, the server in another process
   (as a host is another device): code mode (SPAKE2 with the code) and key mode
   (paired keys), and version 1's hello -> welcome on the same machine. Goal:
   median <= 20 ms. Also both ends in one process (all the work on one core).
2. sealed messages: the CPU a small record (a Pachisi step) costs, encoded,
   sealed, opened and decoded, against version 1's JSON line encoded and
   decoded (--messages of each), and the bytes each takes on the wire.
3. 1 MiB through a session in 32 KiB chunks (base64 in a record, as Beam sends
   an item), each chunk answered, against the same over version 1's lines.

Traffic goes to 127.0.0.1 only; every wait is bounded.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import multiprocessing
import os
import statistics
import time
from dataclasses import dataclass
from typing import Annotated, Any

from palmish.network import protocol, transport
from palmish.network.session.channel import Session
from palmish.network.session.crypto import PakeSupply
from palmish.network.session.handshake import ServerSide, accept, connect
from palmish.network.session.identity import Identity
from palmish.network.session.kinds import FROM_CLIENT, FROM_SERVER
from palmish.network.session.records import Blob, Int, Record, Text, Vocabulary

LOOPBACK = "127.0.0.1"
CODE = "4821"
CHUNK = 32 * 1024
ITEM = 1 << 20
IDLE_S = 0.15  # between handshakes (the server makes its next SPAKE2 half 0.1 s after one)


@dataclass(frozen=True)
class Step(Record):
    """A message of a game's size (Pachisi's `step`)."""

    KIND = "step"
    n: Annotated[int, Int(0, 1 << 30)]
    step: Annotated[str, Text(r"T(2|3|4|5|6|10|25)|M[0-3]|P")]


@dataclass(frozen=True)
class Data(Record):
    """A chunk of an item, as Beam's `data`."""

    KIND = "data"
    n: Annotated[int, Int(0, 1 << 20)]
    bytes: Annotated[bytes, Blob(0, CHUNK)]


BOTH = FROM_CLIENT + FROM_SERVER + Vocabulary(Step, Data)
_NAME = protocol.matching(r"[^\s,:\x00-\x1f\x7f-\x9f]{1,10}")
V1_KINDS: protocol.FromJoiner = {  # version 1's lines, as its hosts read them
    "hello": ({"v": protocol.int_in(0, 1 << 30), "app": protocol.matching(r"[a-z]{1,16}"),
               "code": protocol.CODE},
              {"name": _NAME, "token": protocol.matching(r"[0-9a-f]{32}"),
               "watch": protocol.boolean}),
    "ping": ({}, {}),
    "step": ({"n": protocol.int_in(0, 1 << 30),
              "step": protocol.matching(r"T(2|3|4|5|6|10|25)|M[0-3]|P")}, {}),
    "data": ({"n": protocol.int_in(0, 1 << 20),
              "bytes": protocol.matching(r"[A-Za-z0-9+/=]*")}, {}),
    "welcome": ({"v": protocol.int_in(1, 1 << 30), "app": protocol.matching(r"[a-z]{1,16}"),
                 "table": protocol.LINE,
                 "seat": protocol.or_none(protocol.int_in(0, 3))}, {}),
}


# ------------------------------------------------------------------ the servers


async def echo(session: Session) -> None:
    while (record := await session.receive(30)) is not None:
        session.send(record)


class V1Echo:
    """Version 1's transport with a handler that welcomes and echoes."""

    def __init__(self) -> None:
        self.outbox: list[tuple[int, dict[str, Any]]] = []

    def hello(self, peer: int, msg: dict[str, Any], now: float) -> bool:
        self.outbox.append((peer, {"t": "welcome", "v": 1, "app": "pachisi", "table": "Bench",
                                   "seat": 0}))
        return True

    def receive(self, peer: int, msg: dict[str, Any], now: float) -> None:
        self.outbox.append((peer, msg))

    def gone(self, peer: int, now: float) -> None:
        pass

    def take_outbox(self) -> list[tuple[int, dict[str, Any]]]:
        out, self.outbox = self.outbox, []
        return out


async def servers(ports: Any) -> None:
    host, paired = Identity.new(), Identity.new()
    side = ServerSide("pachisi", host, CODE, trusts=lambda key: key == paired.public,
                      hears=BOTH, hear_limit=64 * 1024)

    async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        session = await accept(reader, writer, side, lambda line: None)
        if session is not None:
            await echo(session)

    side.prepare()
    v2 = await asyncio.start_server(handle, LOOPBACK, 0, limit=1 << 20)
    old = transport.Server(V1Echo(), lambda line: None, kinds=V1_KINDS, line_limit=64 * 1024)
    _, v1_port = await old.start(LOOPBACK, 0)
    ports.put((v2.sockets[0].getsockname()[1], v1_port, host.public, paired.public,
               paired._seed))
    while True:  # the v1 transport writes what its handler leaves, as a host's loop does
        await old.wait_activity(1.0)
        old.flush()


def serve_forever(ports: Any) -> None:
    asyncio.run(servers(ports))


# ------------------------------------------------------------------ the clients


SUPPLY = PakeSupply(CODE, True, "pachisi")  # a joiner makes its half ahead, between tries


async def v2_session(port: int, host_key: bytes, paired: Identity | None,
                     prepared: bool = True) -> Session:
    if paired is None:
        if prepared:
            SUPPLY.refill()  # between two tries, as a joiner's idle loop would
        return await connect(LOOPBACK, port, app="pachisi", identity=Identity.new(), code=CODE,
                             hears=BOTH, say_limit=64 * 1024,
                             pake=SUPPLY if prepared else None)
    return await connect(LOOPBACK, port, app="pachisi", identity=paired,
                         trusts=lambda key: key == host_key, hears=BOTH, say_limit=64 * 1024)


async def v1_link(port: int) -> transport.Link:
    link = await transport.Link.open(LOOPBACK, port, kinds=V1_KINDS)
    link.send({"t": "hello", "v": 1, "app": "pachisi", "code": CODE, "name": "Ann",
               "token": os.urandom(16).hex()})
    welcome = await link.receive()
    assert welcome is not None and welcome["t"] == "welcome"
    return link


async def handshakes(rounds: int, port: int, v1_port: int, host_key: bytes,
                     paired: Identity) -> dict[str, list[float]]:
    times: dict[str, list[float]] = {"code": [], "cold": [], "key": [], "v1": [], "cpu": []}
    await (await v2_session(port, host_key, None)).close()  # imports, warm caches
    for _ in range(rounds):  # in turns, so the machine's load weighs on each alike
        for mode in ("code", "cold", "key", "v1"):
            started, cpu = time.perf_counter(), time.process_time()
            if mode == "v1":
                link = await v1_link(v1_port)
                took = time.perf_counter() - started
                await link.close()
            else:
                if mode == "code":
                    SUPPLY.refill()  # made between tries, outside the time
                    started, cpu = time.perf_counter(), time.process_time()
                session = await v2_session(port, host_key, paired if mode == "key" else None,
                                           prepared=mode == "code")
                session.send(Step(0, "P"))  # the server has the session once this comes back
                await session.receive()
                took = time.perf_counter() - started
                if mode == "cold":
                    times["cpu"].append((time.process_time() - cpu) * 1000)
                await session.close()
            times[mode].append(took * 1000)
            await asyncio.sleep(IDLE_S)  # joins come seconds apart: the server refills
    return times


async def in_one_process(rounds: int) -> list[float]:
    side = ServerSide("pachisi", Identity.new(), CODE, hears=BOTH)

    async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        session = await accept(reader, writer, side, lambda line: None)
        if session is not None:
            await echo(session)

    server = await asyncio.start_server(handle, LOOPBACK, 0)
    port = server.sockets[0].getsockname()[1]
    times = []
    for _ in range(rounds):
        started = time.perf_counter()
        session = await v2_session(port, b"", None, prepared=False)
        session.send(Step(0, "P"))
        await session.receive()
        times.append((time.perf_counter() - started) * 1000)
        await session.close()
    server.close()
    return times


def message_costs(count: int) -> tuple[float, float]:
    """CPU a small message costs, made and read, in microseconds: version 2 (encode,
    seal, open, decode once) and version 1 (encode, decode)."""
    from palmish.network.session.crypto import Sealer

    key = os.urandom(32)
    sealer, opener = Sealer(key), Sealer(key)
    header = b"\0\0\0\x2e"
    started = time.perf_counter()
    for n in range(count):
        sealed = sealer.seal(Step(n, "T25").encode(), header)
        BOTH.decode(opener.open(sealed, header), 1024)
    v2 = (time.perf_counter() - started) / count * 1e6
    started = time.perf_counter()
    for n in range(count):
        line = protocol.encode({"t": "step", "n": n, "step": "T25"})
        protocol.decode(line, V1_KINDS, 1024)
    v1 = (time.perf_counter() - started) / count * 1e6
    return v2, v1


async def megabyte(port: int, v1_port: int, host_key: bytes) -> tuple[float, float]:
    """1 MiB in 32 KiB chunks, each echoed before the next (Beam waits for its
    progress the same way): ms, v2 then v1."""
    item = os.urandom(ITEM)
    session = await v2_session(port, host_key, None)
    started = time.perf_counter()
    for n, at in enumerate(range(0, ITEM, CHUNK)):
        session.send(Data(n, item[at:at + CHUNK]))
        answer = await session.receive()
        assert isinstance(answer, Data) and answer.n == n
    v2 = (time.perf_counter() - started) * 1000
    await session.close()
    link = await v1_link(v1_port)
    started = time.perf_counter()
    for n, at in enumerate(range(0, ITEM, CHUNK)):
        link.send({"t": "data", "n": n,
                   "bytes": base64.b64encode(item[at:at + CHUNK]).decode("ascii")})
        answer_v1 = await link.receive()
        while answer_v1 is not None and answer_v1["t"] == "ping":
            answer_v1 = await link.receive()
        assert answer_v1 is not None and answer_v1["n"] == n
    v1 = (time.perf_counter() - started) * 1000
    await link.close()
    return v2, v1


def summary(values: list[float]) -> str:
    ordered = sorted(values)
    return (f"median {statistics.median(ordered):.1f} ms, p95 "
            f"{ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]:.1f} ms, "
            f"max {ordered[-1]:.1f} ms")


def sealed_bytes() -> tuple[int, int]:
    """Bytes a step takes on the wire: version 2 (header, JSON, tag) and version 1's line."""
    plain = Step(12, "T25").encode()
    return 4 + len(plain) + 16, len(protocol.encode({"t": "step", "n": 12, "step": "T25"}))


async def main_async(args: argparse.Namespace, ports: Any) -> None:
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    port, v1_port, host_key, _, paired_seed = ports.get(timeout=30)
    paired = Identity(paired_seed)
    times = await handshakes(args.rounds, port, v1_port, host_key, paired)
    print(f"handshake, server in another process, {args.rounds} rounds (goal: median <= 20 ms):")
    print(f"  version 2, the code (SPAKE2), the joiner's half made ahead: "
          f"{summary(times['code'])}")
    print(f"  version 2, the code (SPAKE2), all in the handshake: {summary(times['cold'])}"
          f" (the joiner's CPU: median {statistics.median(times['cpu']):.1f} ms)")
    print(f"  version 2, paired keys:        {summary(times['key'])}")
    print(f"  version 1, hello -> welcome:   {summary(times['v1'])}")
    alone = await in_one_process(max(5, args.rounds // 2))
    print(f"  version 2, the code, both ends in one process: {summary(alone)}")
    v2, v1 = message_costs(args.messages)
    wire2, wire1 = sealed_bytes()
    print(f"a small message (a step), made and read ({args.messages} each): version 2 "
          f"{v2:.1f} us of CPU, version 1 {v1:.1f} us; on the wire {wire2} bytes against "
          f"{wire1}")
    v2_mib, v1_mib = await megabyte(port, v1_port, host_key)
    print(f"1 MiB in 32 KiB chunks, each answered: version 2 {v2_mib:.0f} ms, "
          f"version 1 {v1_mib:.0f} ms")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=50)
    parser.add_argument("--messages", type=int, default=20000)
    args = parser.parse_args()
    ports: Any = multiprocessing.Queue()
    server = multiprocessing.Process(target=serve_forever, args=(ports,), daemon=True)
    server.start()
    try:
        asyncio.run(asyncio.wait_for(main_async(args, ports), 600))
    finally:
        server.terminate()
        server.join(timeout=10)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
