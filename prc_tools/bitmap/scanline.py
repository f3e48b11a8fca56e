"""ScanLine (compression type 0): each group of 8 bytes of a row is a mask of the
bytes that differ from the row above, then those bytes (docs/bitmap-format.md,
"The three compressions"). Its entry in the codec table is in
prc_tools/bitmap/compression.py; this is the pure-Python code.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from itertools import compress

from prc_tools.bitmap.compression import ceil_div, truncated

# Pillow is imported where it is used: the C module's path never needs it.

_NONZERO = bytes([0] + [255] * 255)
_TO_FLAG = bytes([0] + [1] * 255)
# The byte offsets within a group of 8 that a ScanLine mask marks as sent.
_MARKED = [tuple(k for k in range(8) if mask & (0x80 >> k)) for mask in range(256)]
_FULL_MASK = [(0xFF00 >> n) & 0xFF for n in range(9)]  # the bits of a group of n bytes
_ZERO_MASKS = re.compile(rb"\x00+")
_FULL_GROUPS = re.compile(rb"(?:\xff.{8})+", re.DOTALL)  # groups with every byte sent
# The one offset a mask of a single bit marks; None for the other masks.
_SINGLE = [_MARKED[mask][0] if len(_MARKED[mask]) == 1 else None for mask in range(256)]


def encode(rows: Sequence[bytes], unit: int = 1) -> bytes:
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


def decode(data: bytes, pos: int, row_bytes: int, rows: int, unit: int = 1) -> tuple[bytes, int]:
    """The quick way when the stream is whole, else the careful one, which says what is wrong."""
    try:
        decoded = _decode_quick(data, pos, row_bytes, rows)
    except IndexError:  # the data ran out
        decoded = None
    return decoded or _decode_checked(data, pos, row_bytes, rows)


def _decode_quick(
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
    groups = ceil_div(row_bytes, 8)
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


def _decode_checked(
    data: bytes, pos: int, row_bytes: int, rows: int
) -> tuple[bytes, int]:
    out = bytearray()
    size = len(data)
    groups = [(start, min(8, row_bytes - start)) for start in range(0, row_bytes, 8)]
    # Like palmtopnm: the first row carries every byte whatever its masks say.
    row = bytearray()
    for _start, length in groups if rows else ():
        if pos + 1 + length > size:
            raise truncated("scanline", 0)
        row += data[pos + 1 : pos + 1 + length]
        pos += 1 + length
    out += row
    count = len(groups)
    for row_index in range(1, rows):
        # The row above, with the bytes each mask marks replaced.
        group = 0
        while group < count:
            if pos >= size:
                raise truncated("scanline", row_index)
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
                    raise truncated("scanline", row_index)
                row[start : start + length] = data[pos : pos + length]
                pos += length
                continue
            marked = _MARKED[mask]
            if pos + len(marked) > size:
                raise truncated("scanline", row_index)
            for k in marked:
                row[start + k] = data[pos]
                pos += 1
        out += row
    return bytes(out), pos
