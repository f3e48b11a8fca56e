"""What the RLE and PackBits codecs share: runs of equal units found by regular
expressions, each distinct row encoded once, and Pillow's C PackBits decoder
with the byte sums that steer it (RLE is decoded as PackBits ops too).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Sequence
from operator import mul

MAX_OP = 128  # the most units one PackBits op makes
# Runs of two or more equal units. Matching for 2-byte units starts at the row
# start or a run's end, so the lazy prefix of whole words keeps units aligned.
_BYTE_REPEATS = re.compile(rb"(.)\1+", re.DOTALL)
_WORD_REPEATS = re.compile(rb"(?:..)*?(..)\1+", re.DOTALL)


def each_distinct_row(encode_row: Callable[[bytes], bytes], rows: Sequence[bytes]) -> bytes:
    """Rows encoded one by one, each distinct row once: art repeats rows (the
    tall panel has 192 distinct rows of 460)."""
    done: dict[bytes, bytes] = {}
    out = []
    for row in rows:
        encoded = done.get(row)
        if encoded is None:
            encoded = done[row] = encode_row(row)
        out.append(encoded)
    return b"".join(out)


def repeats(row: bytes, unit: int) -> Iterator[tuple[int, int]]:
    """(start, end) of each maximal run of 2+ equal units, in order."""
    if unit == 1:
        return map(re.Match.span, _BYTE_REPEATS.finditer(row))
    return _word_repeats(row)


def _word_repeats(row: bytes) -> Iterator[tuple[int, int]]:
    pos = 0
    while (run := _WORD_REPEATS.match(row, pos)) is not None:
        pos = run.end()
        yield run.start(1), pos


def byte_sum(block: bytes) -> int:
    """The sum of the bytes, from Pillow's histogram (several times quicker than ``sum``)."""
    from PIL import Image

    histogram = Image.frombytes("L", (len(block), 1), block).histogram()
    return sum(map(mul, histogram, range(256)))


def packbits_plane(ops: bytes | bytearray, row_bytes: int, rows: int) -> bytes:
    """Byte-wise PackBits decoded by Pillow, which refuses an op crossing a row's end."""
    from PIL import Image

    return Image.frombytes("L", (row_bytes, rows), ops, "packbits", "L").tobytes()
