"""Generate the bundled Pachisi plugin source folders: two boards, two piece
sets (each also as a Wide plugin: prc_tools keeps landscape art apart) and one
sound set, drawn with Pillow and synthesized with the stdlib `wave`.

    .venv/bin/python -m palmish.pachisi.make_art [--out DIR] [--sheet /tmp/x]

Cells are 16 pixels at 144 dpi and 8 at 72 dpi, and every picture is drawn
for its own size: small round shapes are drawn at four times the size,
scaled down and thresholded (Palm bitmaps have one transparent colour, no
alpha). The output is deterministic: running the script twice gives the same
files.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from pathlib import Path

from PIL import Image, ImageChops, ImageDraw

from palmish.boardgame.art_kit import (
    RATE,
    art_arguments,
    contact_sheet,
    env,
    fresh,
    synth,
    write_manifest,
    write_sounds,
)
from palmish.device.disk.resources import GAME_PLUGINS
from palmish.device.graphics.font import get_font
from palmish.pachisi import pictures
from palmish.pachisi.rules import COLOURS, FACES, GRID
from palmish.pachisi.schema import SCHEMA

RGB = tuple[int, int, int]
SS = 4  # supersampling for round shapes
CELL = 16  # 144-dpi cell
IDS = SCHEMA.bitmaps
SOUND_IDS = SCHEMA.sounds
AUTHOR = "palmish project"
PORTRAIT, WIDE = ["square", "tall"], ["wide"]

# The seed's colours: red, gray, white, magenta.
CLASSIC: dict[str, RGB] = {"red": (214, 32, 32), "gray": (140, 140, 140),
                           "white": (250, 250, 246), "magenta": (206, 40, 196)}


# ---------------------------------------------------------------- helpers


def supersampled(size: int, paint: Callable[[Image.Image, float], None]) -> Image.Image:
    """Paint at SS times `size` (the painter gets the scale), shrink, and make
    every pixel fully opaque or fully clear."""
    big = Image.new("RGBA", (size * SS, size * SS), (0, 0, 0, 0))
    paint(big, size * SS / 16)
    small = big.convert("RGBa").resize((size, size), Image.Resampling.BOX).convert("RGBA")
    alpha = small.getchannel("A").point(lambda a: 255 if a >= 110 else 0)
    small.putalpha(alpha)
    return small


def circle(d: ImageDraw.ImageDraw, cx: float, cy: float, r: float, **kw: object) -> None:
    d.ellipse((cx - r, cy - r, cx + r, cy + r), **kw)  # type: ignore[arg-type]


def shape_points(shape: str, u: float) -> list[tuple[float, float]]:
    """Outlines for the high-contrast set, on a 16-unit cell."""
    c = 8 * u
    if shape == "square":
        return [(2.2 * u, 2.2 * u), (13.8 * u, 2.2 * u), (13.8 * u, 13.8 * u), (2.2 * u, 13.8 * u)]
    if shape == "triangle":
        return [(c, 1 * u), (15 * u, 14.5 * u), (1 * u, 14.5 * u)]
    if shape == "diamond":
        return [(c, 0.6 * u), (15.4 * u, c), (c, 15.4 * u), (0.6 * u, c)]
    return [(c + 7 * u * math.cos(a), c + 7 * u * math.sin(a))
            for a in (2 * math.pi * i / 48 for i in range(48))]


# ---------------------------------------------------------------- pieces


def classic_piece(colour: str, kind: str, size: int) -> Image.Image:
    rgb = CLASSIC[colour]
    light = tuple(min(255, v + 70) for v in rgb)
    shade = tuple(v * 7 // 10 for v in rgb)

    def paint(img: Image.Image, u: float) -> None:
        d = ImageDraw.Draw(img)
        c = 8 * u
        if kind == "finished":
            circle(d, c, c, 7.2 * u, fill=(0, 0, 0, 255))
            circle(d, c, c, 6.0 * u, fill=(*rgb, 255))
            circle(d, c, c, 3.6 * u, fill=(0, 0, 0, 255))
            circle(d, c, c, 2.6 * u, fill=(0, 0, 0, 0))
            return
        circle(d, c, c, 7.2 * u, fill=(0, 0, 0, 255))
        # A shaded lower right makes a solid ball, never mistaken for a finished ring.
        circle(d, c, c, 6.0 * u, fill=(*shade, 255))
        circle(d, c - 0.9 * u, c - 0.9 * u, 5.0 * u, fill=(*rgb, 255))
        if size >= 16:
            d.arc((c - 4.2 * u, c - 4.2 * u, c + 4.2 * u, c + 4.2 * u), 200, 260,
                  fill=(*light, 255), width=round(1.2 * u))
        if kind == "double":
            circle(d, c, c, 2.6 * u, fill=(0, 0, 0, 255))

    return supersampled(size, paint)


CONTRAST: dict[str, tuple[RGB, str, str]] = {
    # colour -> (fill, shape, pattern)
    "red": ((230, 40, 20), "disc", "plain"),
    "gray": ((120, 120, 120), "square", "stripes"),
    "white": ((255, 255, 255), "triangle", "plain"),
    "magenta": ((220, 0, 200), "diamond", "dots"),
}


def contrast_piece(colour: str, kind: str, size: int) -> Image.Image:
    fill, shape, pattern = CONTRAST[colour]

    def paint(img: Image.Image, u: float) -> None:
        d = ImageDraw.Draw(img)
        pts = shape_points(shape, u)
        d.polygon(pts, fill=(0, 0, 0, 255))
        inner = _shrink(pts, 8 * u, 8 * u, 0.72 if size < 16 else 0.78)
        d.polygon(inner, fill=(*fill, 255))
        if kind == "finished":  # an empty outline: a coloured band round a hole
            d.polygon(_shrink(pts, 8 * u, 8 * u, 0.45), fill=(0, 0, 0, 255))
            d.polygon(_shrink(pts, 8 * u, 8 * u, 0.3), fill=(0, 0, 0, 0))
            return
        if pattern == "stripes" and size >= 16:
            n = round(16 * u)
            stripes = Image.new("RGBA", (n, n), (0, 0, 0, 0))
            sd = ImageDraw.Draw(stripes)
            for k in range(-16, 16, 4):
                sd.line((k * u, 16 * u, (k + 16) * u, 0), fill=(255, 255, 255, 255),
                        width=round(1.1 * u))
            mask = Image.new("L", (n, n), 0)
            ImageDraw.Draw(mask).polygon(inner, fill=255)
            img.paste(stripes, (0, 0), ImageChops.multiply(stripes.getchannel("A"), mask))
        if pattern == "dots" and size >= 16:
            for x, y in ((8, 4.6), (4.6, 8), (11.4, 8), (8, 11.4)):
                circle(d, x * u, y * u, 1.0 * u, fill=(255, 255, 255, 255))
        if kind == "double":
            circle(d, 8 * u, 8.8 * u if shape == "triangle" else 8 * u, 3.4 * u,
                   fill=(255, 255, 255, 255))
            circle(d, 8 * u, 8.8 * u if shape == "triangle" else 8 * u, 2.4 * u,
                   fill=(0, 0, 0, 255))

    return supersampled(size, paint)


def _shrink(pts: list[tuple[float, float]], cx: float, cy: float, k: float
            ) -> list[tuple[float, float]]:
    return [(cx + (x - cx) * k, cy + (y - cy) * k) for x, y in pts]


def die_face(value: int, size: int) -> Image.Image:
    """An ivory die face: pips for 2-6, the figures for 10 and 25."""
    img = Image.new("RGBA", (size, size), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    s = size // 16
    d.rounded_rectangle((0, 0, size - 1, size - 1), radius=3 * s, fill=(250, 244, 226, 255),
                        outline=(0, 0, 0, 255), width=s)
    if value in pictures.PIPS:
        r = max(1.0, size / 14)
        for fx, fy in pictures.PIPS[value]:
            x, y = fx * (size - 1), fy * (size - 1)
            d.ellipse((x - r, y - r, x + r, y + r), fill=(20, 20, 20, 255))
        return img
    font = get_font("bold", 2 if size >= 32 else 1)
    mask = font.render(str(value))
    ink = Image.new("RGBA", mask.size, (170, 20, 20, 255) if value == 25 else (20, 20, 20, 255))
    img.paste(ink, ((size - mask.width) // 2 + s // 2, (size - mask.height) // 2 + s), mask)
    return img


def shell(up: bool, size: int) -> Image.Image:
    """A cowrie: the toothed slit shows mouth up; the domed back mouth down."""

    def paint(img: Image.Image, u: float) -> None:
        d = ImageDraw.Draw(img)
        body = (248, 238, 210, 255) if up else (214, 178, 120, 255)
        d.ellipse((2.5 * u, 0.5 * u, 13.5 * u, 15.5 * u), fill=(70, 50, 30, 255))
        d.ellipse((3.7 * u, 1.7 * u, 12.3 * u, 14.3 * u), fill=body)
        if up:
            d.line((8 * u, 3 * u, 8 * u, 13 * u), fill=(60, 40, 20, 255), width=round(1.8 * u))
            if size >= 16:
                for y in (5, 7.5, 10):
                    d.line((6.2 * u, y * u, 9.8 * u, y * u), fill=(60, 40, 20, 255),
                           width=round(0.8 * u))
        else:
            circle(d, 6.5 * u, 6 * u, 1.5 * u, fill=(246, 226, 180, 255))
            circle(d, 9.5 * u, 10 * u, 1.2 * u, fill=(150, 110, 60, 255))

    return supersampled(size, paint)


# ---------------------------------------------------------------- boards

BOARDS = {
    "sandal": dict(
        name="Sandalwood Board",
        # The safe green is darker than the cream squares so that they stay apart for
        # protanopia, deuteranopia and tritanopia too (tests/pachisi/test_colour_vision.py)
        palette=pictures.BoardPalette(ground=(214, 176, 128), square=(252, 244, 222),
                                      safe=(80, 170, 100), line=(96, 62, 30),
                                      centre=(236, 170, 50), triangle=(0, 0, 0),
                                      centre_mark=(170, 60, 30)),
        texture=18, text=(60, 30, 10), panel=(232, 206, 164), panel_text=(60, 30, 10),
        turn=(255, 214, 0), default=True),
    # The DOS game's EGA colours: a blue screen, the cross in cyan with black lines,
    # light green safe squares, a yellow centre, white names.
    "dos": dict(
        name="DOS Board",
        palette=pictures.BoardPalette(ground=(0, 0, 170), square=(0, 170, 170),
                                      safe=(85, 255, 85), line=(0, 0, 0),
                                      centre=(255, 255, 85), triangle=(0, 0, 0),
                                      centre_mark=(170, 0, 0)),
        texture=0, text=(255, 255, 255), panel=(0, 0, 170), panel_text=(255, 255, 255),
        turn=(255, 255, 85), default=False),
}


def textured(img: Image.Image, ground: RGB, spread: int, seed: int) -> Image.Image:
    """Grain on the ground colour only (the squares stay flat and readable)."""
    if not spread:
        return img
    rng = random.Random(seed)
    px = img.load()
    assert px is not None
    for y in range(img.height):
        band = math.sin(y / 3.1) * spread / 3
        for x in range(img.width):
            if px[x, y] == ground:
                v = round(band + rng.uniform(-spread, spread) / 2)
                px[x, y] = tuple(max(0, min(255, c + v)) for c in ground)
    return img


def board_pictures(style: dict[str, object], cell: int) -> dict[str, Image.Image]:
    palette = style["palette"]
    assert isinstance(palette, pictures.BoardPalette)
    board = textured(pictures.draw_board(cell, palette), palette.ground,
                     int(style["texture"]), cell)  # type: ignore[call-overload]
    turn_rgb = style["turn"]
    assert isinstance(turn_rgb, tuple)
    corner = 8 * cell
    turn = Image.new("RGBA", (corner, corner), (0, 0, 0, 0))
    d = ImageDraw.Draw(turn)
    w = max(2, cell // 4)
    d.rounded_rectangle((1, 1, corner - 2, corner - 2), radius=cell // 2, outline=(*turn_rgb, 255),
                        width=w)
    panel_rgb = style["panel"]
    assert isinstance(panel_rgb, tuple)
    panel = textured(Image.new("RGB", (2 * cell, 2 * cell), panel_rgb), panel_rgb,
                     int(style["texture"]) // 2, cell + 1)  # type: ignore[call-overload]
    mark = pictures.frame((cell, cell), (255, 220, 0), max(2, cell // 5))
    target = pictures.target_mark(cell, (255, 220, 0))
    return {"board": board, "turn": turn, "panel": panel, "mark": mark, "target": target}


# ---------------------------------------------------------------- sounds


def clicks(times: list[float], pitch: float, seed: int, seconds: float) -> list[float]:
    """Shells knocking together: short noisy clicks with a woody ring."""
    rng = random.Random(seed)
    noise = [rng.uniform(-1, 1) for _ in range(int(seconds * RATE))]

    def voice(t: float) -> float:
        v = 0.0
        for k, start in enumerate(times):
            u = t - start
            if 0 <= u < 0.05:
                f = pitch * (1 + 0.13 * (k % 3))
                v += (0.6 * math.sin(2 * math.pi * f * u) + 0.5 * noise[int(t * RATE)]) \
                    * env(u, 0.0008, 0.008)
        return v
    return synth(seconds, voice)


def throw_sound() -> list[float]:
    rng = random.Random(7)
    times = sorted(rng.uniform(0.0, 0.22) for _ in range(9))
    return clicks(times, 1900.0, 3, 0.32)


def move_sound() -> list[float]:
    return clicks([0.0, 0.07], 900.0, 5, 0.14)


def tone(notes: list[tuple[float, float]], length: float, decay: float, seconds: float
         ) -> list[float]:
    def voice(t: float) -> float:
        v = 0.0
        for start, f in notes:
            u = t - start
            if 0 <= u < length:
                v += (math.sin(2 * math.pi * f * u) + 0.3 * math.sin(4 * math.pi * f * u)) \
                    * env(u, 0.004, decay)
        return v
    return synth(seconds, voice)


def capture_sound() -> list[float]:
    thump = tone([(0.0, 130.0)], 0.3, 0.08, 0.45)
    fall = tone([(0.08, 660.0), (0.18, 494.0), (0.28, 392.0)], 0.14, 0.06, 0.45)
    return [a + 0.6 * b for a, b in zip(thump, fall, strict=True)]


def enter_sound() -> list[float]:
    return tone([(0.0, 523.3), (0.08, 784.0)], 0.2, 0.07, 0.3)


def finish_sound() -> list[float]:
    return tone([(0.0, 784.0), (0.1, 1046.5), (0.2, 1318.5)], 0.5, 0.2, 0.75)


def illegal_sound() -> list[float]:
    def voice(t: float) -> float:
        sq = sum(math.sin(2 * math.pi * k * 140 * t) / k for k in (1, 3, 5))
        return 0.4 * sq * (1.0 if t < 0.16 else max(0.0, 1 - (t - 0.16) / 0.03))
    return synth(0.2, voice)


def win_sound() -> list[float]:
    run = [(0.0, 523.3), (0.14, 659.3), (0.28, 784.0), (0.42, 1046.5), (0.62, 784.0),
           (0.76, 1046.5)]
    return tone(run, 0.5, 0.25, 1.5)


SOUNDS: list[tuple[str, Callable[[], list[float]]]] = [
    ("throw", throw_sound), ("move", move_sound), ("capture", capture_sound),
    ("enter", enter_sound), ("finish", finish_sound), ("illegal", illegal_sound),
    ("win", win_sound),
]


# ---------------------------------------------------------------- folders

SCRIPT = "palmish/pachisi/make_art.py"  # named in every manifest it writes
PLUGINS = Path(__file__).with_name(GAME_PLUGINS)  # where the folders go by default
TOP_LEVEL = ("game", "kind", "name", "version", "author", "configs", "cell", "anchor")


def write_set(folder: Path, configs: list[str], draw: Callable[[int], dict[str, Image.Image]]
              ) -> tuple[list[dict[str, object]], list[Image.Image]]:
    """Save every picture `draw(cell)` makes, at 144 dpi and (for square) 72 dpi."""
    cells = {144: CELL}
    if "square" in configs:
        cells[72] = CELL // 2
    files: dict[str, dict[int, str]] = {}
    shown: list[Image.Image] = []
    for density, cell in cells.items():
        suffix = "" if density == 144 else "-low"
        for name, img in draw(cell).items():
            fname = f"{name.replace('_', '-')}{suffix}.png"
            img.save(folder / fname, optimize=True)
            files.setdefault(name, {})[density] = fname
            if density == 144:
                shown.append(img.convert("RGBA"))
    entries: list[dict[str, object]] = []
    for name, by_density in files.items():
        entry: dict[str, object] = {"id": IDS[name], "file": by_density[144]}
        if 72 in by_density:
            entry["members"] = {"72x16": by_density[72], "72x8": by_density[72]}
        entries.append(entry)
    return entries, shown


def pieces_pictures(piece: Callable[[str, str, int], Image.Image]
                    ) -> Callable[[int], dict[str, Image.Image]]:
    def draw(cell: int) -> dict[str, Image.Image]:
        out: dict[str, Image.Image] = {}
        for kind in ("pawn", "double", "finished"):
            for colour in COLOURS:
                out[f"{kind}_{colour}"] = piece(colour, kind, cell)
        for value in FACES:
            out[f"die_{value}"] = die_face(value, 2 * cell)
        out["shell_up"] = shell(True, cell)
        out["shell_down"] = shell(False, cell)
        return out
    return draw


def make_pieces(out: Path, folder_name: str, name: str, configs: list[str],
                piece: Callable[[str, str, int], Image.Image], default: bool,
                looks: list[str]) -> list[Image.Image]:
    folder = fresh(out, folder_name)
    entries, shown = write_set(folder, configs, pieces_pictures(piece))
    info: dict[str, object] = {
        "game": "pachisi", "kind": "pieces", "name": name, "version": 1, "author": AUTHOR,
        "configs": configs, "cell": [CELL, CELL], "anchor": [0, 0], "colours": looks,
    }
    if default:
        info["default"] = True
    write_manifest(folder, info, entries, [], TOP_LEVEL, SCRIPT)
    return shown


def make_board(out: Path, folder_name: str, key: str, configs: list[str]) -> list[Image.Image]:
    style = BOARDS[key]
    folder = fresh(out, folder_name)
    # No compression given: `best` (the smallest codec per member) now that the
    # ScanLine decoder is as quick as PackBits's.
    entries, shown = write_set(folder, configs, lambda cell: board_pictures(style, cell))
    text, panel_text = style["text"], style["panel_text"]
    assert isinstance(text, tuple) and isinstance(panel_text, tuple)
    name = str(style["name"]) + (" Wide" if configs == WIDE else "")
    info: dict[str, object] = {
        "game": "pachisi", "kind": "board", "name": name, "version": 1, "author": AUTHOR,
        "configs": configs, "cell": [CELL, CELL], "text_color": list(text),
        "panel_text_color": list(panel_text),
    }
    if style["default"]:
        info["default"] = True
    write_manifest(folder, info, entries, [], TOP_LEVEL, SCRIPT)
    return shown


def make_sounds(out: Path) -> None:
    folder = fresh(out, "pachisi-sounds")
    entries = write_sounds(folder, ((SOUND_IDS[name], name, make) for name, make in SOUNDS))
    info: dict[str, object] = {
        "game": "pachisi", "kind": "sound", "name": "Shells Sounds", "version": 1,
        "author": AUTHOR, "configs": ["square", "tall", "wide"], "default": True,
    }
    write_manifest(folder, info, [], entries, TOP_LEVEL, SCRIPT)


def main(argv: Sequence[str] | None = None) -> int:
    out, sheet = art_arguments(__doc__, argv, PLUGINS)
    assert GRID * CELL == 304
    classic_looks = list(COLOURS)
    contrast_looks = [f"{c}/{CONTRAST[c][1]}/{CONTRAST[c][2]}" for c in COLOURS]
    sheets: dict[str, list[Image.Image]] = {}
    for configs, suffix in ((PORTRAIT, ""), (WIDE, "-wide")):
        wide = " Wide" if suffix else ""
        sheets["classic" + suffix] = make_pieces(
            out, f"pachisi-pieces{suffix}", "Classic Pieces" + wide, configs, classic_piece,
            True, classic_looks)
        sheets["contrast" + suffix] = make_pieces(
            out, f"pachisi-pieces-contrast{suffix}", "High Contrast Pieces" + wide, configs,
            contrast_piece, False, contrast_looks)
        for key in BOARDS:
            sheets[key + suffix] = make_board(out, f"pachisi-board-{key}{suffix}", key, configs)
    make_sounds(out)
    if sheet:
        for name in ("classic", "contrast"):
            contact_sheet([sheets[name]], Path(f"{sheet}-{name}.png"))
        for name in BOARDS:
            contact_sheet([sheets[name][:1]], Path(f"{sheet}-board-{name}.png"), zoom=1)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
