"""Opening sessions on loopback: the code, a wrong code, old peers, refusals,
pairing and key-only sessions, and what a logging proxy sees."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Coroutine
from typing import Any, TypeVar

import pytest

from palmish.network import protocol, transport
from palmish.network.session.channel import Session, SessionError
from palmish.network.session.handshake import (
    HandshakeError,
    LockedOut,
    NotTrusted,
    OldPeer,
    Refusal,
    ServerSide,
    WrongCode,
    open_client,
)
from palmish.network.session.handshake import connect as dial
from palmish.network.session.identity import Identity, check_seat, prove_seat
from palmish.network.session.kinds import VERSION, Join, Refused, Welcome
from tests.network.session.loopback import ADDRESS, BOTH, Proxy, echo, serve

T = TypeVar("T")
SCOPE = bytes(range(16))


async def connect(host: str, port: int, **options: Any) -> Session:
    """A client that hears what the echoing server sends back too."""
    return await dial(host, port, hears=BOTH, **options)


def run(coro: Coroutine[Any, Any, T]) -> T:
    return asyncio.run(asyncio.wait_for(coro, 30))


def side(code: str | None = "4821", **options: Any) -> ServerSide:
    return ServerSide("pachisi", Identity.new(), code, scope=SCOPE, hears=BOTH, **options)


def test_the_code_opens_a_session_and_records_cross_it_both_ways() -> None:
    async def go() -> None:
        host = side()
        served = await serve(host, echo)
        ann = Identity.new()
        session = await connect(ADDRESS, served.port, app="pachisi", identity=ann, code="4821")
        assert session.peer is not None
        assert session.peer.key == host.identity.public and session.peer.mode == "code"
        assert session.peer.scope == SCOPE
        session.send(Join(name="Ann", watch=False))
        assert await session.receive() == Join(name="Ann")
        assert served.sessions[0].peer is not None
        assert served.sessions[0].peer.key == ann.public  # the pairing: each knows the other
        assert served.sessions[0].exporter == session.exporter
        assert host.guesses.counted(host.clock()) == 0  # a right code is no wrong guess
        await session.close()
        await served.close()

    run(go())


def test_a_wrong_code_fails_at_once_and_counts() -> None:
    async def go() -> None:
        host = side()
        served = await serve(host, echo)
        with pytest.raises(WrongCode, match="wrong code"):
            await connect(ADDRESS, served.port, app="pachisi", identity=Identity.new(),
                          code="1111")
        await asyncio.sleep(0.1)
        assert any("wrong code" in line and "counted" in line for line in served.log), served.log
        assert host.guesses.counted(host.clock()) == 1
        await served.close()

    run(go())


def test_the_sixth_wrong_code_in_a_minute_is_locked_out_before_any_key_exchange() -> None:
    async def go() -> None:
        host = side()
        served = await serve(host, echo)
        sources = ["127.0.0.2", "127.0.0.3", "127.0.0.4"]
        wrong = 0
        for n in range(5):  # two a source at most, five in all
            with pytest.raises(WrongCode):
                await connect_from(sources[n // 2], served.port, "1111")
            wrong += 1
        with pytest.raises(LockedOut, match="too many wrong codes") as locked:
            await connect_from("127.0.0.5", served.port, "4821")  # even the right code
        assert 1 <= locked.value.retry_s <= 60
        assert host.guesses.counted(host.clock()) == wrong
        await served.close()

    run(go())


def test_one_stranger_guessing_leaves_room_for_a_new_honest_peer() -> None:
    async def go() -> None:
        host = side()
        served = await serve(host, echo)
        for _ in range(2):
            with pytest.raises(WrongCode):
                await connect_from("127.0.0.2", served.port, "1111")
        with pytest.raises(LockedOut):
            await connect_from("127.0.0.2", served.port, "1112")  # the stranger waits
        honest = await connect_from("127.0.0.3", served.port, "4821")
        assert honest.peer is not None
        await honest.close()
        await served.close()

    run(go())


async def connect_from(source: str, port: int, code: str, app: str = "pachisi") -> Any:
    """A code session from another loopback address (a second machine, to the limits)."""
    reader, writer = await asyncio.open_connection(ADDRESS, port, local_addr=(source, 0))
    try:
        return await open_client(reader, writer, app=app, identity=Identity.new(),
                                 code=code, trusts=None, hears=BOTH,
                                 hear_limit=1 << 20, say_limit=1024, where=f"{ADDRESS}:{port}")
    except BaseException:
        writer.close()
        raise


def test_paired_keys_open_a_session_without_the_code_even_when_locked_out() -> None:
    async def go() -> None:
        den, kitchen = Identity.new(), Identity.new()
        paired = {den.public}
        host = ServerSide("beam", kitchen, "3071", trusts=paired.__contains__)
        served = await serve(host, echo)
        for n in range(6):  # strangers lock the code out
            with pytest.raises((WrongCode, LockedOut)):
                await connect_from(f"127.0.0.{n // 2 + 2}", served.port, f"{n:04d}", "beam")
        with pytest.raises(LockedOut):
            await connect_from("127.0.0.9", served.port, "3071", "beam")
        session = await connect(ADDRESS, served.port, app="beam", identity=den,
                                trusts={kitchen.public}.__contains__)
        assert session.peer is not None and session.peer.mode == "key"
        session.send(Join(name="Den"))
        assert await session.receive() == Join(name="Den")  # the server has it by now
        assert served.sessions[-1].peer is not None
        assert served.sessions[-1].peer.key == den.public
        await session.close()
        await served.close()

    run(go())


def test_key_mode_refuses_an_unpaired_handheld_and_a_client_trusts_only_its_pairs() -> None:
    async def go() -> None:
        kitchen = Identity.new()
        host = ServerSide("beam", kitchen, "3071", trusts=lambda key: False)
        served = await serve(host, echo)
        stranger = await connect(ADDRESS, served.port, app="beam", identity=Identity.new(),
                                 trusts={kitchen.public}.__contains__)
        answer = await stranger.receive()
        assert isinstance(answer, Refused) and answer.why == "key"
        assert await stranger.receive() is None
        with pytest.raises(NotTrusted):  # an impostor server: the client shows no identity
            await connect(ADDRESS, served.port, app="beam", identity=Identity.new(),
                          trusts=lambda key: False)
        await served.close()

    run(go())


def test_a_version_1_hello_gets_one_clear_line_and_a_log_line() -> None:
    async def go() -> None:
        served = await serve(side(), echo)
        reader, writer = await asyncio.open_connection(ADDRESS, served.port)
        writer.write(protocol.encode({"t": "hello", "v": 1, "app": "pachisi", "code": "4821",
                                      "name": "Ann", "token": "ab" * 16}))
        line = await asyncio.wait_for(reader.readline(), 5)
        answer = json.loads(line)
        assert answer == {"t": "refused", "v": 2,
                          "reason": "this handheld speaks network version 2; update palmish"}
        assert await asyncio.wait_for(reader.read(), 5) == b""
        assert any("speaks network version 1" in line for line in served.log), served.log
        writer.close()
        await served.close()

    run(go())


def test_a_version_2_client_meeting_a_version_1_host_says_so() -> None:
    class Nobody:
        def hello(self, peer: int, msg: dict[str, Any], now: float) -> bool:
            return False

        def receive(self, peer: int, msg: dict[str, Any], now: float) -> None: ...
        def gone(self, peer: int, now: float) -> None: ...

        def take_outbox(self) -> list[tuple[int, dict[str, Any]]]:
            return []

    async def go() -> None:
        v1_hello = {"hello": ({"v": protocol.int_in(0, 1 << 30),
                               "app": protocol.matching(r"[a-z]{1,16}"), "code": protocol.CODE},
                              {})}
        old = transport.Server(Nobody(), lambda line: None, kinds=v1_hello)
        _, port = await old.start(ADDRESS, 0)
        with pytest.raises(OldPeer, match="speaks network version 1; this handheld speaks "
                                          "version 2: update palmish there"):
            await connect(ADDRESS, port, app="pachisi", identity=Identity.new(), code="4821")
        await old.close()

    run(go())


def test_refusals_before_the_exchange_are_one_line() -> None:
    async def go() -> None:
        busy = Refused(VERSION, "busy: receiving another beam", "busy")
        served = await serve(ServerSide("beam", Identity.new(), "3071", busy=lambda: busy))
        with pytest.raises(Refusal, match="busy") as refused:
            await connect(ADDRESS, served.port, app="beam", identity=Identity.new(), code="3071")
        assert refused.value.why == "busy"
        with pytest.raises(Refusal, match="not a pachisi"):
            await connect(ADDRESS, served.port, app="pachisi", identity=Identity.new(),
                          code="3071")
        keys_only = await serve(side(code=None))
        with pytest.raises(Refusal, match="no code"):
            await connect(ADDRESS, keys_only.port, app="pachisi", identity=Identity.new(),
                          code="4821")
        await served.close()
        await keys_only.close()

    run(go())


def test_garbage_and_silence_before_the_handshake_are_dropped_with_one_line() -> None:
    async def go() -> None:
        served = await serve(side())
        for data in (b"\xff" * 2000 + b"\n", b"{not json}\n", b'{"t":"hello","v":2}\n',
                     b'{"t":"hello","v":2,"app":"pachisi","auth":"code","nonce":"00"}\n'):
            reader, writer = await asyncio.open_connection(ADDRESS, served.port)
            writer.write(data)
            assert await asyncio.wait_for(reader.read(), 10) == b""
            writer.close()
        assert len(served.log) == 4, served.log
        assert not any("Traceback" in line for line in served.log)
        await served.close()

    run(go())


def test_a_logging_proxy_sees_no_code_name_key_or_message() -> None:
    async def go() -> None:
        host = side()
        served = await serve(host, echo)
        proxy = await Proxy(served.port).start()
        ann = Identity.new()
        session = await connect(ADDRESS, proxy.port, app="pachisi", identity=ann, code="4821")
        proof = prove_seat(ann, SCOPE, session.exporter)
        session.send(Join(name="Annabelle", seat=proof))
        assert await session.receive() == Join(name="Annabelle", seat=proof)
        server_side = served.sessions[0]
        assert check_seat(proof, SCOPE, server_side.exporter)
        session.send(Welcome(VERSION, "pachisi", "Secret Table"))
        await session.receive()
        await session.close()
        captured = bytes(proxy.seen["c2s"] + proxy.seen["s2c"])
        first = json.loads(bytes(proxy.seen["c2s"]).split(b"\n", 1)[0])
        answer = json.loads(bytes(proxy.seen["s2c"]).split(b"\n", 1)[0])
        assert set(first) == {"t", "v", "app", "auth", "nonce"}  # routing only
        for nonce in (first["nonce"], answer["nonce"]):  # random hex: "4821" may be in it
            captured = captured.replace(nonce.encode(), b"")
        for secret in (b"4821", b"Annabelle", b"Secret Table", ann.public, host.identity.public,
                       ann.public.hex().encode(), SCOPE, SCOPE.hex().encode(), proof.key,
                       proof.sig):
            assert secret not in captured, secret
        proxy.close()
        await served.close()

    run(go())


@pytest.mark.slow  # waits out the handshake's 5 s
def test_a_connection_that_never_finishes_its_handshake_is_timed_out() -> None:
    async def go() -> None:
        from palmish.network.session import handshake

        host = side()
        served = await serve(host)
        reader, writer = await asyncio.open_connection(ADDRESS, served.port)
        writer.write(b'{"t":"hello","v":2,"app":"pachisi","auth":"code","nonce":"'
                     + b"0" * 32 + b'"}\n')
        assert await asyncio.wait_for(reader.readline(), 5)  # the server's hello
        started = asyncio.get_running_loop().time()
        assert await asyncio.wait_for(reader.read(), 2 * handshake.HANDSHAKE_S) != b"x"
        assert asyncio.get_running_loop().time() - started <= handshake.HANDSHAKE_S + 1
        await asyncio.sleep(0.1)
        assert any("counted as a wrong code" in line for line in served.log), served.log
        writer.close()
        await served.close()

    run(go())


def test_a_handshake_error_is_one_exception_with_one_line() -> None:
    async def go() -> None:
        served = await serve(side())
        with pytest.raises(HandshakeError) as err:
            await connect(ADDRESS, served.port, app="pachisi", identity=Identity.new(),
                          code="9999")
        assert "\n" not in str(err.value)
        await served.close()

    run(go())


def test_silence_and_a_frame_that_never_ends_are_bounded_in_time() -> None:
    async def go() -> None:
        served = await serve(side())
        session = await connect(ADDRESS, served.port, app="pachisi", identity=Identity.new(),
                                code="4821")
        with pytest.raises(SessionError, match="silent for"):
            await session.receive(timeout=0.3)  # the server says nothing
        server_side = served.sessions[0] if served.sessions else None
        session.writer.write(b"\x00\x00\x01\x00" + b"x" * 10)  # a frame that never ends
        await session.drain()
        await asyncio.sleep(0.1)
        assert server_side is not None
        with pytest.raises(SessionError, match="silent for"):
            await server_side.receive(timeout=0.3)
        await session.close()
        await served.close()

    run(go())
