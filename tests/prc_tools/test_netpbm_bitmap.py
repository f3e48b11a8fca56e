"""Palm bitmaps against netpbm: ours decode in palmtopnm, pnmtopalm's decode in ours.

palmtopnm is the reference reader: for every bitmap both readers must give the
same RGB for every pixel (transparent pixels included: they carry the key
colour), and the same answer about transparency. Under CI these tests must
run: a missing tool fails instead of skipping.
"""

from __future__ import annotations

import io
import itertools
import os
import shutil
import subprocess

import pytest
from PIL import Image

from prc_tools import bitmap
from prc_tools.bitmap.palette import PALM_8BIT, grey_levels

pytestmark = pytest.mark.process  # every test here starts another program

CODECS = ("none", "scanline", "rle", "packbits")
PALMCOLOR8_MAP = "/usr/share/netpbm/palmcolor8.map"
PNMTOPALM_CODEC_FLAGS = {
    "none": [],
    "scanline": ["-scanline_compression"],
    "rle": ["-rle_compression"],
    "packbits": ["-packbits_compression"],
}


def _require(tool: str) -> str:
    path = shutil.which(tool)
    if path is None:
        if os.environ.get("CI"):
            pytest.fail(f"{tool} is missing: CI must install netpbm")
        pytest.skip(f"{tool} is not installed (apt-get install netpbm)")
    return path


def palmtopnm(data: bytes, rendition: int = 1) -> Image.Image:
    tool = _require("palmtopnm")
    result = subprocess.run(
        [tool, "-quiet", "-rendition", str(rendition)], input=data, capture_output=True, check=False
    )
    assert result.returncode == 0, result.stderr.decode(errors="replace")
    return Image.open(io.BytesIO(result.stdout)).convert("RGB")


def palmtopnm_key(data: bytes, rendition: int = 1) -> tuple[int, int, int] | None:
    """The transparent colour palmtopnm reports, or None."""
    tool = _require("palmtopnm")
    result = subprocess.run(
        [tool, "-quiet", "-transparent", "-rendition", str(rendition)],
        input=data,
        capture_output=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr.decode(errors="replace")
    text = result.stdout.decode().strip()
    if not text:
        return None
    digits = text.lstrip("#")
    third = len(digits) // 3
    # For grey index 0 palmtopnm computes 256 and prints "#100100100": clamp it.
    r, g, b = (min(255, int(digits[i * third : (i + 1) * third], 16)) for i in range(3))
    return (r, g, b)


def pnmtopalm(image: Image.Image, *args: str) -> bytes:
    """pnmtopalm's bitmap of ``image``; its 16-bit mode sometimes crashes, so retry."""
    tool = _require("pnmtopalm")
    buffer = io.BytesIO()
    image.save(buffer, format="PPM")
    message = ""
    for _ in range(6):
        result = subprocess.run(
            [tool, "-quiet", *args], input=buffer.getvalue(), capture_output=True, check=False
        )
        if result.returncode == 0 and result.stdout:
            return result.stdout
        message = result.stderr.decode(errors="replace")
    pytest.fail(f"pnmtopalm {' '.join(args)} kept failing: {message}")


def rgb_list(image: Image.Image) -> list[tuple[int, int, int]]:
    data = image.convert("RGB").tobytes()
    return [(data[i], data[i + 1], data[i + 2]) for i in range(0, len(data), 3)]


def alpha_list(image: Image.Image) -> list[int]:
    return list(image.getchannel("A").tobytes())


def assert_same_as_palmtopnm(data: bytes) -> list[bitmap.Member]:
    """Every member decodes to palmtopnm's pixels and transparency."""
    members = bitmap.decode(data)
    for rendition, member in enumerate(members, start=1):
        theirs = rgb_list(palmtopnm(data, rendition))
        ours = rgb_list(member.image)
        assert ours == theirs, f"member {rendition}: pixels differ from palmtopnm"
        key = palmtopnm_key(data, rendition)
        assert member.transparent == (key is not None), f"member {rendition}: transparency"
        if key is not None:
            for colour, alpha in zip(ours, alpha_list(member.image), strict=True):
                assert alpha in (0, 255)
                if alpha == 0:
                    assert colour == key  # transparent pixels hold the key colour
    return members


# --- test images ----------------------------------------------------------------------


def colourful(width: int = 37, height: int = 21) -> Image.Image:
    """Runs, gradients and noise, so every compression has something to do."""
    image = Image.new("RGB", (width, height))
    image.putdata(
        [
            (255, 0, 0)
            if x < 6
            else ((x * 13) % 256, (y * 29) % 256, ((x ^ y) * 7) % 256)
            if y % 4
            else (0, 0, 255)
            for y in range(height)
            for x in range(width)
        ]
    )
    return image


def with_holes(image: Image.Image) -> Image.Image:
    rgba = image.convert("RGBA")
    for y in range(rgba.height):
        for x in range(rgba.width):
            if (x * 3 + y * 5) % 11 == 0:
                rgba.putpixel((x, y), (7, 7, 7, 0))
    return rgba


def in_palette(
    colours: tuple[tuple[int, int, int], ...], width: int = 37, height: int = 21
) -> Image.Image:
    image = Image.new("RGB", (width, height))
    image.putdata(
        [
            colours[0] if x < 5 else colours[(x * 7 + y * 3) % len(colours)]
            for y in range(height)
            for x in range(width)
        ]
    )
    return image


# --- our bitmaps read by palmtopnm -------------------------------------------------------

OUR_CASES = list(itertools.product((1, 2, 4, 8, 16), CODECS, (72, 144), (False, True)))


@pytest.mark.parametrize(("depth", "codec", "density", "holes"), OUR_CASES)
def test_our_bitmaps_read_the_same_in_palmtopnm(
    depth: int, codec: str, density: int, holes: bool
) -> None:
    source: Image.Image = colourful()
    if depth == 1:
        source = source.convert("L").point(lambda v: 255 if v > 100 else 0)
        if holes:
            source = source.point(lambda v: 0)  # all black, so white is free for the key
    if holes:
        source = with_holes(source)
    data = bitmap.encode(source, depth, density, codec)
    (member,) = assert_same_as_palmtopnm(data)
    assert (member.depth, member.density, member.compression) == (depth, density, codec)
    if holes:
        mask = [255 if a >= 128 else 0 for a in alpha_list(source.convert("RGBA"))]
        assert alpha_list(member.image) == mask


@pytest.mark.parametrize(
    ("depth", "codec", "density"),
    list(itertools.product((1, 2, 4, 8), ("none", "packbits"), (72, 144))),
)
def test_our_colour_tables_read_the_same_in_palmtopnm(depth: int, codec: str, density: int) -> None:
    data = bitmap.encode(with_holes(colourful()), depth, density, codec, colour_table=True)
    (member,) = assert_same_as_palmtopnm(data)
    assert member.has_colour_table


@pytest.mark.parametrize("dither", [False, True])
def test_our_families_read_the_same_in_palmtopnm(dither: bool) -> None:
    source = with_holes(colourful(48, 30))
    # Depth 1 is left out: with holes and both colours in use it has no free key.
    depths = (2, 4, 8, 16)
    data = bitmap.encode_family(source, densities=(144, 72), depths=depths, dither=dither)
    members = assert_same_as_palmtopnm(data)
    assert [(m.density, m.depth) for m in members] == [
        (density, depth) for density in (72, 144) for depth in depths
    ]


def test_our_family_with_one_bit_members_reads_the_same_in_palmtopnm() -> None:
    data = bitmap.encode_family(colourful(48, 30), densities=(72, 144), depths=(1, 16))
    assert len(assert_same_as_palmtopnm(data)) == 4


def test_nearest_system_colours_match_pnmremap() -> None:
    """Without dithering, 8-bit pixels are the colours pnmremap picks from palmcolor8.map."""
    tool = _require("pnmremap")
    source = colourful(64, 40)
    buffer = io.BytesIO()
    source.save(buffer, format="PPM")
    result = subprocess.run(
        [tool, "-quiet", "-nofs", f"-mapfile={PALMCOLOR8_MAP}"],
        input=buffer.getvalue(),
        capture_output=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr.decode(errors="replace")
    theirs = rgb_list(Image.open(io.BytesIO(result.stdout)))
    ours = rgb_list(bitmap.decode(bitmap.encode(source, 8, 72, "none"))[0].image)

    def distance(a: tuple[int, int, int], b: tuple[int, int, int]) -> int:
        return sum((x - y) ** 2 for x, y in zip(a, b, strict=True))

    for original, mine, netpbm in zip(rgb_list(source), ours, theirs, strict=True):
        # Equal, or an exact tie in distance.
        assert mine == netpbm or distance(original, mine) == distance(original, netpbm)


# --- pnmtopalm's bitmaps read by us ------------------------------------------------------


def _indexed_source(depth: int) -> Image.Image:
    if depth == 8:
        return in_palette(PALM_8BIT[:230])
    return in_palette(grey_levels(depth)).convert("L")


# pnmtopalm cannot write greys with a transparent colour (it crashes on grey
# input with -transparent and refuses colour input below 8 bits).
PNMTOPALM_CASES = [
    (depth, codec, density, transparent)
    for depth, codec, density, transparent in itertools.product(
        (1, 2, 4, 8), CODECS, (72, 144), (False, True)
    )
    if depth == 8 or not transparent
]


@pytest.mark.parametrize(("depth", "codec", "density", "transparent"), PNMTOPALM_CASES)
def test_pnmtopalm_indexed_bitmaps_read_like_palmtopnm(
    depth: int, codec: str, density: int, transparent: bool
) -> None:
    source = _indexed_source(depth)
    args = [f"-depth={depth}", f"-density={density}", *PNMTOPALM_CODEC_FLAGS[codec]]
    key = source.convert("RGB").getpixel((0, 0))
    if transparent:
        assert isinstance(key, tuple)
        args.append("-transparent=#{:02x}{:02x}{:02x}".format(*key))
    (member,) = assert_same_as_palmtopnm(pnmtopalm(source, *args))
    assert (member.depth, member.density, member.compression) == (depth, density, codec)
    assert rgb_list(member.image) == rgb_list(source)
    if transparent:
        assert alpha_list(member.image)[0] == 0


@pytest.mark.parametrize(
    ("density", "transparent"), list(itertools.product((72, 144), (False, True)))
)
def test_pnmtopalm_sixteen_bit_bitmaps_read_like_palmtopnm(density: int, transparent: bool) -> None:
    args = ["-depth=16", f"-density={density}"]
    if transparent:
        args.append("-transparent=#ff0000")
    (member,) = assert_same_as_palmtopnm(pnmtopalm(colourful(), *args))
    assert member.depth == 16 and member.transparent == transparent


@pytest.mark.parametrize("codec", CODECS)
def test_pnmtopalm_colormap_bitmaps_read_like_palmtopnm(codec: str) -> None:
    source = in_palette(((10, 20, 30), (200, 100, 50), (1, 2, 3), (250, 250, 5)))
    data = pnmtopalm(source, "-depth=8", "-colormap", *PNMTOPALM_CODEC_FLAGS[codec])
    (member,) = assert_same_as_palmtopnm(data)
    assert member.has_colour_table
    assert rgb_list(member.image) == rgb_list(source)


def test_pnmtopalm_concatenated_renditions() -> None:
    grey = _indexed_source(2)
    colour = _indexed_source(8)
    # Compressed: uncompressed -offset output points 2 bytes past its own padding.
    first = pnmtopalm(grey, "-depth=2", "-offset", "-rle_compression")
    data = first + pnmtopalm(colour, "-depth=8", "-packbits_compression")
    members = assert_same_as_palmtopnm(data)
    assert [m.depth for m in members] == [2, 8]
