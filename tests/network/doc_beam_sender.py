"""A beam sender written from docs/network.md ("Beam", "A beam, byte by byte")
with Python's socket, json, hashlib, struct and base64, the `spake2` package
and `cryptography`: no palmish code. It meets a receiver with its code (the
SPAKE2 password) or by keys, then beams one item, record by record.

Run as its own process by the tests: it offers SIZE bytes, sends CHUNKS chunks
of them, then keeps the session (pinging) until killed or until HOLD seconds
pass. Every record it receives but pings is printed as it came (its JSON).

    python -m tests.network.doc_beam_sender PORT CODE SIZE CHUNKS HOLD
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
import socket
import struct
import sys
import time
from typing import Any

from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric.ed25519 import (
    Ed25519PrivateKey,
    Ed25519PublicKey,
)
from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey, X25519PublicKey
from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305
from cryptography.hazmat.primitives.kdf.hkdf import HKDF
from spake2 import SPAKE2_A


def b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


def hkdf(secret: bytes, salt: bytes, info: bytes) -> bytes:
    return HKDF(algorithm=hashes.SHA256(), length=32, salt=salt, info=info).derive(secret)


class DocSender:
    """One connection to a beam receiver, through its handshake."""

    def __init__(self, port: int, seed: bytes, show: bool = False) -> None:
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=10)
        self.me = Ed25519PrivateKey.from_private_bytes(seed)
        self.buffer = b""
        self.show = show  # print every record received

    def read(self, count: int) -> bytes:
        while len(self.buffer) < count:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise EOFError("the receiver closed")
            self.buffer += chunk
        data, self.buffer = self.buffer[:count], self.buffer[count:]
        return data

    def read_line(self) -> bytes:
        while b"\n" not in self.buffer:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise EOFError("the receiver closed")
            self.buffer += chunk
        line, self.buffer = self.buffer.split(b"\n", 1)
        return line

    def send_frame(self, payload: bytes) -> None:
        self.sock.sendall(struct.pack(">I", len(payload)) + payload)

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
        if self.show and value["t"] != "ping":
            print(plain.decode("utf-8"), flush=True)
        return value

    def answer(self) -> dict[str, Any]:
        """The receiver's next record but pings."""
        while True:
            record = self.open()
            if record["t"] != "ping":
                return record

    def handshake(self, code: str | None, receiver_key: bytes | None = None) -> bytes:
        """Code mode with `code`, else key mode (the receiver must be
        `receiver_key`); the receiver's identity key. The first line the
        receiver sends may be a refusal: ValueError with its reason."""
        auth = "code" if code is not None else "key"
        hello = json.dumps({"t": "hello", "v": 2, "app": "beam", "auth": auth,
                            "nonce": os.urandom(16).hex()}).encode()
        self.sock.sendall(hello + b"\n")
        if code is not None:
            pake = SPAKE2_A(code.encode("ascii"), idA=b"palmish2 client beam",
                            idB=b"palmish2 server beam")
            mine = json.dumps({"t": "pake", "msg": b64(pake.start())}).encode()
        else:
            ephemeral = X25519PrivateKey.generate()
            mine = json.dumps({"t": "dh",
                               "e": b64(ephemeral.public_key().public_bytes_raw())}).encode()
        self.send_frame(mine)
        answer = self.read_line()
        said = json.loads(answer)
        if said["t"] != "hello":
            raise ValueError(said["reason"])
        _, theirs = self.read_frame()
        other = json.loads(theirs)
        if code is not None:
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
        self.sent = self.received = 0
        server_auth = self.open()  # a wrong code: this fails its check (InvalidTag)
        receiver = base64.b64decode(server_auth["id"])
        Ed25519PublicKey.from_public_bytes(receiver).verify(
            base64.b64decode(server_auth["sig"]), b"palmish2 server auth\0" + th)
        if receiver_key is not None and receiver != receiver_key:
            raise ValueError("not the receiver this sender paired with")
        mine_id = self.me.public_key().public_bytes_raw()
        self.seal({"t": "auth", "id": b64(mine_id),
                   "sig": b64(self.me.sign(b"palmish2 client auth\0" + th))})
        return receiver

    def offer(self, name: str, kind: str, app: str, size: int,
              number: int | None = None) -> dict[str, Any]:
        """join, then offer; the receiver's welcome (or its refusal)."""
        self.seal({"t": "join", "name": name})
        welcome = self.answer()
        if welcome["t"] != "welcome":
            return welcome
        self.seal({"t": "offer", "kind": kind, "app": app, "name": "", "number": number,
                   "size": size})
        return welcome

    def beam(self, name: str, data: bytes) -> dict[str, Any]:
        """A plugin's bytes, beamed whole: the receiver's last record (its result)."""
        welcome = self.offer(name, "plugin", "", len(data))
        if welcome["t"] != "welcome":
            return welcome
        said = self.answer()
        if said["t"] != "ready":
            return said
        for n, start in enumerate(range(0, len(data), 32768)):
            self.seal({"t": "data", "n": n, "chunk": b64(data[start:start + 32768])})
            assert self.answer()["t"] == "progress"
        self.seal({"t": "end", "sha256": hashlib.sha256(data).hexdigest()})
        said = self.answer()
        if said["t"] == "asking":
            said = self.answer()
        return said

    def close(self) -> None:
        self.sock.close()


def main() -> int:
    port, code, size, chunks, hold = (int(sys.argv[1]), sys.argv[2], int(sys.argv[3]),
                                      int(sys.argv[4]), float(sys.argv[5]))
    sender = DocSender(port, os.urandom(32))
    try:
        sender.handshake(code)
        sender.show = True
        if sender.offer("Raw", "plugin", "", size)["t"] != "welcome":
            return 1
        if sender.answer()["t"] != "ready":
            return 1
        for n in range(chunks):
            sender.seal({"t": "data", "n": n, "chunk": b64(b"\xa5" * 32768)})
            sender.answer()
        print("sent", flush=True)
        end = time.monotonic() + hold
        while time.monotonic() < end:  # bounded: the test kills it long before
            sender.seal({"t": "ping"})
            time.sleep(1.0)
    except EOFError:
        print("closed", flush=True)
    finally:
        sender.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
