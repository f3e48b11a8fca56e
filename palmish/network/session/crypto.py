"""The primitives of the session layer, each one call into `cryptography` or
`spake2` (docs/network-session.md, "Construction"): HKDF-SHA256 (RFC 5869),
ChaCha20-Poly1305 (RFC 8439) with a counter nonce per direction, X25519
(RFC 7748), Ed25519 (RFC 8032) and SPAKE2 over Ed25519 (the `spake2`
package, as Magic Wormhole uses it). Nothing here is home-made: the
libraries do the arithmetic; this module only names what goes in.

The libraries are imported inside the functions, on first use, so that a
start that does no networking never loads them.
"""

from __future__ import annotations

import hashlib
import struct
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey

TAG_BYTES = 16  # Poly1305's tag
MAX_COUNTER = (1 << 64) - 1
LABEL = b"palmish2 "  # every label starts so: no key of this protocol serves another


class CryptoError(ValueError):
    """A check failed: a sealed frame, a signature, a key exchange message."""


def transcript(*parts: bytes) -> bytes:
    """SHA-256 over each part preceded by its length (4 bytes, big-endian), so that
    no two different lists of parts hash alike."""
    digest = hashlib.sha256()
    for part in parts:
        digest.update(struct.pack(">I", len(part)))
        digest.update(part)
    return digest.digest()


def hkdf(secret: bytes, salt: bytes, label: str, length: int = 32) -> bytes:
    """HKDF-SHA256 (RFC 5869): extract with `salt`, expand with LABEL + `label`."""
    from cryptography.hazmat.primitives import hashes
    from cryptography.hazmat.primitives.kdf.hkdf import HKDF

    info = LABEL + label.encode("ascii")
    return HKDF(algorithm=hashes.SHA256(), length=length, salt=salt, info=info).derive(secret)


@dataclass(frozen=True)
class Keys:
    """What a handshake gives both sides: a key for each direction and an
    exporter value (RFC 8446's idea: bound to this session, known only to
    its two ends) that proofs such as a seat's sign."""

    client_to_server: bytes
    server_to_client: bytes
    exporter: bytes


def session_keys(shared: bytes, handshake_hash: bytes) -> Keys:
    return Keys(hkdf(shared, handshake_hash, "c2s"), hkdf(shared, handshake_hash, "s2c"),
                hkdf(shared, handshake_hash, "exporter"))


def nonce(counter: int) -> bytes:
    """RFC 8439's 96-bit nonce: four zero bytes, then the counter (8 bytes, big-endian)."""
    return b"\0\0\0\0" + counter.to_bytes(8, "big")


class Sealer:
    """One direction's AEAD: every call uses the next counter. The counter is
    never sent; the other side counts too, so a frame replayed, reordered or
    dropped opens under the wrong nonce and fails like an altered one."""

    def __init__(self, key: bytes) -> None:
        from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305

        self._aead: Any = ChaCha20Poly1305(key)
        self.counter = 0

    def _next(self) -> bytes:
        if self.counter > MAX_COUNTER:
            raise CryptoError("the session has sealed all the frames it may")
        value = nonce(self.counter)
        self.counter += 1
        return value

    def seal(self, plaintext: bytes, associated: bytes) -> bytes:
        return bytes(self._aead.encrypt(self._next(), plaintext, associated))

    def open(self, sealed: bytes, associated: bytes) -> bytes:
        from cryptography.exceptions import InvalidTag

        try:
            return bytes(self._aead.decrypt(self._next(), sealed, associated))
        except InvalidTag:
            raise CryptoError("a frame failed its check") from None


def ephemeral() -> tuple[X25519PrivateKey, bytes]:
    """A new X25519 key pair for one handshake: the private key and the public bytes."""
    from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey

    private = X25519PrivateKey.generate()
    return private, private.public_key().public_bytes_raw()


def agree(private: X25519PrivateKey, peer_public: bytes) -> bytes:
    """X25519 with the peer's public key; CryptoError for a key that gives nothing
    (the library refuses a low-order point's all-zero result)."""
    from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PublicKey

    try:
        return private.exchange(X25519PublicKey.from_public_bytes(peer_public))
    except ValueError:
        raise CryptoError("a key exchange message that is no usable key") from None


def verify_signature(public: bytes, signature: bytes, data: bytes) -> bool:
    """Ed25519 (RFC 8032): whether `signature` is the key `public`'s of `data`."""
    from cryptography.exceptions import InvalidSignature
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

    try:
        Ed25519PublicKey.from_public_bytes(public).verify(signature, data)
    except (InvalidSignature, ValueError):
        return False
    return True


class Pake:
    """One side of SPAKE2 (the `spake2` package, its Ed25519 group): the code is
    the password; the two sides' identities name the protocol and the app, so a
    message made for one app or side is worth nothing in another."""

    def __init__(self, code: str, client: bool, app: str) -> None:
        from spake2 import SPAKE2_A, SPAKE2_B

        ids = {"idA": LABEL + b"client " + app.encode("ascii"),
               "idB": LABEL + b"server " + app.encode("ascii")}
        side = SPAKE2_A if client else SPAKE2_B
        self._state: Any = side(code.encode("ascii"), **ids)
        self.message: bytes = bytes(self._state.start())

    def finish(self, peer_message: bytes) -> bytes:
        """The shared key; CryptoError for a message that is not the other side's."""
        try:
            return bytes(self._state.finish(peer_message))
        except Exception:  # the package raises its own kinds and ValueError for bad points
            raise CryptoError("a key exchange message that is no usable SPAKE2 message") from None


class PakeSupply:
    """SPAKE2's first half made ahead: `start` is half a side's work, and done
    between handshakes (`refill`, when the loop is idle) it is off their path.
    Each one is used by one handshake only; its secret never leaves memory."""

    def __init__(self, code: str, client: bool, app: str) -> None:
        self.code, self.client, self.app = code, client, app
        self._ready: Pake | None = None

    def take(self) -> Pake:
        ready, self._ready = self._ready, None
        return ready or Pake(self.code, self.client, self.app)

    def refill(self) -> None:
        if self._ready is None:
            self._ready = Pake(self.code, self.client, self.app)
