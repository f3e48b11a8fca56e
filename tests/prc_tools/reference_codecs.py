"""A second implementation of the three Palm compressions, written from
docs/bitmap-format.md ("The three compressions") and not from
prc_tools/bitmap/compression.py: tests/prc_tools/test_codec_reference.py checks that
both give the same bytes, rows, end positions and errors.

It is built differently on purpose. Encoders first describe a row as a list
of operations (runs of units, pending literals), then write the operations;
decoders pull bytes through a small reader that raises when the data ends, and
build each row separately. Slow and plain: it only has to be right.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from prc_tools.errors import BitmapError

GROUP = 8  # ScanLine: bytes per mask byte
RLE_LONGEST = 255  # RLE: the largest count
PACKBITS_LONGEST = 128  # PackBits: the most units one op stands for


# --- encoding ----------------------------------------------------------------


def encode(codec: str, rows: Sequence[bytes], unit: int = 1) -> bytes:
    """Every row encoded, one after another (`unit` matters to PackBits only)."""
    if codec == "none":
        return b"".join(rows)
    if codec == "scanline":
        above: bytes | None = None
        out = bytearray()
        for row in rows:
            out += scanline_row(row, above)
            above = row
        return bytes(out)
    if codec == "rle":
        return b"".join(rle_row(row) for row in rows)
    if codec == "packbits":
        return b"".join(packbits_row(row, unit) for row in rows)
    raise ValueError(f"unknown compression {codec!r}")


def scanline_row(row: bytes, above: bytes | None) -> bytes:
    out = bytearray()
    for first in range(0, len(row), GROUP):
        group = row[first : first + GROUP]
        if above is None:
            sent = list(range(len(group)))  # the first row: all of it
        else:
            sent = [k for k, value in enumerate(group) if value != above[first + k]]
        out.append(sum(0x80 >> k for k in sent))
        out += bytes(group[k] for k in sent)
    return bytes(out)


def runs(units: list[bytes]) -> list[tuple[bytes, int]]:
    """(unit, how many times) for each maximal stretch of one unit."""
    found: list[tuple[bytes, int]] = []
    for unit in units:
        if found and found[-1][0] == unit:
            found[-1] = (unit, found[-1][1] + 1)
        else:
            found.append((unit, 1))
    return found


def pieces(count: int, longest: int) -> list[int]:
    """`count` split into pieces of `longest` and a rest."""
    return [longest] * (count // longest) + ([count % longest] if count % longest else [])


def rle_row(row: bytes) -> bytes:
    out = bytearray()
    for value, count in runs([bytes([b]) for b in row]):
        for piece in pieces(count, RLE_LONGEST):
            out += bytes([piece]) + value
    return bytes(out)


@dataclass
class PackBitsRow:
    """The ops of one row: ("repeat", unit, n) and ("literal", units)."""

    ops: list[tuple[str, bytes, int]] = field(default_factory=list)
    waiting: list[bytes] = field(default_factory=list)  # literal units not yet written

    def literal(self, unit: bytes, count: int) -> None:
        self.waiting += [unit] * count

    def repeat(self, unit: bytes, count: int) -> None:
        self.flush()
        for piece in pieces(count, PACKBITS_LONGEST):
            if piece == 1:
                self.ops.append(("literal", unit, 1))
            else:
                self.ops.append(("repeat", unit, piece))

    def flush(self) -> None:
        while self.waiting:
            chunk, self.waiting = (self.waiting[:PACKBITS_LONGEST],
                                   self.waiting[PACKBITS_LONGEST:])
            self.ops.append(("literal", b"".join(chunk), len(chunk)))

    def to_bytes(self) -> bytes:
        self.flush()
        out = bytearray()
        for kind, data, count in self.ops:
            # literal: n + 1 units follow (n >= 0); repeat: 1 - n copies (n < 0).
            n = count - 1 if kind == "literal" else 1 - count
            out += (n & 0xFF).to_bytes(1, "big") + data
        return bytes(out)


def packbits_row(row: bytes, unit: int) -> bytes:
    if len(row) % unit:
        raise ValueError("row length is not a whole number of units")
    ops = PackBitsRow()
    for value, count in runs([row[i : i + unit] for i in range(0, len(row), unit)]):
        if count >= 3 or (count == 2 and not ops.waiting):
            ops.repeat(value, count)
        else:
            ops.literal(value, count)
    return ops.to_bytes()


# --- decoding ----------------------------------------------------------------


class OutOfData(Exception):
    """The reader reached the end of the data."""


class Reader:
    def __init__(self, data: bytes, pos: int) -> None:
        self.data = data
        self.pos = pos

    def take(self, count: int) -> bytes:
        if self.pos + count > len(self.data):
            raise OutOfData
        chunk = self.data[self.pos : self.pos + count]
        self.pos += count
        return chunk

    def byte(self) -> int:
        return self.take(1)[0]


def decode(
    codec: str, data: bytes, pos: int, row_bytes: int, rows: int, unit: int = 1
) -> tuple[bytes, int]:
    """`rows` rows from `data[pos:]`: their bytes and the position after the last one read."""
    if codec == "none":
        if pos + row_bytes * rows > len(data):
            raise BitmapError(f"pixel data truncated: needs {row_bytes * rows} bytes, "
                              f"has {max(0, len(data) - pos)}")
        return data[pos : pos + row_bytes * rows], pos + row_bytes * rows
    read_row = {"scanline": scanline_read, "rle": rle_read, "packbits": packbits_read}[codec]
    reader = Reader(data, pos)
    done: list[bytes] = []
    for index in range(rows):
        above = done[-1] if done else None
        try:
            row = read_row(reader, row_bytes, above, unit)
        except OutOfData:
            raise BitmapError(f"{codec} data truncated in row {index}") from None
        except RowProblem as problem:
            raise BitmapError(str(problem).format(row=index)) from None
        done.append(row)
    return b"".join(done), reader.pos


class RowProblem(Exception):
    """What is wrong with a row, its number left as ``{row}``."""


def scanline_read(reader: Reader, row_bytes: int, above: bytes | None, unit: int) -> bytes:
    row = bytearray()
    for first in range(0, row_bytes, GROUP):
        length = min(GROUP, row_bytes - first)
        mask = reader.byte()
        for k in range(length):
            if above is None or mask & (0x80 >> k):
                row += reader.take(1)
            else:
                row.append(above[first + k])
    return bytes(row)


def rle_read(reader: Reader, row_bytes: int, above: bytes | None, unit: int) -> bytes:
    row = bytearray()
    while len(row) < row_bytes:
        count, value = reader.take(2)
        if count == 0:
            raise RowProblem("rle run of length 0 in row {row}")
        if len(row) + count > row_bytes:
            raise RowProblem(f"rle run overflows row {{row}} ({row_bytes} bytes)")
        row += bytes([value]) * count
    return bytes(row)


def packbits_read(reader: Reader, row_bytes: int, above: bytes | None, unit: int) -> bytes:
    row = bytearray()
    while len(row) < row_bytes:
        n = int.from_bytes(reader.take(1), "big", signed=True)
        if n == -128:
            continue  # no-op
        row += reader.take((n + 1) * unit) if n >= 0 else reader.take(unit) * (1 - n)
    if len(row) > row_bytes:
        raise RowProblem(f"packbits run overflows row {{row}} ({row_bytes} bytes)")
    return bytes(row)
