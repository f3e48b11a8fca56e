"""ScanLine, RLE and PackBits: known encodings, round trips, bounds and bad data."""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image

from prc_tools import bitmap, speedups
from prc_tools.bitmap import compression, encoding
from prc_tools.bitmap.header import read_header
from prc_tools.errors import BitmapError

# Every test here runs on both paths: the C speedups and the pure-Python code.
pytestmark = pytest.mark.usefixtures("both_codec_paths")

CODECS = ("none", "scanline", "rle", "packbits")

# Two 4-byte rows (3 pixels of 8 bits + padding), as pnmtopalm compresses them.
ROWS = [bytes.fromhex("7dd25f00"), bytes.fromhex("00ffd700")]
PNMTOPALM_STREAMS = {
    "rle": bytes.fromhex("017d 01d2 015f 0100 0100 01ff 01d7 0100"),
    "scanline": bytes.fromhex("f0 7dd25f00 e0 00ffd7"),
    "packbits": bytes.fromhex("03 7dd25f00 03 00ffd700"),
}


@pytest.mark.parametrize("codec", sorted(PNMTOPALM_STREAMS))
def test_decodes_pnmtopalm_streams(codec: str) -> None:
    stream = PNMTOPALM_STREAMS[codec]
    raw, end = compression.decode(codec, stream, 0, 4, 2)
    assert raw == b"".join(ROWS)
    assert end == len(stream)


def test_scanline_encoding_matches_pnmtopalm() -> None:
    assert compression.encode("scanline", ROWS) == PNMTOPALM_STREAMS["scanline"]


def test_rle_splits_long_runs() -> None:
    row = bytes(300) + b"\x07"
    assert compression.encode("rle", [row]) == bytes([255, 0, 45, 0, 1, 7])


def test_packbits_runs_and_literals() -> None:
    row = b"\x01\x02\x03" + b"\x09" * 5 + b"\x04"
    # literal of 3, run of 5 (-4 = 0xFC), literal of 1
    assert compression.encode("packbits", [row]) == bytes.fromhex("02010203 fc09 0004")


def test_packbits_16_bit_units() -> None:
    row = bytes.fromhex("f81f f81f f81f 0001")
    encoded = compression.encode("packbits", [row], unit=2)
    assert encoded == bytes.fromhex("fe f81f 00 0001")
    assert compression.decode("packbits", encoded, 0, 8, 1, unit=2)[0] == row


def test_packbits_minus_128_is_a_no_op() -> None:
    raw, _ = compression.decode("packbits", bytes.fromhex("80 01 aabb"), 0, 2, 1)
    assert raw == b"\xaa\xbb"


def test_decoding_starts_at_position_and_reports_end() -> None:
    stream = b"junk" + PNMTOPALM_STREAMS["rle"] + b"tail"
    raw, end = compression.decode("rle", stream, 4, 4, 2)
    assert raw == b"".join(ROWS)
    assert stream[end:] == b"tail"


rows_strategy = st.integers(min_value=1, max_value=40).flatmap(
    lambda width: st.lists(
        st.binary(min_size=width, max_size=width)
        | st.lists(st.sampled_from([0, 1, 255]), min_size=width, max_size=width).map(bytes),
        min_size=1,
        max_size=6,
    )
)


@settings(max_examples=60, deadline=None)
@given(rows=rows_strategy, codec=st.sampled_from(CODECS))
def test_round_trip(rows: list[bytes], codec: str) -> None:
    encoded = compression.encode(codec, rows)
    raw, end = compression.decode(codec, encoded, 0, len(rows[0]), len(rows))
    assert raw == b"".join(rows)
    assert end == len(encoded)
    # The bound the decoder relies on to reject impossible headers holds.
    assert len(encoded) >= len(rows) * compression.min_input_per_row(codec, len(rows[0]))


@settings(max_examples=40, deadline=None)
@given(
    rows=st.integers(min_value=1, max_value=20).flatmap(
        lambda words: st.lists(
            st.lists(st.sampled_from([0, 0xF81F, 0x1234]), min_size=words, max_size=words),
            min_size=1,
            max_size=5,
        )
    )
)
def test_packbits_16_round_trip(rows: list[list[int]]) -> None:
    raw_rows = [b"".join(v.to_bytes(2, "big") for v in row) for row in rows]
    encoded = compression.encode("packbits", raw_rows, unit=2)
    raw, _ = compression.decode("packbits", encoded, 0, len(raw_rows[0]), len(rows), unit=2)
    assert raw == b"".join(raw_rows)
    assert len(encoded) >= len(rows) * compression.min_input_per_row(
        "packbits", len(raw_rows[0]), 2
    )


def test_min_input_is_a_lower_bound_for_the_most_compressible_row() -> None:
    for row_bytes in (1, 2, 8, 9, 128, 255, 256, 1000):
        row = bytes(row_bytes)
        for codec in CODECS:
            encoded = compression.encode(codec, [row, row])
            assert len(encoded) >= 2 * compression.min_input_per_row(codec, row_bytes)


@pytest.mark.parametrize(
    ("codec", "stream", "message"),
    [
        ("rle", bytes.fromhex("05 00"), "overflows"),
        ("rle", bytes.fromhex("00 00"), "length 0"),
        ("rle", bytes.fromhex("02"), "truncated"),
        ("packbits", bytes.fromhex("fb 00"), "overflows"),
        ("packbits", bytes.fromhex("03 0102"), "truncated"),
        ("packbits", bytes.fromhex("ff"), "truncated"),
        ("scanline", bytes.fromhex("f0 0102"), "truncated"),
        ("none", bytes.fromhex("0102"), "truncated"),
    ],
)
def test_bad_streams_raise_bitmap_error(codec: str, stream: bytes, message: str) -> None:
    with pytest.raises(BitmapError, match=message):
        compression.decode(codec, stream, 0, 4, 1)


def test_scanline_second_row_truncated() -> None:
    stream = bytes.fromhex("f0 01020304 f0 05")
    with pytest.raises(BitmapError, match="row 1"):
        compression.decode("scanline", stream, 0, 4, 2)


def test_unknown_codec() -> None:
    with pytest.raises(ValueError):
        compression.encode("lzw", [b"x"])
    with pytest.raises(ValueError):
        compression.min_input_per_row("lzw", 4)


def test_the_table_holds_the_three_compressions_and_none() -> None:
    assert compression.names() == CODECS  # the order "best" tries them in
    assert [compression.by_type(code) for code in (0, 1, 2, 0xFF)] == [
        compression.SCANLINE, compression.RLE, compression.PACKBITS, compression.UNCOMPRESSED]
    assert compression.by_type(3) is None
    assert [compression.named(name).unit(16) for name in CODECS] == [1, 1, 1, 2]
    assert [compression.named(name).unit(8) for name in CODECS] == [1, 1, 1, 1]
    with pytest.raises(ValueError, match="registered already"):
        compression.register_codec(compression.RLE.replace(name="rle2"))


def _marked_encode(rows: Sequence[bytes], unit: int) -> bytes:
    return b"".join(b"\x00" + row for row in rows)


def _marked_decode(data: bytes, pos: int, row_bytes: int, rows: int,
                   unit: int) -> tuple[bytes, int]:
    out = bytearray()
    for row in range(rows):
        if pos + 1 + row_bytes > len(data) or data[pos]:
            raise BitmapError(f"marked data truncated in row {row}")
        out += data[pos + 1 : pos + 1 + row_bytes]
        pos += 1 + row_bytes
    return bytes(out), pos


@pytest.fixture
def marked(monkeypatch: pytest.MonkeyPatch) -> compression.Codec:
    """A made-up compression (each row after a zero byte), type 3, registered for one test."""
    monkeypatch.setattr(compression, "_BY_NAME", dict(compression._BY_NAME))
    monkeypatch.setattr(compression, "_BY_TYPE", dict(compression._BY_TYPE))
    return compression.register_codec(compression.Codec(
        name="marked", type_code=3, minimum=lambda row_bytes, unit: row_bytes + 1,
        encode=_marked_encode, decode=_marked_decode,
    ))


def test_a_registered_codec_writes_and_reads_bitmaps(marked: compression.Codec) -> None:
    """One declaration is all the encoder, the decoder and `best` need (and without a C
    version, the Python one runs on both paths)."""
    picture = Image.new("RGB", (5, 3), (204, 51, 51))  # in the Palm palette
    data = bitmap.encode(picture, depth=8, density=72, compression="marked")
    header = read_header(data, 0)
    assert (header.compression_type, header.version) == (3, 2)
    (member,) = bitmap.decode(data)
    assert member.compression == "marked"
    assert member.image.tobytes() == picture.convert("RGBA").tobytes()
    assert [shape.compression for shape in bitmap.check(data)] == ["marked"]
    assert "marked" in encoding.compressions()
    broken = bytearray(data)
    broken[len(data) - header.row_bytes - 1] = 1  # the last row's zero byte
    with pytest.raises(BitmapError, match="marked data truncated in row 2"):
        bitmap.decode(bytes(broken))
    with pytest.raises(BitmapError, match="version 1 cannot hold"):
        bitmap.encode(picture, depth=8, density=72, compression="marked", version=1)


def test_best_weighs_a_registered_codec_too(marked: compression.Codec,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    picture = Image.new("RGB", (5, 3), (204, 51, 51))  # in the Palm palette
    shortest = len(bitmap.encode(picture, depth=8, density=72, compression="marked"))
    monkeypatch.setattr(compression, "_BY_NAME", {"marked": marked})  # alone in the table
    assert len(bitmap.encode(picture, depth=8, density=72, compression="best")) == shortest
    assert speedups.native is None or marked.native_encode is None


@pytest.mark.parametrize(
    ("stream", "row_bytes", "rows", "message"),
    [
        # The counts add up to the image, but a run crosses the end of a row.
        (bytes.fromhex("0201 0202 0203"), 3, 2, "rle run overflows row 0 (3 bytes)"),
        (bytes.fromhex("6401 c802 6403"), 200, 2, "rle run overflows row 0 (200 bytes)"),
        (bytes.fromhex("8107 0108 ff09 0103"), 130, 2, "rle run overflows row 1 (130 bytes)"),
        (bytes.fromhex("0301 0002"), 3, 2, "rle run of length 0 in row 1"),
        (bytes.fromhex("0301 02"), 3, 2, "rle data truncated in row 1"),
        (bytes.fromhex("0301 0202"), 3, 2, "rle data truncated in row 1"),
    ],
)
def test_rle_errors_name_the_row(stream: bytes, row_bytes: int, rows: int, message: str) -> None:
    with pytest.raises(BitmapError) as raised:
        compression.decode("rle", stream, 0, row_bytes, rows)
    assert str(raised.value) == message


@pytest.mark.parametrize("run", [1, 2, 127, 128, 129, 200, 255])
def test_rle_runs_of_every_length_band(run: int) -> None:
    # Runs up to 128 and past it, after a lone byte, ending at the row's end,
    # followed by bytes that are not part of the image.
    row_bytes = run + 1
    stream = bytes((1, 9, run, 7)) * 2 + b"\xff\xff"
    raw, end = compression.decode("rle", stream, 0, row_bytes, 2)
    assert raw == (b"\x09" + b"\x07" * run) * 2
    assert end == 8


@pytest.mark.parametrize(
    ("stream", "row_bytes", "rows", "unit", "message"),
    [
        # Enough output in all, but an op crosses the end of a row.
        (bytes.fromhex("fe01 0102 03"), 2, 2, 1, "packbits run overflows row 0 (2 bytes)"),
        (bytes.fromhex("00aa fe01"), 2, 2, 1, "packbits run overflows row 0 (2 bytes)"),
        (bytes.fromhex("fea0b1 00c0d1"), 4, 2, 2, "packbits run overflows row 0 (4 bytes)"),
        (bytes.fromhex("01a0b1c0d1 fe0102"), 4, 2, 2, "packbits run overflows row 1 (4 bytes)"),
        # A literal past the image, or past the data.
        (bytes.fromhex("02 010203"), 2, 1, 1, "packbits run overflows row 0 (2 bytes)"),
        (bytes.fromhex("0001 05 0102"), 4, 1, 1, "packbits data truncated in row 0"),
        (bytes.fromhex("01a0b1c0d1 02a0b1"), 4, 2, 2, "packbits data truncated in row 1"),
        # Short ops running past the last row.
        (bytes.fromhex("ff01 fd02"), 2, 2, 1, "packbits run overflows row 1 (2 bytes)"),
        (bytes.fromhex("ff01 80 ff"), 2, 2, 1, "packbits data truncated in row 1"),
        (bytes.fromhex("ff0102 ff03"), 4, 2, 2, "packbits data truncated in row 1"),
    ],
)
def test_packbits_errors_name_the_row(
    stream: bytes, row_bytes: int, rows: int, unit: int, message: str
) -> None:
    with pytest.raises(BitmapError) as raised:
        compression.decode("packbits", stream, 0, row_bytes, rows, unit)
    assert str(raised.value) == message


@pytest.mark.parametrize("unit", [1, 2])
def test_packbits_no_ops_and_the_end_position(unit: int) -> None:
    # No-ops before ops, a repeat and literals of 1 and of 3 units per row,
    # then bytes past the image that are not read.
    a, b, c, d = (bytes([n]) * unit for n in (1, 2, 3, 4))
    row = b"\x80" + b"\xfe" + a + b"\x80\x00" + b + b"\x02" + c + d + a
    raw, end = compression.decode("packbits", row * 2 + b"\xff" + a, 0, 7 * unit, 2, unit)
    assert raw == (a * 3 + b + c + d + a) * 2
    assert end == 2 * len(row)


@pytest.mark.parametrize(
    ("stream", "row_bytes", "rows"),
    [
        (bytes.fromhex("01 0000 0000"), 2, 2),  # 2 units into rows of 1
        (bytes.fromhex("00 aabb 01 ccdd eeff 00 1122"), 4, 2),  # from unit 1 of row 0 into row 1
        (bytes.fromhex("02 aabb ccdd eeff 00 1122 00 3344 00 5566"), 4, 3),  # 3 units, rows of 2
    ],
)
def test_a_16_bit_packbits_literal_past_its_row_is_refused(
    stream: bytes, row_bytes: int, rows: int
) -> None:
    # The units add up to the image: only the row ends are wrong. (The pure path's
    # Pillow decoder would carry such a literal on into the next row.)
    with pytest.raises(BitmapError, match="packbits run overflows row 0"):
        compression.decode("packbits", stream, 0, row_bytes, rows, 2)


@pytest.mark.parametrize(
    ("stream", "message"),
    [
        # Unchanged groups (zero masks) up to the end of the data.
        (bytes.fromhex("ff 0102030405060708 80 11 00"), "row 1"),
        (bytes.fromhex("ff 0102030405060708 80 11 00 00 00"), "row 2"),
        (bytes.fromhex("ff 0102030405060708 80 11 00 00 ff 01"), "row 2"),
    ],
)
def test_scanline_unchanged_groups_then_truncation(stream: bytes, message: str) -> None:
    # 9-byte rows: a group of 8 and a group of 1; three rows.
    with pytest.raises(BitmapError, match=f"scanline data truncated in {message}$"):
        compression.decode("scanline", stream, 0, 9, 3)


def test_scanline_unchanged_rows_end_where_the_image_ends() -> None:
    stream = bytes.fromhex("ff 0102030405060708 80 11  00 00  40 99 00  00 00  77")
    raw, end = compression.decode("scanline", stream, 0, 9, 4)
    first = bytes.fromhex("010203040506070811")
    second = bytes.fromhex("019903040506070811")
    assert raw == first + first + second + second
    assert end == len(stream) - 1
