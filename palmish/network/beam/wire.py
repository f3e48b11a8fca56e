"""The beam message kind (docs/network.md, "Beam"): the field tables of what a
sender and a receiver say, read by the same `protocol.decode` and carried by
the same transport as every network message; only the limits differ (a
sender's lines carry the item in chunks).
"""

from __future__ import annotations

import base64
import binascii

from palmish.device.beam.beaming import size_text
from palmish.device.exchange import MAX_ITEM_BYTES
from palmish.network.protocol import (
    CODE,
    LINE,
    FromJoiner,
    ProtocolError,
    boolean,
    int_in,
    matching,
    or_none,
)

APP = "beam"  # the hello's `app`: what a beam receiver speaks
CHUNK_BYTES = 32 * 1024  # an item's bytes per `data` line, at most
SHOWN_BYTES = 4 * 1024  # an item larger than this shows its progress on both sides
PIECES = 8  # ... in about this many steps at least (smaller chunks, down to SHOWN_BYTES)
MAX_SENDER_LINE = 48 * 1024  # a `data` line: 32 KiB as base64 (43,692 characters) and its frame
MAX_OFFERED = 1 << 40  # a size the receiver still reads (to refuse it by its size)
DECIDE_S = 120.0  # how long a receiver waits for its person before declining
TRANSFER_S = 60.0  # from the welcome to the whole item: a slower sender is refused


def chunk_bytes(size: int) -> int:
    """The chunk a sender uses for an item of `size` bytes: CHUNK_BYTES, or smaller
    for a small item, so that one of a few KB still crosses in steps a bar can show."""
    return min(CHUNK_BYTES, max(SHOWN_BYTES, -(-size // PIECES)))


WRONG_CODES = 5  # wrong pairing codes a receiver hears in WRONG_CODE_WINDOW_S
WRONG_CODE_WINDOW_S = 60.0


DEVICE_NAME = matching(r"[^\x00-\x1f\x7f-\x9f]{1,40}")  # a handheld's name: printable, one line
KEY = matching(r"[0-9a-f]{32}")  # a sender's pairing key (made once per data folder)
KIND = matching(r"[a-z]{1,16}")
GAME = matching(r"[a-z]{0,16}")
ITEM_NAME = matching(r"[^\x00-\x1f\x7f-\x9f/\\]{0,40}")
SHA256 = matching(r"[0-9a-f]{64}")
CHUNK = matching(r"[A-Za-z0-9+/]{4,43692}={0,2}")

# kind -> (required fields, optional fields), as protocol.decode reads them.
SENDER_KINDS: FromJoiner = {
    "hello": ({"v": int_in(0, 1 << 30), "app": matching(r"[a-z]{1,16}")},
              {"name": DEVICE_NAME, "key": KEY, "code": CODE}),
    "ping": ({}, {}),
    "offer": ({"kind": KIND, "app": GAME, "name": ITEM_NAME,
               "number": or_none(int_in(0, (1 << 31) - 1)), "size": int_in(0, MAX_OFFERED)}, {}),
    "data": ({"n": int_in(0, MAX_ITEM_BYTES // CHUNK_BYTES), "bytes": CHUNK}, {}),
    "end": ({"sha256": SHA256}, {}),
}
RECEIVER_KINDS: FromJoiner = {
    "welcome": ({"v": int_in(1, 1 << 30), "app": matching(r"[a-z]{1,16}"),
                 "name": DEVICE_NAME}, {}),
    "refused": ({"v": int_in(1, 1 << 30), "reason": LINE},
                {"why": matching(r"code|busy|other")}),
    "ping": ({}, {}),
    "ready": ({}, {}),
    "progress": ({"received": int_in(0, MAX_ITEM_BYTES)}, {}),
    "asking": ({"title": LINE, "what": LINE}, {}),
    "result": ({"accepted": boolean, "text": LINE}, {}),
}


def encode_chunk(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


def decode_chunk(text: str) -> bytes:
    try:
        return base64.b64decode(text, validate=True)
    except (binascii.Error, ValueError):
        raise ProtocolError("data: bad base64") from None


def too_large(size: int) -> str | None:
    """The refusal for an item over the limit, or None."""
    if size <= MAX_ITEM_BYTES:
        return None
    return f"too large: {size_text(size)}, at most {size_text(MAX_ITEM_BYTES)}"
