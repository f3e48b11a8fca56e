"""A man in the middle who does not know the code, on loopback: whatever he
rewrites, replays, reorders or drops is detected, ends that session with one
line, and is never believed; a replayed handshake opens nothing."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from typing import Any, TypeVar

import pytest

from palmish.network.session.handshake import HandshakeError, ServerSide, WrongCode, connect
from palmish.network.session.identity import Identity
from palmish.network.session.kinds import Bye, Join, Ping
from tests.network.session.loopback import ADDRESS, BOTH, Proxy, serve

T = TypeVar("T")


def run(coro: Coroutine[Any, Any, T]) -> T:
    return asyncio.run(asyncio.wait_for(coro, 30))


class Meddler:
    """Passes the handshake through, then does `act` to the client's frames."""

    def __init__(self, act: Callable[[list[bytes], bytes], list[bytes]]) -> None:
        self.armed = False
        self.held: list[bytes] = []
        self.act = act

    def __call__(self, direction: str, chunk: bytes) -> list[bytes]:
        if direction != "c2s" or not self.armed:
            return [chunk]
        return self.act(self.held, chunk)


def flip(held: list[bytes], chunk: bytes) -> list[bytes]:
    return [chunk[:-1] + bytes([chunk[-1] ^ 1])]  # one bit of the tag


def rewrite_the_text(held: list[bytes], chunk: bytes) -> list[bytes]:
    return [chunk[:10] + bytes([chunk[10] ^ 0x20]) + chunk[11:]]  # one bit of the message


def replay(held: list[bytes], chunk: bytes) -> list[bytes]:
    return [chunk, chunk]


def drop_one(held: list[bytes], chunk: bytes) -> list[bytes]:
    if not held:
        held.append(chunk)
        return []
    return [chunk]


def swap_two(held: list[bytes], chunk: bytes) -> list[bytes]:
    if not held:
        held.append(chunk)
        return []
    return [chunk, held.pop()]


def cut_the_length(held: list[bytes], chunk: bytes) -> list[bytes]:
    return [bytes([chunk[0], chunk[1], chunk[2], chunk[3] - 1]) + chunk[4:-1]]


@pytest.mark.parametrize("act", [flip, rewrite_the_text, replay, drop_one, swap_two,
                                 cut_the_length])
def test_a_frame_meddled_with_ends_the_session_and_is_never_believed(
        act: Callable[[list[bytes], bytes], list[bytes]]) -> None:
    async def go() -> None:
        believed: list[object] = []

        async def listen(session: Any) -> None:
            while True:
                record = await session.receive()
                if record is None:
                    return
                believed.append(record)

        served = await serve(ServerSide("pachisi", Identity.new(), "4821", hears=BOTH), listen)
        meddler = Meddler(act)
        proxy = await Proxy(served.port, meddler).start()
        session = await connect(ADDRESS, proxy.port, app="pachisi", identity=Identity.new(),
                                code="4821", hears=BOTH)
        session.send(Join(name="Ann"))
        await session.drain()
        await asyncio.sleep(0.2)  # one frame a chunk, so the meddler acts on whole frames
        meddler.armed = True
        for text in ("first", "second", "third"):
            session.send(Bye(text))
            await session.drain()
            await asyncio.sleep(0.2)
        for _ in range(50):
            if served.log:
                break
            await asyncio.sleep(0.1)
        log = "\n".join(served.log)
        assert "failed its check" in log or "frame" in log, (act.__name__, served.log)
        assert "Traceback" not in log
        assert believed[0] == Join(name="Ann")
        # nothing after the meddling is believed but what came before it in order
        assert believed[1:] in ([], [Bye("first")], [Bye("first"), Bye("second")]), believed
        await session.close()
        proxy.close()
        await served.close()

    run(go())


def test_a_rewritten_handshake_opens_no_session() -> None:
    async def go() -> None:
        for offset in (60, 110):  # in the client's hello line, then in its SPAKE2 frame
            host = ServerSide("pachisi", Identity.new(), "4821", hears=BOTH)
            served = await serve(host)
            sent = bytearray()

            def change(direction: str, chunk: bytes, sent: bytearray = sent,
                       offset: int = offset) -> list[bytes]:
                if direction == "c2s" and len(sent) <= offset < len(sent) + len(chunk):
                    at = offset - len(sent)
                    sent += chunk
                    return [chunk[:at] + bytes([chunk[at] ^ 1]) + chunk[at + 1:]]
                if direction == "c2s":
                    sent += chunk
                return [chunk]

            proxy = await Proxy(served.port, change).start()
            with pytest.raises(HandshakeError):
                await connect(ADDRESS, proxy.port, app="pachisi", identity=Identity.new(),
                              code="4821", hears=BOTH)
            assert not served.sessions
            proxy.close()
            await served.close()

    run(go())


def test_a_captured_connection_replayed_opens_nothing() -> None:
    async def go() -> None:
        host = ServerSide("pachisi", Identity.new(), "4821", hears=BOTH)
        served = await serve(host)
        proxy = await Proxy(served.port).start()
        session = await connect(ADDRESS, proxy.port, app="pachisi", identity=Identity.new(),
                                code="4821", hears=BOTH)
        session.send(Join(name="Ann"))
        session.send(Ping())
        await session.drain()
        await asyncio.sleep(0.2)
        await session.close()
        captured = bytes(proxy.seen["c2s"])
        reader, writer = await asyncio.open_connection(ADDRESS, served.port)
        writer.write(captured)  # the same bytes again, as they were
        assert await asyncio.wait_for(reader.read(), 10)  # its hello, pake, auth: then closed
        writer.close()
        await asyncio.sleep(0.2)
        assert len(served.sessions) == 1, served.log
        assert any("wrong code" in line for line in served.log), served.log
        proxy.close()
        await served.close()

    run(go())


def test_a_man_in_the_middle_with_a_wrong_code_gets_one_guess_and_nothing_else() -> None:
    """He plays the host to the joiner with his guess: the joiner stops at once
    (its first sealed frame does not open) and sends nothing sealed."""
    async def go() -> None:
        fake = ServerSide("pachisi", Identity.new(), "0000", hears=BOTH)
        served = await serve(fake)
        proxy = await Proxy(served.port).start()
        with pytest.raises(WrongCode):
            await connect(ADDRESS, proxy.port, app="pachisi", identity=Identity.new(),
                          code="4821", hears=BOTH)
        _, rest = bytes(proxy.seen["c2s"]).split(b"\n", 1)
        assert len(rest) == 4 + int.from_bytes(rest[:4], "big")  # its SPAKE2 frame, no more
        proxy.close()
        await served.close()

    run(go())

