"""Write Palm bitmaps: one member (``encode``) or a whole family (``encode_family``).

Without a version asked for, a member gets the lowest version that can hold
it: 3 above low density or when its compressed size needs the 32-bit field;
else 2 for 8 and 16 bits per pixel, transparency, RLE or PackBits; else 1 for
2 and 4 bits, a colour table or ScanLine; else 0.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable, Mapping

from PIL import Image, ImageChops

from prc_tools.bitmap import compression
from prc_tools.bitmap.header import (
    DENSITIES,
    DEPTHS,
    DUMMY_HEADER,
    FLAG_COLOUR_TABLE,
    FLAG_COMPRESSED,
    FLAG_DIRECT_COLOUR,
    FLAG_TRANSPARENT,
    LOW_DENSITY,
    PIXEL_FORMAT_565,
    PIXEL_FORMAT_INDEXED,
    Header,
    read_header,
    write_header,
)
from prc_tools.bitmap.lookup import look_up, table
from prc_tools.bitmap.palette import RGB
from prc_tools.bitmap.pixels import (
    expand_565,
    image_to_565,
    indices_to_rows,
    row_bytes_for,
    swap_bytes,
    words_to_rows,
)
from prc_tools.bitmap.quantize import to_indices, transparency_mask
from prc_tools.errors import BitmapError
from prc_tools.frozen import Frozen

BEST = "best"  # the smallest of the codecs, member by member
MAX_SIZE = 0x7FFF
_PREFERRED_KEY_565 = 0xF81F  # magenta, the customary Palm transparent colour
# 255 where a byte plane holds the preferred key's byte.
_PREFERRED_HIGH = table(lambda v: 255 if v == _PREFERRED_KEY_565 >> 8 else 0)
_PREFERRED_LOW = table(lambda v: 255 if v == _PREFERRED_KEY_565 & 0xFF else 0)


class MemberEncoding(Frozen):
    """How one family member is stored, when a manifest says (else the family's settings)."""

    version: int | None = None  # None: the lowest that can hold the member
    compression: str = BEST
    colour_table: bool = False


class _Pixels(Frozen):
    """One member's pixels, ready to compress and frame."""

    width: int
    height: int
    depth: int
    row_bytes: int
    rows: list[bytes]
    colour_table: tuple[RGB, ...] | None
    transparent: int | None  # index, or RGB565 value at 16 bits


def encode(
    image: Image.Image,
    depth: int = 16,
    density: int = 144,
    compression: str = "packbits",
    colour_table: bool = False,
    dither: bool = False,
    version: int | None = None,
) -> bytes:
    """One Palm bitmap of ``image`` (any Pillow mode; alpha < 128 is transparent)."""
    _check_options(depth, density, compression)
    pixels = _prepare(_as_rgba(image), depth, colour_table, dither)
    return _frame_best(pixels, density, compression, version, chained=False)


def encode_family(
    image: Image.Image,
    densities: Iterable[int] = (144, 72),
    depths: Iterable[int] = (16, 8),
    compression: str = "best",
    dither: bool = False,
    members: Mapping[tuple[int, int], Image.Image] | None = None,
    version: int | None = None,
    encodings: Mapping[tuple[int, int], MemberEncoding] | None = None,
) -> bytes:
    """A bitmap family of every density x depth from one image at the highest density.

    ``members`` maps (density, depth) to a picture used for that member instead
    of the scaled ``image`` (hand-drawn low-density art, or exact extracted pixels).
    ``version`` applies to every member; ``encodings`` sets version, compression
    and colour table member by member.

    Low-density members come first (versions 1/2, by increasing depth), then
    the 16-byte dummy header, then the version 3 members of higher densities.
    """
    density_list = sorted(set(densities))
    depth_list = sorted(set(depths))
    if not density_list or not depth_list:
        raise BitmapError("a bitmap family needs at least one density and one depth")
    for density in density_list:
        for depth in depth_list:
            _check_options(depth, density, compression)
    for density, depth in [*(members or {}), *(encodings or {})]:
        if density not in density_list or depth not in depth_list:
            raise BitmapError(f"member {density}x{depth} is not one of the family's members")
    for encoding in (encodings or {}).values():
        _check_options(depth_list[0], density_list[0], encoding.compression)
    top = density_list[-1]
    source = _as_rgba(image)

    low: list[bytes] = []
    high: list[bytes] = []
    for density in density_list:
        scaled = _resize_for(source, density, top)
        for depth in depth_list:
            override = (members or {}).get((density, depth))
            picture = scaled if override is None else _as_rgba(override)
            how = (encodings or {}).get(
                (density, depth), MemberEncoding(version, compression, False)
            )
            pixels = _prepare(picture, depth, how.colour_table, dither)
            framed = _frame_best(pixels, density, how.compression, how.version, chained=True)
            # A low-density member too big for version 2 goes with the version 3 ones.
            (low if density == LOW_DENSITY and framed[9] < 3 else high).append(framed)

    out = bytearray()
    for index, member in enumerate(low):
        if index < len(low) - 1 or high:  # something follows: point at it
            member = _chain(member)
        out += member
    if low and high:
        out += DUMMY_HEADER
    for index, member in enumerate(high):
        if index < len(high) - 1:
            member = _chain(member)
        out += member
    return bytes(out)


def _as_rgba(image: Image.Image) -> Image.Image:
    try:
        return image.convert("RGBA")
    except ValueError:
        raise BitmapError(f"cannot convert a {image.mode} image to colours") from None


def compressions() -> tuple[str, ...]:
    """What `compression=` may say: "best", then each codec's name."""
    return (BEST, *compression.names())


def _check_options(depth: int, density: int, codec: str) -> None:
    if depth not in DEPTHS:
        raise BitmapError(f"depth {depth} is not one of 1, 2, 4, 8, 16")
    if density not in DENSITIES:
        raise BitmapError(f"density {density} is not one of 72, 108, 144, 216, 288")
    if codec != BEST and codec not in compression.names():
        raise BitmapError(
            f"compression {codec!r} is not one of {', '.join(compression.names())}, best"
        )


def _resize_for(source: Image.Image, density: int, top: int) -> Image.Image:
    if density == top:
        return source
    if source.width == 0 or source.height == 0:
        return source.copy()  # nothing to scale; an empty picture stays empty
    width = max(1, round(source.width * density / top))
    height = max(1, round(source.height * density / top))
    exact = top % density == 0
    resample = Image.Resampling.BOX if exact else Image.Resampling.LANCZOS
    # Premultiplied alpha so transparent pixels' hidden colours do not bleed in.
    return source.convert("RGBa").resize((width, height), resample).convert("RGBA")


def _prepare(rgba: Image.Image, depth: int, colour_table: bool, dither: bool) -> _Pixels:
    width, height = rgba.size
    if width > MAX_SIZE or height > MAX_SIZE:
        raise BitmapError(f"image {width}x{height} is larger than a Palm bitmap allows (32767)")
    row_bytes = row_bytes_for(width, depth)
    if row_bytes > 0xFFFF:
        raise BitmapError(f"image {width} pixels wide is too wide at {depth} bits per pixel")
    if depth == 16:
        if colour_table:
            raise BitmapError("a 16-bit bitmap cannot have a colour table")
        return _prepare_direct(rgba, row_bytes)
    indexed = to_indices(rgba, depth, colour_table, dither)
    rows = indices_to_rows(indexed.indices, depth, row_bytes)
    return _Pixels(
        width, height, depth, row_bytes, rows, indexed.colour_table, indexed.transparent_index
    )


def _prepare_direct(rgba: Image.Image, row_bytes: int) -> _Pixels:
    width, height = rgba.size
    words = image_to_565(rgba.convert("RGB"))
    mask = transparency_mask(rgba)
    key: int | None = None
    if mask is not None:
        # The two byte planes of the big-endian words.
        high = Image.frombytes("L", rgba.size, words[0::2])
        low = Image.frombytes("L", rgba.size, words[1::2])
        key = _free_565(words, high, low, mask)
        # Paint the key into the transparent pixels, a byte plane at a time.
        high.paste(key >> 8, mask=mask)
        low.paste(key & 0xFF, mask=mask)
        words = Image.merge("LA", (high, low)).tobytes()
    rows = words_to_rows(words, width, height, row_bytes)
    return _Pixels(width, height, 16, row_bytes, rows, None, key)


def _free_565(words: bytes, high: Image.Image, low: Image.Image, mask: Image.Image) -> int:
    """An RGB565 value that no opaque pixel has (big-endian ``words``, its byte planes)."""
    # Usually the preferred key is free: seen in whole-image passes, not per pixel.
    preferred = ImageChops.darker(look_up(high, _PREFERRED_HIGH), look_up(low, _PREFERRED_LOW))
    if ImageChops.subtract(preferred, mask).getbbox() is None:
        return _PREFERRED_KEY_565
    native = words if sys.byteorder == "big" else swap_bytes(words)
    transparent = mask.tobytes()
    used = {v for v, t in zip(memoryview(native).cast("H"), transparent, strict=True) if not t}
    free = next((v for v in range(0xFFFF, -1, -1) if v not in used), None)
    if free is None:
        raise BitmapError("every RGB565 colour is in use: no colour left for transparency")
    return free


def _frame_best(
    pixels: _Pixels, density: int, codec: str, version: int | None, chained: bool
) -> bytes:
    if codec != BEST:
        return _frame(pixels, density, codec, version, chained)
    candidates: list[bytes] = []
    errors: list[BitmapError] = []
    for candidate in compression.names():
        try:
            candidates.append(_frame(pixels, density, candidate, version, chained))
        except BitmapError as error:
            # Only with a version asked for can a codec not fit (its size field
            # too small): then the best is the smallest the version can hold.
            errors.append(error)
    if not candidates:
        raise errors[0]
    return min(candidates, key=len)


def minimum_version(
    depth: int, density: int, codec: str, colour_table: bool, transparent: bool
) -> int:
    """The oldest version able to hold these features (the data size aside)."""
    if density != LOW_DENSITY:
        return 3
    # 8-bit colour and 16-bit direct colour arrived with version 2 (Palm OS 3.5).
    features = 2 if transparent or depth >= 8 else 1 if depth > 1 or colour_table else 0
    return max(features, compression.named(codec).version)


def _v1_transparency(pixels: _Pixels, density: int, codec: str) -> bool:
    """Whether only transparency keeps a version 1 from holding this member.

    Transparency came with version 2, but databases in the wild mark version 1
    members transparent too (their header has the same byte for the index), and
    our reader honours the flag; so asked for explicitly, as a rebuild of such a
    member asks, it is allowed.
    """
    has_table = pixels.colour_table is not None
    return minimum_version(pixels.depth, density, codec, has_table, False) <= 1


def _frame(pixels: _Pixels, density: int, name: str, version: int | None, chained: bool) -> bytes:
    codec = compression.named(name)
    transparent = pixels.transparent is not None
    has_table = pixels.colour_table is not None
    needed = minimum_version(pixels.depth, density, name, has_table, transparent)
    if chained:
        needed = max(needed, 1)  # version 0 has no field to chain a next member
    data = compression.encode(name, pixels.rows, codec.unit(pixels.depth))
    if version is None:
        # Readers take a compressed version 0 bitmap as ScanLine, but compression
        # came with version 1 (Palm OS 3.0), so that is the lowest we choose.
        version = max(needed, 1 if codec.compressed else 0)
        if codec.compressed and version < 3 and len(data) + 2 > 0xFFFF:
            version = 3  # the lowest version whose size field holds this much
    elif version not in (0, 1, 2, 3):
        raise BitmapError(f"bitmap version {version} is not 0, 1, 2 or 3")
    elif version < needed and not (version == 1 and _v1_transparency(pixels, density, name)):
        raise BitmapError(
            f"version {version} cannot hold a {pixels.depth}-bit bitmap at density {density} "
            f"with {name} compression{' and transparency' if transparent else ''}"
        )

    flags = 0
    body = bytearray()
    if has_table:
        assert pixels.colour_table is not None
        flags |= FLAG_COLOUR_TABLE
        body += len(pixels.colour_table).to_bytes(2, "big")
        for index, (r, g, b) in enumerate(pixels.colour_table):
            body += bytes((index, r, g, b))
    if pixels.depth == 16 and version < 3:
        flags |= FLAG_DIRECT_COLOUR
        key = expand_565(pixels.transparent) if pixels.transparent is not None else (0, 0, 0)
        body += bytes((5, 6, 5, 0, 0, *key))
    elif pixels.depth == 16:
        flags |= FLAG_DIRECT_COLOUR  # as pnmtopalm writes; pixelFormat says 565 too
    if transparent:
        flags |= FLAG_TRANSPARENT

    if codec.compressed:
        flags |= FLAG_COMPRESSED
        size_width = 4 if version >= 3 else 2
        size = len(data) + size_width
        if size >= 1 << (8 * size_width):
            raise BitmapError(f"compressed bitmap of {size} bytes is too big for version {version}")
        body += size.to_bytes(size_width, "big")
    body += data

    # Before v3 a 16-bit key lives in the direct colour info, not in the header.
    key_in_header = version >= 3 or pixels.depth < 16
    transparent_field = (pixels.transparent or 0) if key_in_header else 0
    header = Header(
        width=pixels.width,
        height=pixels.height,
        row_bytes=pixels.row_bytes,
        flags=flags,
        pixel_size=pixels.depth,
        version=version,
        header_size=24 if version >= 3 else 16,
        compression_type=codec.type_code,
        pixel_format=PIXEL_FORMAT_565 if pixels.depth == 16 else PIXEL_FORMAT_INDEXED,
        density=density,
        transparent=transparent_field,
        next_offset=0,
    )
    return write_header(header) + bytes(body)


def chain(member: bytes) -> bytes:
    """``member`` (one encoded bitmap) made to point at whatever follows it."""
    return _chain(member)


def _chain(member: bytes) -> bytes:
    """Pad a member to 4 bytes and point its chain field just past itself."""
    padded = member + bytes(-len(member) % 4)
    linked = write_header(read_header(padded, 0).replace(next_offset=len(padded)))
    return linked + padded[len(linked) :]
