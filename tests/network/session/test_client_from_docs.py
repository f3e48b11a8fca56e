"""A client written from docs/network-session.md alone: Python's socket, json,
hashlib, struct and base64, the `spake2` package and `cryptography`, no
palmish code. Against a server of the session package (on its own thread and
loop, on loopback), it meets with the code, proves a seat, pairs, and comes
back by keys alone."""

from __future__ import annotations

import asyncio
import base64
import hashlib
import json
import os
import socket
import struct
import threading
from collections.abc import Iterator
from typing import Any

import pytest
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric.ed25519 import (
    Ed25519PrivateKey,
    Ed25519PublicKey,
)
from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey, X25519PublicKey
from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305
from cryptography.hazmat.primitives.kdf.hkdf import HKDF
from spake2 import SPAKE2_A

CODE = "4821"
APP = "pachisi"


# ----------------------------------------------------------- the client, from the page


def b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


def hkdf(secret: bytes, salt: bytes, info: bytes) -> bytes:
    return HKDF(algorithm=hashes.SHA256(), length=32, salt=salt, info=info).derive(secret)


class DocClient:
    def __init__(self, port: int, seed: bytes) -> None:
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=5)
        self.seed = seed
        self.me = Ed25519PrivateKey.from_private_bytes(seed)
        self.buffer = b""

    def read(self, count: int) -> bytes:
        while len(self.buffer) < count:
            chunk = self.sock.recv(65536)
            assert chunk, "the server closed"
            self.buffer += chunk
        data, self.buffer = self.buffer[:count], self.buffer[count:]
        return data

    def read_line(self) -> bytes:
        while b"\n" not in self.buffer:
            chunk = self.sock.recv(65536)
            assert chunk, "the server closed"
            self.buffer += chunk
        line, self.buffer = self.buffer.split(b"\n", 1)
        return line

    def read_frame(self) -> tuple[bytes, bytes]:
        header = self.read(4)
        return header, self.read(struct.unpack(">I", header)[0])

    def send_frame(self, payload: bytes) -> None:
        self.sock.sendall(struct.pack(">I", len(payload)) + payload)

    @staticmethod
    def nonce(counter: int) -> bytes:
        return b"\0\0\0\0" + counter.to_bytes(8, "big")

    def seal(self, record: dict[str, Any]) -> None:
        plain = json.dumps(record, separators=(",", ":")).encode("utf-8")
        header = struct.pack(">I", len(plain) + 16)
        sealed = ChaCha20Poly1305(self.c2s).encrypt(self.nonce(self.sent), plain, header)
        self.sent += 1
        self.sock.sendall(header + sealed)

    def open(self) -> dict[str, Any]:
        header, sealed = self.read_frame()
        plain = ChaCha20Poly1305(self.s2c).decrypt(self.nonce(self.received), sealed, header)
        self.received += 1
        value = json.loads(plain)
        assert isinstance(value, dict)
        return value

    def handshake(self, auth: str, server_key: bytes | None = None) -> dict[str, Any]:
        """The routing lines, the handshake frames, the keys, the auths; the
        server's auth."""
        hello = json.dumps({"t": "hello", "v": 2, "app": APP, "auth": auth,
                            "nonce": os.urandom(16).hex()}).encode()
        self.sock.sendall(hello + b"\n")
        if auth == "code":
            pake = SPAKE2_A(CODE.encode("ascii"), idA=b"palmish2 client " + APP.encode(),
                            idB=b"palmish2 server " + APP.encode())
            mine = json.dumps({"t": "pake", "msg": b64(pake.start())}).encode()
        else:
            ephemeral = X25519PrivateKey.generate()
            mine = json.dumps({"t": "dh",
                               "e": b64(ephemeral.public_key().public_bytes_raw())}).encode()
        self.send_frame(mine)
        answer = self.read_line()
        assert json.loads(answer)["t"] == "hello", answer
        _, theirs = self.read_frame()
        other = json.loads(theirs)
        if auth == "code":
            shared = pake.finish(base64.b64decode(other["msg"]))
        else:
            shared = ephemeral.exchange(X25519PublicKey.from_public_bytes(
                base64.b64decode(other["e"])))
        digest = hashlib.sha256()
        for part in (hello, answer, mine, theirs):
            digest.update(struct.pack(">I", len(part)) + part)
        th = digest.digest()
        self.c2s = hkdf(shared, th, b"palmish2 c2s")
        self.s2c = hkdf(shared, th, b"palmish2 s2c")
        self.exporter = hkdf(shared, th, b"palmish2 exporter")
        self.sent = self.received = 0
        server_auth = self.open()
        self.scope = bytes.fromhex(server_auth["scope"]) if "scope" in server_auth else b""
        server_id = base64.b64decode(server_auth["id"])
        Ed25519PublicKey.from_public_bytes(server_id).verify(
            base64.b64decode(server_auth["sig"]), b"palmish2 server auth\0" + th + self.scope)
        if server_key is not None:
            assert server_id == server_key
        my_id = self.me.public_key().public_bytes_raw()
        self.seal({"t": "auth", "id": b64(my_id),
                   "sig": b64(self.me.sign(b"palmish2 client auth\0" + th + self.scope))})
        return server_auth

    def seat_proof(self) -> dict[str, str]:
        seat = Ed25519PrivateKey.from_private_bytes(
            hkdf(self.seed, self.scope, b"palmish2 seat key"))
        return {"key": b64(seat.public_key().public_bytes_raw()),
                "sig": b64(seat.sign(b"palmish2 seat\0" + self.scope + self.exporter))}


# ----------------------------------------------------------------- the server


@pytest.fixture
def server() -> Iterator[tuple[int, list[str]]]:
    from palmish.network.session.handshake import ServerSide, accept
    from palmish.network.session.identity import Identity, check_seat
    from palmish.network.session.kinds import VERSION, Join, Refused, Welcome

    loop = asyncio.new_event_loop()
    paired: set[bytes] = set()
    seats: dict[str, bytes] = {}
    log: list[str] = []
    side = ServerSide(APP, Identity.new(), CODE, scope=bytes(range(16)),
                      trusts=paired.__contains__)

    async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        session = await accept(reader, writer, side, log.append)
        if session is None or session.peer is None:
            return
        paired.add(session.peer.key)  # the code vouched for it: a pairing
        join = await session.receive()
        assert isinstance(join, Join) and join.name is not None
        proof = join.seat
        if proof is None or not check_seat(proof, side.scope or b"", session.exporter):
            session.send(Refused(VERSION, "no good seat proof", "name"))
        elif seats.setdefault(join.name, proof.key) != proof.key:
            session.send(Refused(VERSION, f"the name {join.name} is taken", "name"))
        else:
            session.send(Welcome(VERSION, APP, f"{join.name} at {session.peer.mode}", 1))
        await session.drain()
        while await session.receive() is not None:
            pass
        await session.close()

    async def start() -> int:
        server = await asyncio.start_server(handle, "127.0.0.1", 0)
        return int(server.sockets[0].getsockname()[1])

    thread = threading.Thread(target=loop.run_forever, daemon=True)
    thread.start()
    port = asyncio.run_coroutine_threadsafe(start(), loop).result(10)
    yield port, log
    loop.call_soon_threadsafe(loop.stop)
    thread.join(10)


def test_a_client_from_the_docs_meets_with_the_code_then_comes_back_by_keys(
        server: tuple[int, list[str]]) -> None:
    port, log = server
    seed = os.urandom(32)
    first = DocClient(port, seed)
    server_auth = first.handshake("code")
    first.seal({"t": "join", "name": "Ann", "seat": first.seat_proof()})
    welcome = first.open()
    assert welcome == {"t": "welcome", "v": 2, "app": APP, "name": "Ann at code", "seat": 1}
    first.seal({"t": "ping"})
    first.seal({"t": "bye", "text": "leaving"})
    first.sock.close()

    again = DocClient(port, seed)  # paired: keys only, no code
    again.handshake("key", base64.b64decode(server_auth["id"]))
    again.seal({"t": "join", "name": "Ann", "seat": again.seat_proof()})
    assert again.open()["name"] == "Ann at key"
    again.sock.close()

    thief = DocClient(port, os.urandom(32))  # the code, but not Ann's seat key
    thief.handshake("code")
    thief.seal({"t": "join", "name": "Ann", "seat": thief.seat_proof()})
    assert thief.open()["reason"] == "the name Ann is taken"
    thief.sock.close()
    assert not any("Traceback" in line for line in log)
