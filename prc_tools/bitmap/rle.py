"""RLE (compression type 1): pairs (count, value), a row complete when its counts
add up to its length (docs/bitmap-format.md, "The three compressions"). Its
entry in the codec table is in prc_tools/bitmap/compression.py; this is the
pure-Python code. Decoding rewrites the pairs as PackBits ops for Pillow.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Sequence
from itertools import accumulate

from prc_tools.bitmap.compression import overflow, truncated
from prc_tools.bitmap.runs import MAX_OP, byte_sum, each_distinct_row, packbits_plane, repeats
from prc_tools.errors import BitmapError

_RLE_MAX_RUN = 255
_ONE_BYTE = [bytes((value,)) for value in range(256)]


def encode(rows: Sequence[bytes], unit: int = 1) -> bytes:
    """Every maximal run of one byte value, in pieces of 255 and a rest (``unit`` is
    always 1: RLE counts bytes)."""
    return each_distinct_row(_encode_row, rows)


def _singles(literal: bytes) -> bytearray:
    """RLE pairs (1, byte) for each byte of ``literal``."""
    pairs = bytearray(2 * len(literal))
    pairs[0::2] = b"\x01" * len(literal)
    pairs[1::2] = literal
    return pairs


def _encode_row(row: bytes) -> bytes:
    out = bytearray()
    done = 0
    for start, end in repeats(row, 1):
        if start > done:
            out += _singles(row[done:start])
        count = end - start
        value = row[start]
        while count > _RLE_MAX_RUN:
            out += bytes((_RLE_MAX_RUN, value))
            count -= _RLE_MAX_RUN
        out += bytes((count, value))
        done = end
    if done < len(row):
        out += _singles(row[done:])
    return bytes(out)


def decode(data: bytes, pos: int, row_bytes: int, rows: int, unit: int = 1) -> tuple[bytes, int]:
    """Pairs (count, value), rewritten as PackBits ops for Pillow's C decoder.

    Any stream the quick way doubts goes to the careful one, which says what is wrong.
    """
    total = row_bytes * rows  # not 0: `decode` returns at once for an empty image
    counts = data[pos : pos + 2 * total : 2]  # no valid stream has more pairs
    pairs = _pairs_filling(counts, total)
    if pairs is None or 0 in counts[:pairs]:
        return _decode_checked(data, pos, row_bytes, rows)
    counts = counts[:pairs]
    values = data[pos + 1 : pos + 2 * pairs : 2]
    if len(values) < pairs:  # the last value is cut off
        return _decode_checked(data, pos, row_bytes, rows)
    if counts.translate(None, _RLE_SHORT_COUNTS):  # a run longer than one op
        # Each pair becomes 4 bytes: a repeat of up to 128, then the rest of a
        # longer run (the value again) or two one-byte no-ops.
        ops = bytearray(4 * pairs)
        ops[0::4] = counts.translate(_RLE_FIRST_OP)
        ops[1::4] = values
        ops[2::4] = counts.translate(_RLE_SECOND_OP)
        long_run = int.from_bytes(counts.translate(_RLE_LONG), "big")
        no_op = int.from_bytes(counts.translate(_RLE_SHORT_NO_OP), "big")
        second = (int.from_bytes(values, "big") & long_run) | no_op
        ops[3::4] = second.to_bytes(pairs, "big")
    else:
        ops = bytearray(2 * pairs)
        ops[0::2] = counts.translate(_RLE_FIRST_OP)
        ops[1::2] = values
    try:
        # Pillow refuses a run that crosses the end of a row (of row_bytes).
        return packbits_plane(ops, row_bytes, rows), pos + 2 * pairs
    except ValueError:
        return _decode_checked(data, pos, row_bytes, rows)


def _pairs_filling(counts: bytes, total: int) -> int | None:
    """How many leading counts add up to exactly ``total``; None if none do."""
    done = 0
    for start in range(0, len(counts), _SUM_BLOCK):
        block = counts[start : start + _SUM_BLOCK]
        reached = done + byte_sum(block)
        if reached >= total:
            ends = list(accumulate(block, initial=done))
            index = bisect_left(ends, total)
            return start + index if ends[index] == total else None
        done = reached
    return None


def _repeat_op(count: int) -> int:
    """The PackBits op that makes ``count`` (1 to 128) copies of the next byte."""
    return 0 if count == 1 else 257 - count


_SUM_BLOCK = 1 << 16
_RLE_FIRST_OP = bytes(_repeat_op(min(max(c, 1), 128)) for c in range(256))
_RLE_SECOND_OP = bytes(0x80 if c <= 128 else _repeat_op(c - 128) for c in range(256))
_RLE_SHORT_COUNTS = bytes(range(MAX_OP + 1))
_RLE_LONG = bytes(0xFF if c > 128 else 0 for c in range(256))
_RLE_SHORT_NO_OP = bytes(0 if c > 128 else 0x80 for c in range(256))


def _decode_checked(data: bytes, pos: int, row_bytes: int, rows: int) -> tuple[bytes, int]:
    out = bytearray()
    size = len(data)
    for row_index in range(rows):
        filled = 0
        while filled < row_bytes:
            if pos + 2 > size:
                raise truncated("rle", row_index)
            count, value = data[pos], data[pos + 1]
            pos += 2
            if count == 0:
                raise BitmapError(f"rle run of length 0 in row {row_index}")
            if filled + count > row_bytes:
                raise overflow("rle", row_index, row_bytes)
            out += _ONE_BYTE[value] * count
            filled += count
    return bytes(out), pos
