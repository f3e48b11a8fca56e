"""Pachisi pictures drawn with Pillow at one cell size: the cross board, pieces,
die faces and cowries. The app draws these when a plugin lacks a picture;
make_art.py draws the bundled plugins (plugins/) with them and its
own palettes.

Everything is drawn pixel by pixel at the target size (cells are only 8 or 16
pixels), with one transparent colour at most: Palm bitmaps have no alpha.
"""

from __future__ import annotations

from dataclasses import dataclass

from PIL import Image, ImageDraw

from palmish.pachisi.rules import GRID, SAFE_SQUARES, TRACK

RGB = tuple[int, int, int]
CLEAR = (0, 0, 0, 0)
COLOUR_RGB: dict[str, RGB] = {
    "red": (210, 30, 30), "gray": (128, 128, 128), "white": (250, 250, 250),
    "magenta": (200, 40, 190),
}


@dataclass(frozen=True)
class BoardPalette:
    ground: RGB  # the corners and the space round the cross
    square: RGB  # an ordinary track square
    safe: RGB  # safe squares and home stretches (light green)
    line: RGB  # the lines between squares
    centre: RGB  # the finish
    triangle: RGB  # the start triangles
    centre_mark: RGB  # the pattern on the finish


PLAIN = BoardPalette(ground=(236, 226, 200), square=(255, 252, 240), safe=(170, 230, 150),
                     line=(110, 90, 60), centre=(230, 190, 90), triangle=(0, 0, 0),
                     centre_mark=(160, 110, 40))


def track_squares() -> set[tuple[int, int]]:
    """Every grid square of the cross: the ring and the four home stretches."""
    return {xy for track in TRACK for xy in track if xy is not None}


def home_squares() -> set[tuple[int, int]]:
    return {xy for track in TRACK for xy in track[69:76] if xy is not None}


def start_directions() -> list[tuple[tuple[int, int], tuple[int, int]]]:
    """Each start square with the direction play leaves it (clockwise round the board)."""
    out = []
    for track in TRACK:
        a, b = track[1], track[2]
        assert a is not None and b is not None
        out.append((a, (b[0] - a[0], b[1] - a[1])))
    return out


def draw_board(cell: int, palette: BoardPalette = PLAIN) -> Image.Image:
    """The whole 19x19 board, cell pixels per square, opaque."""
    size = GRID * cell
    img = Image.new("RGB", (size, size), palette.ground)
    draw = ImageDraw.Draw(img)
    safe = SAFE_SQUARES | home_squares()
    for x, y in track_squares():
        box = (x * cell, y * cell, (x + 1) * cell - 1, (y + 1) * cell - 1)
        draw.rectangle(box, fill=palette.safe if (x, y) in safe else palette.square,
                       outline=palette.line)
    # The finish: the 3x3 centre, with a diamond pointing at the four arms.
    c0, c1 = 8 * cell, 11 * cell - 1
    draw.rectangle((c0, c0, c1, c1), fill=palette.centre, outline=palette.line)
    mid = (c0 + c1) / 2
    r = 1.2 * cell
    draw.polygon([(mid, mid - r), (mid + r, mid), (mid, mid + r), (mid - r, mid)],
                 fill=palette.centre_mark)
    for (x, y), (dx, dy) in start_directions():
        if cell < 16:
            for box in small_triangle(x * cell, y * cell, cell, dx, dy):
                draw.rectangle(box, fill=palette.triangle)
        else:
            draw.polygon(triangle(x * cell, y * cell, cell, dx, dy), fill=palette.triangle)
    return img


def small_triangle(x0: int, y0: int, cell: int, dx: int, dy: int
                   ) -> list[tuple[int, int, int, int]]:
    """A start triangle on a small square, pixel by pixel, as rows (or columns) that
    shrink by one pixel each side: a polygon there left a thin spike that read as a pin."""
    inner = cell - 2  # inside the square's line
    rows = inner // 2
    first = 1 + (inner - rows) // 2
    boxes = []
    for k in range(rows):
        lo, hi = 1 + k, cell - 2 - k  # the span across the direction of play
        at = first + (k if dx + dy > 0 else rows - 1 - k)  # widest row at the back
        boxes.append((x0 + lo, y0 + at, x0 + hi, y0 + at) if dx == 0
                     else (x0 + at, y0 + lo, x0 + at, y0 + hi))
    return boxes


def triangle(x0: int, y0: int, cell: int, dx: int, dy: int) -> list[tuple[float, float]]:
    """A triangle inside the square at (x0, y0) pointing in direction (dx, dy)."""
    m = max(1.0, cell / 5)
    lo, hi, mid = m, cell - 1 - m, (cell - 1) / 2
    if dy < 0:
        pts = [(mid, lo), (hi, hi), (lo, hi)]
    elif dy > 0:
        pts = [(mid, hi), (lo, lo), (hi, lo)]
    elif dx > 0:
        pts = [(hi, mid), (lo, lo), (lo, hi)]
    else:
        pts = [(lo, mid), (hi, lo), (hi, hi)]
    return [(x0 + px, y0 + py) for px, py in pts]


def disc(cell: int, fill: RGB | None, outline: RGB, dot: RGB | None = None,
         width: int = 1) -> Image.Image:
    """A round piece: filled (fill), empty (fill None) and with a centre dot (a double)."""
    img = Image.new("RGBA", (cell, cell), CLEAR)
    draw = ImageDraw.Draw(img)
    m = max(0, cell // 16)
    box = (m, m, cell - 1 - m, cell - 1 - m)
    draw.ellipse(box, fill=(*fill, 255) if fill else None, outline=(*outline, 255),
                 width=width)
    if dot is not None:
        r = max(1, cell // 6)
        c = (cell - 1) / 2
        draw.ellipse((c - r, c - r, c + r, c + r), fill=(*dot, 255))
    return img


def plain_piece(colour: str, cell: int, kind: str) -> Image.Image:
    """kind: 'pawn', 'double' (a black dot in the centre) or 'finished' (an empty circle)."""
    rgb = COLOUR_RGB.get(colour, (0, 0, 0))
    w = max(1, cell // 8)
    if kind == "finished":
        return disc(cell, None, rgb, width=max(1, cell // 6))
    return disc(cell, rgb, (0, 0, 0), (0, 0, 0) if kind == "double" else None, width=w)


def plain_die(value: int, size: int) -> Image.Image:
    """A die face: a white rounded square with the value in pips (2-6) or figures."""
    img = Image.new("RGBA", (size, size), CLEAR)
    draw = ImageDraw.Draw(img)
    draw.rounded_rectangle((0, 0, size - 1, size - 1), radius=max(1, size // 6),
                           fill=(255, 255, 255, 255), outline=(0, 0, 0, 255),
                           width=max(1, size // 16))
    pips = PIPS.get(value)
    r = max(1, size // 10)
    if pips is None:  # 10 and 25: two bars for 10, a cross for 25, easy to tell apart
        mid, q = size // 2, size // 4
        w = max(1, size // 10)
        draw.line((q, mid, size - 1 - q, mid), fill=(0, 0, 0, 255), width=w)
        draw.line((mid, q, mid, size - 1 - q), fill=(0, 0, 0, 255), width=w)
        if value == 25:
            draw.line((q, q, size - 1 - q, size - 1 - q), fill=(200, 0, 0, 255), width=w)
            draw.line((q, size - 1 - q, size - 1 - q, q), fill=(200, 0, 0, 255), width=w)
        return img
    for fx, fy in pips:
        cx, cy = fx * (size - 1), fy * (size - 1)
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=(0, 0, 0, 255))
    return img


# Pip centres as fractions of the face.
PIPS: dict[int, tuple[tuple[float, float], ...]] = {
    2: ((0.28, 0.28), (0.72, 0.72)),
    3: ((0.25, 0.25), (0.5, 0.5), (0.75, 0.75)),
    4: ((0.28, 0.28), (0.72, 0.28), (0.28, 0.72), (0.72, 0.72)),
    5: ((0.25, 0.25), (0.75, 0.25), (0.5, 0.5), (0.25, 0.75), (0.75, 0.75)),
    6: ((0.28, 0.22), (0.72, 0.22), (0.28, 0.5), (0.72, 0.5), (0.28, 0.78), (0.72, 0.78)),
}


def plain_shell(cell: int, up: bool) -> Image.Image:
    """A cowrie: an oval, with its slit mouth showing when it lies mouth up."""
    img = Image.new("RGBA", (cell, cell), CLEAR)
    draw = ImageDraw.Draw(img)
    m = max(0, cell // 8)
    shell = (245, 235, 205, 255) if up else (215, 190, 140, 255)
    draw.ellipse((m, 0, cell - 1 - m, cell - 1), fill=shell, outline=(90, 70, 40, 255))
    if up:
        mid = (cell - 1) // 2
        draw.line((mid, max(1, cell // 5), mid, cell - 1 - max(1, cell // 5)),
                  fill=(60, 40, 20, 255), width=max(1, cell // 8))
    return img


def frame(size: tuple[int, int], colour: RGB, width: int, edge: RGB | None = (0, 0, 0)
          ) -> Image.Image:
    """A see-through frame (the marker, the target, the turn frame)."""
    w, h = size
    img = Image.new("RGBA", (w, h), CLEAR)
    draw = ImageDraw.Draw(img)
    if edge is not None:
        draw.rectangle((0, 0, w - 1, h - 1), outline=(*edge, 255))
        draw.rectangle((1, 1, w - 2, h - 2), outline=(*colour, 255), width=max(1, width - 1))
    else:
        draw.rectangle((0, 0, w - 1, h - 1), outline=(*colour, 255), width=width)
    return img


def movable_mark(cell: int, colour: RGB) -> Image.Image:
    """On every other piece that can move: corner ticks, dark-edged to show on any ground."""
    img = Image.new("RGBA", (cell, cell), CLEAR)
    draw = ImageDraw.Draw(img)
    w = max(1, cell // 8)
    arm = max(2, cell * 3 // 8)
    last = cell - 1
    for ink, grow in (((0, 0, 0, 255), 1), ((*colour, 255), 0)):
        for x, sx in ((0, 1), (last, -1)):
            for y, sy in ((0, 1), (last, -1)):
                draw.rectangle(_box(x, y, sx * (arm + grow), sy * (w + grow)), fill=ink)
                draw.rectangle(_box(x, y, sx * (w + grow), sy * (arm + grow)), fill=ink)
    return img


def _box(x: int, y: int, dx: int, dy: int) -> tuple[int, int, int, int]:
    """The rectangle from corner (x, y) reaching dx, dy pixels inwards (either sign)."""
    x2, y2 = x + dx - (1 if dx > 0 else -1), y + dy - (1 if dy > 0 else -1)
    return min(x, x2), min(y, y2), max(x, x2), max(y, y2)


def target_mark(cell: int, colour: RGB) -> Image.Image:
    """Where the marked piece would go: corner brackets and a centre dot."""
    img = Image.new("RGBA", (cell, cell), CLEAR)
    draw = ImageDraw.Draw(img)
    w = max(1, cell // 8)
    arm = max(2, cell // 3)
    ink = (*colour, 255)
    last = cell - 1
    for x, sx in ((0, 1), (last, -1)):
        for y, sy in ((0, 1), (last, -1)):
            draw.line((x, y, x + sx * arm, y), fill=ink, width=w)
            draw.line((x, y, x, y + sy * arm), fill=ink, width=w)
    r = max(1, cell // 6)
    c = last / 2
    draw.ellipse((c - r, c - r, c + r, c + r), fill=ink, outline=(0, 0, 0, 255))
    return img
