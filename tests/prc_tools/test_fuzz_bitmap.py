"""Fuzzing bitmap.decode with mutated and truncated real bitmaps.

Whatever the bytes, decode returns members or raises BitmapError, quickly, and
never builds more pixel data than the input could expand to.
"""

from __future__ import annotations

import tracemalloc
from functools import cache

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from PIL import Image

from prc_tools import bitmap
from prc_tools.errors import BitmapError

# RLE turns 2 input bytes into at most 255; nothing expands more per byte.
MAX_EXPANSION = 128


def _source() -> Image.Image:
    image = Image.new("RGBA", (12, 9))
    image.putdata(
        [
            ((x * 40) % 256, (y * 60) % 256, 90, 0 if (x + y) % 7 == 0 else 255)
            for y in range(9)
            for x in range(12)
        ]
    )
    return image


@cache
def seeds() -> tuple[bytes, ...]:
    """Real bitmaps of every kind: versions, depths, compressions, tables, a family."""
    image = _source()
    out = [
        bitmap.encode(image, depth, density, codec)
        for depth in (2, 4, 8, 16)
        for density in (72, 144)
        for codec in ("none", "scanline", "rle", "packbits")
    ]
    out.append(bitmap.encode(image.convert("1"), 1, 72, "none"))  # version 0
    out.append(bitmap.encode(image, 8, 72, "rle", colour_table=True))
    out.append(bitmap.encode_family(image, densities=(144, 72), depths=(4, 16)))
    return tuple(out)


def check_decode(data: bytes) -> None:
    try:
        members = bitmap.decode(data)
    except BitmapError as error:
        assert "\n" not in str(error)
        return
    for member in members:
        assert member.image.mode == "RGBA"
        assert member.image.size == (member.width, member.height)
        assert member.row_bytes * member.height <= MAX_EXPANSION * len(data)


@st.composite
def mutated(draw: st.DrawFn) -> bytes:
    data = bytearray(draw(st.sampled_from(seeds())))
    for _ in range(draw(st.integers(min_value=0, max_value=6))):
        position = draw(st.integers(min_value=0, max_value=len(data) - 1))
        data[position] = draw(st.integers(min_value=0, max_value=255))
    if draw(st.booleans()):
        data = data[: draw(st.integers(min_value=0, max_value=len(data)))]
    if draw(st.booleans()):
        position = draw(st.integers(min_value=0, max_value=len(data)))
        data[position:position] = draw(st.binary(max_size=8))
    return bytes(data)


FUZZ = settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@FUZZ
@given(data=mutated())
def test_mutated_bitmaps_decode_or_raise_bitmap_error(data: bytes) -> None:
    check_decode(data)


@FUZZ
@given(seed=st.sampled_from(range(len(seeds()))), cut=st.integers(min_value=0, max_value=4000))
def test_truncated_bitmaps_raise_bitmap_error(seed: int, cut: int) -> None:
    data = seeds()[seed]
    cut %= len(data)
    check_decode(data[:cut])


@settings(max_examples=150, deadline=None)
@given(data=st.binary(max_size=64))
def test_random_bytes(data: bytes) -> None:
    check_decode(data)


def test_every_seed_decodes() -> None:
    for data in seeds():
        assert bitmap.decode(data)


def test_huge_header_in_little_data_costs_little_memory() -> None:
    # 32767x32767 and just under the pixel cap, uncompressed and every codec.
    headers = [
        bytes.fromhex("7fff 7fff 1000 0000 0101 0000 0000 0000"),
        bytes.fromhex("1700 1600 02e0 8000 0102 0000 0001 0000"),  # RLE
        bytes.fromhex("1700 1600 02e0 8000 0102 0000 0002 0000"),  # PackBits
        bytes.fromhex("1700 1600 02e0 8000 0101 0000 0000 0000"),  # ScanLine
        bytes.fromhex("1700 1600 2e00 8000 1003 1801 0002 0090 0000 0000 0000 0000"),
    ]
    tracemalloc.start()
    try:
        for header in headers:
            data = header + bytes.fromhex("ffff") + bytes([0xFF, 0x00] * 42)
            with pytest.raises(BitmapError):
                bitmap.decode(data)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 1_000_000
