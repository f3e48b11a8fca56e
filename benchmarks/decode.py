"""Decoding one Palm bitmap: prc_tools (C speedups and pure Python) against netpbm's palmtopnm.

    .venv/bin/python benchmarks/decode.py [--size WxH] [--rounds N] [--depths 2,4] [--codecs rle]
                                          [--picture art|photo|noise|flat|lines]

For every depth (1, 2, 4, 8, 16 bits) and codec (none, ScanLine, RLE, PackBits) one
bitmap of a picture is encoded by prc_tools, then decoded to an RGBA image in
this process: with the C speedups, and with PRC_TOOLS_PURE=1's code (both paths
are always loaded here; the pure path is what runs when the C module is not
built). The pictures: "art" (the default: flat shapes over a gradient, edges,
2% white noise), "photo" (smooth colour fields with mild noise everywhere),
"noise" (every pixel random), "flat" (a few large flat shapes) and "lines"
(thin dark lines and text-like strokes on white).

palmtopnm's time is a whole run of the program on the same bytes in a file:
process start, reading the file, decoding, converting to PNM and writing it to
/dev/null. Its net time takes away, round by round, a run on a 1x1 bitmap
(process start and a trivial decode): the quicker of two, one at the start and
one at the end of the same round. prc_tools' time is
bytes in memory to a Pillow RGBA image; 1600x1600 keeps even the quickest
decode well above the jitter of a process start.

The rounds are interleaved (each round runs every case, C, pure and palmtopnm
one after the other), so a change in the machine's load weighs on every column
alike, and each ratio is taken within a round. Both wall-clock and CPU time are
taken (the process's own for prc_tools, the child's for palmtopnm, net of the
start's alike): on a shared machine the CPU ratio is the steadier one. Printed:
best wall-clock times, the pure/palmtopnm ratio's median over the rounds (wall
and CPU), its CPU range, and the C path's CPU ratio.
"""

from __future__ import annotations

import argparse
import math
import random
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

from PIL import Image, ImageDraw

_HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(_HERE.parent))  # the tree this script is in

from prc_tools import bitmap, speedups  # noqa: E402

DEPTHS = (1, 2, 4, 8, 16)
CODECS = ("none", "scanline", "rle", "packbits")


def picture(width: int, height: int, seed: int = 7) -> Image.Image:
    """Flat shapes over a gradient, with a sprinkle of noise: what plugin art looks like."""
    rng = random.Random(seed)
    image = Image.linear_gradient("L").resize((width, height)).convert("RGB")
    draw = ImageDraw.Draw(image)
    for _ in range(40):
        x, y = rng.randrange(width), rng.randrange(height)
        w, h = rng.randrange(8, width // 3), rng.randrange(8, height // 3)
        colour = tuple(rng.randrange(256) for _ in range(3))
        if rng.random() < 0.5:
            draw.rectangle((x, y, x + w, y + h), fill=colour)
        else:
            draw.ellipse((x, y, x + w, y + h), fill=colour, outline=(0, 0, 0))
    pixels = image.load()
    assert pixels is not None
    for _ in range(width * height // 50):
        pixels[rng.randrange(width), rng.randrange(height)] = (255, 255, 255)
    return image


def photo(width: int, height: int, seed: int = 7) -> Image.Image:
    """Smooth colour fields with mild noise on every pixel, as a photograph has."""
    rng = random.Random(seed)
    bands = [Image.linear_gradient("L").rotate(rng.randrange(360)).resize((width, height))
             for _ in range(3)]
    smooth = Image.merge("RGB", bands)
    grain = Image.effect_noise((width, height), 24).convert("RGB")
    return Image.blend(smooth, grain, 0.15)


def noise(width: int, height: int, seed: int = 7) -> Image.Image:
    """Every pixel random: the worst case of every codec."""
    pixels = random.Random(seed).randbytes(width * height * 3)
    return Image.frombytes("RGB", (width, height), pixels)


def flat(width: int, height: int, seed: int = 7) -> Image.Image:
    """A few large flat shapes on one colour: what simple icons and panels are."""
    rng = random.Random(seed)
    image = Image.new("RGB", (width, height), (40, 90, 160))
    draw = ImageDraw.Draw(image)
    for _ in range(8):
        x, y = rng.randrange(width), rng.randrange(height)
        colour = tuple(rng.randrange(256) for _ in range(3))
        draw.rectangle((x, y, x + width // 3, y + height // 4), fill=colour)
    return image


def lines(width: int, height: int, seed: int = 7) -> Image.Image:
    """Thin dark lines and short strokes on white, as line art and text are."""
    rng = random.Random(seed)
    image = Image.new("RGB", (width, height), (255, 255, 255))
    draw = ImageDraw.Draw(image)
    for _ in range(width // 4):
        x, y = rng.randrange(width), rng.randrange(height)
        dx, dy = rng.randrange(-width // 4, width // 4), rng.randrange(-height // 4, height // 4)
        draw.line((x, y, x + dx, y + dy), fill=(0, 0, 0), width=rng.choice((1, 1, 2)))
    for y in range(0, height, 24):  # rows of text-like strokes
        for x in range(8, width - 8, 9):
            if rng.random() < 0.7:
                draw.rectangle((x, y + rng.randrange(4), x + 5, y + 12), outline=(20, 20, 20))
    return image


PICTURES: dict[str, Callable[[int, int], Image.Image]] = {
    "art": picture, "photo": photo, "noise": noise, "flat": flat, "lines": lines,
}


Timing = tuple[float, float]  # (wall-clock, CPU) seconds


def timed(work: Callable[[], object]) -> Timing:
    wall, cpu = time.perf_counter(), time.process_time()
    work()
    return time.perf_counter() - wall, time.process_time() - cpu


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run_tool(tool: str, path: Path) -> Timing:
    wall, cpu = time.perf_counter(), _children_cpu()
    subprocess.run([tool, str(path)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                   check=True)
    return time.perf_counter() - wall, _children_cpu() - cpu


def _ratios(ours: list[Timing], ref: list[Timing], kind: int) -> list[float]:
    return sorted(o[kind] / max(r[kind], 1e-6) for o, r in zip(ours, ref, strict=True))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", default="1600x1600")
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--depths", default=",".join(map(str, DEPTHS)),
                        help="comma-separated bits per pixel (default: all)")
    parser.add_argument("--codecs", default=",".join(CODECS),
                        help="comma-separated codecs (default: all)")
    parser.add_argument("--picture", choices=sorted(PICTURES), default="art",
                        help="what the bitmap shows (default: art)")
    args = parser.parse_args()
    width, height = (int(n) for n in args.size.split("x"))
    depths = [int(d) for d in args.depths.split(",")]
    codecs = args.codecs.split(",")
    native = speedups.built()
    tool = shutil.which("palmtopnm")
    if tool is None:
        print("palmtopnm (netpbm) is not installed: nothing to compare with")
        return 1
    source = PICTURES[args.picture](width, height)
    print(f"{args.picture} picture {width}x{height}, {args.rounds} interleaved rounds; C speedups "
          f"{'built' if native else 'NOT built'}")
    with tempfile.TemporaryDirectory() as name:
        tmp = Path(name)
        tiny = tmp / "tiny.bmp"
        tiny.write_bytes(bitmap.encode(Image.new("RGB", (1, 1)), depth=8, density=72,
                                       compression="none"))
        cases = []
        for depth in depths:
            for codec in codecs:
                data = bitmap.encode(source, depth=depth, density=72, compression=codec)
                path = tmp / f"{depth}-{codec}.bmp"
                path.write_bytes(data)
                cases.append((depth, codec, data, path))
        times: dict[tuple[int, str, str], list[Timing]] = {}
        for _ in range(args.rounds):
            runs: dict[tuple[int, str], Timing] = {}
            start_before = run_tool(tool, tiny)
            for depth, codec, data, path in cases:
                for label, chosen in (("c", native), ("pure", None)):
                    if label == "c" and native is None:
                        continue
                    speedups.native = chosen
                    times.setdefault((depth, codec, label), []).append(
                        timed(partial(bitmap.decode, data)))
                runs[(depth, codec)] = run_tool(tool, path)
            # The quicker of two starts, one before and one after the round's cases.
            start_after = run_tool(tool, tiny)
            start = (min(start_before[0], start_after[0]), min(start_before[1], start_after[1]))
            for key, (wall, cpu) in runs.items():
                times.setdefault((*key, "palmtopnm"), []).append((wall - start[0], cpu - start[1]))
        speedups.native = native
    header = ("depth", "codec", "C best", "pure best", "palmtopnm net", "pure/ref wall",
              "pure/ref CPU", "CPU range", "C/ref CPU")
    print("  ".join(f"{h:>13}" for h in header))
    worst_wall = worst_cpu = worst_c = 0.0
    for depth, codec, _data, _path in cases:
        pure = times[(depth, codec, "pure")]
        ref = times[(depth, codec, "palmtopnm")]
        c = times.get((depth, codec, "c"), [(math.nan, math.nan)] * len(pure))
        walls, cpus = _ratios(pure, ref, 0), _ratios(pure, ref, 1)
        worst_wall = max(worst_wall, statistics.median(walls))
        worst_cpu = max(worst_cpu, statistics.median(cpus))
        c_cpu = statistics.median(_ratios(c, ref, 1))
        worst_c = max(worst_c, c_cpu) if not math.isnan(c_cpu) else worst_c
        cells = (str(depth), codec, f"{min(t[0] for t in c) * 1000:.2f} ms",
                 f"{min(t[0] for t in pure) * 1000:.2f} ms",
                 f"{min(t[0] for t in ref) * 1000:.2f} ms",
                 f"x{statistics.median(walls):.2f}", f"x{statistics.median(cpus):.2f}",
                 f"x{cpus[0]:.2f}-{cpus[-1]:.2f}", f"x{c_cpu:.2f}")
        print("  ".join(f"{cell:>13}" for cell in cells))
    # The goals (docs/bitmap-format.md, "Speed"): the pure path within x3 of palmtopnm
    # on every row of the art picture, the C path at most x1.5.
    print(f"worst median pure/palmtopnm: x{worst_wall:.2f} wall-clock, x{worst_cpu:.2f} CPU"
          f" (goal: at most x3 on every row); C/palmtopnm CPU: x{worst_c:.2f}"
          " (goal: at most x1.5)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
