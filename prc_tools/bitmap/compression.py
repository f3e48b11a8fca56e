"""The table of Palm bitmap compressions: each declared once, looked up by name or
by the compressionType byte (docs/bitmap-format.md, "The three compressions").

A `Codec` says everything the reader and the writer need of one compression:
its name (as manifests and `Member.compression` say it), its type code, the
oldest bitmap version that has it, its unit (bytes, or 16-bit words for
16-bit pixels), the fewest input bytes a row can take, its encoder and decoder
in Python, and, when the C module has it, the C versions. `register_codec`
adds one, as Pillow's `register_decoder` adds a decoder; the built-in ones are
below, their Python code in prc_tools/bitmap/scanline.py, rle.py and
packbits.py, loaded when first used (with the C module built, reading a
database never loads it).

Every codec works on whole rows of ``row_bytes`` bytes. Decoders read from a
position in a buffer until the requested rows are complete, never trusting a
stored size, and raise BitmapError when the data runs out or a run overflows
its row. A codec's minimum input per row lets a caller reject, before
allocating, a header that claims more rows than the available bytes could ever
produce. When the optional C module is built (prc_tools.speedups decides), the
codecs that have C versions run there, with the same output and errors.
"""

from __future__ import annotations

import sys

from prc_tools import speedups
from prc_tools.errors import BitmapError
from prc_tools.frozen import Frozen

# Not `from typing import TYPE_CHECKING`: typing costs a quick command 3 ms to load.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Sequence
    from typing import Any, TypeAlias

    from prc_tools.speedups import Native

    # rows (all of one length), unit -> the compressed bytes
    Encoder: TypeAlias = Callable[[Sequence[bytes], int], bytes]
    # data, position, row length, rows, unit -> the rows joined, the position after them
    Decoder: TypeAlias = Callable[[bytes, int, int, int, int], tuple[bytes, int]]
    # row length, unit -> the fewest input bytes any valid encoding of one row takes
    Minimum: TypeAlias = Callable[[int, int], int]
    NativeEncoder: TypeAlias = Callable[[Native, Sequence[bytes], int], bytes]

NO_COMPRESSION = 0xFF  # the compressionType byte of an uncompressed bitmap


class Codec(Frozen):
    """One compression, as the reader and the writer need it."""

    name: str  # as manifests, `bitmap.encode` and `Member.compression` say it
    type_code: int  # the compressionType byte (versions 2 and 3)
    minimum: Minimum  # the fewest input bytes one row can take (see `min_input_per_row`)
    encode: Encoder  # in Python
    decode: Decoder  # in Python; asked only for rows whose first one can fit
    version: int = 2  # the oldest bitmap version whose readers know it
    word_units: bool = False  # 16-bit pixels go in 2-byte units (PackBits)
    compressed: bool = True  # False: the rows as they are (no size field, no flag)
    native_encode: NativeEncoder | None = None  # the C module's encoder, if it has one
    native_decode: bool = False  # the C module's decoder knows `type_code`

    def unit(self, depth: int) -> int:
        """The unit of its runs at `depth` bits per pixel: 2 bytes where it counts
        16-bit pixels in words, else 1."""
        return 2 if self.word_units and depth == 16 else 1

    def min_input_per_row(self, row_bytes: int, unit: int = 1) -> int:
        """The fewest input bytes any valid encoding of one row can take."""
        return 0 if row_bytes == 0 else self.minimum(row_bytes, unit if self.word_units else 1)


_BY_NAME: dict[str, Codec] = {}
_BY_TYPE: dict[int, Codec] = {}


def register_codec(codec: Codec) -> Codec:
    """Make `codec` known by its name and type code (in the order of registration:
    `compression="best"` tries them in turn). ValueError if either is taken."""
    if codec.name in _BY_NAME or codec.type_code in _BY_TYPE:
        raise ValueError(f"a compression named {codec.name!r} or of type {codec.type_code}"
                         " is registered already")
    _BY_NAME[codec.name] = codec
    _BY_TYPE[codec.type_code] = codec
    return codec


def named(name: str) -> Codec:
    """The codec called `name`; ValueError if there is none."""
    codec = _BY_NAME.get(name)
    if codec is None:
        raise ValueError(f"unknown compression {name!r}")
    return codec


def by_type(type_code: int) -> Codec | None:
    """The codec of a compressionType byte, or None."""
    return _BY_TYPE.get(type_code)


def names() -> tuple[str, ...]:
    """Every codec's name, in the order of registration."""
    return tuple(_BY_NAME)


def min_input_per_row(name: str, row_bytes: int, unit: int = 1) -> int:
    """The fewest input bytes any valid encoding of one row can take."""
    return named(name).min_input_per_row(row_bytes, unit)


def encode(name: str, rows: Sequence[bytes], unit: int = 1) -> bytes:
    """Compress equal-length rows; ``unit`` is 2 for PackBits at 16 bits per pixel."""
    codec = named(name)
    native = speedups.native
    if native is not None and codec.native_encode is not None:
        return codec.native_encode(native, rows, unit)
    return codec.encode(rows, unit)


def decode(
    name: str, data: bytes, pos: int, row_bytes: int, rows: int, unit: int = 1
) -> tuple[bytes, int]:
    """Decompress ``rows`` rows starting at ``data[pos]``.

    Returns the raw rows joined and the position just after the last byte read.
    Any position and sizes are safe: a start past the data, or a first row the
    data cannot hold, is BitmapError (truncated in row 0), on both paths.
    """
    if pos < 0 or row_bytes < 0 or rows < 0 or unit not in (1, 2):
        raise ValueError(f"decode: bad position {pos}, row size {row_bytes}, rows {rows} or unit")
    codec = named(name)
    if not codec.compressed:
        return codec.decode(data, pos, row_bytes, rows, unit)
    if row_bytes == 0 or rows == 0:
        return b"", pos
    if codec.min_input_per_row(row_bytes, unit) > len(data) - pos:
        # Not even the first row fits (a start past the end included): said before
        # a per-row list or a C size (at most 2**63 - 1) sees the numbers.
        raise truncated(name, 0)
    native = speedups.native
    if native is not None and codec.native_decode:
        step = unit if codec.word_units else 1
        # Every row takes a byte at least, so the data runs out long before
        # sys.maxsize rows: clamping a larger count changes nothing.
        count = min(rows, sys.maxsize)
        raw, at, problem = native.decode(codec.type_code, data, pos, row_bytes, count, step)
        if raw is None:
            raise _problem(name, problem, at, row_bytes)
        return raw, at
    return codec.decode(data, pos, row_bytes, rows, unit)


def ceil_div(a: int, b: int) -> int:
    return -(-a // b)


def truncated(name: str, row: int) -> BitmapError:
    return BitmapError(f"{name} data truncated in row {row}")


def overflow(name: str, row: int, row_bytes: int) -> BitmapError:
    return BitmapError(f"{name} run overflows row {row} ({row_bytes} bytes)")


# The C decoder's problem codes (prc_tools/_speedups.c), in the same words as here.
_TRUNCATED, _ZERO_RUN, _OVERFLOW = 1, 2, 3


def _problem(name: str, problem: int, row: int, row_bytes: int) -> BitmapError:
    if problem == _TRUNCATED:
        return truncated(name, row)
    if problem == _ZERO_RUN:
        return BitmapError(f"{name} run of length 0 in row {row}")
    return overflow(name, row, row_bytes)


# ---------------------------------------------------------------- the built-in codecs


def _stored(data: bytes, pos: int, row_bytes: int, rows: int, unit: int = 1) -> tuple[bytes, int]:
    """Uncompressed rows, as they are."""
    end = pos + row_bytes * rows
    if end > len(data):
        raise BitmapError(
            f"pixel data truncated: needs {row_bytes * rows} bytes, has {max(0, len(data) - pos)}"
        )
    return data[pos:end], end


def _joined(rows: Sequence[bytes], unit: int = 1) -> bytes:
    return b"".join(rows)


def _in_module(module: str, function: str) -> Any:
    """`function` of prc_tools/bitmap/`module`.py, imported at its first call: the
    C module's path never loads the Python codecs and their tables."""
    qualified = f"prc_tools.bitmap.{module}"

    def call(*args: Any) -> Any:
        loaded = sys.modules.get(qualified)
        if loaded is None:
            from importlib import import_module

            loaded = import_module(qualified)
        return getattr(loaded, function)(*args)

    return call


UNCOMPRESSED = register_codec(Codec(
    name="none", type_code=NO_COMPRESSION, minimum=lambda row_bytes, unit: row_bytes,
    encode=_joined, decode=_stored, version=0, compressed=False,
))
SCANLINE = register_codec(Codec(
    # at least one mask byte per 8 bytes
    name="scanline", type_code=0, minimum=lambda row_bytes, unit: ceil_div(row_bytes, 8),
    encode=_in_module("scanline", "encode"), decode=_in_module("scanline", "decode"),
    # In every version: readers take any compressed bitmap before version 2 as ScanLine.
    version=0,
    native_encode=lambda native, rows, unit: native.scanline_encode(rows), native_decode=True,
))
RLE = register_codec(Codec(
    # a pair (count, value) per 255 bytes at most
    name="rle", type_code=1, minimum=lambda row_bytes, unit: 2 * ceil_div(row_bytes, 255),
    encode=_in_module("rle", "encode"), decode=_in_module("rle", "decode"),
    native_encode=lambda native, rows, unit: native.rle_encode(rows), native_decode=True,
))
PACKBITS = register_codec(Codec(
    # a repeat op (count + one unit) makes at most 128 units
    name="packbits", type_code=2,
    minimum=lambda row_bytes, unit: (1 + unit) * ceil_div(row_bytes, 128 * unit),
    encode=_in_module("packbits", "encode"), decode=_in_module("packbits", "decode"),
    word_units=True,
    native_encode=lambda native, rows, unit: native.packbits_encode(rows, unit),
    native_decode=True,
))
