"""The fixed header of one Palm bitmap (versions 0 to 3), read and written.

All integers are big-endian. Versions 0-2 have a 16-byte header, version 3 a
24-byte one (its size is stored in the header). See docs/bitmap-format.md.
"""

from __future__ import annotations

import struct

from prc_tools.errors import BitmapError
from prc_tools.frozen import Frozen

FLAG_COMPRESSED = 0x8000
FLAG_COLOUR_TABLE = 0x4000
FLAG_TRANSPARENT = 0x2000
FLAG_DIRECT_COLOUR = 0x0400

PIXEL_FORMAT_INDEXED = 0
PIXEL_FORMAT_565 = 1
PIXEL_FORMAT_565_LE = 2

OLD_HEADER_SIZE = 16
V3_HEADER_SIZE = 24
DUMMY_PIXEL_SIZE = 0xFF
LOW_DENSITY = 72
DENSITIES = (72, 108, 144, 216, 288)
DEPTHS = (1, 2, 4, 8, 16)
NO_TRANSPARENCY_V3 = 0xFFFFFFFF

# The 16 bytes that separate low-density members from the v3 ones that follow.
DUMMY_HEADER = bytes.fromhex("00000000 00000000 FF01 0000 00000000")

_COMMON = struct.Struct(">hhHHBB")  # width, height, rowBytes, flags, pixelSize, version
_OLD_TAIL = struct.Struct(">HBBH")  # nextDepthOffset, transparentIndex, compressionType, reserved
_V3_TAIL = struct.Struct(">BBBBHII")  # size, pixelFormat, unused, compressionType, density, ...


class Header(Frozen):
    """One bitmap header, normalised across versions."""

    width: int
    height: int
    row_bytes: int
    flags: int
    pixel_size: int  # the raw code: 0 means 1 bit per pixel, 0xFF marks the dummy
    version: int
    header_size: int
    compression_type: int
    pixel_format: int
    density: int
    transparent: int  # v0-v2: transparentIndex; v3: transparentValue
    next_offset: int  # in bytes from this header's start; 0 = last

    @property
    def depth(self) -> int:
        return 1 if self.pixel_size == 0 else self.pixel_size

    @property
    def is_dummy(self) -> bool:
        return self.pixel_size == DUMMY_PIXEL_SIZE and self.version < 3

    def has(self, flag: int) -> bool:
        return bool(self.flags & flag)


def read_header(data: bytes, pos: int) -> Header:
    """Parse the header at ``data[pos]``; BitmapError if it is cut short or malformed."""
    if pos + OLD_HEADER_SIZE > len(data):
        raise BitmapError(f"bitmap header at byte {pos} truncated")
    width, height, row_bytes, flags, pixel_size, version = _COMMON.unpack_from(data, pos)
    if version > 3:
        raise BitmapError(f"bitmap at byte {pos}: unknown version {version}")
    if version < 3:
        next_words, transparent, compression, _ = _OLD_TAIL.unpack_from(data, pos + 10)
        # Version 0 has no chain field: its bytes are reserved.
        next_offset = 0 if version == 0 else next_words * 4
        return Header(
            width, height, row_bytes, flags, pixel_size, version, OLD_HEADER_SIZE,
            compression, PIXEL_FORMAT_INDEXED, LOW_DENSITY, transparent, next_offset,
        )  # fmt: skip
    if pos + V3_HEADER_SIZE > len(data):
        raise BitmapError(f"version 3 bitmap header at byte {pos} truncated")
    size, pixel_format, _, compression, density, transparent, next_offset = _V3_TAIL.unpack_from(
        data, pos + 10
    )
    if size < V3_HEADER_SIZE:
        raise BitmapError(f"bitmap at byte {pos}: header size {size} is below 24")
    return Header(
        width, height, row_bytes, flags, pixel_size, version, size,
        compression, pixel_format, density, transparent, next_offset,
    )  # fmt: skip


def write_header(header: Header) -> bytes:
    """The header's bytes; the caller has chosen fields that fit the version."""
    common = _COMMON.pack(
        header.width,
        header.height,
        header.row_bytes,
        header.flags,
        header.pixel_size,
        header.version,
    )
    if header.version < 3:
        if header.next_offset % 4:
            raise BitmapError("next member offset must be a multiple of 4 bytes")
        words = header.next_offset // 4
        if words > 0xFFFF:
            raise BitmapError("bitmap too large to chain in a version 1/2 family (256 KB max)")
        return common + _OLD_TAIL.pack(words, header.transparent, header.compression_type, 0)
    return common + _V3_TAIL.pack(
        V3_HEADER_SIZE,
        header.pixel_format,
        0,
        header.compression_type,
        header.density,
        header.transparent,
        header.next_offset,
    )
