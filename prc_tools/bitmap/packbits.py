"""PackBits (compression type 2): signed count bytes, literal units or a repeated
one, over bytes or 16-bit words (docs/bitmap-format.md, "The three
compressions"). Its entry in the codec table is in
prc_tools/bitmap/compression.py; this is the pure-Python code.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Sequence
from itertools import accumulate

from prc_tools.bitmap.compression import overflow, truncated
from prc_tools.bitmap.runs import MAX_OP, byte_sum, each_distinct_row, packbits_plane, repeats


def encode(rows: Sequence[bytes], unit: int = 1) -> bytes:
    """Rows of units of 1 or 2 bytes (2: 16 bits per pixel)."""
    return each_distinct_row(lambda row: _encode_row(row, unit), rows)


def _encode_row(row: bytes, unit: int) -> bytes:
    """PackBits over units of 1 or 2 bytes: runs of 3+ (or 2 with no pending literal) repeat."""
    if len(row) % unit:
        raise ValueError("row length is not a whole number of units")
    out = bytearray()
    literal_start = 0  # byte offsets
    longest = MAX_OP * unit
    for start, end in repeats(row, unit):
        count = (end - start) // unit
        if count == 2 and start != literal_start:
            continue  # cheaper inside the pending literal
        if start != literal_start:
            if start - literal_start <= longest:
                out.append((start - literal_start) // unit - 1)
                out += row[literal_start:start]
            else:
                _literal(out, row, literal_start, start, unit)
        if count <= MAX_OP:
            out.append(257 - count)  # -(count - 1) as a signed byte
            out += row[start : start + unit]
        else:
            value = row[start : start + unit]
            while count:
                take = min(count, MAX_OP)
                out.append(0 if take == 1 else 257 - take)
                out += value
                count -= take
        literal_start = end
    _literal(out, row, literal_start, len(row), unit)
    return bytes(out)


def _literal(out: bytearray, row: bytes, start: int, end: int, unit: int) -> None:
    """Literal ops of at most 128 units for ``row[start:end]``."""
    longest = MAX_OP * unit
    while start < end:
        take = min(end - start, longest)
        out.append(take // unit - 1)
        out += row[start : start + take]
        start += take


def decode(
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
        return _decode_checked(data, pos, row_bytes, rows, unit)
    if unit == 1:
        end = _byte_ops_end(data, pos, row_bytes * rows)
        try:
            if end is not None:
                return packbits_plane(data[pos:end], row_bytes, rows), end
        except ValueError:  # a run crosses the end of a row
            pass
        return _decode_checked(data, pos, row_bytes, rows, unit)
    walked = _word_ops(data, pos, row_bytes * rows // 2, row_bytes // 2)
    if walked is None:
        return _decode_checked(data, pos, row_bytes, rows, unit)
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
        return _decode_checked(data, pos, row_bytes, rows, unit)


# PackBits headers as TGA RLE's: a literal of n units is n - 1 in both; a repeat
# of n units is 257 - n in PackBits, 0x80 + n - 1 in TGA. (0x80, a no-op, is never asked.)
_TGA_HEADER = bytes(h if h < 0x80 else 0x80 | ((256 - h) & 0x7F) for h in range(256))


def _tga_rle_words(ops: bytes | bytearray, width: int, rows: int) -> bytes:
    """TGA RLE ops of 2-byte pixels decoded by Pillow, bytes kept in their order."""
    from PIL import Image

    # "I;16" holds 2 bytes a pixel and copies them as they come (top row first: 1).
    return Image.frombytes("I;16", (width, rows), ops, "tga_rle", ("I;16", 1, 16)).tobytes()


def _byte_ops_end(data: bytes, pos: int, total: int) -> int | None:
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
        return _byte_ops_tail(data, pos, total - filled)
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
    made = sum(made_by) if len(made_by) <= 256 else byte_sum(made_by)
    if made <= room:
        return stop, made
    ends = list(accumulate(made_by, initial=0))
    index = bisect_left(ends, room)
    return (pos + step * index, room) if ends[index] == room else None


def _byte_ops_tail(data: bytes, pos: int, left: int) -> int | None:
    """Where the last ops end when the stream runs to the data's last bytes."""
    size = len(data)
    while left > 0 and pos < size:
        header = data[pos]
        left -= _BYTE_OP_UNITS[header]
        pos += _BYTE_OP_LENGTH[header]
    return pos if left == 0 and pos <= size else None


def _word_ops(
    data: bytes, pos: int, total: int, row_units: int
) -> tuple[list[tuple[int, int]], list[int], int] | None:
    """Where the ops of 2-byte units making exactly ``total`` units end, with what TGA needs.

    As for bytes (`_byte_ops_end`), an op at a time, or a stretch of
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


def _decode_checked(
    data: bytes, pos: int, row_bytes: int, rows: int, unit: int
) -> tuple[bytes, int]:
    out = bytearray()
    size = len(data)
    end = 0
    for row_index in range(rows):
        end += row_bytes
        while len(out) < end:
            if pos >= size:
                raise truncated("packbits", row_index)
            count = data[pos]
            pos += 1
            if count < 0x80:
                after = pos + (count + 1) * unit
                if after > size:
                    raise truncated("packbits", row_index)
                out += data[pos:after]
            elif count > 0x80:
                after = pos + unit
                if after > size:
                    raise truncated("packbits", row_index)
                out += data[pos:after] * (257 - count)  # 1 - n for the signed count n
            else:
                continue  # -128: no operation, as in Apple's PackBits
            pos = after
        if len(out) > end:  # only the op that ended the row can overflow it
            raise overflow("packbits", row_index, row_bytes)
    return bytes(out), pos
