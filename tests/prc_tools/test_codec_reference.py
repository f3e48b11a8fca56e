"""The fast codecs and colour mapping against the plain reference versions.

Same compressed bytes, same decoded rows, same positions and the same error
for damaged data, on varied rows: noise, runs, repeated rows, odd lengths.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image

from prc_tools.bitmap import compression
from prc_tools.bitmap.nearest_colour import nearest_indices
from prc_tools.bitmap.palette import PALM_8BIT
from prc_tools.errors import BitmapError

from . import reference_codecs as reference

# Every test here runs on both paths: the C speedups and the pure-Python code.
pytestmark = pytest.mark.usefixtures("both_codec_paths")

CODECS = ("scanline", "rle", "packbits")


@st.composite
def images(draw: st.DrawFn) -> tuple[list[bytes], int]:
    """Rows of one length built from a few byte values, runs and copied rows."""
    unit = draw(st.sampled_from((1, 2)))
    row_bytes = unit * draw(st.integers(0, 70))
    count = draw(st.integers(0, 12))
    alphabet = draw(st.lists(st.integers(0, 255), min_size=1, max_size=4))
    rows: list[bytes] = []
    for _ in range(count):
        if rows and draw(st.booleans()):
            row = bytearray(rows[-1])  # like the row above, a few bytes changed
            for _ in range(draw(st.integers(0, 4))):
                if row:
                    row[draw(st.integers(0, len(row) - 1))] = draw(st.sampled_from(alphabet))
        else:
            row = bytearray()
            while len(row) < row_bytes:
                run = draw(st.integers(1, 300))
                row += bytes([draw(st.sampled_from(alphabet))]) * run
            del row[row_bytes:]
        rows.append(bytes(row))
    return rows, unit


@settings(max_examples=300, deadline=None)
@given(images())
def test_encoders_give_the_reference_bytes(case: tuple[list[bytes], int]) -> None:
    rows, unit = case
    for codec in CODECS:
        step = unit if codec == "packbits" else 1
        expected = reference.encode(codec, rows, step)
        assert compression.encode(codec, rows, step) == expected, codec
        row_bytes = len(rows[0]) if rows else 0
        padded = expected + b"tail"
        decoded = compression.decode(codec, padded, 0, row_bytes, len(rows), step)
        assert decoded == (b"".join(rows), len(expected))


def _outcome(codec: str, data: bytes, row_bytes: int, rows: int, unit: int) -> object:
    try:
        return compression.decode(codec, data, 0, row_bytes, rows, unit)
    except BitmapError as error:
        return str(error)


def _reference(codec: str, data: bytes, row_bytes: int, rows: int, unit: int) -> object:
    try:
        return reference.decode(codec, data, 0, row_bytes, rows, unit)
    except BitmapError as error:
        return str(error)


@settings(max_examples=400, deadline=None)
@given(
    st.sampled_from(CODECS),
    st.binary(max_size=120),
    st.integers(0, 24),
    st.integers(0, 6),
    st.sampled_from((1, 2)),
)
def test_decoders_read_any_bytes_as_the_reference(
    codec: str, data: bytes, row_bytes: int, rows: int, unit: int
) -> None:
    if codec != "packbits":
        unit = 1
    row_bytes -= row_bytes % unit
    assert _outcome(codec, data, row_bytes, rows, unit) == _reference(
        codec, data, row_bytes, rows, unit
    )


@st.composite
def packbits_ops(draw: st.DrawFn) -> tuple[bytes, int, int, int]:
    """A stream of well-formed PackBits ops (literals, repeats, no-ops) and trailing
    bytes, with a row length and row count that its ops may or may not fill: rows
    ended inside an op, left short or filled exactly."""
    unit = draw(st.sampled_from((1, 2)))
    stream = bytearray()
    made = 0
    for _ in range(draw(st.integers(0, 12))):
        kind = draw(st.sampled_from(("literal", "literal", "repeat", "repeat", "no-op")))
        count = draw(st.integers(1, 128) | st.sampled_from((1, 2, 3)))
        if kind == "no-op":
            stream.append(0x80)
        elif kind == "literal":
            stream.append(count - 1)
            stream += draw(st.binary(min_size=count * unit, max_size=count * unit))
            made += count
        else:
            stream.append(0 if count == 1 else 257 - count)
            stream += draw(st.binary(min_size=unit, max_size=unit))
            made += count
    stream += draw(st.binary(max_size=6))
    rows = draw(st.integers(1, 4))
    # Rows that the ops fill exactly (if they can), or of any length.
    exact = made and draw(st.booleans())
    row_units = max(1, made // rows) if exact else draw(st.integers(1, 40))
    return bytes(stream), row_units * unit, rows, unit


@settings(max_examples=400, deadline=None)
@given(packbits_ops(), st.binary(max_size=3))
def test_packbits_op_streams_decode_as_the_reference(
    case: tuple[bytes, int, int, int], before: bytes
) -> None:
    stream, row_bytes, rows, unit = case
    data = before + stream
    pos = len(before)
    try:
        expected: object = reference.decode("packbits", data, pos, row_bytes, rows, unit)
    except BitmapError as error:
        expected = str(error)
    try:
        got: object = compression.decode("packbits", data, pos, row_bytes, rows, unit)
    except BitmapError as error:
        got = str(error)
    assert got == expected


@st.composite
def changing_rows(draw: st.DrawFn) -> tuple[list[bytes], int]:
    """Rows each changed from the one above group by group (8 bytes): kept, one
    byte changed, some bytes or every byte changed, so that ScanLine's masks are
    0, one bit, several bits and runs of 0xFF; any row length, short and odd
    ones and a last group shorter than 8 included."""
    row_bytes = draw(st.integers(1, 60))
    rows = [draw(st.binary(min_size=row_bytes, max_size=row_bytes))]
    for _ in range(draw(st.integers(0, 8))):
        row = bytearray(rows[-1])
        for start in range(0, row_bytes, 8):
            width = min(8, row_bytes - start)
            change = draw(st.sampled_from(("keep", "keep", "one", "some", "all", "all")))
            if change == "one":
                row[start + draw(st.integers(0, width - 1))] ^= 0xFF
            elif change == "some":
                for k in range(width):
                    if draw(st.booleans()):
                        row[start + k] ^= draw(st.integers(1, 255))
            elif change == "all":
                for k in range(width):
                    row[start + k] ^= draw(st.integers(1, 255))
        rows.append(bytes(row))
    return rows, row_bytes


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(changing_rows(), st.integers(0, 400), st.integers(0, 255))
def test_scanline_changes_of_every_kind_decode_as_the_reference(
    case: tuple[list[bytes], int], cut: int, flip: int
) -> None:
    rows, row_bytes = case
    stream = reference.encode("scanline", rows)
    padded = stream + b"\xff\x01"  # bytes past the image are not read
    decoded = compression.decode("scanline", padded, 0, row_bytes, len(rows))
    assert decoded == (b"".join(rows), len(stream))
    damaged = bytearray(stream[: cut % (len(stream) + 1)])
    if damaged:
        damaged[flip % len(damaged)] ^= flip
    sample = bytes(damaged)
    assert _outcome("scanline", sample, row_bytes, len(rows), 1) == _reference(
        "scanline", sample, row_bytes, len(rows), 1
    )


@pytest.mark.parametrize("codec", CODECS)
def test_damaged_streams_fail_like_the_reference(codec: str) -> None:
    rng = random.Random(17)
    rows = [bytes(rng.choice((0, 0, 7, 9)) for _ in range(40)) for _ in range(30)]
    good = reference.encode(codec, rows)
    for _ in range(300):
        data = bytearray(good)
        for _ in range(rng.randint(1, 3)):
            data[rng.randrange(len(data))] = rng.randrange(256)
        cut = bytes(data[: rng.randint(0, len(data))])
        for sample in (bytes(data), cut):
            assert _outcome(codec, sample, 40, 30, 1) == _reference(codec, sample, 40, 30, 1)


def _nearest_by_search(pixels: list[tuple[int, int, int]]) -> bytes:
    """The nearest palette index of each colour by trying all of them (lowest index wins)."""
    out = bytearray()
    entries = [*enumerate(PALM_8BIT[:230]), (255, (0, 0, 0))]
    for r, g, b in pixels:
        best = min(
            entries,
            key=lambda e: ((e[1][0] - r) ** 2 + (e[1][1] - g) ** 2 + (e[1][2] - b) ** 2, e[0]),
        )
        out.append(best[0])
    return bytes(out)


@pytest.mark.parametrize("colours", [3, 200, 256, 257, 5000])
def test_colour_mapping_is_the_exact_nearest(colours: int) -> None:
    rng = random.Random(colours)
    palette = [tuple(rng.randrange(256) for _ in range(3)) for _ in range(colours)]
    pixels = [palette[i % colours] for i in range(max(colours, 300))]
    rng.shuffle(pixels)
    width = 30
    height = len(pixels) // width
    pixels = pixels[: width * height]
    image = Image.new("RGB", (width, height))
    image.putdata(pixels)  # type: ignore[arg-type]
    found = nearest_indices(image).tobytes()
    rgb = [(p[0], p[1], p[2]) for p in pixels]
    expected = _nearest_by_search(rgb)
    # Ties between equally near entries may go either way; the distance may not.
    for (r, g, b), got, want in zip(rgb, found, expected, strict=True):
        a, c = PALM_8BIT[got], PALM_8BIT[want]
        assert (a[0] - r) ** 2 + (a[1] - g) ** 2 + (a[2] - b) ** 2 == (
            (c[0] - r) ** 2 + (c[1] - g) ** 2 + (c[2] - b) ** 2
        )
        assert got < 230 or got == 255
