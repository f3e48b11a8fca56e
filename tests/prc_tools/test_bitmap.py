"""Palm bitmaps: decoding known bytes, encode/decode round trips, families, choices, errors."""

from __future__ import annotations

import itertools
import random
import struct

import pytest
from PIL import Image

from prc_tools import bitmap
from prc_tools.bitmap.header import DUMMY_HEADER
from prc_tools.bitmap.palette import PALM_8BIT, grey_levels
from prc_tools.bitmap.pixels import expand_565, pack_565
from prc_tools.errors import BitmapError

# --- small helpers -------------------------------------------------------------


def pixels(image: Image.Image) -> list[tuple[int, ...]]:
    data = image.convert("RGBA").tobytes()
    return [tuple(data[i : i + 4]) for i in range(0, len(data), 4)]


def palette_image(colours: list[tuple[int, int, int]], width: int, height: int) -> Image.Image:
    image = Image.new("RGBA", (width, height))
    image.putdata([(*colours[i % len(colours)], 255) for i in range(width * height)])
    return image


def with_holes(image: Image.Image, every: int = 5) -> Image.Image:
    """A copy where every n-th pixel is fully transparent (with a junk colour)."""
    out = image.convert("RGBA").copy()
    data = pixels(out)
    out.putdata([(1, 2, 3, 0) if i % every == 0 else p for i, p in enumerate(data)])
    return out


def opaque_mask(image: Image.Image) -> list[bool]:
    return [p[3] >= 128 for p in pixels(image)]


GRADIENT = Image.merge(
    "RGBA",
    (
        Image.linear_gradient("L").resize((40, 30)),
        Image.linear_gradient("L").rotate(90).resize((40, 30)),
        Image.new("L", (40, 30), 90),
        Image.new("L", (40, 30), 255),
    ),
)

# --- decoding bytes written by other tools (pnmtopalm) ---------------------------


def test_decode_v0_one_bit() -> None:
    data = bytes.fromhex("0005 0002 0002 0000 0100 0000 0000 0000 e800 3800")
    (member,) = bitmap.decode(data)
    assert (member.width, member.height, member.depth, member.version) == (5, 2, 1, 0)
    assert member.density == 72 and member.compression == "none" and not member.transparent
    black, white = (0, 0, 0, 255), (255, 255, 255, 255)
    assert pixels(member.image) == [black, black, black, white, black] + [white] * 2 + [black] * 3


def test_decode_v1_two_bit_greys() -> None:
    data = bytes.fromhex("0005 0002 0002 0000 0201 0000 0000 0000 e4c0 06c0")
    (member,) = bitmap.decode(data)
    greys = [p[0] for p in pixels(member.image)]
    assert greys == [0, 85, 170, 255, 0, 255, 255, 170, 85, 0]


def test_decode_v2_sixteen_bit_with_transparent_colour() -> None:
    data = bytes.fromhex(
        "0003 0002 0006 2400 1002 0000 0000 0000 0506 0500 00ff 0000 f800 07e0 001f ffff 0000 08a4"
    )
    (member,) = bitmap.decode(data)
    assert member.version == 2 and member.depth == 16
    assert member.transparent and member.transparent_value == 0xF800
    assert pixels(member.image) == [
        (255, 0, 0, 0),  # red is the transparent colour
        (0, 255, 0, 255),
        (0, 0, 255, 255),
        (255, 255, 255, 255),
        (0, 0, 0, 255),
        (8, 20, 32, 255),  # v * 255 // 31, as palmtopnm expands
    ]


def test_decode_v3_sixteen_bit() -> None:
    data = bytes.fromhex(
        "0003 0002 0006 0400 1003 1801 0000 0090 0000 0000 0000 0000 f800 07e0 001f ffff 0000 08a4"
    )
    (member,) = bitmap.decode(data)
    assert member.version == 3 and member.density == 144 and not member.transparent
    assert pixels(member.image)[0] == (255, 0, 0, 255)


def test_decode_colour_table() -> None:
    data = bytes.fromhex(
        "0003 0002 0004 4000 0801 0000 0000 0000"
        "0006 00ff0000 0100ff00 020000ff 03ffffff 04000000 050a141e"
        "00010200 03040500"
    )
    (member,) = bitmap.decode(data)
    assert member.has_colour_table and member.colour_table is not None
    assert len(member.colour_table) == 6
    assert [p[:3] for p in pixels(member.image)] == [
        (255, 0, 0),
        (0, 255, 0),
        (0, 0, 255),
        (255, 255, 255),
        (0, 0, 0),
        (10, 20, 30),
    ]


@pytest.mark.parametrize(
    ("name", "data"),
    [
        (
            "rle",
            "0003 0002 0004 8000 0802 0000 0001 00000012 017d 01d2 015f 0100 0100 01ff 01d7 0100",
        ),
        ("scanline", "0003 0002 0004 8000 0802 0000 0000 0000 000b f07d d25f 00e0 00ff d7"),
        ("packbits", "0003 0002 0004 8000 0802 0000 0002 0000 000c 037d d25f 0003 00ff d700"),
        (
            "packbits",
            "0003 0002 0004 8000 0803 1800 0002 0090 0000 0000 0000 0000"
            "0000 000e 037d d25f 0003 00ff d700",
        ),
    ],
)
def test_decode_compressed_system_palette(name: str, data: str) -> None:
    (member,) = bitmap.decode(bytes.fromhex(data))
    assert member.compression == name
    expected = [PALM_8BIT[i] for i in (0x7D, 0xD2, 0x5F, 0x00, 0xFF, 0xD7)]
    assert [p[:3] for p in pixels(member.image)] == expected


def test_decode_v0_and_v1_compressed_flag_means_scanline() -> None:
    # Version 1, 8 bits, compressed flag, compressionType byte left at 0xFF.
    header = struct.pack(">hhHHBBHBBH", 3, 2, 4, 0x8000, 8, 1, 0, 0, 0xFF, 0)
    stream = bytes.fromhex("000b f07d d25f 00e0 00ff d7")
    (member,) = bitmap.decode(header + stream)
    assert member.compression == "scanline"
    assert [p[:3] for p in pixels(member.image)][3] == PALM_8BIT[0]


def test_decode_ignores_a_wrong_compressed_size_field() -> None:
    good = bytes.fromhex(
        "0003 0002 0004 8000 0802 0000 0001 0000 0012 017d 01d2 015f 0100 0100 01ff 01d7 0100"
    )
    bad = good[:16] + b"\x00\x02" + good[18:]
    assert pixels(bitmap.decode(bad)[0].image) == pixels(bitmap.decode(good)[0].image)


# --- round trips ---------------------------------------------------------------------

CODECS = ("none", "scanline", "rle", "packbits")


@pytest.mark.parametrize(
    ("depth", "codec", "density"), list(itertools.product((1, 2, 4), CODECS, (72, 144)))
)
def test_grey_round_trip_is_exact(depth: int, codec: str, density: int) -> None:
    source = palette_image(list(grey_levels(depth)), 23, 7)
    member = bitmap.decode(bitmap.encode(source, depth, density, codec))[0]
    assert (member.depth, member.density, member.compression) == (depth, density, codec)
    assert pixels(member.image) == pixels(source)


@pytest.mark.parametrize(("codec", "density"), list(itertools.product(CODECS, (72, 144))))
def test_system_palette_round_trip_is_exact(codec: str, density: int) -> None:
    source = palette_image(list(PALM_8BIT[:230]), 29, 9)
    member = bitmap.decode(bitmap.encode(source, 8, density, codec))[0]
    assert pixels(member.image) == pixels(source)


@pytest.mark.parametrize(("codec", "density"), list(itertools.product(CODECS, (72, 144))))
def test_sixteen_bit_round_trip_rounds_to_565(codec: str, density: int) -> None:
    member = bitmap.decode(bitmap.encode(GRADIENT, 16, density, codec))[0]
    expected = [(*expand_565(pack_565(p[:3])), 255) for p in pixels(GRADIENT)]
    assert pixels(member.image) == expected


def test_565_is_exact_for_565_colours() -> None:
    colours = [expand_565(v) for v in range(0, 0x10000, 97)]
    source = palette_image(colours, 61, 11)
    member = bitmap.decode(bitmap.encode(source, 16, 72, "none"))[0]
    assert pixels(member.image) == pixels(source)


@pytest.mark.parametrize("depth", [1, 2, 4, 8])
def test_colour_table_holds_exact_colours(depth: int) -> None:
    count = 1 << depth
    colours = [((i * 53) % 256, (i * 101) % 256, (i * 7) % 256) for i in range(count)]
    source = palette_image(colours, 17, 19)
    member = bitmap.decode(bitmap.encode(source, depth, 72, "rle", colour_table=True))[0]
    assert member.has_colour_table
    assert member.colour_table is not None and len(member.colour_table) == count
    assert pixels(member.image) == pixels(source)


def test_colour_table_reduces_many_colours() -> None:
    member = bitmap.decode(bitmap.encode(GRADIENT, 4, 72, "none", colour_table=True))[0]
    assert member.colour_table is not None and len(member.colour_table) <= 16
    assert len({p for p in pixels(member.image)}) <= 16


@pytest.mark.parametrize(
    ("depth", "codec", "density", "table"),
    [
        (d, c, den, t)
        for d, c, den, t in itertools.product((2, 4, 8, 16), CODECS, (72, 144), (False, True))
        if not (t and d == 16)
    ],
)
def test_transparency_survives(depth: int, codec: str, density: int, table: bool) -> None:
    source = with_holes(GRADIENT)
    member = bitmap.decode(bitmap.encode(source, depth, density, codec, colour_table=table))[0]
    assert member.transparent
    assert [p[3] == 255 for p in pixels(member.image)] == opaque_mask(source)
    assert {p[3] for p in pixels(member.image)} == {0, 255}
    assert member.version == (3 if density == 144 else 2)


def test_sixteen_bit_key_avoids_colours_in_use() -> None:
    source = palette_image([(255, 0, 255), (0, 0, 0)], 8, 8)
    source.putpixel((3, 3), (0, 0, 0, 0))
    member = bitmap.decode(bitmap.encode(source, 16, 144, "none"))[0]
    assert member.transparent_value is not None and member.transparent_value != 0xF81F
    assert [p[3] == 255 for p in pixels(member.image)] == opaque_mask(source)


def test_sixteen_bit_key_is_magenta_when_only_hidden_pixels_are_magenta() -> None:
    source = palette_image([(255, 0, 255), (0, 0, 0)], 8, 8)
    for x in range(8):
        for y in range(8):
            if source.getpixel((x, y)) == (255, 0, 255, 255):
                source.putpixel((x, y), (255, 0, 255, 0))
    member = bitmap.decode(bitmap.encode(source, 16, 144, "none"))[0]
    assert member.transparent_value == 0xF81F
    assert [p[3] == 255 for p in pixels(member.image)] == opaque_mask(source)


def test_grey_key_frees_the_least_used_grey() -> None:
    levels = list(grey_levels(2))
    source = palette_image(levels + levels[:3], 7, 4)  # index 3 (black) is the rarest
    source.putpixel((0, 0), (9, 9, 9, 0))
    member = bitmap.decode(bitmap.encode(source, 2, 72, "none"))[0]
    assert member.transparent_value == 3
    assert [p[3] == 255 for p in pixels(member.image)] == opaque_mask(source)
    assert (0, 0, 0, 255) not in pixels(member.image)


def test_one_bit_transparency_with_a_free_colour() -> None:
    source = Image.new("RGBA", (9, 3), (0, 0, 0, 255))
    source.putpixel((4, 1), (0, 0, 0, 0))
    member = bitmap.decode(bitmap.encode(source, 1, 72, "none"))[0]
    assert member.transparent_value == 0 and member.version == 2
    assert pixels(member.image)[13][3] == 0


def test_one_bit_transparency_without_a_free_colour_is_an_error() -> None:
    source = palette_image([(0, 0, 0), (255, 255, 255)], 4, 4)
    source.putpixel((0, 0), (0, 0, 0, 0))
    with pytest.raises(BitmapError, match="transparency"):
        bitmap.encode(source, 1, 72, "none")


def test_dithering_keeps_the_average_grey() -> None:
    flat = Image.new("RGB", (64, 64), (128, 128, 128))
    plain = bitmap.decode(bitmap.encode(flat, 1, 72, "none"))[0]
    dithered = bitmap.decode(bitmap.encode(flat, 1, 72, "none", dither=True))[0]
    assert len({p for p in pixels(plain.image)}) == 1
    mean = sum(p[0] for p in pixels(dithered.image)) / (64 * 64)
    assert abs(mean - 128) < 8


def test_dithering_to_the_system_palette_keeps_transparency() -> None:
    source = with_holes(GRADIENT, 7)
    plain = bitmap.decode(bitmap.encode(source, 8, 72, "none"))[0]
    dithered = bitmap.decode(bitmap.encode(source, 8, 72, "none", dither=True))[0]
    assert [p[3] == 255 for p in pixels(dithered.image)] == opaque_mask(source)
    assert pixels(plain.image) != pixels(dithered.image)
    assert {p[:3] for p in pixels(dithered.image) if p[3]} <= set(PALM_8BIT)


def test_best_compression_is_the_smallest() -> None:
    for depth in (1, 8, 16):
        sizes = [len(bitmap.encode(GRADIENT, depth, 144, c)) for c in CODECS]
        assert len(bitmap.encode(GRADIENT, depth, 144, "best")) == min(sizes)


@pytest.mark.parametrize("mode", ["1", "L", "LA", "P", "PA", "RGB", "I", "I;16", "F", "CMYK"])
def test_any_image_mode_encodes(mode: str) -> None:
    image = Image.new(mode, (5, 4))
    for depth in (1, 8, 16):
        assert bitmap.decode(bitmap.encode(image, depth, 72, "best"))[0].image.size == (5, 4)


def test_best_skips_compressions_too_big_for_the_version() -> None:
    # Noise that RLE doubles past the 64 KB size field of version 2.
    rng = random.Random(3)
    noise = Image.frombytes("RGB", (200, 120), bytes(rng.randrange(256) for _ in range(72000)))
    with pytest.raises(BitmapError, match="too big for version 2"):
        bitmap.encode(noise, 16, 72, "rle", version=2)
    member = bitmap.decode(bitmap.encode(noise, 16, 72, "best", version=2))[0]
    assert member.compression != "rle" and member.version == 2


def test_a_compressed_member_too_big_for_version_2_gets_version_3() -> None:
    # The issue 16 case: no version asked for, so the lowest one that holds it.
    rng = random.Random(5)
    noise = Image.frombytes("RGB", (200, 200), bytes(rng.randrange(256) for _ in range(120000)))
    data = bitmap.encode(noise, 16, 72, "packbits")
    member = bitmap.decode(data)[0]
    assert (member.version, member.density, member.compression) == (3, 72, "packbits")
    # "best" weighs version 3 PackBits too, not only what version 2 can hold.
    sizes = {codec: len(bitmap.encode(noise, 16, 72, codec)) for codec in CODECS}
    assert len(bitmap.encode(noise, 16, 72, "best")) == min(sizes.values())
    # In a family it goes after the dummy header, with the other version 3 members.
    family = bitmap.encode_family(noise, densities=(72,), depths=(16, 1), compression="rle")
    members = bitmap.decode(family)
    assert [(m.depth, m.version) for m in members] == [(1, 2), (16, 3)]


@pytest.mark.parametrize("size", [(0, 0), (5, 0), (0, 5)])
def test_empty_image(size: tuple[int, int]) -> None:
    for depth in (1, 8, 16):
        member = bitmap.decode(bitmap.encode(Image.new("RGBA", size), depth, 72, "best"))[0]
        assert member.image.size == size
    family = bitmap.decode(bitmap.encode_family(Image.new("RGBA", size)))
    assert [m.image.size for m in family] == [size] * 4


# --- versions -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("depth", "density", "codec", "table", "holes", "version"),
    [
        (1, 72, "none", False, False, 0),
        (2, 72, "none", False, False, 1),
        (1, 72, "none", True, False, 1),
        (4, 72, "none", False, False, 1),
        (8, 72, "none", False, False, 2),
        (16, 72, "none", False, False, 2),
        (1, 72, "scanline", False, False, 1),
        (8, 72, "rle", False, False, 2),
        (4, 72, "none", False, True, 2),
        (1, 144, "none", False, False, 3),
        (16, 108, "packbits", False, True, 3),
    ],
)
def test_version_is_the_lowest_that_holds_the_member(
    depth: int, density: int, codec: str, table: bool, holes: bool, version: int
) -> None:
    source = with_holes(GRADIENT) if holes else GRADIENT
    data = bitmap.encode(source, depth, density, codec, colour_table=table)
    assert data[9] == version
    assert bitmap.decode(data)[0].version == version


def test_explicit_versions() -> None:
    assert bitmap.encode(GRADIENT, 1, 72, "scanline", version=0)[9] == 0
    member = bitmap.decode(bitmap.encode(GRADIENT, 8, 72, "rle", version=3))[0]
    assert (member.version, member.density) == (3, 72)
    with pytest.raises(BitmapError, match="version 0"):
        bitmap.encode(GRADIENT, 8, 72, "none", version=0)
    with pytest.raises(BitmapError, match="version 1"):
        bitmap.encode(GRADIENT, 8, 72, "rle", version=1)
    with pytest.raises(BitmapError, match="version 2"):
        bitmap.encode(GRADIENT, 8, 144, "none", version=2)
    with pytest.raises(BitmapError, match="version 7"):
        bitmap.encode(GRADIENT, 8, 72, "none", version=7)


# --- families ---------------------------------------------------------------------------


def test_family_layout() -> None:
    source = with_holes(GRADIENT, 11)
    data = bitmap.encode_family(source)
    members = bitmap.decode(data)
    assert [(m.density, m.depth) for m in members] == [(72, 8), (72, 16), (144, 8), (144, 16)]
    assert [m.version for m in members][2:] == [3, 3]
    assert {m.version for m in members[:2]} <= {1, 2}  # 2 when compressed
    assert [m.image.size for m in members] == [(20, 15), (20, 15), (40, 30), (40, 30)]
    # Chained low members point at the next one in 4-byte words, the last at the dummy.
    first, second = members[0], members[1]
    assert first.offset == 0 and second.offset == int.from_bytes(data[10:12], "big") * 4
    chain_field = data[second.offset + 10 : second.offset + 12]
    dummy_at = second.offset + int.from_bytes(chain_field, "big") * 4
    assert data[dummy_at : dummy_at + 16] == DUMMY_HEADER
    assert members[2].offset == dummy_at + 16
    assert all(m.offset % 4 == 0 for m in members)
    third = members[2].offset
    assert members[3].offset == third + int.from_bytes(data[third + 20 : third + 24], "big")
    assert data[members[3].offset + 20 : members[3].offset + 24] == bytes(4)
    # The high-density members keep the holes; the box-filtered half size is partly opaque.
    assert [p[3] == 255 for p in pixels(members[3].image)] == opaque_mask(source)


def test_family_of_one_density_has_no_dummy() -> None:
    high_only = bitmap.encode_family(GRADIENT, densities=(144,), depths=(1, 2, 4, 8, 16))
    assert DUMMY_HEADER not in high_only
    members = bitmap.decode(high_only)
    assert [m.depth for m in members] == [1, 2, 4, 8, 16]
    assert {m.version for m in members} == {3}
    low_only = bitmap.decode(bitmap.encode_family(GRADIENT, densities=(72,), depths=(1, 8)))
    assert [(m.depth, m.image.size) for m in low_only] == [(1, (40, 30)), (8, (40, 30))]
    assert low_only[0].version >= 1  # chained, so not version 0


def test_family_with_three_densities() -> None:
    members = bitmap.decode(bitmap.encode_family(GRADIENT, densities=(72, 108, 144), depths=(8,)))
    assert [(m.density, m.image.size) for m in members] == [
        (72, (20, 15)),
        (108, (30, 22)),
        (144, (40, 30)),
    ]


def test_family_members_given_as_exact_pictures() -> None:
    low = palette_image([(255, 0, 0), (0, 0, 255)], 9, 5)
    members = bitmap.decode(
        bitmap.encode_family(GRADIENT, densities=(144, 72), depths=(16,), members={(72, 16): low})
    )
    assert members[0].image.size == (9, 5)
    assert pixels(members[0].image) == pixels(low)
    assert members[1].image.size == (40, 30)
    with pytest.raises(BitmapError, match="72x4"):
        bitmap.encode_family(GRADIENT, depths=(16,), members={(72, 4): low})


def test_decoded_members_re_encode_to_the_same_pixels() -> None:
    family = bitmap.encode_family(with_holes(GRADIENT), depths=(2, 8, 16), dither=True)
    for member in bitmap.decode(family):
        again = bitmap.encode(member.image, member.depth, member.density, "best")
        assert pixels(bitmap.decode(again)[0].image) == pixels(member.image)


def test_best_member() -> None:
    members = bitmap.decode(bitmap.encode_family(GRADIENT))
    assert (bitmap.best(members, 144).depth, bitmap.best(members, 144).density) == (16, 144)
    assert bitmap.best(members, 72).image.size == (20, 15)
    assert bitmap.best(members, 72, max_depth=8).depth == 8
    high_only = bitmap.decode(bitmap.encode_family(GRADIENT, densities=(144,), depths=(8,)))
    scaled = bitmap.best(high_only, 72)
    assert (scaled.density, scaled.image.size, scaled.width) == (72, (20, 15), 20)
    low_only = bitmap.decode(bitmap.encode_family(GRADIENT, densities=(72,), depths=(8,)))
    doubled = bitmap.best(low_only, 144)
    assert doubled.image.size == (80, 60)
    assert doubled.image.getpixel((0, 0)) == doubled.image.getpixel((1, 1))
    with pytest.raises(BitmapError):
        bitmap.best([], 72)


# --- bad input --------------------------------------------------------------------------


def header(width: int, height: int, row_bytes: int, flags: int, depth: int, version: int) -> bytes:
    if version < 3:
        fields = (width, height, row_bytes, flags, depth, version, 0, 0, 0, 0)
        return struct.pack(">hhHHBBHBBH", *fields)
    return struct.pack(
        ">hhHHBBBBBBHII", width, height, row_bytes, flags, depth, 3, 24, 0, 0, 0, 72, 0, 0
    )


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"", "truncated"),
        (b"\x00" * 10, "truncated"),
        (header(32767, 32767, 4096, 0, 1, 1) + bytes(84), "too large"),
        (header(4000, 4000, 500, 0, 1, 1) + bytes(84), "needs at least"),
        (header(4000, 4000, 500, 0x8000, 1, 2)[:13] + b"\x01\x00\x00" + bytes(84), "needs"),
        (header(4000, 4000, 500, 0x8000, 1, 2)[:13] + b"\x02\x00\x00" + bytes(84), "needs"),
        (header(4000, 4000, 500, 0x8000, 1, 1) + bytes(84), "needs at least"),
        (header(4000, 4000, 8000, 0x8000, 16, 3)[:13] + b"\x02" + bytes(10) + bytes(84), "needs"),
        (header(4, 4, 2, 0, 3, 1) + bytes(8), "pixel size 3"),
        (header(4, 4, 2, 0, 1, 1)[:9] + b"\x04" + bytes(14), "version 4"),
        (header(17, 1, 2, 0, 1, 1) + bytes(8), "cannot hold"),
        (header(-1, 1, 2, 0, 1, 1) + bytes(8), "negative"),
        (header(1, 1, 2, 0x8000, 1, 2)[:13] + b"\x07\x00\x00" + bytes(8), "compression type 7"),
        (header(1, 1, 2, 0x4000, 8, 1) + b"\x01\x2c" + bytes(8), "300 entries"),
        (header(1, 1, 2, 0x4000, 8, 1) + b"\x00\x10" + bytes(8), "colour table of 16"),
        (header(1, 1, 2, 0x0400, 16, 2) + b"\x05\x05", "direct colour info truncated"),
        (header(1, 1, 2, 0x0400, 16, 2) + b"\x08\x08\x08\x00\x00\x00\x00\x00" + bytes(2), "5-6-5"),
        (DUMMY_HEADER, "only a dummy"),
        (b"\x00\x01\x00\x01\x00\x02\x00\x00\x01\x01\x00\x40" + bytes(8), "past the end"),
    ],
)
def test_bad_bitmaps_raise_one_clear_error(data: bytes, message: str) -> None:
    with pytest.raises(BitmapError, match=message):
        bitmap.decode(data)


def test_bad_encode_options() -> None:
    with pytest.raises(BitmapError, match="depth 3"):
        bitmap.encode(GRADIENT, depth=3)
    with pytest.raises(BitmapError, match="density 100"):
        bitmap.encode(GRADIENT, density=100)
    with pytest.raises(BitmapError, match="lzw"):
        bitmap.encode(GRADIENT, compression="lzw")
    with pytest.raises(BitmapError, match="colour table"):
        bitmap.encode(GRADIENT, depth=16, colour_table=True)
    with pytest.raises(BitmapError, match="larger"):
        bitmap.encode(Image.new("L", (40000, 1)), depth=1)
    with pytest.raises(BitmapError, match="La image"):
        bitmap.encode(Image.new("La", (2, 2)))
    with pytest.raises(BitmapError, match="at least one"):
        bitmap.encode_family(GRADIENT, depths=())
