"""Palm bitmaps ('Tbmp', 'tAIB'): decode whole families, pick a member, encode.

``decode`` walks a bitmap family (low-density members chained by
nextDepthOffset, the 16-byte dummy header, then version 3 members chained by
nextBitmapOffset) and returns every member as a Pillow RGBA image; ``check``
decompresses and checks every member as ``decode`` does, without making
images (``prc-tools info`` and ``verify`` need no Pillow then).
``encode`` and ``encode_family`` (in bitmap/encoding.py) write them; they are
imported from there when first asked for, as decoding needs none of the
encoders' colour tables (a start of the emulator only decodes).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from prc_tools.bitmap.header import (
    DUMMY_HEADER,
    FLAG_COLOUR_TABLE,
    FLAG_COMPRESSED,
    FLAG_DIRECT_COLOUR,
    FLAG_TRANSPARENT,
    NO_TRANSPARENCY_V3,
    PIXEL_FORMAT_565,
    PIXEL_FORMAT_565_LE,
    PIXEL_FORMAT_INDEXED,
    Header,
    read_header,
)
from prc_tools.errors import BitmapError
from prc_tools.frozen import Frozen

# Not `from typing import TYPE_CHECKING`: typing costs a quick command 3 ms to load.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from PIL import Image

    from prc_tools.bitmap.compression import Codec
    from prc_tools.bitmap.encoding import encode, encode_family
    from prc_tools.bitmap.palette import RGB

__all__ = [
    "DUMMY_HEADER",
    "DecodeBudget",
    "Header",
    "Member",
    "Shape",
    "best",
    "check",
    "decode",
    "decode_member",
    "encode",
    "encode_family",
    "headers",
    "member_headers",
]


def __getattr__(name: str) -> object:
    if name in ("encode", "encode_family"):
        from prc_tools.bitmap import encoding

        return getattr(encoding, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


# No Palm bitmap comes near this; it keeps a hostile file from costing gigabytes
# even when its compressed data could in principle expand that far.
MAX_PIXELS = 1 << 25
# Per file (a database, a plugin): every bitmap member together. A real plugin
# holds under a million pixels; 16 M pixels (about a hundred full 320x480
# screens, 64 MB as RGBA) leaves room for any Palm program's pictures.
MAX_FILE_PIXELS = 1 << 24
MAX_FILE_DECODED_BYTES = 1 << 26  # rows as stored, before conversion to RGBA


class DecodeBudget:
    """What is left to decode for one file: pixels and decompressed bytes.

    Charged from each member's header before its data is decompressed, so a
    file of many members each just under the per-member cap is refused after
    a few cheap header reads instead of costing gigabytes.
    """

    def __init__(
        self, pixels: int = MAX_FILE_PIXELS, decoded_bytes: int = MAX_FILE_DECODED_BYTES
    ) -> None:
        self.pixels = pixels
        self.decoded_bytes = decoded_bytes

    def charge(self, pixels: int, decoded_bytes: int, where: str) -> None:
        if pixels > self.pixels or decoded_bytes > self.decoded_bytes:
            raise BitmapError(
                f"{where}: the bitmaps of this file would decode to more than"
                f" {MAX_FILE_PIXELS} pixels or {MAX_FILE_DECODED_BYTES} bytes in all"
            )
        self.pixels -= pixels
        self.decoded_bytes -= decoded_bytes

_DIRECT_INFO_SIZE = 8


class Member(Frozen):
    """One decoded bitmap of a family."""

    image: Image.Image  # RGBA; transparent pixels have alpha 0
    width: int
    height: int
    depth: int
    density: int
    version: int
    compression: str  # "none", "scanline", "rle" or "packbits"
    transparent: bool
    transparent_value: int | None  # the index (indexed) or the RGB565 value (16 bit)
    has_colour_table: bool
    colour_table: tuple[RGB, ...] | None
    row_bytes: int
    offset: int  # where this member starts in the decoded data


class Shape(Frozen):
    """What ``check`` tells of a member: its size and format, not its pixels."""

    width: int
    height: int
    depth: int
    density: int
    version: int
    compression: str
    transparent: bool


def decode(data: bytes, budget: DecodeBudget | None = None) -> list[Member]:
    """Every member of the bitmap family in ``data``, in file order.

    With a `budget` (one per file), each member is charged before it is decoded.
    """
    data = bytes(data)
    members = [_decode_member(data, pos, header, budget) for pos, header in _walk(data)]
    if not members:
        raise BitmapError("bitmap family holds only a dummy header")
    return members


def check(data: bytes, budget: DecodeBudget | None = None) -> list[Shape]:
    """Every member decompressed and checked as ``decode`` does (the same errors),
    without making its image: a member that checks decodes."""
    data = bytes(data)
    shapes = []
    for pos, header in _walk(data):
        unpacked = _unpack_member(data, pos, header, budget)
        shapes.append(Shape(header.width, header.height, unpacked.depth, header.density,
                            header.version, unpacked.codec,
                            unpacked.transparent_value is not None))
    if not shapes:
        raise BitmapError("bitmap family holds only a dummy header")
    return shapes


def member_headers(data: bytes) -> list[Header]:
    """The headers of every member of a family, without decoding any pixels.

    Cheap (a few bytes per member), so sizes can be checked against what a
    game can use before paying for a decode.
    """
    return [header for _, header in _walk(bytes(data))]


def _walk(data: bytes) -> Iterator[tuple[int, Header]]:
    """(offset, header) of each member: low-density ones chained by nextDepthOffset,
    the 16-byte dummy header, then version 3 ones chained by nextBitmapOffset."""
    pos = 0
    while True:
        header = read_header(data, pos)
        if header.is_dummy:
            next_pos = pos + len(DUMMY_HEADER)
            if next_pos >= len(data):
                return  # a dummy with nothing after it ends the family
        else:
            yield pos, header
            if header.next_offset == 0:
                return
            next_pos = pos + header.next_offset
        if next_pos >= len(data):
            raise BitmapError(
                f"bitmap at byte {pos} points to a next member at byte {next_pos}, "
                f"past the end ({len(data)} bytes)"
            )
        pos = next_pos


def headers(data: bytes) -> list[tuple[int, Header]]:
    """Where each member of the family in ``data`` starts, and its header.

    Walks the chain as ``decode`` does without decoding any pixels, so a
    reader can pick the one member it draws and decode only that
    (``decode_member``). The same chain errors as ``decode``.
    """
    found = list(_walk(bytes(data)))
    if not found:
        raise BitmapError("bitmap family holds only a dummy header")
    return found


def decode_member(data: bytes, pos: int) -> Member:
    """The one member whose header starts at ``data[pos]`` (a position ``headers`` gave)."""
    data = bytes(data)
    return _decode_member(data, pos, read_header(data, pos))


def best(members: Sequence[Member], density: int, max_depth: int = 16) -> Member:
    """The member to draw at ``density``: the deepest one there, else a scaled one.

    Without a member at that density, the member of the highest density (the
    most detail) is resized: pixel-doubled up, box-filtered down.
    """
    usable = [m for m in members if m.depth <= max_depth] or list(members)
    if not usable:
        raise BitmapError("no bitmap members to choose from")
    exact = [m for m in usable if m.density == density]
    if exact:
        return max(exact, key=lambda m: m.depth)
    source = max(usable, key=lambda m: (m.density, m.depth))
    width = max(1, round(source.width * density / source.density))
    height = max(1, round(source.height * density / source.density))
    upscale = density > source.density
    from PIL import Image

    resample = Image.Resampling.NEAREST if upscale else Image.Resampling.BOX
    image = source.image.convert("RGBa").resize((width, height), resample).convert("RGBA")
    return source.replace(image=image, width=width, height=height, density=density)


class _Unpacked(Frozen):
    """A member's checked header facts and its decompressed rows, before any image."""

    raw: bytes
    depth: int
    codec: str
    transparent_value: int | None
    colour_table: tuple[RGB, ...] | None
    big_endian: bool  # 16 bits: RGB565 words stored big-endian


def _decode_member(
    data: bytes, pos: int, header: Header, budget: DecodeBudget | None = None
) -> Member:
    from prc_tools.bitmap.palette import default_palette
    from prc_tools.bitmap.pixels import direct_to_image, indexed_to_image

    unpacked = _unpack_member(data, pos, header, budget)
    depth, raw = unpacked.depth, unpacked.raw
    colour_table, transparent_value = unpacked.colour_table, unpacked.transparent_value
    if depth == 16:
        image = direct_to_image(raw, header.width, header.height, header.row_bytes,
                                unpacked.big_endian, transparent_value)
    else:
        palette = colour_table if colour_table is not None else default_palette(depth)
        image = indexed_to_image(
            raw, header.width, header.height, header.row_bytes, depth, palette, transparent_value
        )
    return Member(
        image=image,
        width=header.width,
        height=header.height,
        depth=depth,
        density=header.density,
        version=header.version,
        compression=unpacked.codec,
        transparent=transparent_value is not None,
        transparent_value=transparent_value,
        has_colour_table=colour_table is not None,
        colour_table=colour_table,
        row_bytes=header.row_bytes,
        offset=pos,
    )


def _unpack_member(
    data: bytes, pos: int, header: Header, budget: DecodeBudget | None
) -> _Unpacked:
    """Every check of a member and its rows decompressed: all that can go wrong in a decode."""
    # Here, not at the top: a command that decodes no bitmap (`info` of a record
    # database) does without the codecs' tables (about 2 ms).
    from prc_tools.bitmap import compression

    where = f"bitmap at byte {pos}"
    depth = header.depth
    if depth not in (1, 2, 4, 8, 16):
        raise BitmapError(f"{where}: unsupported pixel size {header.pixel_size}")
    if header.width < 0 or header.height < 0:
        raise BitmapError(f"{where}: negative size {header.width}x{header.height}")
    if header.row_bytes * 8 < header.width * depth:
        raise BitmapError(
            f"{where}: {header.row_bytes} bytes per row cannot hold "
            f"{header.width} pixels of {depth} bits"
        )
    if depth == 16 and header.row_bytes % 2:
        raise BitmapError(f"{where}: odd row length {header.row_bytes} at 16 bits per pixel")
    if header.width * header.height > MAX_PIXELS:
        raise BitmapError(f"{where}: {header.width}x{header.height} is too large")
    if budget is not None:
        budget.charge(header.width * header.height, header.row_bytes * header.height, where)

    cursor = pos + header.header_size
    colour_table: tuple[RGB, ...] | None = None
    if header.has(FLAG_COLOUR_TABLE):
        colour_table, cursor = _read_colour_table(data, cursor, where)

    direct_transparent: RGB | None = None
    if header.version < 3 and header.has(FLAG_DIRECT_COLOUR):
        if cursor + _DIRECT_INFO_SIZE > len(data):
            raise BitmapError(f"{where}: direct colour info truncated")
        bits = tuple(data[cursor : cursor + 3])
        if bits != (5, 6, 5):
            raise BitmapError(f"{where}: direct colour with {bits} bits, only 5-6-5 is supported")
        r, g, b = data[cursor + 5 : cursor + 8]
        direct_transparent = (r, g, b)
        cursor += _DIRECT_INFO_SIZE

    codec = _codec(header, where)
    if codec.compressed:
        cursor += 4 if header.version >= 3 else 2  # the size field; we do not trust it
    unit = codec.unit(depth)
    needed = header.height * codec.min_input_per_row(header.row_bytes, unit)
    available = len(data) - cursor
    if needed > available:
        raise BitmapError(
            f"{where}: {header.width}x{header.height} at {depth} bits needs at least "
            f"{needed} bytes of {codec.name} data, only {max(available, 0)} present"
        )
    raw, _ = compression.decode(codec.name, data, cursor, header.row_bytes, header.height, unit)

    transparent = header.has(FLAG_TRANSPARENT)
    transparent_value: int | None = None
    if depth == 16:
        if header.version >= 3:
            if header.pixel_format not in (PIXEL_FORMAT_565, PIXEL_FORMAT_565_LE):
                raise BitmapError(f"{where}: 16-bit pixel format {header.pixel_format} unknown")
            if transparent and header.transparent != NO_TRANSPARENCY_V3:
                transparent_value = header.transparent & 0xFFFF
        elif transparent and direct_transparent is not None:
            r, g, b = direct_transparent
            transparent_value = ((r >> 3) << 11) | ((g >> 2) << 5) | (b >> 3)
        big_endian = header.version < 3 or header.pixel_format == PIXEL_FORMAT_565
    else:
        if header.version >= 3 and header.pixel_format != PIXEL_FORMAT_INDEXED:
            raise BitmapError(f"{where}: indexed pixel format {header.pixel_format} unknown")
        if transparent and not (header.version >= 3 and header.transparent == NO_TRANSPARENCY_V3):
            transparent_value = header.transparent & 0xFF
        big_endian = False
    return _Unpacked(raw, depth, codec.name, transparent_value, colour_table, big_endian)


def _codec(header: Header, where: str) -> Codec:
    from prc_tools.bitmap import compression

    if not header.has(FLAG_COMPRESSED):
        return compression.UNCOMPRESSED
    if header.version < 2:
        return compression.SCANLINE  # before version 2, "compressed" meant ScanLine
    codec = compression.by_type(header.compression_type)
    if codec is None or not codec.compressed:
        raise BitmapError(f"{where}: unknown compression type {header.compression_type}")
    return codec


def _read_colour_table(data: bytes, cursor: int, where: str) -> tuple[tuple[RGB, ...], int]:
    if cursor + 2 > len(data):
        raise BitmapError(f"{where}: colour table truncated")
    count = int.from_bytes(data[cursor : cursor + 2], "big")
    if count > 256:
        raise BitmapError(f"{where}: colour table claims {count} entries (256 at most)")
    cursor += 2
    end = cursor + 4 * count
    if end > len(data):
        raise BitmapError(f"{where}: colour table of {count} entries truncated")
    # Entries are {index, r, g, b}; a pixel value is the entry's position.
    table = tuple((data[i + 1], data[i + 2], data[i + 3]) for i in range(cursor, end, 4))
    return table, end
