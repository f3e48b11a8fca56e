"""What crosses the TCP connection (docs/network-session.md, "Framing"): the
two routing lines (JSON ended by a newline, as version 1 frames everything,
so that a handheld of either version reads the other's first line), then
frames: a 4-byte big-endian length N (1 <= N <= the limit), then N bytes.

Every read is bounded in size and time: a line or a frame must arrive whole
within the wait it is given, so a peer sending one byte a second is dropped.
"""

from __future__ import annotations

import asyncio
import struct

from palmish.device.disk.storage import parse_json
from palmish.network.deadline import within

HEADER = struct.Struct(">I")
LINE_LIMIT = 1024  # a routing line, newline included
HANDSHAKE_LIMIT = 1024  # a handshake frame


class FrameError(ValueError):
    """The bytes are not a line or a frame within the limits (one line)."""


class Closed(Exception):
    """The peer closed the connection at a boundary (between lines or frames)."""


async def read_line(reader: asyncio.StreamReader, timeout: float,
                    limit: int = LINE_LIMIT) -> bytes:
    """One line without its newline; Closed, FrameError, or TimeoutError."""
    try:
        line = await within(reader.readuntil(b"\n"), timeout)
    except asyncio.IncompleteReadError as err:
        if err.partial:
            raise FrameError("the connection closed in the middle of a line") from None
        raise Closed from None
    except asyncio.LimitOverrunError:
        raise FrameError(f"a line longer than {limit} bytes") from None
    if len(line) > limit:
        raise FrameError(f"a line of {len(line)} bytes, at most {limit}")
    return line[:-1]


def frame(payload: bytes) -> bytes:
    """`payload` with its length before it."""
    return HEADER.pack(len(payload)) + payload


def frame_length(header: bytes, limit: int) -> int:
    """The length a frame's header announces; FrameError when it is 0 or over `limit`."""
    (length,) = HEADER.unpack(header)
    if not 0 < length <= limit:
        raise FrameError(f"a frame of {length} bytes, at most {limit}")
    return int(length)


async def read_frame(reader: asyncio.StreamReader, timeout: float,
                     limit: int) -> tuple[bytes, bytes]:
    """One frame: its header and its payload; Closed, FrameError, or TimeoutError
    (the whole frame within `timeout`)."""
    return await within(_read_frame(reader, limit), timeout)


async def _read_frame(reader: asyncio.StreamReader, limit: int) -> tuple[bytes, bytes]:
    try:
        header = await reader.readexactly(HEADER.size)
    except asyncio.IncompleteReadError as err:
        if err.partial:
            raise FrameError("the connection closed in the middle of a frame") from None
        raise Closed from None
    length = frame_length(header, limit)
    try:
        return header, await reader.readexactly(length)
    except asyncio.IncompleteReadError:
        raise FrameError("the connection closed in the middle of a frame") from None


def claimed_version(line: bytes) -> int | None:
    """The `v` of a line that is a JSON object, however else it is malformed: read
    first, so that a handheld of another version is told why, not dropped."""
    try:
        value = parse_json(line, LINE_LIMIT)
    except ValueError:
        return None
    if isinstance(value, dict) and type(value.get("v")) is int:
        return int(value["v"])
    return None
