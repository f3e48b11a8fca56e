"""What a beam sender and a receiver say inside their session (docs/network.md,
"Beam", "Messages"): Beam's own record kinds, added to the session layer's
(join, welcome, refused, ping, bye), sealed by the session like every record.
Only the limits differ from a game's: a sender's records carry the item in chunks.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated

from palmish.device.beam.beaming import size_text
from palmish.device.exchange import MAX_ITEM_BYTES
from palmish.network.session.kinds import (
    LINE,
    Bye,
    Join,
    Ping,
    Refused,
    Welcome,
)
from palmish.network.session.records import Blob, Flag, Hex, Int, Maybe, Record, Text, Vocabulary

APP = "beam"  # the session's `app`: what a beam receiver serves
CHUNK_BYTES = 32 * 1024  # an item's bytes per `data` record, at most
SHOWN_BYTES = 4 * 1024  # an item larger than this shows its progress on both sides
PIECES = 8  # ... in about this many steps at least (smaller chunks, down to SHOWN_BYTES)
AHEAD = 2  # chunks a sender has sent before the receiver's `progress` for the first of them
MAX_SENDER_RECORD = 48 * 1024  # a `data` record: 32 KiB as base64 (43,692 characters) and JSON
MAX_RECEIVER_RECORD = 1024  # the receiver's records are short lines
MAX_OFFERED = 1 << 40  # a size the receiver still reads (to refuse it by its size)
DECIDE_S = 120.0  # how long a receiver waits for its person before declining
TRANSFER_S = 60.0  # from the welcome to the whole item: a slower sender is refused
HIGHEST_NUMBER = (1 << 31) - 1

DEVICE_NAME = r"[^\x00-\x1f\x7f-\x9f]{1,40}"  # a handheld's name: printable, one line


def device_name(value: object) -> bool:
    """Whether `value` is a handheld's name as the wire takes it."""
    return isinstance(value, str) and Text(DEVICE_NAME).compiled.fullmatch(value) is not None


def chunk_bytes(size: int) -> int:
    """The chunk a sender uses for an item of `size` bytes: CHUNK_BYTES, or smaller
    for a small item, so that one of a few KB still crosses in steps a bar can show."""
    return min(CHUNK_BYTES, max(SHOWN_BYTES, -(-size // PIECES)))


# ---------------------------------------------------------------- sender to receiver


@dataclass(frozen=True)
class Offer(Record):
    """The one item of this beam: what it is and how many bytes follow."""

    KIND = "offer"
    kind: Annotated[str, Text(r"[a-z]{1,16}")]
    app: Annotated[str, Text(r"[a-z]{0,16}")]  # the game's id; "" for a plugin
    name: Annotated[str, Text(r"[^\x00-\x1f\x7f-\x9f/\\]{0,40}")]  # a level's id
    number: Annotated[int | None, Maybe(Int(0, HIGHEST_NUMBER))]
    size: Annotated[int, Int(0, MAX_OFFERED)]


@dataclass(frozen=True)
class Data(Record):
    """Chunk `n` of the item (from 0, in order)."""

    KIND = "data"
    n: Annotated[int, Int(0, MAX_ITEM_BYTES // SHOWN_BYTES)]
    chunk: Annotated[bytes, Blob(1, CHUNK_BYTES)]


@dataclass(frozen=True)
class End(Record):
    """The SHA-256 of the whole item, after its last chunk."""

    KIND = "end"
    sha256: Annotated[bytes, Hex(32)]


# ---------------------------------------------------------------- receiver to sender


@dataclass(frozen=True)
class Ready(Record):
    """The offer is taken: send the data."""

    KIND = "ready"


@dataclass(frozen=True)
class Progress(Record):
    """Bytes received so far (after every `data`)."""

    KIND = "progress"
    received: Annotated[int, Int(0, MAX_ITEM_BYTES)]


@dataclass(frozen=True)
class Asking(Record):
    """The item arrived whole and passed every check; the person is being asked."""

    KIND = "asking"
    title: Annotated[str, LINE]
    what: Annotated[str, LINE]


@dataclass(frozen=True)
class Result(Record):
    """The end of the beam: accepted (and installed or opened), or why not."""

    KIND = "result"
    accepted: Annotated[bool, Flag()]
    text: Annotated[str, LINE]


SENDER_SAYS = Vocabulary(Ping, Bye, Join, Offer, Data, End)
RECEIVER_SAYS = Vocabulary(Ping, Bye, Refused, Welcome, Ready, Progress, Asking, Result)


def too_large(size: int) -> str | None:
    """The refusal for an item over the limit, or None."""
    if size <= MAX_ITEM_BYTES:
        return None
    return f"too large: {size_text(size)}, at most {size_text(MAX_ITEM_BYTES)}"


def one_line(text: str) -> str:
    """A line the wire takes: its first line, control characters as ?, 1-200 characters."""
    first = text.strip().splitlines()[0] if text.strip() else ""
    return "".join(c if c.isprintable() else "?" for c in first)[:200] or "?"
