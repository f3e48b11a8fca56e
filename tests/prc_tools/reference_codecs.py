"""The plain per-byte ScanLine, RLE and PackBits codecs, kept as the reference.

prc_tools.compression does the same work on whole rows with bytes operations;
tests/prc_tools/test_codec_reference.py checks both give the same bytes, rows
and errors. This is the straightforward algorithm, slow but easy to read.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from prc_tools.errors import BitmapError

SCANLINE = "scanline"
RLE = "rle"
PACKBITS = "packbits"
NONE = "none"
CODECS = (NONE, SCANLINE, RLE, PACKBITS)

# The compressionType byte of v2/v3 headers.
TYPE_CODES = {SCANLINE: 0, RLE: 1, PACKBITS: 2, NONE: 0xFF}
CODEC_BY_TYPE = {code: name for name, code in TYPE_CODES.items()}

_RLE_MAX_RUN = 255
_PACKBITS_MAX_OP = 128


def _ceil_div(a: int, b: int) -> int:
    return -(-a // b)


def min_input_per_row(codec: str, row_bytes: int, unit: int = 1) -> int:
    """The fewest input bytes any valid encoding of one row can take."""
    if row_bytes == 0:
        return 0
    if codec == NONE:
        return row_bytes
    if codec == SCANLINE:
        return _ceil_div(row_bytes, 8)  # at least one mask byte per 8 bytes
    if codec == RLE:
        return 2 * _ceil_div(row_bytes, _RLE_MAX_RUN)
    if codec == PACKBITS:
        # A repeat op (count + one unit) yields at most 128 units.
        return (1 + unit) * _ceil_div(row_bytes, _PACKBITS_MAX_OP * unit)
    raise ValueError(f"unknown compression {codec!r}")


# --- encoders ---------------------------------------------------------------


def encode(codec: str, rows: Sequence[bytes], unit: int = 1) -> bytes:
    """Compress equal-length rows; ``unit`` is 2 for PackBits at 16 bits per pixel."""
    if codec == NONE:
        return b"".join(rows)
    if codec == SCANLINE:
        return _scanline_encode(rows)
    if codec == RLE:
        return b"".join(_rle_encode_row(row) for row in rows)
    if codec == PACKBITS:
        return b"".join(_packbits_encode_row(row, unit) for row in rows)
    raise ValueError(f"unknown compression {codec!r}")


def _scanline_encode(rows: Sequence[bytes]) -> bytes:
    out = bytearray()
    previous: bytes | None = None
    for row in rows:
        for start in range(0, len(row), 8):
            group = row[start : start + 8]
            if previous is None:
                # The first row has every byte present.
                out.append((0xFF00 >> len(group)) & 0xFF)
                out += group
                continue
            before = previous[start : start + 8]
            if group == before:
                out.append(0)
                continue
            mask = 0
            changed = bytearray()
            for k, value in enumerate(group):
                if value != before[k]:
                    mask |= 0x80 >> k
                    changed.append(value)
            out.append(mask)
            out += changed
        previous = row
    return bytes(out)


# One match per run of equal units; matching restarts where the last run
# ended, so 2-byte units stay aligned.
_BYTE_RUNS = re.compile(rb"(.)\1*", re.DOTALL)
_WORD_RUNS = re.compile(rb"(..)\1*", re.DOTALL)


def _rle_encode_row(row: bytes) -> bytes:
    out = bytearray()
    for run in _BYTE_RUNS.finditer(row):
        count = run.end() - run.start()
        value = row[run.start()]
        while count > _RLE_MAX_RUN:
            out += bytes((_RLE_MAX_RUN, value))
            count -= _RLE_MAX_RUN
        out += bytes((count, value))
    return bytes(out)


def _packbits_encode_row(row: bytes, unit: int) -> bytes:
    """PackBits over units of 1 or 2 bytes: runs of 3+ (or 2 with no pending literal) repeat."""
    if len(row) % unit:
        raise ValueError("row length is not a whole number of units")
    out = bytearray()
    literal_start = 0  # byte offsets
    runs = _WORD_RUNS if unit == 2 else _BYTE_RUNS

    def flush_literal(end: int) -> None:
        start = literal_start
        while start < end:
            take = min(end - start, _PACKBITS_MAX_OP * unit)
            out.append(take // unit - 1)
            out.extend(row[start : start + take])
            start += take

    for run in runs.finditer(row):
        start, end = run.span()
        count = (end - start) // unit
        if count >= 3 or (count == 2 and start == literal_start):
            flush_literal(start)
            value = row[start : start + unit]
            while count:
                take = min(count, _PACKBITS_MAX_OP)
                out.append(0 if take == 1 else 257 - take)  # -(take - 1) as a signed byte
                out += value
                count -= take
            literal_start = end
    flush_literal(len(row))
    return bytes(out)


# --- decoders ---------------------------------------------------------------


def decode(
    codec: str, data: bytes, pos: int, row_bytes: int, rows: int, unit: int = 1
) -> tuple[bytes, int]:
    """Decompress ``rows`` rows starting at ``data[pos]``.

    Returns the raw rows joined and the position just after the last byte read.
    """
    if codec == NONE:
        end = pos + row_bytes * rows
        if end > len(data):
            raise BitmapError(
                f"pixel data truncated: needs {row_bytes * rows} bytes, has {len(data) - pos}"
            )
        return data[pos:end], end
    if codec == SCANLINE:
        return _scanline_decode(data, pos, row_bytes, rows)
    if codec == RLE:
        return _rle_decode(data, pos, row_bytes, rows)
    if codec == PACKBITS:
        return _packbits_decode(data, pos, row_bytes, rows, unit)
    raise ValueError(f"unknown compression {codec!r}")


def _truncated(codec: str, row: int) -> BitmapError:
    return BitmapError(f"{codec} data truncated in row {row}")


def _scanline_decode(data: bytes, pos: int, row_bytes: int, rows: int) -> tuple[bytes, int]:
    out = bytearray()
    previous = bytes(row_bytes)
    size = len(data)
    for row_index in range(rows):
        row = bytearray()
        for start in range(0, row_bytes, 8):
            group_len = min(8, row_bytes - start)
            if pos >= size:
                raise _truncated(SCANLINE, row_index)
            mask = data[pos]
            pos += 1
            if row_index == 0:
                # Like palmtopnm: the first row carries every byte whatever its masks say.
                mask = 0xFF
            full = (0xFF00 >> group_len) & 0xFF
            if mask & full == full:
                if pos + group_len > size:
                    raise _truncated(SCANLINE, row_index)
                row += data[pos : pos + group_len]
                pos += group_len
            elif mask & full == 0:
                row += previous[start : start + group_len]
            else:
                for k in range(group_len):
                    if mask & (0x80 >> k):
                        if pos >= size:
                            raise _truncated(SCANLINE, row_index)
                        row.append(data[pos])
                        pos += 1
                    else:
                        row.append(previous[start + k])
        out += row
        previous = bytes(row)
    return bytes(out), pos


def _rle_decode(data: bytes, pos: int, row_bytes: int, rows: int) -> tuple[bytes, int]:
    out = bytearray()
    size = len(data)
    for row_index in range(rows):
        filled = 0
        while filled < row_bytes:
            if pos + 2 > size:
                raise _truncated(RLE, row_index)
            count, value = data[pos], data[pos + 1]
            pos += 2
            if count == 0:
                raise BitmapError(f"rle run of length 0 in row {row_index}")
            if filled + count > row_bytes:
                raise BitmapError(f"rle run overflows row {row_index} ({row_bytes} bytes)")
            out += bytes((value,)) * count
            filled += count
    return bytes(out), pos


def _packbits_decode(
    data: bytes, pos: int, row_bytes: int, rows: int, unit: int
) -> tuple[bytes, int]:
    out = bytearray()
    size = len(data)
    for row_index in range(rows):
        filled = 0
        while filled < row_bytes:
            if pos >= size:
                raise _truncated(PACKBITS, row_index)
            count = data[pos]
            pos += 1
            if count == 0x80:
                continue  # -128: no operation, as in Apple's PackBits
            if count < 0x80:
                length = (count + 1) * unit
                if pos + length > size:
                    raise _truncated(PACKBITS, row_index)
                chunk = data[pos : pos + length]
                pos += length
            else:
                repeat = 257 - count  # 1 - n for the signed count n
                if pos + unit > size:
                    raise _truncated(PACKBITS, row_index)
                chunk = data[pos : pos + unit] * repeat
                pos += unit
            if filled + len(chunk) > row_bytes:
                raise BitmapError(f"packbits run overflows row {row_index} ({row_bytes} bytes)")
            out += chunk
            filled += len(chunk)
    return bytes(out), pos
