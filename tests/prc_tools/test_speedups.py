"""The optional C speedups against the pure-Python code: built here, and byte-identical.

Every comparison calls prc_tools' public functions twice, once with
``speedups.native`` set to the C module and once with it set to None.
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
from array import array
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import partial
from typing import TypeVar

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image

from prc_tools import bitmap, speedups
from prc_tools.bitmap import compression, nearest_colour
from prc_tools.bitmap import pixels as bitmap_pixels
from prc_tools.errors import BitmapError

T = TypeVar("T")
NATIVE = speedups.built()


def test_the_c_speedups_are_built_in_this_install() -> None:
    # Without a compiler the C tests skip and the pure path runs everywhere; CI
    # sets PRC_TOOLS_REQUIRE_SPEEDUPS, so a silent fallback there (C code left
    # untested, packer slow) fails instead.
    if NATIVE is None and not speedups.required():
        pytest.skip("the C speedups are not built (no C compiler when installed)")
    assert NATIVE is not None, "prc_tools._speedups is missing: reinstall with a C compiler"


need_native = pytest.mark.skipif(NATIVE is None, reason="the C speedups are not built")


@contextmanager
def _using(native: speedups.Native | None) -> Iterator[None]:
    before = speedups.native
    speedups.native = native
    try:
        yield
    finally:
        speedups.native = before


def _both(work: Callable[[], T]) -> tuple[object, object]:
    """``work``'s result, or its error's type and words, on the C path and the pure path."""
    outcomes: list[object] = []
    for native in (NATIVE, None):
        with _using(native):
            try:
                outcomes.append(work())
            except (ValueError, KeyError) as error:
                outcomes.append((type(error), str(error)))
    return outcomes[0], outcomes[1]


@st.composite
def rows_of_runs(draw: st.DrawFn, unit: int) -> list[bytes]:
    """Equal-length rows of runs from a small alphabet: runs of 1, exactly 2, 128+ and 255+."""
    length = unit * draw(st.integers(0, 300))
    alphabet = draw(st.lists(st.binary(min_size=unit, max_size=unit), min_size=1, max_size=4))
    rows: list[bytes] = []
    for _ in range(draw(st.integers(0, 6))):
        if rows and draw(st.booleans()):
            rows.append(rows[-1])  # repeated rows, as art has
            continue
        row = bytearray()
        while len(row) < length:
            run = draw(st.sampled_from((1, 2, 2, 3, 127, 128, 129, 130, 255, 256, 257, 300)))
            row += draw(st.sampled_from(alphabet)) * run
        rows.append(bytes(row[:length]))
    return rows


@need_native
@settings(max_examples=300, deadline=None)
@given(st.sampled_from((1, 2)).flatmap(lambda unit: st.tuples(st.just(unit), rows_of_runs(unit))))
def test_encoders_match_on_runs(case: tuple[int, list[bytes]]) -> None:
    unit, rows = case
    for codec in ("scanline", "rle", "packbits"):
        step = unit if codec == "packbits" else 1
        native, pure = _both(partial(compression.encode, codec, rows, step))
        assert native == pure, codec


@need_native
@settings(max_examples=300, deadline=None)
@given(st.lists(st.binary(max_size=80), max_size=5), st.sampled_from((1, 2)))
def test_packbits_and_rle_match_on_any_rows(rows: list[bytes], unit: int) -> None:
    # Rows of any bytes and lengths, odd ones too (2-byte units refuse those).
    for codec, step in (("packbits", unit), ("rle", 1)):
        native, pure = _both(partial(compression.encode, codec, rows, step))
        assert native == pure, codec


@need_native
@pytest.mark.parametrize(
    "rows",
    [
        [],
        [b""],
        [b"", b""],
        [b"\x05"],
        [b"\x05\x05"],
        [b"\x01\x05\x05"],
        [b"\x05\x05\x01\x01\x02"],
        [bytes(128)],
        [bytes(129)],
        [bytes(256) + b"\x01"],
        [bytes(range(256)) * 2],
        [b"\xf8\x1f" * 129 + b"\x00\x01" * 2],
    ],
)
def test_encoders_match_on_edge_rows(rows: list[bytes]) -> None:
    for codec in compression.names():
        for unit in (1, 2) if codec == "packbits" else (1,):
            native, pure = _both(partial(compression.encode, codec, rows, unit))
            assert native == pure, (codec, unit)


@need_native
def test_rows_may_be_any_bytes_like_object() -> None:
    row = b"\x01\x01\x01\x02\x03"
    assert NATIVE is not None
    plain = NATIVE.packbits_encode([row], 1)
    assert NATIVE.packbits_encode([bytearray(row), memoryview(row)], 1) == plain * 2
    assert NATIVE.rle_encode((row,)) == compression.encode("rle", [row])


@need_native
def test_bad_arguments_raise_python_errors() -> None:
    assert NATIVE is not None
    with pytest.raises(TypeError):
        NATIVE.packbits_encode(5, 1)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        NATIVE.rle_encode([b"ok", "text"])  # type: ignore[list-item]
    with pytest.raises(ValueError, match="unit"):
        NATIVE.packbits_encode([b"ab"], 3)
    with pytest.raises(ValueError, match="whole number of units"):
        NATIVE.packbits_encode([b"abc"], 2)
    with pytest.raises(ValueError, match="differ in length"):
        NATIVE.scanline_encode([b"ab", b"abc"])
    with pytest.raises(ValueError):
        NATIVE.map_keys(b"12345", b"", b"")
    with pytest.raises(KeyError):
        NATIVE.map_keys(array("I", [7]), array("I", [5, 9]), b"\x01\x02")


@need_native
@pytest.mark.parametrize("colours", [1, 44, 256, 257, 3000])
def test_colour_mapping_matches(colours: int) -> None:
    rng = random.Random(colours)
    palette = [tuple(rng.randrange(256) for _ in range(3)) for _ in range(colours)]
    image = Image.new("RGB", (37, 41))
    # Runs and scattered pixels, so the C lookup's "same as before" shortcut is
    # taken and missed.
    pixels = [palette[min(rng.randrange(colours), (i // 5) % colours)] for i in range(37 * 41)]
    image.putdata(pixels)
    native, pure = _both(lambda: nearest_colour.nearest_indices(image).tobytes())
    assert native == pure


@need_native
@settings(max_examples=40, deadline=None)
@given(
    st.integers(1, 20),
    st.integers(1, 12),
    st.lists(st.tuples(*[st.integers(0, 255)] * 4), min_size=1, max_size=300),
    st.sampled_from((1, 2, 4, 8, 16)),
    st.sampled_from(compression.names()),
    st.booleans(),
)
def test_whole_bitmaps_match(
    width: int,
    height: int,
    colours: list[tuple[int, int, int, int]],
    depth: int,
    codec: str,
    table: bool,
) -> None:
    image = Image.new("RGBA", (width, height))
    image.putdata([colours[i % len(colours)] for i in range(width * height)])
    table = table and depth < 16

    def encode() -> bytes:
        return bitmap.encode(image, depth=depth, compression=codec, colour_table=table)

    native, pure = _both(encode)
    assert native == pure


@pytest.mark.process
def test_the_pure_path_is_chosen_by_the_environment() -> None:
    code = "from prc_tools import speedups; print(speedups.native is None)"
    for value, pure in (("1", True), ("0", NATIVE is None), ("", NATIVE is None)):
        env = {**os.environ, speedups.PURE_VARIABLE: value}
        shown = subprocess.run(
            [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
        ).stdout.strip()
        assert shown == str(pure), value


def _decoded(codec: str, data: bytes, pos: int, row_bytes: int, rows: int, unit: int) -> object:
    try:
        return compression.decode(codec, data, pos, row_bytes, rows, unit)
    except BitmapError as error:
        return str(error)


# Positions and sizes no header holds: past a C ssize_t, at its edge, where sums overflow.
HUGE = (2**31, 2**32 + 1, 2**62, 2**63 - 9, 2**63 - 1, 2**64, 2**80)


@need_native
@settings(max_examples=500, deadline=None)
@given(
    st.sampled_from(("scanline", "rle", "packbits")),
    st.binary(max_size=200),
    st.integers(0, 210) | st.sampled_from(HUGE),
    st.integers(0, 300) | st.sampled_from(HUGE),
    st.integers(0, 40) | st.sampled_from(HUGE),
    st.sampled_from((1, 2)),
)
def test_decoders_match_on_any_bytes(
    codec: str, data: bytes, pos: int, row_bytes: int, rows: int, unit: int
) -> None:
    # Odd row lengths with 2-byte units too: a hostile header can claim them.
    native, pure = _both(partial(_decoded, codec, data, pos, row_bytes, rows, unit))
    assert native == pure


@need_native
@settings(max_examples=200, deadline=None)
@given(st.sampled_from((1, 2)).flatmap(lambda unit: st.tuples(st.just(unit), rows_of_runs(unit))))
def test_decoders_match_on_encoded_rows(case: tuple[int, list[bytes]]) -> None:
    unit, rows = case
    row_bytes = len(rows[0]) if rows else 0
    for codec in ("scanline", "rle", "packbits"):
        step = unit if codec == "packbits" else 1
        stream = compression.encode(codec, rows, step) + b"\x00tail"
        native, pure = _both(partial(_decoded, codec, stream, 0, row_bytes, len(rows), step))
        assert native == pure
        assert native == (b"".join(rows), len(stream) - 5)


@need_native
@pytest.mark.parametrize("codec", ["scanline", "rle", "packbits"])
def test_decoders_do_not_trust_a_huge_claimed_size(codec: str) -> None:
    # 65535 x 32767 claimed, a few bytes given: the C decoder must fail as the
    # Python one does, without first allocating the claimed 2 GB.
    data = bytes([0x81, 7] * 50) if codec == "packbits" else bytes([0xFF, 7] * 50)
    native, pure = _both(partial(_decoded, codec, data, 0, 65535, 32767, 1))
    assert native == pure
    assert isinstance(native, str) and "truncated" in native


@need_native
@pytest.mark.parametrize(
    ("codec", "unit"),
    [("scanline", 1), ("rle", 1), ("packbits", 1),
     ("packbits", 2)],
)
def test_decoders_match_on_every_cut_and_flipped_byte(codec: str, unit: int) -> None:
    rng = random.Random(unit)
    rows = [bytes(rng.choice((0, 0, 0, 5, 9)) for _ in range(34)) for _ in range(6)]
    rows += [rows[-1], bytes(range(34)), bytes(34)]
    stream = compression.encode(codec, rows, unit)
    damaged = [stream[:cut] for cut in range(len(stream))]
    for at in range(len(stream)):
        for value in (0x00, 0x01, 0x7F, 0x80, 0x81, 0xFF):
            damaged.append(stream[:at] + bytes([value]) + stream[at + 1 :])
    for data in damaged:
        native, pure = _both(partial(_decoded, codec, data, 0, 34, len(rows), unit))
        assert native == pure, data.hex()


def _packbits_ops(rng: random.Random, shape: str, ops: int, unit: int) -> tuple[bytes, int]:
    """PackBits ops of one shape over units of 1 or 2 bytes, and the units they make."""
    stream = bytearray()
    made = 0
    for k in range(ops):
        if shape == "no-ops":
            stream.append(0x80)
        elif shape == "stretch" or k % 2:  # repeats and 1-unit literals, 1 + unit bytes each
            count = rng.choice((1, 2, 3, 128))
            stream.append(0 if count == 1 else 257 - count)
            stream += rng.randbytes(unit)
            made += count
        else:  # "alternate": literals of 2+ units between short ops
            count = rng.randint(2, 128)
            stream.append(count - 1)
            stream += rng.randbytes(count * unit)
            made += count
    return bytes(stream), made


@need_native
@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.tuples(st.sampled_from(("stretch", "alternate", "no-ops")), st.integers(1, 600)),
        min_size=1,
        max_size=4,
    ),
    st.sampled_from((1, 2)),
    st.integers(0, 2**32 - 1),
    st.integers(-3, 3),
    st.integers(1, 7),
    st.sampled_from((b"", b"\x00", b"\x81\x07\x02")),
    st.integers(0, 3),
)
def test_long_packbits_streams_match(
    shapes: list[tuple[str, int]],
    unit: int,
    seed: int,
    shift: int,
    rows: int,
    tail: bytes,
    cut: int,
) -> None:
    # The pure walk takes an op at a time where literals alternate with short
    # ops and a stretch of short ops at once (more than 256 of them summed by
    # Pillow), up to the data's last byte or past it; the image may end
    # inside a stretch, before the stream or after it.
    rng = random.Random(seed)
    stream = bytearray()
    made = 0
    for shape, ops in shapes:
        part, units = _packbits_ops(rng, shape, ops, unit)
        stream += part
        made += units
    data = bytes(stream[: len(stream) - cut]) + tail
    for row_units, count in ((made + shift, 1), (max(1, made // rows), rows)):
        case = ("packbits", data, 0, row_units * unit, count, unit)
        native, pure = _both(partial(_decoded, *case))
        assert native == pure


@need_native
@pytest.mark.parametrize("codec", ["scanline", "rle", "packbits"])
def test_empty_rows_cost_nothing_however_many_are_claimed(codec: str) -> None:
    native, pure = _both(partial(_decoded, codec, b"\x01\x02", 1, 0, 1000, 1))
    assert native == pure == (b"", 1)
    with _using(NATIVE):
        assert compression.decode(codec, b"", 0, 0, 10**15) == (b"", 0)


@need_native
@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(0, 2**32 - 1) | st.sampled_from((0, 1, 2**32 - 1)), max_size=600))
def test_distinct_keys_are_the_sorted_set(keys: list[int]) -> None:
    assert NATIVE is not None
    found = array("I")
    found.frombytes(NATIVE.distinct_keys(array("I", keys)))
    assert found.tolist() == sorted(set(keys))
    with pytest.raises(ValueError):
        NATIVE.distinct_keys(b"abc")


@need_native
@settings(max_examples=100, deadline=None)
@given(st.integers(0, 12), st.integers(0, 9), st.randoms(use_true_random=False))
def test_rgb565_conversion_matches(width: int, height: int, rng: random.Random) -> None:
    image = Image.new("RGB", (width, height))
    image.putdata([tuple(rng.randrange(256) for _ in range(3)) for _ in range(width * height)])
    native, pure = _both(partial(bitmap_pixels.image_to_565, image))
    assert native == pure


@need_native
def test_rgb565_conversion_of_every_channel_value() -> None:
    levels = Image.new("RGB", (256, 3))
    levels.putdata([tuple(v if c == band else 255 - v for c in range(3))
                    for band in range(3) for v in range(256)])
    native, pure = _both(partial(bitmap_pixels.image_to_565, levels))
    assert native == pure
    assert NATIVE is not None
    with pytest.raises(ValueError):
        NATIVE.rgb_to_565(b"ab")


@pytest.mark.parametrize("codec", ["scanline", "rle", "packbits"])
@pytest.mark.parametrize("pos", [4, 2**31, 2**63 - 9, 2**63 - 1, 2**64])
def test_a_position_past_the_data_is_a_bitmap_error_on_both_paths(codec: str, pos: int) -> None:
    # The public function, on the C path (when built) and the pure one: no crash, one error.
    for native in (NATIVE, None):
        with _using(native), pytest.raises(BitmapError, match="truncated in row 0"):
            compression.decode(codec, b"abc", pos, 1, 2, 2)
    with pytest.raises(ValueError):
        compression.decode(codec, b"abc", -1, 1, 2)


@need_native
@pytest.mark.parametrize("code", [0, 1, 2])
@pytest.mark.parametrize(
    ("pos", "row_bytes", "rows"),
    [(4, 1, 2), (2**63 - 1, 1, 2), (2**63 - 9, 8, 2), (0, 2**61, 2), (1, 2**62 - 1, 2**62),
     (3, 2**40, 2**40)],
)
def test_the_c_decoder_bounds_any_position_and_size(
    code: int, pos: int, row_bytes: int, rows: int
) -> None:
    # The C function itself, without compression.decode's checks in front: a
    # problem code or a ValueError, never a read outside the buffer.
    assert NATIVE is not None
    try:
        raw, _row, problem = NATIVE.decode(code, b"abc", pos, row_bytes, rows, 1)
    except ValueError:
        return
    assert raw is None and problem == 1
