"""PNG files of decoded bitmap members, written straight through zlib.

`extract` writes one PNG per member, thousands per database. Pillow's writer
tries five row filters on every row and goes through its generic save
machinery, which costs more than the compression itself on pictures as small
as Palm bitmaps. Palm pictures (flat colours, long runs) compress as well or
better with no row filter at all, so RGB and RGBA images are written here
with filter 0; any other mode goes through Pillow. Both give ordinary PNG
files that any reader (Pillow's in `build` included) reads back exactly.
"""

from __future__ import annotations

import io
import struct
import zlib

from PIL import Image

SIGNATURE = b"\x89PNG\r\n\x1a\n"
_COLOUR_TYPE = {"RGB": 2, "RGBA": 6}  # 8 bits per channel
_LEVEL = 3  # smaller files than Pillow's writer gives these pictures, three times as fast


def png_bytes(image: Image.Image) -> bytes:
    """`image` as the bytes of a PNG file (lossless)."""
    colour_type = _COLOUR_TYPE.get(image.mode)
    width, height = image.size
    if colour_type is None or width == 0 or height == 0:  # PNG has no empty pictures
        out = io.BytesIO()
        image.save(out, format="PNG")
        return out.getvalue()
    raw = image.tobytes()
    stride = len(raw) // height
    rows = b"".join(b"\0" + raw[y : y + stride] for y in range(0, len(raw), stride))
    header = struct.pack(">IIBBBBB", width, height, 8, colour_type, 0, 0, 0)
    return b"".join((
        SIGNATURE,
        _chunk(b"IHDR", header),
        _chunk(b"IDAT", zlib.compress(rows, _LEVEL)),
        _chunk(b"IEND", b""),
    ))


def _chunk(kind: bytes, body: bytes) -> bytes:
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))
