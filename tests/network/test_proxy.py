"""Protocol version 2 as someone on the network sees it (docs/network.md,
"Security"): a proxy on loopback between a host and its joiners logs every
byte (no code, name, key, move or record in them), rewrites a frame (never
believed: that session ends, the joiner comes back, and the game still ends
with identical records and verified dice), a captured connection replayed
opens nothing, a host that rigs its throws is reported by every joiner, and
wrong codes are limited without locking out a player coming back."""

from __future__ import annotations

import asyncio
import base64
import socket
import time
from pathlib import Path

import pytest

from palmish.network.session.handshake import LockedOut, WrongCode, connect
from palmish.network.session.identity import Identity
from palmish.pachisi.game import Game
from tests.network.processes import Process, host, join
from tests.network.proxy import Proxy

pytestmark = pytest.mark.process  # every test here starts another program

NAMES = ("Annabelle", "Bartolomeo")  # long enough not to turn up in random bytes by chance


def secrets_of(folder: Path) -> list[bytes]:
    """A data folder's identity key, public and private, as it could cross."""
    seed = bytes.fromhex((folder / "network" / "keys" / "identity").read_text().strip())
    public = Identity(seed).public
    return [seed, public, seed.hex().encode(), public.hex().encode(),
            base64.b64encode(public), base64.b64encode(seed)]


def test_nothing_crosses_in_clear_and_a_rewritten_frame_is_never_believed(
        tmp_path: Path) -> None:
    changed: list[int] = []

    def rewrite(number: int, way: str, frame: int, payload: bytes) -> bytes:
        # the 30th frame the host sends to the first joiner's first connection:
        # a step, a turn or a seats message, well inside the game
        if number == 0 and way == "down" and frame == 30 and not changed:
            changed.append(frame)
            return payload[:8] + bytes([payload[8] ^ 0x01]) + payload[9:]
        return payload

    server, port, code = host(tmp_path / "host", "--seats", "remote,computer,remote",
                              "--code", "4821")
    proxy = Proxy(port, rewrite)
    joiners = [join(proxy.port, code, name, tmp_path / name) for name in NAMES]
    try:
        assert server.finish() == 0, server.err_lines
        assert [j.finish() for j in joiners] == [0, 0], [j.err_lines for j in joiners]
        record = server.record()
        assert Game.from_record(record).over
        assert [j.record() for j in joiners] == [record, record]
        assert all(j.err_lines[-1] == "palmish join: dice: verified" for j in joiners)
        assert changed == [30]
        said = "\n".join(line for j in joiners for line in j.err_lines)  # (either came first)
        assert "failed its check" in said and "is gone; waiting for it" in said
        assert len(proxy.captured) >= 3  # the first joiner came back through the proxy
        captured = proxy.everything()
        assert len(captured) > 10_000
        for clear in (code.encode(), *(n.encode() for n in NAMES), b'"move"', b'"throw"',
                      b'"piece"', b'"step"', b'"record"', b"seed=", b"cowrie",
                      b'"seat"', b'"dice"', b'"sig"', b'"key":', b"Silicon"):
            assert clear not in captured, clear
        for name in NAMES:
            for secret in secrets_of(tmp_path / name):
                assert secret not in captured
        for secret in secrets_of(tmp_path / "host"):
            assert secret not in captured
        assert b'"app":"pachisi"' in captured  # the routing line: what routing needs only
    finally:
        proxy.close()
        for p in (server, *joiners):
            p.kill()


def test_a_captured_connection_replayed_opens_nothing(tmp_path: Path) -> None:
    server, port, code = host(tmp_path / "host", "--seats", "remote,remote,computer")
    proxy = Proxy(port)
    ann = join(proxy.port, code, NAMES[0], tmp_path / "ann")
    bob = None
    try:
        server.wait_for_log(f"{NAMES[0]} sits in seat 1")
        time.sleep(0.5)  # its first pings and the seats crossed too
        recorded = bytes(proxy.captured[0].up)
        with socket.create_connection(("127.0.0.1", port), timeout=10) as replay:
            replay.sendall(recorded)
            replay.settimeout(10)
            answered = b""
            while chunk := replay.recv(65536):
                answered += chunk
        assert b"\n" in answered  # the host's routing line, and then nothing opened
        server.wait_for_log(r"wrong code.*\(counted as a wrong code\)")
        assert sum(NAMES[0] in line for line in server.err_lines) == 1  # never sat again
        bob = join(port, code, NAMES[1], tmp_path / "bob")
        assert bob.finish() == 0 and ann.finish() == 0
        assert server.finish() == 0
        assert ann.record() == bob.record() == server.record()
    finally:
        proxy.close()
        for p in (server, ann, bob):
            if p is not None:
                p.kill()


def test_a_host_that_rigs_its_throws_is_reported_by_every_joiner(tmp_path: Path) -> None:
    rigged = Process("--app", "pachisi", "--seats", "remote,remote", "--data-dir",
                     str(tmp_path / "host"), module="tests.network.rigged_host")
    line = rigged.next_line()
    port, code = line.split(":")[1].split(" code ")
    joiners = [join(int(port), code, name, tmp_path / name) for name in NAMES]
    try:
        assert rigged.finish() == 0, rigged.err_lines
        assert [j.finish() for j in joiners] == [1, 1]
        for joiner in joiners:
            verdict = joiner.err_lines[-1]
            assert verdict.startswith("palmish join: dice: not verified: throw "), verdict
            assert ": 6, the commitments give " in verdict
            assert joiner.record() == rigged.record()  # the game as played, reported
    finally:
        for p in (rigged, *joiners):
            p.kill()


async def guess(port: int, code: str) -> str:
    try:
        session = await connect("127.0.0.1", port, app="pachisi", identity=Identity.new(),
                                code=code)
    except WrongCode:
        return "wrong"
    except LockedOut:
        return "locked"
    await session.close()
    return "in"


def test_wrong_codes_are_limited_but_a_player_coming_back_gets_in(tmp_path: Path) -> None:
    server, port, code = host(tmp_path / "host", "--seats", "remote,remote", "--wait", "30")
    ann = join(port, code, NAMES[0], tmp_path / "ann")
    bob = join(port, code, NAMES[1], tmp_path / "bob")
    again = None
    try:
        server.wait_for_log("the game starts")
        ann.kill()
        server.wait_for_log(f"{NAMES[0]} is away")
        wrong = "0000" if code != "0000" else "1111"
        tries = [asyncio.run(guess(port, wrong)) for _ in range(4)]
        assert tries == ["wrong", "wrong", "locked", "locked"]  # 2 a minute from one address
        assert asyncio.run(guess(port, code)) == "locked"  # the right code waits its turn
        again = join(port, code, NAMES[0], tmp_path / "ann")  # by keys: never locked out
        assert again.finish() == 0, again.err_lines
        assert server.finish() == 0 and bob.finish() == 0
        assert again.record() == bob.record() == server.record()
        assert "locked out" in "\n".join(server.err_lines)
    finally:
        for p in (server, ann, bob, again):
            if p is not None:
                p.kill()
