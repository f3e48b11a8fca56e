"""A joiner written from docs/network.md and docs/network-session.md alone:
Python's socket, json, hashlib, struct, base64 and random, the `spake2`
package and `cryptography`, no palmish code. Against a real host process it
meets with the join code, proves its seat, adds its part to the dice, plays
its seat by the host's `turn` messages, and at the end checks every throw
against the dice round and the record, as the docs say."""

from __future__ import annotations

import base64
import hashlib
import json
import os
import random
import socket
import struct
import time
from pathlib import Path
from typing import Any

import pytest
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric.ed25519 import (
    Ed25519PrivateKey,
    Ed25519PublicKey,
)
from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305
from cryptography.hazmat.primitives.kdf.hkdf import HKDF
from spake2 import SPAKE2_A

from tests.network.processes import host

pytestmark = pytest.mark.process  # every test here starts another program

APP = "pachisi"
COWRIE = (25, 10, 2, 3, 4, 5, 6)  # mouths up -> value (docs/network.md, "Dice")


def b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


def hkdf(secret: bytes, salt: bytes, info: bytes) -> bytes:
    return HKDF(algorithm=hashes.SHA256(), length=32, salt=salt, info=info).derive(secret)


class Joiner:
    def __init__(self, port: int, code: str) -> None:
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=5)
        self.code = code
        self.seed = os.urandom(32)  # this client's identity
        self.me = Ed25519PrivateKey.from_private_bytes(self.seed)
        self.buffer = b""
        self.sent = self.received = 0

    # ---------------------------------------------------------- bytes and frames

    def read(self, count: int) -> bytes:
        while len(self.buffer) < count:
            chunk = self.sock.recv(65536)
            assert chunk, "the host closed"
            self.buffer += chunk
        data, self.buffer = self.buffer[:count], self.buffer[count:]
        return data

    def read_line(self) -> bytes:
        while b"\n" not in self.buffer:
            chunk = self.sock.recv(65536)
            assert chunk, "the host closed"
            self.buffer += chunk
        line, self.buffer = self.buffer.split(b"\n", 1)
        return line

    def read_frame(self) -> tuple[bytes, bytes]:
        header = self.read(4)
        return header, self.read(struct.unpack(">I", header)[0])

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

    # ---------------------------------------------------------- the session

    def handshake(self) -> None:
        hello = json.dumps({"t": "hello", "v": 2, "app": APP, "auth": "code",
                            "nonce": os.urandom(16).hex()}).encode()
        self.sock.sendall(hello + b"\n")
        pake = SPAKE2_A(self.code.encode("ascii"), idA=b"palmish2 client " + APP.encode(),
                        idB=b"palmish2 server " + APP.encode())
        mine = json.dumps({"t": "pake", "msg": b64(pake.start())}).encode()
        self.sock.sendall(struct.pack(">I", len(mine)) + mine)
        answer = self.read_line()
        assert json.loads(answer)["t"] == "hello", answer
        _, theirs = self.read_frame()
        shared = pake.finish(base64.b64decode(json.loads(theirs)["msg"]))
        digest = hashlib.sha256()
        for part in (hello, answer, mine, theirs):
            digest.update(struct.pack(">I", len(part)) + part)
        th = digest.digest()
        self.c2s = hkdf(shared, th, b"palmish2 c2s")
        self.s2c = hkdf(shared, th, b"palmish2 s2c")
        self.exporter = hkdf(shared, th, b"palmish2 exporter")
        auth = self.open()
        self.scope = bytes.fromhex(auth["scope"])  # the table's id
        Ed25519PublicKey.from_public_bytes(base64.b64decode(auth["id"])).verify(
            base64.b64decode(auth["sig"]), b"palmish2 server auth\0" + th + self.scope)
        me = self.me.public_key().public_bytes_raw()
        self.seal({"t": "auth", "id": b64(me),
                   "sig": b64(self.me.sign(b"palmish2 client auth\0" + th + self.scope))})

    def join(self, name: str) -> None:
        seat = Ed25519PrivateKey.from_private_bytes(
            hkdf(self.seed, self.scope, b"palmish2 seat key"))
        proof = {"key": b64(seat.public_key().public_bytes_raw()),
                 "sig": b64(seat.sign(b"palmish2 seat\0" + self.scope + self.exporter))}
        self.dice_secret = os.urandom(32)
        self.dice_commit = hashlib.sha256(b"palmish2 dice commit\0" + self.dice_secret).digest()
        self.seal({"t": "join", "name": name, "seat": proof, "dice": self.dice_commit.hex()})

    # ---------------------------------------------------------- the game

    def play(self, limit_s: float = 60.0) -> tuple[str, list[dict[str, Any]]]:
        """Play the seat to the end: the record and every message received."""
        seen: list[dict[str, Any]] = []
        seat = None
        last_ping = time.monotonic()
        deadline = time.monotonic() + limit_s
        self.sock.settimeout(0.5)
        while time.monotonic() < deadline:
            if time.monotonic() - last_ping > 1.0:
                self.seal({"t": "ping"})
                last_ping = time.monotonic()
            try:
                msg = self.open()
            except TimeoutError:
                continue
            seen.append(msg)
            kind = msg["t"]
            if kind == "welcome":
                seat = msg["seat"]
            elif kind == "dice-commits":
                assert msg["host"] == seen[0]["dice"]  # the welcome's
                assert self.dice_commit.hex() in msg["joiners"]
                self.seal({"t": "dice-reveal", "secret": self.dice_secret.hex()})
            elif kind == "end":
                return msg["record"], seen
            elif kind == "turn" and msg["seat"] == seat:
                if msg["phase"] == "throw":
                    self.seal({"t": "throw"})
                elif msg["phase"] == "move":
                    self.seal({"t": "move", "piece": msg["pieces"][0]})
        raise AssertionError("the game did not end in time")


def check_dice(record: str, seen: list[dict[str, Any]]) -> str:
    """Every throw against the commitments (docs/network.md, "Dice")."""
    def first(kind: str) -> dict[str, Any]:
        return next(m for m in seen if m["t"] == kind)

    welcome, commits = first("welcome"), first("dice-commits")
    secrets, host_secret = first("dice-secrets"), bytes.fromhex(first("dice-end")["secret"])
    if hashlib.sha256(b"palmish2 dice commit\0" + host_secret).hexdigest() != welcome["dice"]:
        return "the host's secret does not match its commitment"
    digest = hashlib.sha256(b"palmish2 dice seed\0" + host_secret)
    for secret, pledged in zip(secrets["joiners"], commits["joiners"], strict=True):
        if secret is None:
            digest.update(b"\0")
            continue
        if hashlib.sha256(b"palmish2 dice commit\0" + bytes.fromhex(secret)).hexdigest() \
                != pledged:
            return "a joiner's secret does not match its commitment"
        digest.update(b"\1" + bytes.fromhex(secret))
    seed = int.from_bytes(digest.digest()[:16], "big")
    if f" seed={seed} " not in record:
        return "the record's seed is not the dice's"
    rng = random.Random(seed)
    throws = [int(m["step"][1:]) for m in seen if m["t"] == "step" and m["step"][0] == "T"]
    for n, thrown in enumerate(throws, start=1):
        due = COWRIE[bin(rng.getrandbits(6)).count("1")]
        if thrown != due:
            return f"throw {n}: {thrown}, the commitments give {due}"
    return "verified"


def test_a_client_from_the_docs_plays_a_whole_game_and_checks_the_dice(
        tmp_path: Path) -> None:
    server, port, code = host(tmp_path, "--seats", "computer,remote,computer")
    try:
        doc = Joiner(port, code)
        doc.handshake()
        doc.join("Doc")
        record, seen = doc.play()
        assert server.finish() == 0
        assert record == server.record()
        kinds = [m["t"] for m in seen]
        assert kinds[0] == "welcome"
        assert {"seats", "dice-commits", "dice-secrets", "game", "turn", "step",
                "dice-end", "end"} <= set(kinds)
        assert "error" not in kinds
        assert check_dice(record, seen) == "verified"
    finally:
        server.kill()
