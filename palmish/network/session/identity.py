"""A data folder's long-term identity and the proofs made with it
(docs/network-session.md, "Identity, pairing and seats").

The identity is an Ed25519 key pair (RFC 8032), its private half 32 random
bytes kept in DIR/network/keys/identity (0600, in a 0700 folder). Every
handshake signs with it; a peer that paired knows it by its public key and
shows its fingerprint. A seat is held by a key of its own for each scope (a
table's id), derived from the identity with HKDF (RFC 5869): the proof of a
seat is that key's signature of the scope and of the session's exporter
value, so a proof is worth nothing in another session, and a seat key
nothing at another table.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from palmish.network.session.crypto import LABEL, hkdf, verify_signature
from palmish.network.session.kinds import SeatProof
from palmish.network.session.secretfiles import read_secret, write_secret

if TYPE_CHECKING:
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

KEYS_FOLDER = ("network", "keys")  # under the data folder
IDENTITY_FILE = "identity"
SEED_BYTES = 32
SEAT_LABEL = LABEL + b"seat\0"


def keys_folder(data_dir: Path) -> Path:
    return data_dir.joinpath(*KEYS_FOLDER)


def fingerprint(public: bytes) -> str:
    """A public key shown short: the first 8 bytes of its SHA-256 as four groups
    of four hex digits (`5F0C-9A12-77B3-0E41`), for two people to compare."""
    digits = hashlib.sha256(public).hexdigest()[:16].upper()
    return "-".join(digits[i:i + 4] for i in range(0, 16, 4))


def _signing_key(seed: bytes) -> Ed25519PrivateKey:
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    return Ed25519PrivateKey.from_private_bytes(seed)


class Identity:
    """An Ed25519 key pair made from a 32-byte seed."""

    def __init__(self, seed: bytes) -> None:
        if len(seed) != SEED_BYTES:
            raise ValueError(f"an identity seed is {SEED_BYTES} bytes, not {len(seed)}")
        self._seed = seed
        self._key = _signing_key(seed)
        self.public: bytes = self._key.public_key().public_bytes_raw()

    @classmethod
    def new(cls) -> Identity:
        return cls(secrets.token_bytes(SEED_BYTES))

    @property
    def fingerprint(self) -> str:
        return fingerprint(self.public)

    def sign(self, data: bytes) -> bytes:
        return self._key.sign(data)

    def seat_key(self, scope: bytes) -> Identity:
        """The key this identity holds seats with in `scope` (one per table)."""
        return Identity(hkdf(self._seed, scope, "seat key", SEED_BYTES))

    def seed_text(self) -> bytes:
        return self._seed.hex().encode("ascii") + b"\n"


def load_identity(data_dir: Path, log: Callable[[str], None]) -> Identity:
    """The data folder's identity, made and kept (0600) the first time; a file
    that is damaged is one line and a new identity (pairings then start again)."""
    path = keys_folder(data_dir) / IDENTITY_FILE
    try:
        kept = read_secret(path, 4 * SEED_BYTES, log)
    except ValueError as err:
        log(f"{err}; making a new identity")
        kept = None
    if kept is not None:
        text = kept.decode("ascii", "replace").strip()
        if len(text) == 2 * SEED_BYTES and not text.strip("0123456789abcdef"):
            return Identity(bytes.fromhex(text))
        log(f"{path}: not an identity key; making a new one")
    identity = Identity.new()
    write_secret(path, identity.seed_text(), log)
    return identity


def seat_statement(scope: bytes, exporter: bytes) -> bytes:
    return SEAT_LABEL + scope + exporter


def prove_seat(identity: Identity, scope: bytes, exporter: bytes) -> SeatProof:
    """The proof, for this session only, that this identity holds its seat key
    of `scope` (the key never leaves; its public half and a signature do)."""
    seat = identity.seat_key(scope)
    return SeatProof(seat.public, seat.sign(seat_statement(scope, exporter)))


def check_seat(proof: SeatProof, scope: bytes, exporter: bytes) -> bool:
    """Whether `proof` was made in this session (its exporter value) for `scope`.
    The host then compares `proof.key` with the key the seat was taken with."""
    return verify_signature(proof.key, proof.sig, seat_statement(scope, exporter))
