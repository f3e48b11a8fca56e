"""The three Palm bitmap compressions, row by row: ScanLine, RLE and PackBits.

Every codec works on whole rows of ``row_bytes`` bytes. Decoders read from a
position in a buffer until the requested rows are complete, never trusting a
stored size, and raise BitmapError when the data runs out or a run overflows
its row. ``min_input_per_row`` lets a caller reject, before allocating, a
header that claims more rows than the available bytes could ever produce.

The work happens on whole rows and images with bytes operations, regular
expressions and Pillow, not in Python per pixel; the output is byte for byte
that of the plain per-byte algorithms (tests/prc_tools/reference_codecs.py).
When the optional C module is built (prc_tools.speedups decides), the
encoders and decoders run there instead, with the same output and errors.
"""

from __future__ import annotations

import re
import sys
from bisect import bisect_left
from collections.abc import Callable, Iterator, Sequence
from itertools import accumulate, compress
from operator import mul

from prc_tools import speedups
from prc_tools.errors import BitmapError

# Pillow is imported by the pure-Python functions that use it: with the C module
# built, reading a database (`prc-tools info`, `verify`) never loads it.

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
    native = speedups.native
    if codec == SCANLINE:
        return native.scanline_encode(rows) if native else _scanline_encode(rows)
    if codec == RLE:
        return native.rle_encode(rows) if native else _each_distinct_row(_rle_encode_row, rows)
    if codec == PACKBITS:
        if native:
            return native.packbits_encode(rows, unit)
        return _each_distinct_row(lambda row: _packbits_encode_row(row, unit), rows)
    raise ValueError(f"unknown compression {codec!r}")


def _each_distinct_row(encode_row: Callable[[bytes], bytes], rows: Sequence[bytes]) -> bytes:
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


def _scanline_encode(rows: Sequence[bytes]) -> bytes:
    """Each group of 8 bytes: a mask of the bytes that differ from the row above, then those.

    Done for the whole image at once: Pillow compares the rows and packs the
    masks; slicing interleaves masks and bytes; ``compress`` keeps the changed ones.
    """
    from PIL import Image, ImageChops

    from prc_tools.bitmap.lookup import look_up

    row_bytes = len(rows[0]) if rows else 0
    if row_bytes == 0:
        return b""
    count = len(rows)
    width = -(-row_bytes // 8) * 8  # rows padded to whole groups, padding never sent
    size = (row_bytes, count)
    current = Image.frombytes("L", size, b"".join(rows))
    above = Image.new("L", size)
    above.paste(current.crop((0, 0, row_bytes, count - 1)), (0, 1))
    changed = look_up(ImageChops.difference(current, above), _NONZERO)
    changed.paste(255, (0, 0, row_bytes, 1))  # the first row sends every byte
    if width != row_bytes:
        current = current.crop((0, 0, width, count))  # Pillow pads with zeros
        changed = changed.crop((0, 0, width, count))
    masks = changed.convert("1", dither=Image.Dither.NONE).tobytes()
    data = current.tobytes()
    keep = changed.tobytes().translate(_TO_FLAG)
    groups = len(masks)
    stream = bytearray(9 * groups)
    chosen = bytearray(9 * groups)
    stream[0::9] = masks
    chosen[0::9] = b"\x01" * groups
    for k in range(8):
        stream[k + 1 :: 9] = data[k::8]
        chosen[k + 1 :: 9] = keep[k::8]
    return bytes(compress(stream, chosen))


# Runs of two or more equal units. Matching for 2-byte units starts at the row
# start or a run's end, so the lazy prefix of whole words keeps units aligned.
_BYTE_REPEATS = re.compile(rb"(.)\1+", re.DOTALL)
_WORD_REPEATS = re.compile(rb"(?:..)*?(..)\1+", re.DOTALL)
_NONZERO = bytes([0] + [255] * 255)
_TO_FLAG = bytes([0] + [1] * 255)


def _repeats(row: bytes, unit: int) -> Iterator[tuple[int, int]]:
    """(start, end) of each maximal run of 2+ equal units, in order."""
    if unit == 1:
        return map(re.Match.span, _BYTE_REPEATS.finditer(row))
    return _word_repeats(row)


def _word_repeats(row: bytes) -> Iterator[tuple[int, int]]:
    pos = 0
    while (run := _WORD_REPEATS.match(row, pos)) is not None:
        pos = run.end()
        yield run.start(1), pos


def _singles(literal: bytes) -> bytearray:
    """RLE pairs (1, byte) for each byte of ``literal``."""
    pairs = bytearray(2 * len(literal))
    pairs[0::2] = b"\x01" * len(literal)
    pairs[1::2] = literal
    return pairs


def _rle_encode_row(row: bytes) -> bytes:
    out = bytearray()
    done = 0
    for start, end in _repeats(row, 1):
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


def _packbits_encode_row(row: bytes, unit: int) -> bytes:
    """PackBits over units of 1 or 2 bytes: runs of 3+ (or 2 with no pending literal) repeat."""
    if len(row) % unit:
        raise ValueError("row length is not a whole number of units")
    out = bytearray()
    literal_start = 0  # byte offsets
    longest = _PACKBITS_MAX_OP * unit
    for start, end in _repeats(row, unit):
        count = (end - start) // unit
        if count == 2 and start != literal_start:
            continue  # cheaper inside the pending literal
        if start != literal_start:
            if start - literal_start <= longest:
                out.append((start - literal_start) // unit - 1)
                out += row[literal_start:start]
            else:
                _literal(out, row, literal_start, start, unit)
        if count <= _PACKBITS_MAX_OP:
            out.append(257 - count)  # -(count - 1) as a signed byte
            out += row[start : start + unit]
        else:
            value = row[start : start + unit]
            while count:
                take = min(count, _PACKBITS_MAX_OP)
                out.append(0 if take == 1 else 257 - take)
                out += value
                count -= take
        literal_start = end
    _literal(out, row, literal_start, len(row), unit)
    return bytes(out)


def _literal(out: bytearray, row: bytes, start: int, end: int, unit: int) -> None:
    """Literal ops of at most 128 units for ``row[start:end]``."""
    longest = _PACKBITS_MAX_OP * unit
    while start < end:
        take = min(end - start, longest)
        out.append(take // unit - 1)
        out += row[start : start + take]
        start += take


# --- decoders ---------------------------------------------------------------


def decode(
    codec: str, data: bytes, pos: int, row_bytes: int, rows: int, unit: int = 1
) -> tuple[bytes, int]:
    """Decompress ``rows`` rows starting at ``data[pos]``.

    Returns the raw rows joined and the position just after the last byte read.
    Any position and sizes are safe: a start past the data, or a first row the
    data cannot hold, is BitmapError (truncated in row 0), on both paths.
    """
    if pos < 0 or row_bytes < 0 or rows < 0 or unit not in (1, 2):
        raise ValueError(f"decode: bad position {pos}, row size {row_bytes}, rows {rows} or unit")
    if codec == NONE:
        end = pos + row_bytes * rows
        if end > len(data):
            raise BitmapError(
                f"pixel data truncated: needs {row_bytes * rows} bytes, "
                f"has {max(0, len(data) - pos)}"
            )
        return data[pos:end], end
    if codec not in (SCANLINE, RLE, PACKBITS):
        raise ValueError(f"unknown compression {codec!r}")
    if row_bytes == 0 or rows == 0:
        return b"", pos
    if min_input_per_row(codec, row_bytes, unit) > len(data) - pos:
        # Not even the first row fits (a start past the end included): said before
        # a per-row list or a C size (at most 2**63 - 1) sees the numbers.
        raise _truncated(codec, 0)
    native = speedups.native
    if native is not None:
        step = unit if codec == PACKBITS else 1
        # Every row takes a byte at least, so the data runs out long before
        # sys.maxsize rows: clamping a larger count changes nothing.
        count = min(rows, sys.maxsize)
        raw, at, problem = native.decode(TYPE_CODES[codec], data, pos, row_bytes, count, step)
        if raw is None:
            raise _problem(codec, problem, at, row_bytes)
        return raw, at
    if codec == SCANLINE:
        return _scanline_decode(data, pos, row_bytes, rows)
    if codec == RLE:
        return _rle_decode(data, pos, row_bytes, rows)
    return _packbits_decode(data, pos, row_bytes, rows, unit)


def _truncated(codec: str, row: int) -> BitmapError:
    return BitmapError(f"{codec} data truncated in row {row}")


def _overflow(codec: str, row: int, row_bytes: int) -> BitmapError:
    return BitmapError(f"{codec} run overflows row {row} ({row_bytes} bytes)")


# The C decoder's problem codes (prc_tools/_speedups.c), in the same words as here.
_TRUNCATED, _ZERO_RUN, _OVERFLOW = 1, 2, 3


def _problem(codec: str, problem: int, row: int, row_bytes: int) -> BitmapError:
    if problem == _TRUNCATED:
        return _truncated(codec, row)
    if problem == _ZERO_RUN:
        return BitmapError(f"rle run of length 0 in row {row}")
    return _overflow(codec, row, row_bytes)


# The byte offsets within a group of 8 that a ScanLine mask marks as sent.
_MARKED = [tuple(k for k in range(8) if mask & (0x80 >> k)) for mask in range(256)]
_FULL_MASK = [(0xFF00 >> n) & 0xFF for n in range(9)]  # the bits of a group of n bytes
_ONE_BYTE = [bytes((value,)) for value in range(256)]
_ZERO_MASKS = re.compile(rb"\x00+")
_FULL_GROUPS = re.compile(rb"(?:\xff.{8})+", re.DOTALL)  # groups with every byte sent
# The one offset a mask of a single bit marks; None for the other masks.
_SINGLE = [_MARKED[mask][0] if len(_MARKED[mask]) == 1 else None for mask in range(256)]


def _scanline_decode(data: bytes, pos: int, row_bytes: int, rows: int) -> tuple[bytes, int]:
    """The quick way when the stream is whole, else the careful one, which says what is wrong."""
    try:
        decoded = _scanline_decode_quick(data, pos, row_bytes, rows)
    except IndexError:  # the data ran out
        decoded = None
    return decoded or _scanline_decode_checked(data, pos, row_bytes, rows)


def _scanline_decode_quick(
    data: bytes, pos: int, row_bytes: int, rows: int
) -> tuple[bytes, int] | None:
    """One row kept and changed in place, a step per changed group, none per unchanged one.

    Masks of one bit (most changes in art) set a byte, a full mask a slice,
    and full masks one after another (noise, photos) one slice together. The
    next changed group after unchanged ones is found by ``bytes.find`` on the
    stream's bytes made flags (one translate for the image). None, or
    IndexError, if the data runs out.
    """
    size = len(data)
    groups = _ceil_div(row_bytes, 8)
    first_end = pos + groups + row_bytes
    if first_end > size:
        return None
    # Like palmtopnm: the first row carries every byte whatever its masks say.
    row = bytearray(data[pos:first_end])
    del row[0::9]  # the masks
    out = bytearray(row)
    # Every later row takes at most a mask and a byte per byte: the stream ends by then.
    stream = data[first_end : min(size, first_end + (rows - 1) * (groups + row_bytes))]
    nonzero = stream.translate(_TO_FLAG)  # where the next changed group is: one find
    pos = 0
    whole = row_bytes & ~7  # the groups of 8; a last shorter group is read apart
    tail = row_bytes & 7
    single, marked, full_groups = _SINGLE, _MARKED, _FULL_GROUPS.match
    for _ in range(1, rows):
        start = 0
        while start < whole:
            mask = stream[pos]
            if not mask:  # unchanged groups, then the next changed one or the row's end
                limit = pos + ((whole - start) >> 3)
                found = nonzero.find(1, pos + 1, limit)
                if found < 0:
                    pos = limit
                    break
                start += (found - pos) << 3
                pos = found
                mask = stream[pos]
            offset = single[mask]
            if offset is not None:
                row[start + offset] = stream[pos + 1]
                pos += 2
            elif mask == 0xFF:
                if start + 8 < whole and stream[pos + 9] == 0xFF:  # whole groups in a row:
                    # one slice of the stream, the masks cut out of it (noise, photos)
                    limit = pos + 9 * ((whole - start) >> 3)
                    groups_sent = full_groups(stream, pos, limit)
                    if groups_sent is None:  # the data ran out
                        return None
                    end = groups_sent.end()
                    changed = bytearray(stream[pos:end])
                    del changed[0::9]
                    row[start : start + len(changed)] = changed
                    start += len(changed)
                    pos = end
                    continue
                row[start : start + 8] = stream[pos + 1 : pos + 9]  # short at the end: caught below
                pos += 9
            else:
                for offset in marked[mask]:
                    pos += 1
                    row[start + offset] = stream[pos]
                pos += 1
            start += 8
        if tail:
            mask = stream[pos] & _FULL_MASK[tail]
            for offset in marked[mask]:
                pos += 1
                row[whole + offset] = stream[pos]
            pos += 1
        out += row
    pos += first_end
    if pos > size or len(out) != row_bytes * rows:  # the data ran out
        return None
    return bytes(out), pos


def _scanline_decode_checked(
    data: bytes, pos: int, row_bytes: int, rows: int
) -> tuple[bytes, int]:
    out = bytearray()
    size = len(data)
    groups = [(start, min(8, row_bytes - start)) for start in range(0, row_bytes, 8)]
    # Like palmtopnm: the first row carries every byte whatever its masks say.
    row = bytearray()
    for _start, length in groups if rows else ():
        if pos + 1 + length > size:
            raise _truncated(SCANLINE, 0)
        row += data[pos + 1 : pos + 1 + length]
        pos += 1 + length
    out += row
    count = len(groups)
    for row_index in range(1, rows):
        # The row above, with the bytes each mask marks replaced.
        group = 0
        while group < count:
            if pos >= size:
                raise _truncated(SCANLINE, row_index)
            if not data[pos]:  # unchanged groups, often many: skipped at once
                limit = pos + count - group
                zeros = _ZERO_MASKS.match(data, pos, limit if limit < size else size)
                assert zeros is not None  # data[pos] is one
                skipped = zeros.end() - pos
                pos += skipped
                group += skipped
                continue
            start, length = groups[group]
            group += 1
            mask = data[pos] & _FULL_MASK[length]
            pos += 1
            if mask == _FULL_MASK[length]:
                if pos + length > size:
                    raise _truncated(SCANLINE, row_index)
                row[start : start + length] = data[pos : pos + length]
                pos += length
                continue
            marked = _MARKED[mask]
            if pos + len(marked) > size:
                raise _truncated(SCANLINE, row_index)
            for k in marked:
                row[start + k] = data[pos]
                pos += 1
        out += row
    return bytes(out), pos


def _rle_decode(data: bytes, pos: int, row_bytes: int, rows: int) -> tuple[bytes, int]:
    """Pairs (count, value), rewritten as PackBits ops for Pillow's C decoder.

    Any stream the quick way doubts goes to the careful one, which says what is wrong.
    """
    total = row_bytes * rows  # not 0: `decode` returns at once for an empty image
    counts = data[pos : pos + 2 * total : 2]  # no valid stream has more pairs
    pairs = _pairs_filling(counts, total)
    if pairs is None or 0 in counts[:pairs]:
        return _rle_decode_checked(data, pos, row_bytes, rows)
    counts = counts[:pairs]
    values = data[pos + 1 : pos + 2 * pairs : 2]
    if len(values) < pairs:  # the last value is cut off
        return _rle_decode_checked(data, pos, row_bytes, rows)
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
        return _packbits_plane(ops, row_bytes, rows), pos + 2 * pairs
    except ValueError:
        return _rle_decode_checked(data, pos, row_bytes, rows)


def _pairs_filling(counts: bytes, total: int) -> int | None:
    """How many leading counts add up to exactly ``total``; None if none do."""
    done = 0
    for start in range(0, len(counts), _SUM_BLOCK):
        block = counts[start : start + _SUM_BLOCK]
        reached = done + _byte_sum(block)
        if reached >= total:
            ends = list(accumulate(block, initial=done))
            index = bisect_left(ends, total)
            return start + index if ends[index] == total else None
        done = reached
    return None


def _byte_sum(block: bytes) -> int:
    """The sum of the bytes, from Pillow's histogram (several times quicker than ``sum``)."""
    from PIL import Image

    histogram = Image.frombytes("L", (len(block), 1), block).histogram()
    return sum(map(mul, histogram, range(256)))


def _repeat_op(count: int) -> int:
    """The PackBits op that makes ``count`` (1 to 128) copies of the next byte."""
    return 0 if count == 1 else 257 - count


_SUM_BLOCK = 1 << 16
_RLE_FIRST_OP = bytes(_repeat_op(min(max(c, 1), 128)) for c in range(256))
_RLE_SECOND_OP = bytes(0x80 if c <= 128 else _repeat_op(c - 128) for c in range(256))
_RLE_SHORT_COUNTS = bytes(range(_PACKBITS_MAX_OP + 1))
_RLE_LONG = bytes(0xFF if c > 128 else 0 for c in range(256))
_RLE_SHORT_NO_OP = bytes(0 if c > 128 else 0x80 for c in range(256))


def _rle_decode_checked(data: bytes, pos: int, row_bytes: int, rows: int) -> tuple[bytes, int]:
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
                raise _overflow(RLE, row_index, row_bytes)
            out += _ONE_BYTE[value] * count
            filled += count
    return bytes(out), pos


def _packbits_decode(
    data: bytes, pos: int, row_bytes: int, rows: int, unit: int
) -> tuple[bytes, int]:
    """Ops found by a walk over the stream, then decoded by one of Pillow's C decoders.

    1-byte units: Pillow's PackBits decoder reads the bytes walked as they are.
    2-byte units: Pillow's TGA RLE decoder, with 2-byte pixels, reads the same
    ops once each repeat header is rewritten as TGA's (a literal's is the
    same) and the no-ops are taken out. Both refuse a run that crosses the end
    of a row, and PackBits a literal too; TGA lets a literal go on into the
    next row, so the walk looks at each literal of 2-byte units. Any stream
    the quick way doubts goes to the careful one, which says what is wrong.
    """
    if row_bytes % unit:  # (an empty image never comes here: `decode` returns at once)
        return _packbits_decode_checked(data, pos, row_bytes, rows, unit)
    if unit == 1:
        end = _packbits_byte_ops_end(data, pos, row_bytes * rows)
        try:
            if end is not None:
                return _packbits_plane(data[pos:end], row_bytes, rows), end
        except ValueError:  # a run crosses the end of a row
            pass
        return _packbits_decode_checked(data, pos, row_bytes, rows, unit)
    walked = _packbits_word_ops(data, pos, row_bytes * rows // 2, row_bytes // 2)
    if walked is None:
        return _packbits_decode_checked(data, pos, row_bytes, rows, unit)
    stretches, no_ops, end = walked
    try:
        ops = bytearray(data[pos:end])
        for start, stop in stretches:  # (header, high byte, low byte) triples
            if stop - start == 3:
                ops[start - pos] = _TGA_HEADER[ops[start - pos]]
            else:
                ops[start - pos : stop - pos : 3] = ops[start - pos : stop - pos : 3].translate(
                    _TGA_HEADER
                )
        for at in reversed(no_ops):  # rare: our encoder never writes one
            del ops[at - pos]
        return _tga_rle_words(ops, row_bytes // 2, rows), end
    except ValueError:  # a run crosses the end of a row
        return _packbits_decode_checked(data, pos, row_bytes, rows, unit)


# PackBits headers as TGA RLE's: a literal of n units is n - 1 in both; a repeat
# of n units is 257 - n in PackBits, 0x80 + n - 1 in TGA. (0x80, a no-op, is never asked.)
_TGA_HEADER = bytes(h if h < 0x80 else 0x80 | ((256 - h) & 0x7F) for h in range(256))


def _tga_rle_words(ops: bytes | bytearray, width: int, rows: int) -> bytes:
    """TGA RLE ops of 2-byte pixels decoded by Pillow, bytes kept in their order."""
    from PIL import Image

    # "I;16" holds 2 bytes a pixel and copies them as they come (top row first: 1).
    return Image.frombytes("I;16", (width, rows), ops, "tga_rle", ("I;16", 1, 16)).tobytes()


def _packbits_plane(ops: bytes | bytearray, row_bytes: int, rows: int) -> bytes:
    """Byte-wise PackBits decoded by Pillow, which refuses an op crossing a row's end."""
    from PIL import Image

    return Image.frombytes("L", (row_bytes, rows), ops, "packbits", "L").tobytes()


def _packbits_byte_ops_end(data: bytes, pos: int, total: int) -> int | None:
    """Where the byte-wise ops making exactly ``total`` bytes end; None if they do not.

    An op at a time, its units and length from two tables: where literals
    alternate with short ops (photos, line art) that is the least Python a
    step can do. A stretch of two or more short ops (repeats and 1-byte
    literals, 2 bytes each; art) is taken whole: its end is one ``find`` in
    the stream's bytes made flags of "heads a longer op" (one string for
    even and one for odd offsets, made once), what it makes a ``translate``
    and a sum.
    """
    size = len(data)
    base = pos
    # Without no-ops (which our encoder never writes) the ops of ``total`` bytes
    # take at most ``2 * total`` bytes; a longer stream leaves the flags, and
    # the careful decoder reads it.
    region = min(size, pos + 2 * total)
    longer = (
        data[pos:region:2].translate(_LONGER_OP),
        data[pos + 1 : region : 2].translate(_LONGER_OP),
    )
    made, length, is_longer = _BYTE_OP_UNITS, _BYTE_OP_LENGTH, _LONGER_OP
    filled = 0
    try:
        while filled < total:
            header = data[pos]
            if not is_longer[header] and not is_longer[data[pos + 2]]:  # a stretch
                stop = _short_ops_end(longer, base, pos, 2, total - filled, region)
                if stop <= pos:  # past the flags (no-ops took the stream beyond them)
                    return None
                taken = _stretch_made(data, pos, stop, 2, total - filled)
                if taken is None:
                    return None
                pos, count = taken
                filled += count
            else:
                filled += made[header]
                pos += length[header]
    except IndexError:  # a short op at the data's end (or past it)
        return _packbits_byte_ops_tail(data, pos, total - filled)
    return pos if filled == total and pos <= size else None


def _short_ops_end(
    longer: Sequence[bytes], base: int, pos: int, step: int, most: int, region: int
) -> int:
    """Where a stretch of short ops (``step`` bytes each) from ``pos`` ends.

    At the next longer op (``longer``: a flag per op position of each phase,
    from ``base``), after ``most`` ops, or at the last whole op before
    ``region``; at or before ``pos`` if ``pos`` is past ``region``.
    """
    first, phase = divmod(pos - base, step)
    last = first + min(most, (region - pos) // step)
    found = longer[phase].find(1, first, last)
    return pos + step * ((last if found < 0 else found) - first)


def _stretch_made(data: bytes, pos: int, stop: int, step: int, room: int) -> tuple[int, int] | None:
    """Where the stretch of short ops (``step`` bytes each) from ``pos`` to ``stop``
    ends and the units it makes, cut where the image ends if that is inside it
    (it makes ``room`` more units); None if an op there crosses the image's end."""
    made_by = data[pos:stop:step].translate(_SHORT_OP_UNITS)
    made = sum(made_by) if len(made_by) <= 256 else _byte_sum(made_by)
    if made <= room:
        return stop, made
    ends = list(accumulate(made_by, initial=0))
    index = bisect_left(ends, room)
    return (pos + step * index, room) if ends[index] == room else None


def _packbits_byte_ops_tail(data: bytes, pos: int, left: int) -> int | None:
    """Where the last ops end when the stream runs to the data's last bytes."""
    size = len(data)
    while left > 0 and pos < size:
        header = data[pos]
        left -= _BYTE_OP_UNITS[header]
        pos += _BYTE_OP_LENGTH[header]
    return pos if left == 0 and pos <= size else None


def _packbits_word_ops(
    data: bytes, pos: int, total: int, row_units: int
) -> tuple[list[tuple[int, int]], list[int], int] | None:
    """Where the ops of 2-byte units making exactly ``total`` units end, with what TGA needs.

    As for bytes (`_packbits_byte_ops_end`), an op at a time, or a stretch of
    short ops (repeats and 1-unit literals, 3 bytes each) at once, its end
    found in flags made once for each of the 3 phases. Kept: the stretches
    (start, stop), whose repeat headers are rewritten, and the no-ops'
    positions; no literal may cross the end of a row of ``row_units`` (TGA
    would carry it on into the next row). None if the stream runs out or
    overshoots, or a literal crosses a row's end: the careful decoder says how.
    """
    size = len(data)
    base = pos
    # Without no-ops the ops of ``total`` units take at most ``3 * total`` bytes;
    # a stream longer than that leaves the flags, and the careful decoder reads it.
    region = min(size, pos + 3 * total)
    longer = [data[base + phase : region : 3].translate(_LONGER_OP) for phase in range(3)]
    is_longer = _LONGER_OP
    stretches: list[tuple[int, int]] = []
    no_ops: list[int] = []
    filled = 0
    try:
        while filled < total:
            header = data[pos]
            if not is_longer[header]:  # short ops
                stop = pos + 3
                if stop < size and is_longer[data[stop]]:  # one, between longer ops
                    made = _SHORT_OP_UNITS[header]
                    if filled + made > total:
                        return None
                else:  # up to the next longer op, the image's end or the data's
                    stop = _short_ops_end(longer, base, pos, 3, total - filled, region)
                    if stop <= pos:  # an op cut off by the data's end, or past the flags
                        return None
                    taken = _stretch_made(data, pos, stop, 3, total - filled)
                    if taken is None:
                        return None
                    stop, made = taken
                stretches.append((pos, stop))
                filled += made
                pos = stop
            elif header != _NO_OP:  # a literal of 2+ units, within its row
                if filled % row_units + header >= row_units:
                    return None
                filled += header + 1
                pos += 2 * header + 3
            else:
                no_ops.append(pos)
                pos += 1
    except IndexError:  # the data ran out
        return None
    if filled > total or pos > size:  # a literal past the image or the data
        return None
    return stretches, no_ops, pos


_NO_OP = 0x80
# 1 for the headers of the longer ops (literals of 2+ units, no-ops), 0 for short ones.
_LONGER_OP = bytes(1 if 0 < h <= _NO_OP else 0 for h in range(256))
# What each byte-wise op makes and how long it is, by its header.
_BYTE_OP_UNITS = [h + 1 if h < _NO_OP else 0 if h == _NO_OP else 257 - h for h in range(256)]
_BYTE_OP_LENGTH = [h + 2 if h < _NO_OP else 1 if h == _NO_OP else 2 for h in range(256)]
# What a short op's header makes, in units (the other headers never head one).
_SHORT_OP_UNITS = bytes(1 if h == 0 else 257 - h if h > _NO_OP else 0 for h in range(256))


def _packbits_decode_checked(
    data: bytes, pos: int, row_bytes: int, rows: int, unit: int
) -> tuple[bytes, int]:
    out = bytearray()
    size = len(data)
    end = 0
    for row_index in range(rows):
        end += row_bytes
        while len(out) < end:
            if pos >= size:
                raise _truncated(PACKBITS, row_index)
            count = data[pos]
            pos += 1
            if count < 0x80:
                after = pos + (count + 1) * unit
                if after > size:
                    raise _truncated(PACKBITS, row_index)
                out += data[pos:after]
            elif count > 0x80:
                after = pos + unit
                if after > size:
                    raise _truncated(PACKBITS, row_index)
                out += data[pos:after] * (257 - count)  # 1 - n for the signed count n
            else:
                continue  # -128: no operation, as in Apple's PackBits
            pos = after
        if len(out) > end:  # only the op that ended the row can overflow it
            raise _overflow(PACKBITS, row_index, row_bytes)
    return bytes(out), pos
