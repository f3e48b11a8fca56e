"""Beam with someone in the middle (docs/network.md, "Beam", "Security"): a
logging and rewriting TCP proxy on loopback between two beaming handhelds
reads no code, name, key or plugin name; a byte rewritten anywhere is refused,
never believed; a recorded beam replayed opens nothing."""

from __future__ import annotations

import asyncio
import base64
import json
from pathlib import Path

import pytest

from palmish.device.exchange import PLUGIN, BeamItem
from palmish.network.beam.receiver import INTERRUPTED
from palmish.network.session.identity import load_identity
from tests.network import beam_items
from tests.network.beam_loopback import ADDRESS, CODE, Receiver, beam, run
from tests.network.session.loopback import Proxy

SENDER = "Denholm-Study"  # names long enough that no random byte run spells them
RECEIVER = "Kitchen-Counter"


def _secrets(tmp_path: Path) -> dict[str, bytes]:
    """What must never cross in clear: the code, both names, the plugin's name, both
    identity keys (raw, hex, base64) and their fingerprints."""
    found = {"code": CODE.encode(), "sender": SENDER.encode(), "receiver": RECEIVER.encode(),
             "plugin name": b"Cherry Board"}
    for side in ("r", "s"):
        identity = load_identity(tmp_path / side, print)
        found[f"{side} key"] = identity.public
        found[f"{side} key hex"] = identity.public.hex().encode()
        found[f"{side} key b64"] = base64.b64encode(identity.public)
        found[f"{side} fingerprint"] = identity.fingerprint.encode()
    return found


def test_a_proxy_reads_nothing_of_a_first_beam_nor_of_a_paired_one(tmp_path: Path) -> None:
    cherry = beam_items.cherry()
    assert b"Cherry Board" in cherry

    async def go() -> tuple[bytes, bytes]:
        rec = await Receiver(tmp_path / "r", name=RECEIVER).start()
        proxy = await Proxy(rec.port).start()
        try:
            first = await beam(BeamItem(PLUGIN, data=cherry), proxy.port, tmp_path / "s",
                               code=CODE, name=SENDER)
            assert first.accepted and first.receiver == RECEIVER
            captured_first = bytes(proxy.seen["c2s"] + proxy.seen["s2c"])
            proxy.seen = {"c2s": bytearray(), "s2c": bytearray()}
            again = await beam(BeamItem(PLUGIN, data=cherry), proxy.port, tmp_path / "s",
                               name=SENDER)
            assert again.accepted
            assert rec.offers[1].item.data == cherry and not rec.offers[1].new
            return captured_first, bytes(proxy.seen["c2s"] + proxy.seen["s2c"])
        finally:
            proxy.close()
            await rec.close()

    captures = run(go())
    secrets = _secrets(tmp_path)
    for captured in captures:
        assert len(captured) > len(cherry)  # the whole item crossed, sealed
        seen = [what for what, value in secrets.items() if value in captured]
        assert seen == []
    # The routing lines hold only what routing needs.
    first_line = captures[0].split(b"\n", 1)[0]
    assert sorted(json.loads(first_line)) == ["app", "auth", "nonce", "t", "v"]


# Offsets of the client's (c2s) or server's (s2c) bytes: in its first routing line,
# in its handshake frame, in its auth, in a record after the handshake, deep in
# the item's chunks.
SPOTS = [("c2s", 30), ("c2s", 150), ("c2s", 300), ("c2s", 520), ("c2s", 20_000),
         ("s2c", 40), ("s2c", 150), ("s2c", 300), ("s2c", 470)]


@pytest.mark.parametrize(("direction", "offset"), SPOTS)
def test_a_byte_rewritten_anywhere_is_refused_never_believed(
        tmp_path: Path, direction: str, offset: int) -> None:
    cherry = beam_items.cherry()
    passed = {"c2s": 0, "s2c": 0}

    def rewrite(way: str, chunk: bytes) -> list[bytes]:
        start, passed[way] = passed[way], passed[way] + len(chunk)
        if way == direction and start <= offset < passed[way]:
            at = offset - start
            return [chunk[:at] + bytes([chunk[at] ^ 0x01]) + chunk[at + 1:]]
        return [chunk]

    async def go() -> None:
        rec = await Receiver(tmp_path / "r", name=RECEIVER).start()
        proxy = await Proxy(rec.port, rewrite).start()
        try:
            outcome = await beam(BeamItem(PLUGIN, data=cherry), proxy.port, tmp_path / "s",
                                 code=CODE, name=SENDER)
            assert not outcome.accepted, outcome
            await asyncio.sleep(0.2)  # the receiver's side of it ends too
        finally:
            proxy.close()
            await rec.close()
        assert passed[direction] > offset  # the rewrite happened
        assert rec.offers == []  # nothing was believed enough to ask the person
        assert all(e.verdict == INTERRUPTED and e.arrival is None for e in rec.ended)
        assert not (tmp_path / "r" / "network" / "keys" / "beam-senders").exists()
        assert not (tmp_path / "r" / "databases").exists()

    run(go())


def test_a_recorded_beam_replayed_opens_nothing(tmp_path: Path) -> None:
    async def replay(port: int, recorded: bytes) -> bytes:
        reader, writer = await asyncio.open_connection(ADDRESS, port)
        writer.write(recorded)
        await writer.drain()
        got = b""
        try:
            while chunk := await asyncio.wait_for(reader.read(65536), 10):
                got += chunk
        except ConnectionError:
            pass
        writer.close()
        return got

    async def go() -> None:
        rec = await Receiver(tmp_path / "r", name=RECEIVER).start()
        proxy = await Proxy(rec.port).start()
        try:
            board = BeamItem("board", "sigmar", number=4321)
            assert (await beam(board, proxy.port, tmp_path / "s", code=CODE,
                               name=SENDER)).accepted
            with_code = bytes(proxy.seen["c2s"])
            proxy.seen["c2s"] = bytearray()
            assert (await beam(board, proxy.port, tmp_path / "s", name=SENDER)).accepted
            by_keys = bytes(proxy.seen["c2s"])
            for recorded in (with_code, by_keys):
                answer = await replay(rec.port, recorded)
                assert b'"t":"hello"' in answer.split(b"\n", 1)[0]  # a new nonce, new halves
        finally:
            proxy.close()
            await rec.close()
        assert len(rec.offers) == 2  # the two real beams; the replays, nothing
        assert any(line.endswith("wrong code (counted as a wrong code)") for line in rec.log)
        assert any(line.endswith("the handshake was changed on the way") for line in rec.log)

    run(go())
