"""`prc-tools new GAME KIND FOLDER`: a plugin folder that builds at once.

The manifest is filled in and every picture the kind has (its game's schema,
prc_tools/studio/catalog.py) is a template of the size the game draws for the
slots served: a light fill, the cell grid, the picture's name and size, and the
safe area where the game draws over it, to paint over. Sounds are short beeps.
Building the folder unedited gives a plugin that passes `verify`.
"""

from __future__ import annotations

import array
import io
import math
import sys
import wave
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from prc_tools.atomic import write_atomic
from prc_tools.errors import PluginError
from prc_tools.plugin.build import yaml_text
from prc_tools.plugin.pinf import ANCHOR_KINDS
from prc_tools.schema import Schema
from prc_tools.studio.catalog import (
    Picture,
    Size,
    SoundItem,
    cell_for,
    default_configs,
    pictures,
    slug,
    sounds,
)

GRID = (0, 0, 0, 90)  # cell lines: dark, half seen through
SAFE = (220, 30, 30, 255)  # the safe area's outline
TEXT = (20, 20, 20, 255)
BEEP_RATE = 22050
BEEP_SECONDS = 0.15


def new_folder(schema: Schema, kind: str, folder: Path, configs: tuple[str, ...] = (),
               author: str = "Your Name") -> list[Path]:
    """Write the template folder; PluginError if `folder` is not empty or the kind has
    nothing to draw. Returns the files written, the manifest first."""
    if kind not in schema.types:
        raise PluginError(f"{schema.game} has no kind {kind!r} (one of"
                          f" {', '.join(schema.types)})")
    bad = [c for c in configs if c not in schema.configs]
    if bad:
        raise PluginError(f"{schema.title} plugins do not serve {bad[0]!r} (only"
                          f" {', '.join(schema.configs)})")
    configs = default_configs(schema, kind, configs)
    items = pictures(schema, kind)
    beeps = sounds(schema, kind)
    if not items and not beeps:
        raise PluginError(f"{schema.game} {kind}: the schema lists no pictures or sounds for it"
                          " (nothing to make a template of)")
    if folder.exists() and (not folder.is_dir() or any(folder.iterdir())):
        raise PluginError(f"{folder}: already exists and is not an empty folder")
    cell = cell_for(schema, kind, configs)
    # A picture whose size the schema does not give has no template, and so no line in
    # the manifest either (a line without its file would not build).
    items = [item for item in items if item.size(cell) is not None]
    manifest = _manifest(schema, kind, configs, cell, author, items, beeps)
    written = [folder / "manifest.yaml"]
    folder.mkdir(parents=True, exist_ok=True)
    write_atomic(written[0], manifest.encode("utf-8"))
    for item in items:
        size = item.size(cell)
        assert size is not None  # kept above
        path = folder / _file(item)
        path.parent.mkdir(parents=True, exist_ok=True)
        write_atomic(path, _png(template(schema, item, size, cell)))
        written.append(path)
    for index, beep in enumerate(beeps):
        path = folder / "sounds" / f"{slug(beep.name)}.wav"
        path.parent.mkdir(parents=True, exist_ok=True)
        write_atomic(path, beep_wav(440.0 * 2 ** (index / 4)))
        written.append(path)
    return written


def _file(item: Picture) -> str:
    return f"{item.folder}/{item.stem}.png" if item.folder else f"{item.stem}.png"


def _manifest(schema: Schema, kind: str, configs: tuple[str, ...], cell: Size | None,
              author: str, items: list[Picture], beeps: list[SoundItem]) -> str:
    name = f"My {kind.title()}"
    for slot in configs if cell is not None else ():  # Board and Pieces only
        word = schema.config_names.get(slot)
        if word is not None and word not in name:
            name += f" {word}"
    lines = [
        f"# A {schema.title} {kind} plugin made by `prc-tools new` (docs/making-plugins.md).",
        "# Paint over the pictures (keep their sizes), then: prc-tools build FOLDER -o OUT.prc",
        yaml_text({"name": name, "game": schema.game, "kind": kind, "version": 1,
                   "author": author, "configs": list(configs)}).rstrip("\n"),
    ]
    if cell is not None:
        lines.append(f"cell: [{cell[0]}, {cell[1]}]         # the cell the game draws: keep it")
    if kind in ANCHOR_KINDS:
        lines.append("anchor: [0, 0]             # a piece's top-left against its cell's")
    if items:
        lines.append("bitmaps:")
        for item in items:
            why = "" if item.required else "   # optional: delete the line to leave it out"
            lines.append(f"  - {{file: {_file(item)}, id: {item.id}}}{why}")
    if beeps:
        lines.append("sounds:")
        for beep in beeps:
            lines.append(f"  - {{file: sounds/{slug(beep.name)}.wav, id: {beep.name}}}")
    return "\n".join(lines) + "\n"


def template(schema: Schema, item: Picture, size: Size, cell: Size | None) -> Image.Image:
    """The picture to paint over: fill, grid, name, size and safe area."""
    hue = (item.id * 47) % 360
    fill = _pastel(hue)
    image = Image.new("RGB", size, fill[:3])  # opaque: nothing vanishes on the device
    draw = ImageDraw.Draw(image, "RGBA")
    w, h = size
    if cell is not None and (w > cell[0] or h > cell[1]):
        for x in range(cell[0], w, cell[0]):
            draw.line([(x, 0), (x, h - 1)], fill=GRID)
        for y in range(cell[1], h, cell[1]):
            draw.line([(0, y), (w - 1, y)], fill=GRID)
    draw.rectangle([0, 0, w - 1, h - 1], outline=(0, 0, 0, 160))
    safe = item.rule.safe
    if safe is not None and w > safe[0] + safe[2] and h > safe[1] + safe[3]:
        _dashed(draw, (safe[0], safe[1], w - 1 - safe[2], h - 1 - safe[3]))
    words = [item.name.removeprefix("the "), f"{w}x{h}"]
    _label(draw, words, size)
    return image.convert("RGBA")


def _pastel(hue: int) -> tuple[int, int, int, int]:
    import colorsys

    r, g, b = colorsys.hls_to_rgb(hue / 360, 0.82, 0.55)
    return round(r * 255), round(g * 255), round(b * 255), 255


def _dashed(draw: ImageDraw.ImageDraw, box: tuple[int, int, int, int]) -> None:
    left, top, right, bottom = box
    for x in range(left, right + 1, 4):
        draw.line([(x, top), (min(x + 1, right), top)], fill=SAFE)
        draw.line([(x, bottom), (min(x + 1, right), bottom)], fill=SAFE)
    for y in range(top, bottom + 1, 4):
        draw.line([(left, y), (left, min(y + 1, bottom))], fill=SAFE)
        draw.line([(right, y), (right, min(y + 1, bottom))], fill=SAFE)


def _label(draw: ImageDraw.ImageDraw, words: list[str], size: Size) -> None:
    """The name and size, as large as fits; initials on a picture too small for words."""
    w, h = size
    for points in (14, 11, 9, 7):
        font = ImageFont.load_default(points)
        boxes = [draw.textbbox((0, 0), text, font=font) for text in words]
        if all(b[2] - b[0] <= w - 4 for b in boxes) and sum(b[3] - b[1] + 2 for b in boxes) <= h:
            y = (h - sum(b[3] - b[1] + 2 for b in boxes)) // 2
            for text, box in zip(words, boxes, strict=True):
                draw.text(((w - (box[2] - box[0])) // 2 - box[0], y - box[1]), text,
                          fill=TEXT, font=font)
                y += box[3] - box[1] + 2
            return
    initial = "".join(word[0] for word in words[0].split()[:2]).upper()
    font = ImageFont.load_default(max(6, min(w, h) * 2 // 3))
    box = draw.textbbox((0, 0), initial, font=font)
    draw.text(((w - (box[2] - box[0])) // 2 - box[0], (h - (box[3] - box[1])) // 2 - box[1]),
              initial, fill=TEXT, font=font)


def _png(image: Image.Image) -> bytes:
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=True)
    return out.getvalue()


def beep_wav(pitch: float) -> bytes:
    """A short sine beep (mono, 16-bit, 22050 Hz) with soft ends, as a WAV file."""
    frames = int(BEEP_RATE * BEEP_SECONDS)
    fade = frames // 10
    samples = array.array("h", (
        int(12000 * min(1.0, i / fade, (frames - i) / fade)
            * math.sin(2 * math.pi * pitch * i / BEEP_RATE))
        for i in range(frames)))
    if sys.byteorder == "big":
        samples.byteswap()  # WAV samples are little-endian
    out = io.BytesIO()
    with wave.open(out, "wb") as writer:
        writer.setnchannels(1)
        writer.setsampwidth(2)
        writer.setframerate(BEEP_RATE)
        writer.writeframes(samples.tobytes())
    return out.getvalue()
