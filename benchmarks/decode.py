"""Decoding one Palm bitmap: prc_tools (C speedups and pure Python) against netpbm's palmtopnm.

    .venv/bin/python benchmarks/decode.py [--size WxH] [--rounds N] [--depths 2,4] [--codecs rle]

For every depth (1, 2, 4, 8, 16 bits) and codec (none, ScanLine, RLE, PackBits) one
bitmap of an art-like picture (flat areas, gradients, edges and some noise) is
encoded by prc_tools, then decoded to an RGBA image in this process: with the C
speedups, and with PRC_TOOLS_PURE=1's code (both paths are always loaded here;
the pure path is what runs when the C module is not built).

palmtopnm's time is a whole run of the program on the same bytes in a file:
process start, reading the file, decoding, converting to PNM and writing it to
/dev/null. Its net time takes away, round by round, a run on a 1x1 bitmap
(process start and a trivial decode): the quicker of two, one at the start and
one at the end of the same round. prc_tools' time is
bytes in memory to a Pillow RGBA image; 1600x1600 keeps even the quickest
decode well above the jitter of a process start.

The rounds are interleaved (each round runs every case, C, pure and palmtopnm
one after the other), so a change in the machine's load weighs on every column
alike, and each ratio is taken within a round: printed are the best times, and
the pure/palmtopnm ratio's median and range over the rounds.
"""

from __future__ import annotations

import argparse
import math
import random
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

# This folder holds benchmarks/prc_tools.py, which would shadow the package.
_HERE = Path(__file__).resolve().parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != _HERE]
sys.path.insert(0, str(_HERE.parent))

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


def timed(work: Callable[[], object]) -> float:
    start = time.perf_counter()
    work()
    return time.perf_counter() - start


def run_tool(tool: str, path: Path) -> float:
    start = time.perf_counter()
    subprocess.run([tool, str(path)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                   check=True)
    return time.perf_counter() - start


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", default="1600x1600")
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--depths", default=",".join(map(str, DEPTHS)),
                        help="comma-separated bits per pixel (default: all)")
    parser.add_argument("--codecs", default=",".join(CODECS),
                        help="comma-separated codecs (default: all)")
    args = parser.parse_args()
    width, height = (int(n) for n in args.size.split("x"))
    depths = [int(d) for d in args.depths.split(",")]
    codecs = args.codecs.split(",")
    native = speedups.built()
    tool = shutil.which("palmtopnm")
    source = picture(width, height)
    print(f"{width}x{height}, {args.rounds} interleaved rounds; C speedups "
          f"{'built' if native else 'NOT built'}; palmtopnm {'found' if tool else 'NOT found'}")
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
        times: dict[tuple[int, str, str], list[float]] = {}
        for _ in range(args.rounds):
            runs: dict[tuple[int, str], float] = {}
            start_before = run_tool(tool, tiny) if tool else 0.0
            for depth, codec, data, path in cases:
                for label, chosen in (("c", native), ("pure", None)):
                    if label == "c" and native is None:
                        continue
                    speedups.native = chosen
                    times.setdefault((depth, codec, label), []).append(
                        timed(partial(bitmap.decode, data)))
                if tool:
                    runs[(depth, codec)] = run_tool(tool, path)
            if tool:
                # The quicker of two starts, one before and one after the round's cases.
                start = min(start_before, run_tool(tool, tiny))
                for key, run in runs.items():
                    times.setdefault((*key, "palmtopnm"), []).append(max(run - start, 1e-6))
        speedups.native = native
    header = ("depth", "codec", "C best", "pure best", "palmtopnm net", "C/ref median",
              "pure/ref median", "pure/ref range")
    print("  ".join(f"{h:>15}" for h in header))
    worst = 0.0
    for depth, codec, _data, _path in cases:
        pure = times[(depth, codec, "pure")]
        c = times.get((depth, codec, "c"), [math.nan] * len(pure))
        ref = times.get((depth, codec, "palmtopnm"), [math.nan] * len(pure))
        pure_ratios = sorted(p / r for p, r in zip(pure, ref, strict=True))
        c_ratios = [t / r for t, r in zip(c, ref, strict=True)]
        worst = max(worst, statistics.median(pure_ratios)) if tool else worst
        cells = (str(depth), codec, f"{min(c) * 1000:.2f} ms", f"{min(pure) * 1000:.2f} ms",
                 f"{min(ref) * 1000:.2f} ms", f"x{statistics.median(c_ratios):.2f}",
                 f"x{statistics.median(pure_ratios):.2f}",
                 f"x{pure_ratios[0]:.2f}-{pure_ratios[-1]:.2f}")
        print("  ".join(f"{cell:>15}" for cell in cells))
    if tool:
        print(f"worst median pure/palmtopnm: x{worst:.2f} (goal: at most x2 on every row)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
