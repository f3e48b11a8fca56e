"""Generate the bundled Sigmar's Garden plugin source folders: atoms, boards (Pillow)
and synthesized sounds (stdlib `wave`).

    .venv/bin/python -m palmish.sigmar.make_art [--out DIR] [--sheet /tmp/x.png]

Folders: sigmar-pieces-classic (the seed's ComputerCraft colours with letters,
metals lower case), sigmar-pieces-glyphs (high contrast, an alchemical sign on
every atom so colour is never the only cue), sigmar-board-slate,
sigmar-board-parchment, sigmar-hexboard-slate and sigmar-hexboard-parchment (the
hexagonal garden's boards: hexagonal cells and marks 26x30 and 13x15) and
sigmar-sounds. Cells are square, 26x26 at 144 dpi
and 13x13 at 72 dpi, in every configuration, so each plugin serves square,
tall and wide. Shapes are drawn at four times the size and scaled down per
density; letters use the device's own bitmap font so they stay crisp. Palm
bitmaps have one transparent colour, so edges are thresholded. The output is
deterministic.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from pathlib import Path

from PIL import Image, ImageDraw

from palmish.boardgame.art_kit import (
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
from palmish.sigmar.art import CC_COLOURS, ink_for
from palmish.sigmar.hexart import hex_cell, hex_corners, hex_dot, hex_focus, hex_frame
from palmish.sigmar.rules import Atom
from palmish.sigmar.schema import SCHEMA

SS = 4  # supersampling factor
RGB = tuple[int, int, int]
CELL = 26  # 144-dpi pixels; 13 at 72 dpi
CONFIGS = ["square", "tall", "wide"]
IDS = SCHEMA.bitmaps
AUTHOR = "palmish project"

CC = CC_COLOURS  # the seed's ComputerCraft colours, as the app's plain atoms use
# High-contrast glyph colours on a black disc: light, saturated, far apart in lightness too.
GLYPH: dict[Atom, RGB] = {
    Atom.AIR: (150, 220, 255), Atom.FIRE: (255, 110, 70), Atom.WATER: (90, 150, 255),
    Atom.EARTH: (120, 230, 110), Atom.SALT: (255, 255, 255), Atom.VITAE: (255, 250, 200),
    Atom.MORS: (200, 160, 255), Atom.QUICKSILVER: (230, 230, 240), Atom.LEAD: (190, 190, 200),
    Atom.TIN: (215, 215, 190), Atom.IRON: (240, 150, 130), Atom.COPPER: (255, 170, 80),
    Atom.SILVER: (235, 240, 255), Atom.GOLD: (255, 215, 60), Atom.SLAG: (120, 120, 120),
}


def mix(a: RGB, b: RGB, t: float) -> RGB:
    return (round(a[0] + (b[0] - a[0]) * t), round(a[1] + (b[1] - a[1]) * t),
            round(a[2] + (b[2] - a[2]) * t))


def finish(big: Image.Image, size: int) -> Image.Image:
    """Scale a supersampled RGBA picture down; every pixel fully opaque or clear."""
    small = big.resize((size, size), Image.Resampling.LANCZOS)
    alpha = small.getchannel("A").point(lambda a: 255 if a >= 128 else 0)
    small.putalpha(alpha)
    return Image.composite(small, Image.new("RGBA", small.size, (0, 0, 0, 0)), alpha)


def stamp_letter(img: Image.Image, letter: str, colour: RGB, scale: int) -> None:
    """The letter in the device's bold font, centred (pixel-exact at either density)."""
    if not letter:
        return
    mask = get_font("bold", scale).render(letter)
    box = mask.getbbox() or (0, 0, mask.width, mask.height)
    mask = mask.crop(box)  # centre the ink itself: descenders (g, q) stay on the tile
    ink = Image.new("RGBA", mask.size, (*colour, 255))
    img.paste(ink, ((img.width - mask.width + 1) // 2, (img.height - mask.height + 1) // 2), mask)


LOCKED_GREY = 0.8  # how far a locked atom goes to grey: at 0.5 Iron stayed a live teal


def dim(img: Image.Image, towards: RGB, amount: float) -> Image.Image:
    """The locked look: mostly grey and faded towards the field colour, so every
    locked atom reads as stone with a hint of its colour; clear stays clear."""
    grey = img.convert("LA").convert("RGBA")
    veil = Image.new("RGBA", img.size, (*towards, 255))
    out = Image.blend(Image.blend(img, grey, LOCKED_GREY), veil, amount)
    out.putalpha(img.getchannel("A"))
    return out


# ---------------------------------------------------------------- classic atoms


def classic_atom(atom: Atom, size: int) -> Image.Image:
    """A rounded square in the atom's CC colour, with its letter (Slag: a grey lump)."""
    S = size * SS
    big = Image.new("RGBA", (S, S), (0, 0, 0, 0))
    draw = ImageDraw.Draw(big)
    colour = CC[atom]
    pad = S * 0.06
    box = (pad, pad, S - 1 - pad, S - 1 - pad)
    edge = mix(colour, (0, 0, 0), 0.55) if atom != Atom.MORS else (110, 110, 110)
    draw.rounded_rectangle(box, S * 0.2, fill=(*edge, 255))
    inner = (pad + SS * 1.2, pad + SS * 1.2, S - 1 - pad - SS * 1.2, S - 1 - pad - SS * 1.2)
    draw.rounded_rectangle(inner, S * 0.16, fill=(*colour, 255))
    # A light top edge so the tile reads as raised.
    hi = mix(colour, (255, 255, 255), 0.45)
    draw.rounded_rectangle((inner[0] + SS, inner[1] + SS * 0.6, inner[2] - SS, inner[1] + S * 0.16),
                           S * 0.08, fill=(*hi, 255))
    if atom == Atom.SLAG:
        rng = random.Random(7)
        for _ in range(14):
            x = rng.uniform(inner[0], inner[2] - S * 0.1)
            y = rng.uniform(inner[1], inner[3] - S * 0.1)
            r = rng.uniform(S * 0.03, S * 0.07)
            draw.ellipse((x, y, x + r * 2, y + r * 2), fill=(*mix(colour, (0, 0, 0), 0.4), 255))
    img = finish(big, size)
    stamp_letter(img, atom.letter, ink_for(colour), size // 13)
    return img


# ---------------------------------------------------------------- glyph atoms

Pt = tuple[float, float]


# The signs drawn pixel by pixel for the 13-px (72 dpi) atoms, where scaled-down
# strokes melt into blobs (Salt, Vitae and Mors all read as plain discs): each one
# differs from every other in shape alone, so colour is never needed.
PIXEL_SIGNS: dict[Atom, tuple[str, ...]] = {
    Atom.FIRE: ("...#...", "..#.#..", "..#.#..", ".#...#.", ".#...#.", "#######"),
    Atom.AIR: ("...#...", "..#.#..", "..#.#..", ".#####.", ".#...#.", "#######"),
    Atom.WATER: ("#######", ".#...#.", ".#...#.", "..#.#..", "..#.#..", "...#..."),
    Atom.EARTH: ("#######", ".#...#.", ".#####.", "..#.#..", "..#.#..", "...#..."),
    Atom.SALT: ("..###..", ".#...#.", "#.....#", "#######", "#.....#", ".#...#.", "..###.."),
    Atom.VITAE: ("#..#..#", ".#...#.", "..###..", "###.###", "..###..", ".#...#.", "#..#..#"),
    Atom.MORS: ("#.....#", ".#...#.", "..#.#..", "...#...", "..#.#..", ".#...#.", "#.....#"),
    Atom.QUICKSILVER: (".#...#.", "..###..", ".#...#.", "..###..", "...#...", ".#####.",
                        "...#..."),
    Atom.LEAD: (".#.....", "###....", ".#.##..", ".##..#.", ".#...#.", "....#..", "...#..."),
    Atom.TIN: (".#...#.", "#....#.", "#....#.", ".######", ".....#.", ".....#.", ".....#."),
    Atom.IRON: ("....###", ".....##", "..###.#", ".#...#.", ".#...#.", ".#...#.", "..###.."),
    Atom.COPPER: ("..###..", ".#...#.", ".#...#.", "..###..", "...#...", ".#####.", "...#..."),
    Atom.SILVER: ("..###..", ".##....", "##.....", "##.....", "##.....", ".##....", "..###.."),
    Atom.GOLD: ("..###..", ".#...#.", "#.....#", "#..#..#", "#.....#", ".#...#.", "..###.."),
}


def pixel_sign(img: Image.Image, atom: Atom) -> None:
    """Stamp the atom's pixel sign, centred, in its glyph colour."""
    rows = PIXEL_SIGNS[atom]
    x0 = (img.width - len(rows[0])) // 2
    y0 = (img.height - len(rows)) // 2
    for y, row in enumerate(rows):
        for x, pixel in enumerate(row):
            if pixel == "#":
                img.putpixel((x0 + x, y0 + y), (*GLYPH[atom], 255))


def glyph_atom(atom: Atom, size: int) -> Image.Image:
    """A black disc ringed in white with the atom's alchemical sign in a light colour
    (drawn pixel by pixel at 13 px)."""
    S = size * SS
    big = Image.new("RGBA", (S, S), (0, 0, 0, 0))
    draw = ImageDraw.Draw(big)
    pad = S * 0.03
    ring = (255, 255, 255) if atom != Atom.SLAG else (150, 150, 150)
    if atom == Atom.SLAG:
        draw.rectangle((pad, pad, S - 1 - pad, S - 1 - pad), fill=(*ring, 255))
        draw.rectangle((pad + SS * 1.5, pad + SS * 1.5, S - 1 - pad - SS * 1.5,
                        S - 1 - pad - SS * 1.5), fill=(60, 60, 60, 255))
        w = max(SS, S // 14)
        for k in range(-2, 3):
            d = k * S * 0.25
            draw.line((S * 0.15 + d, S * 0.85, S * 0.85 + d, S * 0.15), fill=(*ring, 255), width=w)
        draw.rectangle((0, 0, S - 1, S - 1), outline=(0, 0, 0, 0), width=int(pad))
        return finish(big, size)
    draw.ellipse((pad, pad, S - 1 - pad, S - 1 - pad), fill=(*ring, 255))
    t = SS * (1.5 if size > 13 else 1.2)
    draw.ellipse((pad + t, pad + t, S - 1 - pad - t, S - 1 - pad - t), fill=(12, 12, 16, 255))
    if size <= 13:
        img = finish(big, size)
        pixel_sign(img, atom)
        return img
    c = GLYPH[atom]
    w = max(SS * 2, round(S * 0.085))
    sign(draw, atom, S / 2, S / 2, S * 0.27, (*c, 255), w)
    return finish(big, size)


def sign(draw: ImageDraw.ImageDraw, atom: Atom, cx: float, cy: float, r: float,
         fill: tuple[int, int, int, int], w: int) -> None:
    """The sign of an atom, about 2r across, centred on (cx, cy)."""

    def line(*pts: Pt) -> None:
        draw.line(list(pts), fill=fill, width=w, joint="curve")

    def circle(x: float, y: float, rr: float) -> None:
        draw.ellipse((x - rr, y - rr, x + rr, y + rr), outline=fill, width=w)

    def dot(x: float, y: float, rr: float) -> None:
        draw.ellipse((x - rr, y - rr, x + rr, y + rr), fill=fill)

    up = [(cx, cy - r), (cx + r * 0.95, cy + r * 0.75), (cx - r * 0.95, cy + r * 0.75),
          (cx, cy - r)]
    down = [(cx, cy + r), (cx + r * 0.95, cy - r * 0.75), (cx - r * 0.95, cy - r * 0.75),
            (cx, cy + r)]
    if atom == Atom.FIRE:
        line(*up)
    elif atom == Atom.AIR:
        line(*up)
        line((cx - r * 0.75, cy + r * 0.05), (cx + r * 0.75, cy + r * 0.05))
    elif atom == Atom.WATER:
        line(*down)
    elif atom == Atom.EARTH:
        line(*down)
        line((cx - r * 0.75, cy - r * 0.05), (cx + r * 0.75, cy - r * 0.05))
    elif atom == Atom.SALT:
        circle(cx, cy, r * 0.9)
        line((cx - r * 0.9, cy), (cx + r * 0.9, cy))
    elif atom == Atom.VITAE:
        dot(cx, cy, r * 0.38)
        for k in range(8):
            a = k * math.pi / 4
            line((cx + math.cos(a) * r * 0.6, cy + math.sin(a) * r * 0.6),
                 (cx + math.cos(a) * r * 1.05, cy + math.sin(a) * r * 1.05))
    elif atom == Atom.MORS:
        circle(cx, cy, r * 0.9)
        arm = r * 0.62
        line((cx - arm, cy - arm), (cx + arm, cy + arm))
        line((cx - arm, cy + arm), (cx + arm, cy - arm))
    elif atom == Atom.QUICKSILVER:  # horns, a circle, a cross below
        circle(cx, cy - r * 0.05, r * 0.42)
        draw.arc((cx - r * 0.7, cy - r * 1.35, cx + r * 0.7, cy - r * 0.35), 0, 180, fill=fill,
                 width=w)
        line((cx, cy + r * 0.37), (cx, cy + r * 1.1))
        line((cx - r * 0.4, cy + r * 0.75), (cx + r * 0.4, cy + r * 0.75))
    elif atom == Atom.LEAD:  # a cross on a hook (Saturn)
        line((cx - r * 0.2, cy - r), (cx - r * 0.2, cy + r * 0.2))
        line((cx - r * 0.65, cy - r * 0.55), (cx + r * 0.25, cy - r * 0.55))
        draw.arc((cx - r * 0.2, cy - r * 0.2, cx + r * 0.7, cy + r * 0.7), 180, 360, fill=fill,
                 width=w)
        line((cx + r * 0.7, cy + r * 0.25), (cx + r * 0.35, cy + r * 1.0))
    elif atom == Atom.TIN:  # Jupiter: a 4-like sign
        draw.arc((cx - r * 0.9, cy - r * 0.95, cx + r * 0.1, cy + r * 0.05), 180, 90, fill=fill,
                 width=w)
        line((cx - r * 0.4, cy + r * 0.05), (cx + r * 0.9, cy + r * 0.05))
        line((cx + r * 0.45, cy - r * 0.6), (cx + r * 0.45, cy + r * 1.0))
    elif atom == Atom.IRON:  # Mars: a circle with an arrow
        circle(cx - r * 0.25, cy + r * 0.25, r * 0.55)
        line((cx + r * 0.15, cy - r * 0.15), (cx + r * 0.95, cy - r * 0.95))
        line((cx + r * 0.35, cy - r * 0.95), (cx + r * 0.95, cy - r * 0.95),
             (cx + r * 0.95, cy - r * 0.35))
    elif atom == Atom.COPPER:  # Venus: a circle over a cross
        circle(cx, cy - r * 0.35, r * 0.55)
        line((cx, cy + r * 0.2), (cx, cy + r * 1.05))
        line((cx - r * 0.4, cy + r * 0.62), (cx + r * 0.4, cy + r * 0.62))
    elif atom == Atom.SILVER:  # the crescent moon
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=fill)
        draw.ellipse((cx - r * 0.55, cy - r * 1.05, cx + r * 1.35, cy + r * 0.95),
                     fill=(12, 12, 16, 255))
    elif atom == Atom.GOLD:  # the sun: a ring with a dot
        circle(cx, cy, r * 0.95)
        dot(cx, cy, r * 0.3)


# ---------------------------------------------------------------- boards

BOARDS: dict[str, dict[str, object]] = {
    "slate": {"name": "Slate Board", "field": (38, 44, 54), "socket": (62, 70, 84),
              "socket_edge": (28, 32, 40), "panel": (232, 226, 210), "text": (30, 28, 24),
              "mark": (255, 214, 0), "hint": (0, 210, 255), "default": True},
    "parchment": {"name": "Parchment Board", "field": (214, 196, 158), "socket": (236, 224, 196),
                  "socket_edge": (150, 122, 84), "panel": (92, 62, 40), "text": (250, 240, 220),
                  "mark": (200, 20, 20), "hint": (0, 90, 220), "default": False},
}


def rgb(value: object) -> RGB:
    assert isinstance(value, tuple)
    return (int(value[0]), int(value[1]), int(value[2]))


def texture(size: int, base: RGB, spread: int, seed: int) -> Image.Image:
    """A softly mottled tile that repeats without seams (a few sine waves + noise)."""
    rng = random.Random(seed)
    img = Image.new("RGBA", (size, size))
    px = img.load()
    assert px is not None
    waves = [(rng.randint(1, 3), rng.randint(1, 3), rng.random() * 6.28) for _ in range(3)]
    for y in range(size):
        for x in range(size):
            v = sum(math.sin(2 * math.pi * (a * x + b * y) / size + p) for a, b, p in waves) / 3
            n = v * spread + rng.uniform(-spread, spread) * 0.35
            px[x, y] = (*(max(0, min(255, round(c + n))) for c in base), 255)
    return img


def socket(style: dict[str, object], size: int) -> Image.Image:
    """The sunken square under every cell of the board's shape."""
    S = size * SS
    big = Image.new("RGBA", (S, S), (*rgb(style["field"]), 255))
    draw = ImageDraw.Draw(big)
    pad = S * 0.02
    draw.rounded_rectangle((pad, pad, S - 1 - pad, S - 1 - pad), S * 0.14,
                           fill=(*rgb(style["socket_edge"]), 255))
    draw.rounded_rectangle((pad + SS, pad + SS, S - 1 - pad, S - 1 - pad), S * 0.12,
                           fill=(*rgb(style["socket"]), 255))
    return finish(big, size)


def frame_mark(size: int, colour: RGB, corners: bool) -> Image.Image:
    """The selection (a full frame) or hint (corner brackets) mark, clear inside."""
    img = Image.new("RGBA", (size, size), (0, 0, 0, 0))
    draw = ImageDraw.Draw(img)
    t = max(1, size // 13)
    if not corners:
        for i in range(2 * t):
            c = colour if i < t + (t + 1) // 2 else (0, 0, 0)
            draw.rectangle((i, i, size - 1 - i, size - 1 - i), outline=(*c, 255))
        return img
    n = size // 3
    for i in range(t + 1):
        c = colour if i < t else (0, 0, 0)
        for x0, y0, dx, dy in ((i, i, 1, 1), (size - 1 - i, i, -1, 1), (i, size - 1 - i, 1, -1),
                               (size - 1 - i, size - 1 - i, -1, -1)):
            draw.line((x0, y0, x0 + dx * (n - i), y0), fill=(*c, 255))
            draw.line((x0, y0, x0, y0 + dy * (n - i)), fill=(*c, 255))
    return img


def partner_mark(size: int, colour: RGB) -> Image.Image:
    """A small dot with a dark edge in the bottom-right corner of a cell whose atom
    reacts with the selection: in the atom's corner, clear of its letter (a dot under
    the letter made "A" read as "8")."""
    img = Image.new("RGBA", (size, size), (0, 0, 0, 0))
    t = max(1, size // 13)
    draw = ImageDraw.Draw(img)
    x, y = size - 3 * t, size - 3 * t
    draw.rectangle((x, y, size - 1, size - 1), fill=(0, 0, 0, 255))
    draw.rectangle((x + t, y + t, x + 2 * t - 1, y + 2 * t - 1), fill=(*colour, 255))
    return img


# ---------------------------------------------------------------- sounds


def tone(f: float, t: float) -> float:
    return math.sin(2 * math.pi * f * t) + 0.3 * math.sin(4 * math.pi * f * t)


def notes(seq: list[tuple[float, float]], decay: float, length: float) -> list[float]:
    def voice(t: float) -> float:
        return sum(tone(f, t - s) * env(t - s, 0.004, decay) for s, f in seq if t >= s) * 0.4
    return synth(length, voice)


def select_sound() -> list[float]:
    return synth(0.07, lambda t: tone(1318.5, t) * env(t, 0.002, 0.02))


def react_sound() -> list[float]:
    return notes([(0.0, 659.3), (0.06, 987.8)], 0.12, 0.35)


def transmute_sound() -> list[float]:
    def voice(t: float) -> float:
        f = 500 + 1400 * t
        return math.sin(2 * math.pi * f * t) * env(t, 0.01, 0.2) * (1 + 0.3 * math.sin(60 * t))
    return synth(0.45, voice)


def gold_sound() -> list[float]:
    return notes([(0.0, 784.0), (0.0, 987.8), (0.0, 1174.7), (0.12, 1568.0)], 0.4, 1.0)


def illegal_sound() -> list[float]:
    def voice(t: float) -> float:
        sq = sum(math.sin(2 * math.pi * k * 110 * t) / k for k in (1, 3, 5))
        return 0.4 * sq * (1.0 if t < 0.16 else max(0.0, 1 - (t - 0.16) / 0.03))
    return synth(0.2, voice)


def win_sound() -> list[float]:
    run = [523.3, 659.3, 784.0, 1046.5, 1318.5]
    return notes([(i * 0.1, f) for i, f in enumerate(run)] + [(0.55, 1046.5), (0.55, 784.0)],
                 0.35, 1.6)


def stuck_sound() -> list[float]:
    return notes([(0.0, 392.0), (0.25, 349.2), (0.5, 293.7)], 0.3, 1.2)


SOUNDS: list[tuple[str, Callable[[], list[float]]]] = [
    ("select", select_sound), ("react", react_sound), ("transmute", transmute_sound),
    ("gold", gold_sound), ("illegal", illegal_sound), ("win", win_sound),
    ("stuck", stuck_sound),
]


# ---------------------------------------------------------------- folders

SCRIPT = "palmish/sigmar/make_art.py"  # named in every manifest it writes
PLUGINS = Path(__file__).with_name(GAME_PLUGINS)  # where the folders go by default
TOP_LEVEL = ("game", "kind", "name", "version", "author", "configs", "cell")


def save_pair(folder: Path, stem: str, make: Callable[[int], Image.Image], res_id: int
              ) -> tuple[dict[str, object], Image.Image]:
    """The 144-dpi picture and its 72-dpi member drawn at half size."""
    big, low = make(CELL), make(CELL // 2)
    big.save(folder / f"{stem}.png", optimize=True)
    low.save(folder / f"{stem}-low.png", optimize=True)
    entry: dict[str, object] = {"id": res_id, "file": f"{stem}.png"}
    entry["members"] = {"72x16": f"{stem}-low.png", "72x8": f"{stem}-low.png"}
    return entry, big


def make_pieces(out: Path, folder_name: str, name: str,
                draw: Callable[[Atom, int], Image.Image], dim_to: RGB,
                default: bool) -> list[Image.Image]:
    folder = fresh(out, folder_name)
    entries: list[dict[str, object]] = []
    sheet: list[Image.Image] = []
    for atom in Atom:
        stem = atom.name.lower()
        entry, big = save_pair(folder, stem, lambda s, a=atom: draw(a, s),  # type: ignore[misc]
                               IDS["atom"] + atom.value)
        entries.append(entry)
        locked, dimmed = save_pair(folder, f"{stem}-locked",
                                   lambda s, a=atom: dim(draw(a, s), dim_to, 0.5),  # type: ignore[misc]
                                   IDS["locked"] + atom.value)
        entries.append(locked)
        sheet += [big, dimmed]
    info: dict[str, object] = {"game": "sigmar", "kind": "pieces", "name": name, "version": 1,
                               "author": AUTHOR, "configs": CONFIGS, "cell": [CELL, CELL]}
    if default:
        info["default"] = True
    write_manifest(folder, info, entries, [], TOP_LEVEL, SCRIPT)
    return sheet


def make_board(out: Path, key: str, seed: int) -> list[Image.Image]:
    style = BOARDS[key]
    folder = fresh(out, f"sigmar-board-{key}")
    mark, hint = rgb(style["mark"]), rgb(style["hint"])
    entries = []
    pictures = []
    for stem, make, res_id in (
        ("cell", lambda s: socket(style, s), IDS["cell"]),
        ("select", lambda s: frame_mark(s, mark, False), IDS["select_mark"]),
        ("hint", lambda s: frame_mark(s, hint, True), IDS["hint_mark"]),
        ("partner", lambda s: partner_mark(s, mark), IDS["partner_mark"]),
        ("field", lambda s: texture(s * 2, rgb(style["field"]), 5, seed), IDS["field"]),
        ("panel", lambda s: texture(s * 2, rgb(style["panel"]), 6, seed + 1), IDS["panel"]),
    ):
        entry, big = save_pair(folder, stem, make, res_id)
        entries.append(entry)
        pictures.append(big)
    info: dict[str, object] = {
        "game": "sigmar", "kind": "board", "name": style["name"], "version": 1,
        "author": AUTHOR, "configs": CONFIGS, "cell": [CELL, CELL],
        "text_color": list(rgb(style["text"])), "field_color": list(rgb(style["field"])),
        "mark_color": list(mark),
    }
    if style["default"]:
        info["default"] = True
    write_manifest(folder, info, entries, [], TOP_LEVEL, SCRIPT)
    return pictures


def make_hexboard(out: Path, key: str, seed: int) -> list[Image.Image]:
    """A Hex Board plugin (the hexagonal garden's board) in a board style's colours."""
    style = BOARDS[key]
    folder = fresh(out, f"sigmar-hexboard-{key}")
    mark, hint = rgb(style["mark"]), rgb(style["hint"])
    entries = []
    pictures = []
    for stem, make, res_id in (
        ("cell", lambda s: hex_cell(s, rgb(style["socket"]), rgb(style["socket_edge"])),
         IDS["hex_cell"]),
        ("select", lambda s: hex_frame(s, mark, 1.6 * (s // 13)), IDS["hex_select"]),
        ("focus", hex_focus, IDS["hex_focus"]),
        ("hint", lambda s: hex_corners(s, hint), IDS["hex_hint"]),
        ("partner", lambda s: hex_dot(s, mark), IDS["hex_partner"]),
        ("field", lambda s: texture(s * 2, rgb(style["field"]), 5, seed), IDS["field"]),
        ("panel", lambda s: texture(s * 2, rgb(style["panel"]), 6, seed + 1), IDS["panel"]),
    ):
        entry, big = save_pair(folder, stem, make, res_id)
        entries.append(entry)
        pictures.append(big)
    info: dict[str, object] = {
        "game": "sigmar", "kind": "hexboard", "name": f"Hex {style['name']}", "version": 1,
        "author": AUTHOR, "configs": CONFIGS,
        "text_color": list(rgb(style["text"])), "field_color": list(rgb(style["field"])),
        "mark_color": list(mark),
    }
    if style["default"]:
        info["default"] = True
    write_manifest(folder, info, entries, [], TOP_LEVEL, SCRIPT)
    return pictures


def make_sounds(out: Path) -> None:
    folder = fresh(out, "sigmar-sounds")
    entries = write_sounds(folder, ((SCHEMA.sounds[stem], stem, make) for stem, make in SOUNDS))
    info: dict[str, object] = {"game": "sigmar", "kind": "sound", "name": "Alembic Sounds",
                               "version": 1, "author": AUTHOR, "configs": CONFIGS,
                               "default": True}
    write_manifest(folder, info, [], entries, TOP_LEVEL, SCRIPT)


def main(argv: Sequence[str] | None = None) -> int:
    out, sheet = art_arguments(__doc__, argv, PLUGINS)
    classic = make_pieces(out, "sigmar-pieces-classic", "Classic Atoms", classic_atom,
                          rgb(BOARDS["slate"]["field"]), default=True)
    glyphs = make_pieces(out, "sigmar-pieces-glyphs", "Glyph Atoms", glyph_atom,
                         rgb(BOARDS["slate"]["field"]), default=False)
    boards = [make_board(out, "slate", 5), make_board(out, "parchment", 9)]
    hexboards = [make_hexboard(out, "slate", 5), make_hexboard(out, "parchment", 9)]
    make_sounds(out)
    if sheet:
        prefix = str(sheet)
        contact_sheet([classic], Path(prefix + "-classic.png"), zoom=4)
        contact_sheet([glyphs], Path(prefix + "-glyphs.png"), zoom=4)
        contact_sheet([boards[0] + boards[1]], Path(prefix + "-boards.png"))
        contact_sheet([hexboards[0] + hexboards[1]], Path(prefix + "-hexboards.png"))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
