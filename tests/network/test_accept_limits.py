"""The server's accept limits (palmish/network/transport.py): a crowd of new
connections past ACCEPT_BURST is closed straight after accept(), a joiner who
comes once the crowd is gone is served, and the token bucket owes nothing for
what it refused. Loopback only, bounded in count and time."""

from __future__ import annotations

import asyncio

import pytest

from palmish.network import transport
from palmish.network.protocol import FromJoiner, RateLimit, encode, int_in, matching
from palmish.network.transport import ACCEPT_BURST, Server

VERSION_HELLO = {"t": "hello", "v": 1, "app": "game"}
# the kinds a server hears, given as Beam gives its own
KINDS: FromJoiner = {"hello": ({"v": int_in(0, 1 << 30), "app": matching(r"[a-z]{1,16}")}, {})}


class Recorder:
    """A handler that welcomes every hello and remembers who said one."""

    def __init__(self) -> None:
        self.hellos: list[int] = []

    def hello(self, peer: int, msg: dict[str, object], now: float) -> bool:
        self.hellos.append(peer)
        return True

    def receive(self, peer: int, msg: dict[str, object], now: float) -> None:
        pass

    def gone(self, peer: int, now: float) -> None:
        pass

    def take_outbox(self) -> list[tuple[int, dict[str, object]]]:
        return []


async def closed_at_once(reader: asyncio.StreamReader) -> bool:
    """The host closed this connection without waiting for a hello."""
    try:
        return await asyncio.wait_for(reader.read(1), 1.0) == b""
    except (TimeoutError, asyncio.TimeoutError):
        return False
    except ConnectionError:
        return True


@pytest.mark.slow
def test_a_crowd_past_the_burst_is_closed_at_once_and_a_joiner_after_it_is_served() -> None:
    async def scenario() -> None:
        recorder = Recorder()
        lines: list[str] = []
        server = Server(recorder, lines.append, kinds=KINDS)
        host, port = await server.start("127.0.0.1", 0)
        crowd = ACCEPT_BURST + 20
        try:
            links = [await asyncio.open_connection(host, port) for _ in range(crowd)]
            closed = await asyncio.gather(*(closed_at_once(r) for r, _ in links))
            assert server.refused_for_load >= crowd - ACCEPT_BURST - 5  # a few tokens refill
            assert sum(closed) == server.refused_for_load
            assert [line for line in lines if "over the limits" in line] == [
                "closing new connections over the limits (64 at once, 20 a second): 1 so far"]
            for _, writer in links:
                writer.close()
            await asyncio.sleep(ACCEPT_BURST / transport.ACCEPT_RATE)  # the bucket refills
            _, writer = await asyncio.open_connection(host, port)
            writer.write(encode(VERSION_HELLO))
            for _ in range(100):
                if recorder.hellos:
                    break
                await asyncio.sleep(0.02)
            assert len(recorder.hellos) == 1
            writer.close()
        finally:
            await server.close()

    asyncio.run(asyncio.wait_for(scenario(), 30))


def test_the_accept_bucket_refuses_without_owing() -> None:
    bucket = RateLimit(rate=10.0, burst=2)
    assert [bucket.take(0.0) for _ in range(3)] == [True, True, False]
    assert [bucket.take(0.05) for _ in range(50)].count(True) == 0  # half a token
    assert bucket.take(0.1)  # refused takes owed nothing: one token after 0.1 s
    assert not bucket.take(0.1)


@pytest.mark.slow
def test_accept_failing_for_want_of_descriptors_pauses_listening_instead_of_spinning() -> None:
    async def scenario() -> None:
        lines: list[str] = []
        server = Server(Recorder(), lines.append, kinds=KINDS)
        host, port = await server.start("127.0.0.1", 0)
        loop = asyncio.get_running_loop()
        try:
            failing = FailingListener(server._listeners[0])
            server._listeners[0] = failing  # type: ignore[call-overload]
            server._accept(failing, loop)  # type: ignore[arg-type]
            assert lines == ["cannot accept connections (Too many open files); "
                             "trying again in 1 s"]
            assert failing.calls == 1  # it stopped at once, and ...
            await asyncio.sleep(transport.ACCEPT_RETRY_S / 2)
            assert failing.calls == 1  # ... no callback asks again meanwhile
            await asyncio.sleep(transport.ACCEPT_RETRY_S)
            _, writer = await asyncio.open_connection(host, port)
            writer.write(encode(VERSION_HELLO))
            for _ in range(100):  # listening again (accept() works now)
                if server.handler.hellos:  # type: ignore[attr-defined]
                    break
                await asyncio.sleep(0.02)
            assert len(server.handler.hellos) == 1  # type: ignore[attr-defined]
            writer.close()
        finally:
            await server.close()

    asyncio.run(asyncio.wait_for(scenario(), 30))


class FailingListener:
    """A listening socket whose first accept() fails as with no descriptors left."""

    def __init__(self, real: object) -> None:
        self.real = real
        self.calls = 0

    def fileno(self) -> int:
        return self.real.fileno()  # type: ignore[attr-defined, no-any-return]

    def accept(self) -> tuple[object, object]:
        self.calls += 1
        if self.calls == 1:
            raise OSError(24, "Too many open files")
        return self.real.accept()  # type: ignore[attr-defined, no-any-return]

    def close(self) -> None:
        self.real.close()  # type: ignore[attr-defined]
