"""The Palm palettes against netpbm's copy of the system palette and the format notes."""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest
from PIL import Image

from prc_tools import speedups
from prc_tools.bitmap import nearest_colour
from prc_tools.bitmap.nearest_colour import nearest_indices
from prc_tools.bitmap.palette import PALM_8BIT, default_palette, flat, grey_levels

NETPBM_MAP = Path("/usr/share/netpbm/palmcolor8.map")


def _read_plain_ppm(path: Path) -> list[tuple[int, int, int]]:
    words = [w for line in path.read_text().splitlines() for w in line.split("#")[0].split()]
    assert words[0] == "P3"
    width, height, maxval = int(words[1]), int(words[2]), int(words[3])
    assert maxval == 255
    values = [int(w) for w in words[4:]]
    assert len(values) == width * height * 3
    return [(values[i], values[i + 1], values[i + 2]) for i in range(0, len(values), 3)]


def test_system_palette_matches_netpbm_map() -> None:
    if not NETPBM_MAP.exists():
        if os.environ.get("CI"):
            pytest.fail(f"{NETPBM_MAP} missing: CI must install netpbm")
        pytest.skip("netpbm is not installed")
    assert list(PALM_8BIT) == _read_plain_ppm(NETPBM_MAP)


def test_system_palette_landmarks() -> None:
    assert len(PALM_8BIT) == 256
    assert PALM_8BIT[0] == (255, 255, 255)
    assert PALM_8BIT[1] == (255, 204, 255)  # green varies fastest
    assert PALM_8BIT[6] == (255, 255, 204)  # then blue within the bright half
    assert PALM_8BIT[108] == (255, 255, 102)  # the dark-blue half starts
    assert PALM_8BIT[214] == (0, 51, 0)  # the cube without its black
    assert PALM_8BIT[215] == (0x11, 0x11, 0x11)
    assert PALM_8BIT[224] == (0xEE, 0xEE, 0xEE)
    assert PALM_8BIT[225:230] == (
        (0xC0, 0xC0, 0xC0),
        (0x80, 0, 0),
        (0x80, 0, 0x80),
        (0, 0x80, 0),
        (0, 0x80, 0x80),
    )
    assert set(PALM_8BIT[230:]) == {(0, 0, 0)}
    # Every cube colour but black appears exactly once among the first 215.
    levels = (0, 51, 102, 153, 204, 255)
    cube = {(r, g, b) for r in levels for g in levels for b in levels} - {(0, 0, 0)}
    assert set(PALM_8BIT[:215]) == cube


def test_grey_levels_are_linear_white_first() -> None:
    assert grey_levels(1) == ((255, 255, 255), (0, 0, 0))
    assert [c[0] for c in grey_levels(2)] == [255, 170, 85, 0]
    assert [c[0] for c in grey_levels(4)] == [255 - 17 * i for i in range(16)]
    assert default_palette(8) is PALM_8BIT
    assert default_palette(2) == grey_levels(2)
    with pytest.raises(ValueError):
        grey_levels(8)


def test_flat_palette() -> None:
    assert flat([(1, 2, 3), (4, 5, 6)]) == [1, 2, 3, 4, 5, 6]


def _distance(a: tuple[int, int, int], b: tuple[int, int, int]) -> int:
    return sum((x - y) ** 2 for x, y in zip(a, b, strict=True))


@pytest.mark.parametrize("path", ["native", "pure"])
def test_nearest_indices_when_the_kept_colours_are_cleared(
    path: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The second image shares colours with the first and brings more than the
    # cache may hold: it is emptied, and every colour of the image found again.
    if path == "native" and speedups.built() is None:
        pytest.skip("the C speedups are not built")
    monkeypatch.setattr(speedups, "native", speedups.built() if path == "native" else None)
    monkeypatch.setattr(nearest_colour, "_FOUND", {})
    monkeypatch.setattr(nearest_colour, "_FOUND_LIMIT", 300)
    rng = random.Random(3)
    colours = [(rng.randrange(256), rng.randrange(256), rng.randrange(256)) for _ in range(500)]
    first, second = Image.new("RGB", (200, 1)), Image.new("RGB", (500, 1))
    first.putdata(colours[:200])
    second.putdata(colours)
    expected = [nearest_colour._nearest_per_pixel(second).tobytes()]
    nearest_indices(first)
    assert [nearest_indices(second).tobytes()] == expected


def test_nearest_indices_are_exact() -> None:
    rng = random.Random(5)
    colours = [(rng.randrange(256), rng.randrange(256), rng.randrange(256)) for _ in range(2000)]
    colours += [*PALM_8BIT[:230], (8, 8, 8), (9, 9, 9), (25, 26, 25), (200, 190, 192)]
    image = Image.new("RGB", (len(colours), 1))
    image.putdata(colours)
    usable = [*PALM_8BIT[:230], PALM_8BIT[255]]
    for colour, index in zip(colours, nearest_indices(image).tobytes(), strict=True):
        assert index < 230 or index == 255  # never an unused slot
        assert _distance(colour, PALM_8BIT[index]) == min(_distance(colour, p) for p in usable)
    # Palette colours map to themselves, black to 255.
    exact = Image.new("RGB", (231, 1))
    exact.putdata(usable)
    assert list(nearest_indices(exact).tobytes()) == [*range(230), 255]
