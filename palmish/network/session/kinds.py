"""The session layer's own message kinds (docs/network-session.md, "Messages"):
the two routing lines in clear, the handshake frames, and the sealed kinds
every app shares (join, welcome, refused, ping, bye, error). A game or Beam
adds its own kinds to these vocabularies (records.Vocabulary)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated

from palmish.network.session.records import (
    Blob,
    Flag,
    Hex,
    Int,
    Maybe,
    Nested,
    Record,
    Text,
    Vocabulary,
)

VERSION = 2
NONCE_BYTES = 16
SCOPE_BYTES = 16
KEY_BYTES = 32  # an Ed25519 or X25519 public key
SIGNATURE_BYTES = 64
DIGEST_BYTES = 32  # SHA-256

APP = Text(r"[a-z]{1,16}")
LINE = Text(r"[^\x00-\x1f\x7f-\x9f]{1,200}")  # one printable line for a person
NAME = Text(r"[^\x00-\x1f\x7f-\x9f]{1,40}")  # a player's or handheld's name (the app checks more)
VERSION_FIELD = Int(0, 1 << 30)
WHY = Text(r"[a-z]{1,16}")
CODE_AUTH, KEY_AUTH = "code", "key"


# ---------------------------------------------------------------- routing, in clear


@dataclass(frozen=True)
class Hello(Record):
    """The client's first line: only what routing needs, never a code."""

    KIND = "hello"
    v: Annotated[int, VERSION_FIELD]
    app: Annotated[str, APP]
    auth: Annotated[str, Text(r"code|key")]
    nonce: Annotated[bytes, Hex(NONCE_BYTES)]


@dataclass(frozen=True)
class ServerHello(Record):
    """The server's answer: go on with the handshake."""

    KIND = "hello"
    v: Annotated[int, VERSION_FIELD]
    app: Annotated[str, APP]
    nonce: Annotated[bytes, Hex(NONCE_BYTES)]


@dataclass(frozen=True)
class Refused(Record):
    """No session (in clear, before the handshake) or no place in it (sealed).
    `why`: version, app, busy, code, key, name, full, other."""

    KIND = "refused"
    v: Annotated[int, VERSION_FIELD]
    reason: Annotated[str, LINE]
    why: Annotated[str | None, Maybe(WHY)] = None


@dataclass(frozen=True)
class Lockout(Record):
    """Too many wrong codes lately: no key exchange now, try again in `retry_s`."""

    KIND = "lockout"
    v: Annotated[int, VERSION_FIELD]
    reason: Annotated[str, LINE]
    retry_s: Annotated[int, Int(1, 3600)]


# ---------------------------------------------------------------- the handshake


@dataclass(frozen=True)
class Pake(Record):
    """A SPAKE2 message (code mode)."""

    KIND = "pake"
    msg: Annotated[bytes, Blob(1, 512)]


@dataclass(frozen=True)
class Dh(Record):
    """An ephemeral X25519 public key (key mode)."""

    KIND = "dh"
    e: Annotated[bytes, Blob(KEY_BYTES, KEY_BYTES)]


@dataclass(frozen=True)
class Auth(Record):
    """Each side's first sealed frame: its identity key and its signature of the
    handshake; the server's names what it serves (`scope`: a table's id)."""

    KIND = "auth"
    id: Annotated[bytes, Blob(KEY_BYTES, KEY_BYTES)]
    sig: Annotated[bytes, Blob(SIGNATURE_BYTES, SIGNATURE_BYTES)]
    scope: Annotated[bytes | None, Maybe(Hex(SCOPE_BYTES))] = None


# ---------------------------------------------------------------- sealed, every app


@dataclass(frozen=True)
class Ping(Record):
    """A heartbeat, every second each way; never handed to the app."""

    KIND = "ping"


@dataclass(frozen=True)
class Bye(Record):
    """The sender is closing (one line why)."""

    KIND = "bye"
    text: Annotated[str, LINE]


@dataclass(frozen=True)
class Error(Record):
    """The last request was refused; nothing changed and the session stays."""

    KIND = "error"
    text: Annotated[str, LINE]


@dataclass(frozen=True)
class SeatProof(Record):
    """A seat key for one scope and its signature of this session (identity.prove_seat)."""

    key: Annotated[bytes, Blob(KEY_BYTES, KEY_BYTES)]
    sig: Annotated[bytes, Blob(SIGNATURE_BYTES, SIGNATURE_BYTES)]


@dataclass(frozen=True)
class Join(Record):
    """The client's first sealed request: sit as `name` (with the proof of the
    seat's key), or watch; `dice`: a seated joiner's dice commitment; `table`:
    the table level it speaks (session/talk.py; 0, left out: none)."""

    KIND = "join"
    name: Annotated[str | None, Maybe(NAME)] = None
    watch: Annotated[bool, Flag()] = False
    seat: Annotated[SeatProof | None, Maybe(Nested(SeatProof))] = None
    dice: Annotated[bytes | None, Maybe(Hex(DIGEST_BYTES))] = None
    table: Annotated[int, Int(0, 99)] = 0  # the table kinds the client speaks (session/talk.py)


@dataclass(frozen=True)
class Welcome(Record):
    """The join is accepted: the first sealed message a client receives after
    its `join` (or `refused`). `name`: the table's or the receiver's; `seat`:
    null for a spectator or a beam; `dice`: the host's commitment to its seed."""

    KIND = "welcome"
    v: Annotated[int, VERSION_FIELD]
    app: Annotated[str, APP]
    name: Annotated[str, LINE]
    seat: Annotated[int | None, Maybe(Int(0, 15))] = None
    dice: Annotated[bytes | None, Maybe(Hex(DIGEST_BYTES))] = None
    table: Annotated[int, Int(0, 99)] = 0  # the table kinds both speak (0: none)


CLIENT_HELLO = Vocabulary(Hello)
SERVER_HELLO = Vocabulary(ServerHello, Refused, Lockout)
HANDSHAKE = Vocabulary(Pake, Dh)
AUTH = Vocabulary(Auth)
FROM_CLIENT = Vocabulary(Ping, Bye, Join)
FROM_SERVER = Vocabulary(Ping, Bye, Error, Refused, Welcome)
