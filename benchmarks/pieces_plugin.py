"""prc_tools on a complete PalmIshido Pieces plugin: build, decode, size against pnmtopalm.

Measures (median and range over --runs runs):
  1. building the plugin (36 tiles + 36 lifted tiles, 144 and 72 dpi, 16 and 8 bpp)
     from a folder of generated PNGs,
  2. reading the database and decoding every bitmap member,
  3. the size of our bitmaps against the same pixels compressed by netpbm's
     pnmtopalm with its best option per member (smallest of none, scanline, rle,
     packbits): the ratio ours / pnmtopalm should be at most 1.0.

Run: .venv/bin/python benchmarks/pieces_plugin.py [--runs N]
"""

from __future__ import annotations

import argparse
import io
import math
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from _shared import ms_span
from PIL import Image, ImageDraw, ImageFilter

from prc_tools import Database, bitmap, plugin

COLOURS = [(210, 40, 40), (230, 190, 20), (40, 160, 70), (20, 170, 200), (50, 70, 210),
           (180, 50, 170)]
CELL = (24, 40)
LIFTED = (28, 44)
KEY = (255, 0, 255)  # pnmtopalm's transparent colour; a Palm system palette entry
MANIFEST = """\
name: Benchmark Pieces
game: ishido
kind: pieces
author: benchmark
configs: [square, tall]
cell: [24, 40]
lifted_anchor: [-2, -2]
bitmaps:
  - {pattern: "tiles/{colour}-{shape}.png", id: tile}
  - {pattern: "lifted/{colour}-{shape}.png", id: lifted}
"""


def draw_tile(colour: int, shape: int, lifted: bool) -> Image.Image:
    """A bevelled tile with a symbol; lifted ones are bigger and carry a soft shadow."""
    width, height = LIFTED if lifted else CELL
    image = Image.new("RGBA", (width, height), (0, 0, 0, 0))
    if lifted:
        shadow = Image.new("RGBA", (width, height), (0, 0, 0, 0))
        ImageDraw.Draw(shadow).rounded_rectangle((4, 4, width - 1, height - 1), 4,
                                                 fill=(0, 0, 0, 110))
        image = Image.alpha_composite(image, shadow.filter(ImageFilter.GaussianBlur(1.5)))
    face = Image.new("RGBA", CELL, (0, 0, 0, 0))
    draw = ImageDraw.Draw(face)
    for y in range(CELL[1]):  # vertical gradient: ivory to a warmer shade
        shade = 245 - y
        draw.line((0, y, CELL[0], y), fill=(shade, shade - 8, shade - 25, 255))
    draw.rounded_rectangle((0, 0, CELL[0] - 1, CELL[1] - 1), 3, outline=(90, 80, 60, 255))
    ink = COLOURS[colour] + (255,)
    cx, cy, r = CELL[0] // 2, CELL[1] // 2, 7
    if shape == 0:
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=ink)
    elif shape == 1:
        draw.polygon([(cx, cy - r), (cx + r, cy + r), (cx - r, cy + r)], fill=ink)
    elif shape == 2:
        draw.rectangle((cx - r + 1, cy - r + 1, cx + r - 1, cy + r - 1), fill=ink)
    elif shape == 3:
        draw.polygon([(cx, cy - r - 2), (cx + r, cy), (cx, cy + r + 2), (cx - r, cy)], fill=ink)
    elif shape == 4:
        draw.rectangle((cx - 2, cy - r, cx + 2, cy + r), fill=ink)
        draw.rectangle((cx - r, cy - 2, cx + r, cy + 2), fill=ink)
    else:
        points = []
        for k in range(10):
            radius = r if k % 2 == 0 else r // 2
            angle = math.pi * k / 5 - math.pi / 2
            points.append((cx + radius * math.cos(angle), cy + radius * math.sin(angle)))
        draw.polygon(points, fill=ink)
    image.alpha_composite(face, (0, 0))
    return image


def make_folder(root: Path) -> Path:
    folder = root / "pieces"
    for sub in ("tiles", "lifted"):
        (folder / sub).mkdir(parents=True)
    for colour in range(6):
        for shape in range(6):
            draw_tile(colour, shape, False).save(folder / "tiles" / f"{colour}-{shape}.png")
            draw_tile(colour, shape, True).save(folder / "lifted" / f"{colour}-{shape}.png")
    (folder / "manifest.yaml").write_text(MANIFEST, encoding="utf-8")
    return folder


def run_times(runs: int, work: Callable[[], object]) -> str:
    """`work`'s median time over `runs` runs and their range, in ms."""
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return f"{statistics.median(times) * 1000:8.1f} ms ({ms_span(times)}, {runs} runs)"


def pnmtopalm_best(member: bitmap.Member, tool: str) -> int | None:
    """The smallest pnmtopalm encoding of this member's pixels (None if it never succeeds)."""
    flat = Image.new("RGB", member.image.size, KEY)
    flat.paste(member.image.convert("RGB"), mask=member.image.getchannel("A"))
    buffer = io.BytesIO()
    flat.save(buffer, format="PPM")
    args = ["-depth", str(member.depth)]
    if member.density != 72:
        args += ["-density", str(member.density)]
    if member.transparent:
        args += ["-transparent", "#{:02x}{:02x}{:02x}".format(*KEY)]
    sizes = []
    for codec in ([], ["-scanline_compression"], ["-rle_compression"],
                  ["-packbits_compression"]):
        for _attempt in range(4):  # pnmtopalm's 16-bit mode fails at random
            result = subprocess.run([tool, "-quiet", *args, *codec], input=buffer.getvalue(),
                                    capture_output=True, check=False)
            if result.returncode == 0 and result.stdout:
                sizes.append(len(result.stdout))
                break
            if b"not supported" in result.stderr or b"only" in result.stderr:
                break
    return min(sizes) if sizes else None


def compare_with_pnmtopalm(db: Database) -> tuple[int, int, int] | None:
    tool = shutil.which("pnmtopalm")
    if tool is None:
        return None
    ours = theirs = members_total = 0
    by_kind: dict[tuple[int, int], list[int]] = {}  # (density, depth) -> [ours, theirs]
    for res in db.resources:
        if res.type != "Tbmp":
            continue
        members = bitmap.decode(res.data)
        family = 0
        for member in members:
            size = pnmtopalm_best(member, tool)
            if size is None:
                raise SystemExit(f"pnmtopalm could not encode a {member.depth}-bit member")
            family += (size + 3) // 4 * 4  # members of a family are 4-byte aligned
            members_total += 1
            mine = len(bitmap.encode(member.image, depth=member.depth, density=member.density,
                                     compression="best"))
            totals = by_kind.setdefault((member.density, member.depth), [0, 0])
            totals[0] += mine
            totals[1] += size
        if {m.density for m in members} == {72, 144}:
            family += 16  # the dummy header between low and high density members
        ours += len(res.data)
        theirs += family
    for (density, depth), (mine, other) in sorted(by_kind.items()):
        print(f"  {density:3d} dpi {depth:2d} bpp: ours {mine:7d}  pnmtopalm {other:7d}"
              f"  ratio {mine / other:.3f}  (single bitmaps, unchained)")
    return ours, theirs, members_total


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = make_folder(Path(tmp))
        holder: dict[str, Database] = {}

        def build() -> None:
            holder["db"] = plugin.build_folder(folder)

        build_times = run_times(args.runs, build)
        db = holder["db"]
        data = db.to_bytes()

        def load() -> None:
            loaded = Database.read(data)
            for res in loaded.resources:
                if res.type == "Tbmp":
                    bitmap.decode(res.data)

        load_times = run_times(args.runs, load)
    bitmaps = [r for r in db.resources if r.type == "Tbmp"]
    members = sum(len(bitmap.decode(r.data)) for r in bitmaps)
    print(f"plugin: {len(bitmaps)} bitmaps, {members} members, database {len(data)} bytes")
    print(f"build from PNGs:        {build_times}")
    print(f"load + decode all:      {load_times}")
    compared = compare_with_pnmtopalm(db)
    if compared is None:
        print("pnmtopalm not installed: size comparison skipped")
        return 0
    ours, theirs, count = compared
    print(f"bitmap bytes, ours:     {ours:8d}")
    print(f"pnmtopalm best/member:  {theirs:8d} ({count} members)")
    print(f"ratio ours/pnmtopalm:   {ours / theirs:8.3f}")
    return 0 if ours <= theirs else 1


if __name__ == "__main__":
    sys.exit(main())
