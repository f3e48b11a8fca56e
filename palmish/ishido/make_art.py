"""Generate the bundled PalmIshido plugin source folders: original tile and
board art (Pillow) and synthesized sounds (stdlib `wave`).

    .venv/bin/python -m palmish.ishido.make_art [--out DIR] [--sheet /tmp/x.png]

Every picture is drawn from vector shapes at four times the target size and
scaled down, once per density, so the 72-dpi tiles are drawn for 12x20 rather
than being a blurred copy of the 24x40 ones. Palm bitmaps have one transparent
colour and no alpha, so edges are thresholded and shadows are dithered.
The output is deterministic: running the script twice gives the same files.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from pathlib import Path

from PIL import Image, ImageDraw, ImageFilter

from palmish.boardgame.art_kit import (
    art_arguments,
    contact_sheet,
    env,
    synth,
    write_manifest,
    write_sounds,
)
from palmish.device.disk.resources import GAME_PLUGINS
from palmish.ishido.schema import SCHEMA

SS = 4  # supersampling factor
RGB = tuple[int, int, int]

# Six hues that stay apart on a small LCD: red, yellow, green, cyan, blue, magenta.
BRIGHT: list[RGB] = [
    (214, 38, 38), (236, 184, 20), (46, 160, 64),
    (22, 168, 196), (44, 72, 200), (186, 52, 170),
]
# Okabe-Ito colours (distinguishable with the common colour-vision deficiencies),
# each also carrying a pattern so colour never has to be judged by hue alone.
SAFE: list[RGB] = [
    (213, 94, 0), (240, 228, 66), (0, 158, 115),
    (86, 180, 233), (0, 90, 170), (204, 121, 167),
]
# The resource ids PalmIshido reads, from its plugin schema.
BITMAP_IDS = SCHEMA.bitmaps
SHAPE_NAMES = ["disc", "triangle", "square", "diamond", "cross", "star"]
COLOUR_NAMES = ["red", "yellow", "green", "cyan", "blue", "magenta"]


def mix(a: RGB, b: RGB, t: float) -> RGB:
    """`a` moved a fraction `t` of the way towards `b`."""
    return (
        round(a[0] + (b[0] - a[0]) * t),
        round(a[1] + (b[1] - a[1]) * t),
        round(a[2] + (b[2] - a[2]) * t),
    )


def shape_polygon(shape: int, cx: float, cy: float, r: float) -> list[tuple[float, float]]:
    """Outline of a shape of 'radius' r; the disc is a 48-gon."""
    if shape == 0:
        return [(cx + r * math.cos(a), cy + r * math.sin(a))
                for a in (2 * math.pi * i / 48 for i in range(48))]
    if shape == 1:
        h = r * 1.05
        return [(cx, cy - h), (cx + h * 1.0, cy + h * 0.78), (cx - h * 1.0, cy + h * 0.78)]
    if shape == 2:
        s = r * 0.84
        return [(cx - s, cy - s), (cx + s, cy - s), (cx + s, cy + s), (cx - s, cy + s)]
    if shape == 3:
        return [(cx, cy - r * 1.12), (cx + r * 0.9, cy), (cx, cy + r * 1.12), (cx - r * 0.9, cy)]
    if shape == 4:
        a, b = r * 0.36, r
        return [(cx - a, cy - b), (cx + a, cy - b), (cx + a, cy - a), (cx + b, cy - a),
                (cx + b, cy + a), (cx + a, cy + a), (cx + a, cy + b), (cx - a, cy + b),
                (cx - a, cy + a), (cx - b, cy + a), (cx - b, cy - a), (cx - a, cy - a)]
    points = []
    for i in range(10):
        radius = r * 1.08 if i % 2 == 0 else r * 0.46
        angle = -math.pi / 2 + i * math.pi / 5
        points.append((cx + radius * math.cos(angle), cy + 0.08 * r + radius * math.sin(angle)))
    return points


def grow(points: list[tuple[float, float]], cx: float, cy: float, by: float
         ) -> list[tuple[float, float]]:
    """The polygon pushed outwards from its centre by about `by` pixels (for outlines)."""
    out = []
    for x, y in points:
        dx, dy = x - cx, y - cy
        d = math.hypot(dx, dy) or 1.0
        out.append((x + dx / d * by, y + dy / d * by))
    return out


def finish(big: Image.Image, size: tuple[int, int]) -> Image.Image:
    """Scale a supersampled RGBA picture down and make every pixel fully opaque or clear."""
    small = big.resize(size, Image.Resampling.LANCZOS)
    alpha = small.getchannel("A").point(lambda a: 255 if a >= 128 else 0)
    small.putalpha(alpha)
    clear = Image.new("RGBA", size, (0, 0, 0, 0))
    return Image.composite(small, clear, alpha)


def pattern_mask(kind: int, size: tuple[int, int], step: int, scale: int) -> Image.Image:
    """A mask ('L') of the colour-coding pattern `kind` at supersampled size."""
    mask = Image.new("L", size, 0)
    draw = ImageDraw.Draw(mask)
    w, h = size
    line = max(1, step // 2)
    if kind == 1:  # horizontal stripes
        for y in range(0, h, step * 2):
            draw.rectangle((0, y, w, y + line * 2 - 1), fill=255)
    elif kind == 2:  # vertical stripes
        for x in range(0, w, step * 2):
            draw.rectangle((x, 0, x + line * 2 - 1, h), fill=255)
    elif kind == 3:  # diagonal stripes
        for d in range(-h, w, step * 2):
            draw.line((d, h, d + h, 0), fill=255, width=line * 2)
    elif kind == 4:  # dots
        for y in range(step // 2, h, step * 2):
            for x in range(step // 2, w, step * 2):
                draw.ellipse((x - line, y - line, x + line, y + line), fill=255)
    elif kind == 5:  # cross-hatch
        for d in range(-h, w, step * 2):
            draw.line((d, h, d + h, 0), fill=255, width=max(1, line))
            draw.line((d, 0, d + h, h), fill=255, width=max(1, line))
    del scale
    return mask


def draw_tile(colour: int, shape: int, w: int, h: int, contrast: bool) -> Image.Image:
    """One w x h tile (native pixels at its density), as RGBA with clear corners."""
    unit = h / 40  # 1.0 at double density, 0.5 at low density
    W, H = w * SS, h * SS
    px = SS * max(unit, 0.5)  # one native pixel at double density, half of that at low
    big = Image.new("RGBA", (W, H), (0, 0, 0, 0))
    draw = ImageDraw.Draw(big)
    radius = round(3.2 * SS * unit)
    palette = SAFE if contrast else BRIGHT
    hue = palette[colour]
    edge = max(SS, round(2 * px)) if contrast else max(SS, round(px))
    inset = 0
    outline_colour: RGB = (0, 0, 0) if contrast else mix(hue, (30, 24, 20), 0.7)
    draw.rounded_rectangle((inset, inset, W - 1 - inset, H - 1 - inset), radius,
                           fill=(*outline_colour, 255))
    body_box = (edge, edge, W - 1 - edge, H - 1 - edge)
    if contrast:
        body = (252, 252, 248)
        draw.rounded_rectangle(body_box, max(1, radius - edge), fill=(*body, 255))
        tint = mix(hue, (255, 255, 255), 0.3)
        step = max(SS * 2, round(3 * SS * unit * 1.4))
        pat = pattern_mask(colour, (W, H), step, SS)
        inner = Image.new("L", (W, H), 0)
        ImageDraw.Draw(inner).rounded_rectangle(body_box, max(1, radius - edge), fill=255)
        pat = Image.composite(pat, Image.new("L", (W, H), 0), inner)
        big.paste(Image.new("RGBA", (W, H), (*tint, 255)), (0, 0), pat)
    else:
        # Glazed ceramic: a pale tint of the hue, lighter at the top, with a bevel.
        top, bottom = mix(hue, (255, 252, 240), 0.82), mix(hue, (250, 240, 220), 0.62)
        grad = Image.new("RGBA", (W, H))
        gdraw = ImageDraw.Draw(grad)
        for y in range(H):
            gdraw.line((0, y, W, y), fill=(*mix(top, bottom, y / H), 255))
        inner = Image.new("L", (W, H), 0)
        ImageDraw.Draw(inner).rounded_rectangle(body_box, max(1, radius - edge), fill=255)
        big.paste(grad, (0, 0), inner)
        bevel = max(SS, round(1.6 * px))
        light = Image.new("L", (W, H), 0)
        ldraw = ImageDraw.Draw(light)
        ldraw.rounded_rectangle(body_box, max(1, radius - edge), fill=255)
        ldraw.rounded_rectangle((edge + bevel, edge + bevel, W - 1 - edge, H - 1 - edge),
                                max(1, radius - edge), fill=0)
        big.paste(Image.new("RGBA", (W, H), (255, 255, 255, 255)), (0, 0), light)
        dark = Image.new("L", (W, H), 0)
        ddraw = ImageDraw.Draw(dark)
        ddraw.rounded_rectangle(body_box, max(1, radius - edge), fill=255)
        ddraw.rounded_rectangle((edge, edge, W - 1 - edge - bevel, H - 1 - edge - bevel),
                                max(1, radius - edge), fill=0)
        big.paste(Image.new("RGBA", (W, H), (*mix(hue, (40, 30, 20), 0.55), 255)), (0, 0),
                  dark)
    # The symbol.
    cx, cy = W / 2, H / 2
    # As large as the tile's width allows: the symbol is what the player reads.
    r = (W - 2 * edge) * (0.42 if unit < 1 else 0.36)
    r = min(r, (H - 2 * edge) * 0.3)
    poly = shape_polygon(shape, cx, cy, r)
    ring = max(SS, round((1.6 if contrast else 1.0) * px * (1.6 if unit < 1 else 1)))
    draw = ImageDraw.Draw(big)
    if shape == 0:
        draw.ellipse((cx - r - ring, cy - r - ring, cx + r + ring, cy + r + ring),
                     fill=(0, 0, 0, 255) if contrast else (*mix(hue, (20, 10, 10), 0.65), 255))
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=(*hue, 255))
    else:
        draw.polygon(grow(poly, cx, cy, ring * 1.3),
                     fill=(0, 0, 0, 255) if contrast else (*mix(hue, (20, 10, 10), 0.65), 255))
        draw.polygon(poly, fill=(*hue, 255))
    if not contrast:
        # A small glint so the symbol reads as enamel rather than a flat sticker.
        g = r * 0.28
        gx, gy = cx - r * 0.35, cy - r * 0.35
        if shape == 1:
            gy = cy
        draw.ellipse((gx - g, gy - g * 0.7, gx + g, gy + g * 0.7),
                     fill=(*mix(hue, (255, 255, 255), 0.6), 255))
    return finish(big, (w, h))


def lift(tile: Image.Image, unit: float) -> tuple[Image.Image, tuple[int, int]]:
    """The tile raised off the board: a dithered shadow falls below and to the right.

    Returns the picture and its anchor relative to the cell's top-left.
    """
    up = (round(2 * unit), round(4 * unit))  # how far the tile rises (up-left)
    fall = (round(3 * unit) + up[0], round(4 * unit) + up[1])  # shadow offset from the tile
    w, h = tile.size
    out = Image.new("RGBA", (w + fall[0], h + fall[1]), (0, 0, 0, 0))
    shadow_alpha = tile.getchannel("A")
    dither = Image.new("L", out.size, 0)
    for y in range(out.size[1]):
        for x in range(out.size[0]):
            if (x + y) % 2 == 0:
                dither.putpixel((x, y), 255)
    placed = Image.new("L", out.size, 0)
    placed.paste(shadow_alpha, fall)
    mask = Image.composite(dither, Image.new("L", out.size, 0), placed)
    out.paste(Image.new("RGBA", out.size, (16, 12, 8, 255)), (0, 0), mask)
    out.alpha_composite(tile, (0, 0))
    return out, (-up[0], -up[1])


# ---------------------------------------------------------------- boards


def noise_texture(size: tuple[int, int], base: RGB, spread: int, seed: int,
                  blur: float) -> Image.Image:
    """A mottled stone-like surface: seeded noise, blurred, around `base`."""
    rng = random.Random(seed)
    w, h = size
    small = Image.new("L", (max(1, w // 2), max(1, h // 2)))
    small.putdata([rng.randint(0, 255) for _ in range(small.size[0] * small.size[1])])
    field = small.resize(size, Image.Resampling.BICUBIC).filter(ImageFilter.GaussianBlur(blur))
    lo = tuple(max(0, c - spread) for c in base)
    hi = tuple(min(255, c + spread) for c in base)
    lut = []
    for channel in range(3):
        lut += [round(lo[channel] + (hi[channel] - lo[channel]) * v / 255) for v in range(256)]
    return Image.merge("RGB", (field, field, field)).point(lut)


def wood_texture(size: tuple[int, int], base: RGB, seed: int) -> Image.Image:
    """Straight-grained wood: bands of varying width and shade along x."""
    rng = random.Random(seed)
    w, h = size
    out = Image.new("RGB", size)
    draw = ImageDraw.Draw(out)
    x = 0.0
    shades = []
    while x < w + 10:
        width = rng.uniform(1.5, 6) * (w / 288)
        shades.append((x, width, rng.uniform(-22, 14)))
        x += width
    for y in range(h):
        wobble = math.sin(y / h * math.pi * 3 + seed) * 2.2 * (w / 288)
        for x0, width, shade in shades:
            c = tuple(max(0, min(255, round(v + shade))) for v in base)
            draw.line((x0 + wobble, y, x0 + wobble + width, y), fill=c)
    return out.filter(ImageFilter.GaussianBlur(0.5 * w / 288))


BoardStyle = dict[str, object]

BOARD_STYLES: dict[str, BoardStyle] = {
    "square": {"name": "Jade Board", "surface": "stone", "base": (46, 104, 92),
               "edge": (70, 86, 70), "centre": (198, 160, 72), "groove": (18, 40, 36),
               "text": (240, 236, 214)},
    "tall": {"name": "Walnut Board", "surface": "wood", "base": (112, 74, 44),
             "edge": (84, 54, 32), "centre": (214, 178, 96), "groove": (42, 26, 14),
             "text": (250, 238, 210)},
    "wide": {"name": "Slate Board Wide", "surface": "stone", "base": (62, 74, 96),
             "edge": (46, 54, 72), "centre": (196, 166, 92), "groove": (20, 24, 34),
             "text": (232, 236, 246)},
}
# A second board per configuration, so that Preferences offers a real choice everywhere:
# folder suffix -> (slot, style, seed). The first three are the defaults above.
EXTRA_BOARDS: dict[str, tuple[str, BoardStyle, int]] = {
    "square-cherry": ("square", {
        "name": "Cherry Board", "surface": "wood", "base": (134, 60, 44),
        "edge": (100, 42, 30), "centre": (226, 190, 110), "groove": (50, 18, 12),
        "text": (252, 236, 214)}, 51),
    "tall-granite": ("tall", {
        "name": "Granite Board", "surface": "stone", "base": (96, 96, 100),
        "edge": (70, 70, 76), "centre": (206, 172, 86), "groove": (30, 30, 34),
        "text": (244, 244, 240)}, 63),
    "wide-oak": ("wide", {
        "name": "Oak Board Wide", "surface": "wood", "base": (150, 112, 64),
        "edge": (118, 84, 46), "centre": (70, 46, 22), "groove": (64, 42, 20),
        "text": (255, 246, 226)}, 77),
}


def rgb(value: object) -> RGB:
    assert isinstance(value, tuple) and len(value) == 3
    return (int(value[0]), int(value[1]), int(value[2]))


def surface(style: BoardStyle, size: tuple[int, int], seed: int) -> Image.Image:
    base = rgb(style["base"])
    if style["surface"] == "wood":
        return wood_texture(size, base, seed)
    return noise_texture(size, base, 18, seed, blur=max(0.6, size[0] / 240))


def draw_board(style: BoardStyle, cell: tuple[int, int], seed: int) -> Image.Image:
    """12x8 cells: engraved grid, a tinted outer ring, and the gilded centre four."""
    cw, ch = cell
    w, h = 12 * cw, 8 * ch
    unit = ch / 40
    img = surface(style, (w, h), seed)
    edge_tint = surface({**style, "base": style["edge"]}, (w, h), seed + 1)
    centre = rgb(style["centre"])
    ring = Image.new("L", (w, h), 0)
    rdraw = ImageDraw.Draw(ring)
    for r in range(8):
        for c in range(12):
            if r in (0, 7) or c in (0, 11):
                rdraw.rectangle((c * cw, r * ch, c * cw + cw - 1, r * ch + ch - 1), fill=255)
    img.paste(edge_tint, (0, 0), ring)
    draw = ImageDraw.Draw(img)
    # The four centre cells, where the game's inner two starting tiles go.
    inset = max(1, round(2 * unit))
    x0, y0 = 5 * cw, 3 * ch
    draw.rectangle((x0 + inset, y0 + inset, x0 + 2 * cw - 1 - inset, y0 + 2 * ch - 1 - inset),
                   outline=centre, width=max(1, round(unit)))
    groove = rgb(style["groove"])
    highlight = mix(rgb(style["base"]), (255, 255, 255), 0.25)
    for r in range(8):
        for c in range(12):
            left, top = c * cw, r * ch
            right, bottom = left + cw - 1, top + ch - 1
            # Engraved cell: dark on the top/left edge, light on the bottom/right.
            draw.line((left, top, right, top), fill=groove)
            draw.line((left, top, left, bottom), fill=groove)
            draw.line((left + 1, bottom, right, bottom), fill=highlight)
            draw.line((right, top + 1, right, bottom), fill=highlight)
            if (r, c) in ((0, 0), (0, 11), (7, 0), (7, 11)):
                # Corner start cells: a small gilded dot in the middle.
                d = max(1, round(2 * unit))
                mx, my = left + cw // 2, top + ch // 2
                draw.ellipse((mx - d, my - d, mx + d, my + d), fill=centre)
    # Centre start cells get the same dot.
    for r, c in ((3, 5), (4, 6)):
        d = max(1, round(2 * unit))
        mx, my = c * cw + cw // 2, r * ch + ch // 2
        draw.ellipse((mx - d, my - d, mx + d, my + d), fill=centre)
    return img.convert("RGBA")


def draw_cell_mark(cell: tuple[int, int], colour: RGB) -> Image.Image:
    """Corner brackets around a cell, transparent inside: marks the selected legal cell."""
    cw, ch = cell
    unit = ch / 40
    img = Image.new("RGBA", (cw, ch), (0, 0, 0, 0))
    draw = ImageDraw.Draw(img)
    t = max(1, round(2 * unit))
    arm_x, arm_y = max(2, cw // 3), max(3, ch // 4)
    dark = (0, 0, 0, 255)
    for sx, sy in ((0, 0), (1, 0), (0, 1), (1, 1)):
        x = 0 if sx == 0 else cw - t
        y = 0 if sy == 0 else ch - t
        ax = 0 if sx == 0 else cw - arm_x
        ay = 0 if sy == 0 else ch - arm_y
        draw.rectangle((ax, y, ax + arm_x - 1, y + t - 1), fill=(*colour, 255))
        draw.rectangle((x, ay, x + t - 1, ay + arm_y - 1), fill=(*colour, 255))
    # A thin dark inner line keeps the mark visible on light tiles and boards.
    if t > 1:
        for sx, sy in ((0, 0), (1, 0), (0, 1), (1, 1)):
            x = t if sx == 0 else cw - t - 1
            y = t if sy == 0 else ch - t - 1
            ax = t if sx == 0 else cw - arm_x
            ay = t if sy == 0 else ch - arm_y
            draw.line((ax, y, ax + arm_x - t - 1, y), fill=dark)
            draw.line((x, ay, x, ay + arm_y - t - 1), fill=dark)
    return img


def draw_panel(style: BoardStyle, size: tuple[int, int], seed: int) -> Image.Image:
    """The strip beside or below the board: the board's material, darker. No frame, so
    that the game can also use it for the margins beside Tall's board without seams."""
    darker = {**style, "base": mix(rgb(style["base"]), (0, 0, 0), 0.35)}
    return surface(darker, size, seed).convert("RGBA")


# ---------------------------------------------------------------- sounds



def bell(freq: float, t: float) -> float:
    """An inharmonic bell partial mix (chime-like)."""
    return (math.sin(2 * math.pi * freq * t) + 0.45 * math.sin(2 * math.pi * freq * 2.76 * t)
            * math.exp(-t * 6) + 0.25 * math.sin(2 * math.pi * freq * 5.4 * t) * math.exp(-t * 12))


def place_sound() -> list[float]:
    rng = random.Random(1)
    def voice(t: float) -> float:
        knock = math.sin(2 * math.pi * 740 * t) * env(t, 0.001, 0.018)
        body = math.sin(2 * math.pi * 310 * t) * env(t, 0.002, 0.035) * 0.6
        tick = (rng.random() * 2 - 1) * env(t, 0.0005, 0.004) * 0.5
        return 0.8 * (knock + body + tick)
    return synth(0.12, voice)


def fourway_sound() -> list[float]:
    notes = [(0.0, 1046.5), (0.09, 1318.5), (0.18, 1568.0), (0.27, 2093.0)]
    def voice(t: float) -> float:
        v = 0.0
        for start, f in notes:
            if t >= start:
                v += bell(f, t - start) * env(t - start, 0.003, 0.28) * 0.3
        return v
    return synth(1.0, voice)


def illegal_sound() -> list[float]:
    def voice(t: float) -> float:
        square = sum(math.sin(2 * math.pi * k * 116 * t) / k for k in (1, 3, 5, 7))
        square2 = sum(math.sin(2 * math.pi * k * 123 * t) / k for k in (1, 3, 5, 7))
        gate = 1.0 if t < 0.2 else max(0.0, 1 - (t - 0.2) / 0.04)
        return 0.32 * (square + square2) * gate * min(1.0, t / 0.005)
    return synth(0.25, voice)


def game_over_sound() -> list[float]:
    notes = [(0.0, 392.0), (0.28, 311.1), (0.56, 261.6)]
    def voice(t: float) -> float:
        v = 0.0
        for start, f in notes:
            if t >= start:
                u = t - start
                tri = 2 / math.pi * math.asin(math.sin(2 * math.pi * f * u))
                vib = 1 + 0.004 * math.sin(2 * math.pi * 5 * u)
                tri = 2 / math.pi * math.asin(math.sin(2 * math.pi * f * vib * u))
                v += tri * env(u, 0.01, 0.35 if start < 0.5 else 0.7) * 0.45
        return v
    return synth(1.6, voice)


def all_placed_sound() -> list[float]:
    run = [(0.0, 523.3), (0.12, 659.3), (0.24, 784.0), (0.36, 1046.5)]
    chord = [523.3, 659.3, 784.0, 1046.5]
    def voice(t: float) -> float:
        v = 0.0
        for start, f in run:
            if start <= t < start + 0.16:
                u = t - start
                v += (math.sin(2 * math.pi * f * u) + 0.3 * math.sin(4 * math.pi * f * u)) \
                    * env(u, 0.005, 0.12) * 0.5
        if t >= 0.5:
            u = t - 0.5
            for f in chord:
                v += (math.sin(2 * math.pi * f * u) + 0.25 * math.sin(4 * math.pi * f * u)
                      + 0.1 * math.sin(6 * math.pi * f * u)) * env(u, 0.02, 0.5) * 0.2
        return v
    return synth(1.8, voice)


# The second set, "Marimba Sounds": wooden bars instead of bells.


def marimba(freq: float, t: float) -> float:
    """A struck wooden bar: the fundamental, its 4th partial fading fast, a soft knock."""
    return (math.sin(2 * math.pi * freq * t) * env(t, 0.002, 0.16)
            + 0.35 * math.sin(2 * math.pi * freq * 4 * t) * env(t, 0.001, 0.03)
            + 0.2 * math.sin(2 * math.pi * freq * 10 * t) * env(t, 0.0005, 0.006))


def notes_voice(notes: list[tuple[float, float]], gain: float) -> Callable[[float], float]:
    """Marimba notes (start time, frequency) that ring on over each other."""
    def voice(t: float) -> float:
        return sum(marimba(f, t - start) * gain for start, f in notes if t >= start)
    return voice


def marimba_place() -> list[float]:
    return synth(0.15, notes_voice([(0.0, 587.3)], 1.0))


def marimba_fourway() -> list[float]:
    return synth(0.9, notes_voice([(0.0, 523.3), (0.08, 659.3), (0.16, 784.0),
                                   (0.24, 1046.5)], 0.5))


def marimba_illegal() -> list[float]:
    return synth(0.3, notes_voice([(0.0, 196.0), (0.12, 185.0)], 0.8))


def marimba_game_over() -> list[float]:
    return synth(1.4, notes_voice([(0.0, 440.0), (0.25, 349.2), (0.5, 293.7),
                                   (0.75, 220.0)], 0.6))


def marimba_all_placed() -> list[float]:
    run = [(0.1 * i, f) for i, f in enumerate((392.0, 493.9, 587.3, 784.0, 987.8))]
    return synth(1.5, notes_voice([*run, (0.6, 392.0), (0.6, 587.3), (0.6, 784.0)], 0.4))


# ---------------------------------------------------------------- folders

# Tall's picture is the whole app area: the panel below the board and the side margins
# both take from it (see palmish/ishido/view.py).
PANEL_SIZES = {"square": (32, 320), "tall": (320, 460), "wide": (52, 320)}


SCRIPT = "palmish/ishido/make_art.py"  # named in every manifest it writes
PLUGINS = Path(__file__).with_name(GAME_PLUGINS)  # where the folders go by default
TOP_LEVEL = ("game", "kind", "name", "version", "author", "configs", "cell", "anchor",
             "lifted_anchor")


def bitmap_entry(res_id: int, files: dict[int, str], compression: str | None = None
                 ) -> dict[str, object]:
    """One 'Tbmp' family from the 144-dpi PNG; a 72-dpi PNG, when drawn, gives the
    low-density members exactly instead of a scaled-down copy."""
    entry: dict[str, object] = {"id": res_id, "file": files[144]}
    if compression is not None:
        entry["compression"] = compression
    if 72 in files:
        entry["members"] = {"72x16": files[72], "72x8": files[72]}
    return entry


def save(img: Image.Image, path: Path) -> None:
    img.save(path, optimize=True)


def make_pieces(out: Path, folder_name: str, name: str, cell: tuple[int, int],
                configs: list[str], contrast: bool) -> list[Image.Image]:
    folder = out / folder_name
    folder.mkdir(parents=True, exist_ok=True)
    for old in folder.glob("*.png"):
        old.unlink()
    densities = {144: cell}
    if "square" in configs:
        densities[72] = (cell[0] // 2, cell[1] // 2)
    bitmaps: list[dict[str, object]] = []
    lifted_entries: list[dict[str, object]] = []
    anchor: tuple[int, int] = (0, 0)
    sheet_tiles: list[Image.Image] = []
    for colour in range(6):
        for shape in range(6):
            files: dict[int, str] = {}
            lifted_files: dict[int, str] = {}
            for density, (w, h) in densities.items():
                tile = draw_tile(colour, shape, w, h, contrast)
                raised, lifted_anchor = lift(tile, h / 40)
                suffix = "" if density == 144 else "-low"
                fname = f"tile-{colour}{shape}{suffix}.png"
                lname = f"lifted-{colour}{shape}{suffix}.png"
                save(tile, folder / fname)
                save(raised, folder / lname)
                files[density] = fname
                lifted_files[density] = lname
                if density == 144:
                    anchor = lifted_anchor
                    sheet_tiles.append(raised)
                else:
                    sheet_tiles.append(tile)
            tile_id = 6 * colour + shape
            bitmaps.append(bitmap_entry(BITMAP_IDS["tile"] + tile_id, files))
            lifted_entries.append(bitmap_entry(BITMAP_IDS["lifted"] + tile_id, lifted_files))
    info: dict[str, object] = {
        "game": "ishido", "kind": "pieces", "name": name, "version": 1,
        "author": "palmish project", "configs": configs,
        "cell": list(cell), "anchor": [0, 0], "lifted_anchor": list(anchor),
        "colours": COLOUR_NAMES if not contrast else
        ["vermillion/plain", "yellow/h-stripes", "green/v-stripes", "sky/diagonal",
         "blue/dots", "pink/hatched"],
        "shapes": SHAPE_NAMES,
    }
    if not contrast:
        info["default"] = True  # the bundled fallback when nothing is chosen
    write_manifest(folder, info, bitmaps + lifted_entries, [], TOP_LEVEL, SCRIPT)
    return sheet_tiles


def make_board(out: Path, slot: str, extra: str | None = None) -> list[Image.Image]:
    """The default board of a slot, or (`extra`: a key of EXTRA_BOARDS) a second one."""
    if extra is None:
        style, default = BOARD_STYLES[slot], True
        seed = {"square": 11, "tall": 23, "wide": 37}[slot]
        folder = out / f"ishido-board-{slot}"
    else:
        slot, style, seed = EXTRA_BOARDS[extra]
        default = False
        folder = out / f"ishido-board-{extra}"
    folder.mkdir(parents=True, exist_ok=True)
    for old in folder.glob("*.png"):
        old.unlink()
    cell = (34, 40) if slot == "wide" else (24, 40)
    densities = {144: cell}
    if slot == "square":
        densities[72] = (cell[0] // 2, cell[1] // 2)
    board_files: dict[int, str] = {}
    mark_files: dict[int, str] = {}
    panel_files: dict[int, str] = {}
    pictures = []
    for density, c in densities.items():
        suffix = "" if density == 144 else "-low"
        board = draw_board(style, c, seed)
        mark = draw_cell_mark(c, (255, 236, 110))
        pw, ph = PANEL_SIZES[slot]
        if density == 72:
            pw, ph = pw // 2, ph // 2
        panel = draw_panel(style, (pw, ph), seed + 5)
        save(board, folder / f"board{suffix}.png")
        save(mark, folder / f"mark{suffix}.png")
        save(panel, folder / f"panel{suffix}.png")
        board_files[density] = f"board{suffix}.png"
        mark_files[density] = f"mark{suffix}.png"
        panel_files[density] = f"panel{suffix}.png"
        pictures += [board, panel]
    info: dict[str, object] = {
        "game": "ishido", "kind": "board", "name": style["name"], "version": 1,
        "author": "palmish project", "configs": [slot], "cell": list(cell),
        "text_color": list(rgb(style["text"])),
    }
    if default:
        info["default"] = True
    # `best` (the default) keeps the smallest codec per member; for these noisy
    # textures ScanLine mostly, about half PackBits' size. (RLE would double them
    # past what a low-density version 2 bitmap can hold; `best` passes it over.)
    write_manifest(folder, info, [bitmap_entry(BITMAP_IDS["board"], board_files),
                                  bitmap_entry(BITMAP_IDS["cell_mark"], mark_files),
                                  bitmap_entry(BITMAP_IDS["panel"], panel_files)],
                   [], TOP_LEVEL, SCRIPT)
    return pictures


_SOUND_IDS = SCHEMA.sounds
SOUNDS: list[tuple[int, str, Callable[[], list[float]]]] = [
    (_SOUND_IDS["place"], "place", place_sound),
    (_SOUND_IDS["four_way"], "fourway", fourway_sound),
    (_SOUND_IDS["illegal"], "illegal", illegal_sound),
    (_SOUND_IDS["game_over"], "gameover", game_over_sound),
    (_SOUND_IDS["all_placed"], "allplaced", all_placed_sound),
]


MARIMBA: list[tuple[int, str, Callable[[], list[float]]]] = [
    (_SOUND_IDS["place"], "place", marimba_place),
    (_SOUND_IDS["four_way"], "fourway", marimba_fourway),
    (_SOUND_IDS["illegal"], "illegal", marimba_illegal),
    (_SOUND_IDS["game_over"], "gameover", marimba_game_over),
    (_SOUND_IDS["all_placed"], "allplaced", marimba_all_placed),
]


def make_sounds(out: Path, folder_name: str = "ishido-sounds", name: str = "Chimes Sounds",
                sounds: list[tuple[int, str, Callable[[], list[float]]]] = SOUNDS,
                default: bool = True) -> None:
    folder = out / folder_name
    folder.mkdir(parents=True, exist_ok=True)
    entries = write_sounds(folder, sounds, fade_s=0.03)
    info: dict[str, object] = {
        "game": "ishido", "kind": "sound", "name": name, "version": 1,
        "author": "palmish project", "configs": ["square", "tall", "wide"],
    }
    if default:
        info["default"] = True
    write_manifest(folder, info, [], entries, TOP_LEVEL, SCRIPT)


def main(argv: Sequence[str] | None = None) -> int:
    out, sheet = art_arguments(__doc__, argv, PLUGINS)
    pieces = make_pieces(out, "ishido-pieces", "Ceramic Pieces", (24, 40), ["square", "tall"],
                         contrast=False)
    wide = make_pieces(out, "ishido-pieces-wide", "Ceramic Pieces Wide", (34, 40), ["wide"],
                       contrast=False)
    contrast = make_pieces(out, "ishido-pieces-contrast", "High Contrast Pieces", (24, 40),
                           ["square", "tall"], contrast=True)
    # Colour-blind players keep high-contrast pieces when they rotate.
    contrast_wide = make_pieces(out, "ishido-pieces-contrast-wide", "High Contrast Pieces Wide",
                                (34, 40), ["wide"], contrast=True)
    boards = [make_board(out, slot) for slot in ("square", "tall", "wide")]
    boards += [make_board(out, "", extra) for extra in EXTRA_BOARDS]
    make_sounds(out)
    make_sounds(out, "ishido-sounds-marimba", "Marimba Sounds", MARIMBA, default=False)
    if sheet:
        prefix = str(sheet)
        contact_sheet([pieces], Path(prefix + "-pieces.png"))
        contact_sheet([wide], Path(prefix + "-wide.png"))
        contact_sheet([contrast], Path(prefix + "-contrast.png"))
        contact_sheet([contrast_wide], Path(prefix + "-contrast-wide.png"))
        for index, board in enumerate(boards):
            contact_sheet([[board[0]]], Path(f"{prefix}-board-{index}.png"), zoom=1)
        contact_sheet([[b] for b in boards[0]], Path(prefix + "-board-square.png"), zoom=1)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
