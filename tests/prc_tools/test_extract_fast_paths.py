"""The shortcuts `extract` takes for speed give exactly what the slow paths gave (issue 17)."""

from __future__ import annotations

import io
import itertools
import os
from pathlib import PurePosixPath

import pytest
from PIL import Image

from palmish.device.disk.resources import bundled_plugins
from prc_tools import bitmap
from prc_tools.bitmap.pixels import direct_to_image, expand_565
from prc_tools.bitmap.png import SIGNATURE, png_bytes
from prc_tools.plugin import build_folder
from prc_tools.plugin.folder import normal


def test_normal_names_match_pure_posix_path() -> None:
    pieces = ["a", ".", "..", "", "/", "\\", "b.png", "//", "./"]
    for count in range(1, 5):
        for combination in itertools.product(pieces, repeat=count):
            name = "".join(combination)
            assert normal(name) == PurePosixPath(name.replace("\\", "/")).as_posix(), name


@pytest.mark.parametrize("mode", ["RGBA", "RGB", "P", "L", "LA", "1"])
@pytest.mark.parametrize("size", [(1, 1), (7, 3), (48, 80), (161, 2)])
def test_png_bytes_read_back_exactly(mode: str, size: tuple[int, int]) -> None:
    noise = Image.frombytes("RGBA", size, os.urandom(size[0] * size[1] * 4))
    image = noise if mode == "RGBA" else noise.convert(mode)
    data = png_bytes(image)
    assert data.startswith(SIGNATURE)
    with Image.open(io.BytesIO(data), formats=["PNG"]) as back:
        back.load()
        assert back.mode == image.mode and back.size == image.size
        assert back.tobytes() == image.tobytes()


def test_palm_art_is_no_bigger_than_pillows_pngs() -> None:
    """Filter 0 suits flat Palm art: the bundled pieces as small as Pillow writes them."""
    db = build_folder(bundled_plugins().folder("ishido-pieces"))
    images = [m.image for r in db.resources if r.type == "Tbmp" for m in bitmap.decode(r.data)]
    ours = sum(len(png_bytes(image)) for image in images)
    theirs = 0
    for image in images:
        out = io.BytesIO()
        image.save(out, format="PNG")
        theirs += len(out.getvalue())
    assert ours <= theirs


@pytest.mark.parametrize("big_endian", [True, False])
@pytest.mark.parametrize(("width", "row_bytes"), [(1, 2), (5, 10), (5, 14), (33, 72)])
def test_sixteen_bit_transparency_is_per_word(big_endian: bool, width: int, row_bytes: int) -> None:
    """Alpha 0 exactly where a pixel's 16-bit word is the key (not where one byte is)."""
    height = 6
    key = 0x1234
    near = [key, key ^ 0x0001, key ^ 0x0100, key ^ 0x8000, 0x3412, 0, 0xFFFF]
    words = [[near[(x * 3 + y) % len(near)] for x in range(width)] for y in range(height)]
    order = "big" if big_endian else "little"
    raw = b"".join(
        b"".join(w.to_bytes(2, order) for w in row) + b"\xab" * (row_bytes - 2 * width)
        for row in words
    )
    image = direct_to_image(raw, width, height, row_bytes, big_endian, key)
    alpha = image.getchannel("A").tobytes()
    expected = bytes(0 if w == key else 255 for row in words for w in row)
    assert alpha == expected
    rgb = image.convert("RGB").tobytes()
    assert rgb == bytes(c for row in words for w in row for c in expand_565(w))
    opaque = direct_to_image(raw, width, height, row_bytes, big_endian, None)
    assert opaque.getchannel("A").tobytes() == bytes([255]) * (width * height)
