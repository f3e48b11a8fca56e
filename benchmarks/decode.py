"""Decoding one Palm bitmap: prc_tools (C speedups and pure Python) against netpbm's palmtopnm.

    .venv/bin/python benchmarks/decode.py [--size WxH] [--rounds N]

For every depth (1, 2, 4, 8, 16 bits) and codec (none, ScanLine, RLE, PackBits) one
bitmap of an art-like picture (flat areas, gradients, edges and some noise) is
encoded by prc_tools, then decoded to an RGBA image in this process: with the C
speedups, and with PRC_TOOLS_PURE=1's code (both paths are always loaded here).
palmtopnm decodes the same bytes from a file to /dev/null; its figure is net of
its own process start (a 1x1 bitmap's run, taken in the same rounds: the best
run less the best start, as the best of differences would pick the round whose
start happened to be slow). Each figure is the best of N rounds, and the rounds
are interleaved, so a change in the machine's load weighs on every column alike.
Ratios are against palmtopnm.
"""

from __future__ import annotations

import argparse
import random
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
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


def best_of(rounds: list[float]) -> float:
    return min(rounds)


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
    args = parser.parse_args()
    width, height = (int(n) for n in args.size.split("x"))
    native = speedups.built()
    tool = shutil.which("palmtopnm")
    source = picture(width, height)
    print(f"{width}x{height}, best of {args.rounds} rounds; C speedups "
          f"{'built' if native else 'NOT built'}; palmtopnm {'found' if tool else 'NOT found'}")
    with tempfile.TemporaryDirectory() as name:
        tmp = Path(name)
        tiny = tmp / "tiny.bmp"
        tiny.write_bytes(bitmap.encode(Image.new("RGB", (1, 1)), depth=8, density=72,
                                       compression="none"))
        cases = []
        for depth in DEPTHS:
            for codec in CODECS:
                data = bitmap.encode(source, depth=depth, density=72, compression=codec)
                path = tmp / f"{depth}-{codec}.bmp"
                path.write_bytes(data)
                cases.append((depth, codec, data, path))
        times: dict[tuple[int, str, str], list[float]] = {}
        starts: list[float] = []
        for _ in range(args.rounds):
            if tool:
                starts.append(run_tool(tool, tiny))
            for depth, codec, data, path in cases:
                for label, chosen in (("c", native), ("pure", None)):
                    if label == "c" and native is None:
                        continue
                    speedups.native = chosen
                    times.setdefault((depth, codec, label), []).append(
                        timed(lambda d=data: bitmap.decode(d)))
                if tool:
                    times.setdefault((depth, codec, "palmtopnm"), []).append(
                        run_tool(tool, path))
        speedups.native = native
    header = ("depth", "codec", "C", "pure", "palmtopnm (net)", "C/ref", "pure/ref")
    print("  ".join(f"{h:>15}" for h in header))
    worst = 0.0
    for depth, codec, _data, _path in cases:
        pure = best_of(times[(depth, codec, "pure")])
        c = best_of(times[(depth, codec, "c")]) if native else float("nan")
        ref = (max(best_of(times[(depth, codec, "palmtopnm")]) - best_of(starts), 1e-6)
               if tool else float("nan"))
        worst = max(worst, pure / ref) if tool else worst
        cells = (str(depth), codec, f"{c * 1000:.2f} ms", f"{pure * 1000:.2f} ms",
                 f"{ref * 1000:.2f} ms", f"x{c / ref:.2f}", f"x{pure / ref:.2f}")
        print("  ".join(f"{cell:>15}" for cell in cells))
    if tool:
        print(f"worst pure-Python ratio: x{worst:.2f} (goal: at most x2 on every row)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
