"""The bundled boards' safe squares stay apart from the plain squares for the common
colour blindnesses: each board picture is simulated (Machado, Oliveira and Fernandes
2009, full severity, on linear RGB) and the two colours compared in CIELAB.

A player found the Sandalwood board's green safe squares almost gone into the
cream squares in a deuteranopia simulation (issue 21)."""

from __future__ import annotations

import pytest
from PIL import Image

from palmish.device.disk.resources import bundled_plugins
from palmish.pachisi.rules import SAFE_SQUARES

PLUGINS = bundled_plugins()
RGB = tuple[int, int, int]
SIMULATIONS: dict[str, tuple[tuple[float, float, float], ...]] = {
    "normal": ((1, 0, 0), (0, 1, 0), (0, 0, 1)),
    "protanopia": ((0.152286, 1.052583, -0.204868), (0.114503, 0.786281, 0.099216),
                   (-0.003882, -0.048116, 1.051998)),
    "deuteranopia": ((0.367322, 0.860646, -0.227968), (0.280085, 0.672501, 0.047413),
                     (-0.011820, 0.042940, 0.968881)),
    "tritanopia": ((1.255528, -0.076749, -0.178779), (-0.078411, 0.930809, 0.147602),
                   (0.004733, 0.691367, 0.303900)),
}


def linear(c: int) -> float:
    v = c / 255
    return v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4


def simulate(rgb: RGB, kind: str) -> tuple[float, float, float]:
    """The linear RGB a viewer with this colour vision sees (clamped to the gamut)."""
    lin = [linear(c) for c in rgb]
    m = SIMULATIONS[kind]
    out = [min(1.0, max(0.0, sum(m[i][j] * lin[j] for j in range(3)))) for i in range(3)]
    return out[0], out[1], out[2]


def lab(lin: tuple[float, float, float]) -> tuple[float, float, float]:
    r, g, b = lin
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116

    return 116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))


def delta_e(a: RGB, b: RGB, kind: str) -> float:
    la, lb = lab(simulate(a, kind)), lab(simulate(b, kind))
    return float(sum((p - q) ** 2 for p, q in zip(la, lb, strict=True)) ** 0.5)


def square_colour(board: Image.Image, xy: tuple[int, int]) -> RGB:
    cell = board.width // 19
    px = board.convert("RGB").getpixel((xy[0] * cell + cell // 2, xy[1] * cell + cell // 2))
    assert isinstance(px, tuple)
    return px[0], px[1], px[2]


def test_the_simulation_is_the_published_one() -> None:
    # pure red looks dark olive to a protanope, white stays white for everyone
    assert delta_e((255, 255, 255), (255, 255, 255), "tritanopia") == 0
    seen = simulate((255, 0, 0), "protanopia")
    assert seen[0] == pytest.approx(0.152286) and seen[2] == 0


@pytest.mark.parametrize(("folder", "least"), [("pachisi-board-sandal", 35.0),
                                               ("pachisi-board-dos", 25.0)])
@pytest.mark.parametrize("kind", list(SIMULATIONS))
def test_safe_squares_stand_apart_from_the_plain_ones(folder: str, least: float,
                                                      kind: str) -> None:
    board = Image.open(PLUGINS.folder(folder) / "board.png")
    safe = square_colour(board, (0, 9))  # the safe square at the end of the West arm
    assert (0, 9) in SAFE_SQUARES
    plain = square_colour(board, (8, 1))  # an ordinary ring square on the West arm
    assert safe != plain
    assert delta_e(safe, plain, kind) >= least, (safe, plain)
