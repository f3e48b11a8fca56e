"""Hostile peers against a real host process (loopback only, every loop bounded):
they are dropped with one log line each and the game finishes as if they never came."""

from __future__ import annotations

import asyncio
import contextlib
import os
import socket
import threading
import time
from pathlib import Path

import pytest

from palmish.network.session import dice
from palmish.network.session.channel import SessionError
from palmish.network.session.handshake import connect as open_session
from palmish.network.session.identity import Identity, prove_seat
from palmish.network.session.kinds import FROM_SERVER, Join
from palmish.pachisi.game import Game
from palmish.pachisi.net import messages
from tests.network.processes import host, join

pytestmark = pytest.mark.process  # every test here starts another program

ADDRESS = "127.0.0.1"


def connect(port: int) -> socket.socket:
    s = socket.create_connection((ADDRESS, port), timeout=10)
    s.settimeout(10)
    return s


def closed_by_host(s: socket.socket, limit_s: float = 10.0) -> bool:
    """Read until the host closes (True) or `limit_s` passes (False)."""
    deadline = time.monotonic() + limit_s
    try:
        while time.monotonic() < deadline:
            if not s.recv(65536):
                return True
    except (ConnectionError, TimeoutError):
        return True
    return False


def send_and_expect_drop(port: int, data: bytes) -> bool:
    with connect(port) as s:
        try:
            s.sendall(data)
        except ConnectionError:
            return True
        return closed_by_host(s)


def slow_loris(port: int, seconds: int, result: list[bool]) -> None:
    with connect(port) as s:
        try:
            for byte in b'{"t":"hello","v":2,"app":"pachisi"'[:seconds]:
                s.sendall(bytes([byte]))
                time.sleep(1.0)
        except ConnectionError:
            result.append(True)
            return
        result.append(closed_by_host(s, 2.0))


def crowd(port: int, count: int, hold_s: float) -> int:
    """`count` connections at once, held open, then closed: how many connected."""
    sockets = []
    try:
        for _ in range(count):
            with contextlib.suppress(OSError):
                sockets.append(connect(port))
        time.sleep(hold_s)
        return len(sockets)
    finally:
        for s in sockets:
            s.close()


async def cheating_eve(port: int, code: str) -> list[str]:
    """A seated peer that asks out of turn, then sends a record with a wrong field
    (sealed: the session is sound, the message is not): the kinds it received."""
    session = await open_session(ADDRESS, port, app="pachisi", identity=Identity.new(), code=code,
                            hears=FROM_SERVER + dice.FROM_HOST + messages.FROM_HOST)
    assert session.peer is not None and session.peer.scope is not None
    eve = Identity.new()
    session.send(Join("Eve", seat=prove_seat(eve, session.peer.scope, session.exporter)))
    kinds: list[str] = []
    try:
        first = await session.receive()
        assert first is not None
        kinds.append(first.KIND)
        for intent in (messages.Move(3), messages.Pass(), messages.Move(0)):
            session.send(intent)
        while "error" not in kinds:
            record = await session.receive()
            assert record is not None
            kinds.append(record.KIND)
        session.send_bytes(b'{"t":"move","piece":"all"}')  # valid JSON, wrong field: dropped
        while True:
            try:
                if await session.receive() is None:
                    break
            except SessionError:
                break
    finally:
        await session.close()
    return kinds


def test_hostile_peers_change_nothing_and_the_game_finishes(tmp_path: Path) -> None:
    server, port, code = host(tmp_path / "host", "--seats", "remote,remote,computer,computer",
                              "--wait", "2", "--seed", "9")
    ann = None
    try:
        garbage = [
            os.urandom(3000) + b"\n",  # random bytes
            b"x" * 100_000 + b"\n",  # an oversized line
            b"{this is not json\n",  # invalid JSON
            b'{"t":"hello","v":2,"app":"pachisi","auth":"code","nonce":7}\n',
            b"[" * 5000 + b"\n",
        ]
        assert all(send_and_expect_drop(port, data) for data in garbage)
        loris: list[bool] = []
        slow = threading.Thread(target=slow_loris, args=(port, 8, loris))
        slow.start()
        # Dropped by the hello's time limit before anyone sits down: a game played
        # out quickly would otherwise close it at the end instead.
        slow.join(timeout=20)
        assert loris == [True]
        ann = join(port, code, "Ann", tmp_path / "ann")
        server.wait_for_log("Ann sits in seat 1")
        kinds = asyncio.run(asyncio.wait_for(cheating_eve(port, code), 20))
        assert kinds[0] == "welcome" and "error" in kinds
        assert crowd(port, 100, 1.0) >= 50
        assert ann.finish() == 0, (ann.err_lines, server.err_lines)
        assert server.finish() == 0, server.err_lines
        record = server.record()
        game = Game.from_record(record)
        assert game.over and ann.record() == record
        assert "players=Ann:h,Eve:h,Silicon:c,Silicon1:c" in record
        log = "\n".join(server.err_lines)
        for reason in ("a line longer than 1024 bytes", "not JSON", "hello: bad nonce",
                       "malformed: move: bad piece", "no session within 5 s", "Eve is away",
                       "Silicon plays for Eve"):
            assert reason in log, log
        assert "Traceback" not in log
    finally:
        server.kill()
        if ann is not None:
            ann.kill()
