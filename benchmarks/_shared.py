"""What several benchmarks share. Not a benchmark: `make bench` skips files named _*.

A benchmark imports it as `from _shared import ...`: Python puts the script's own
folder first on sys.path. So no file here is named like a module the benchmarks
import (tests/test_benchmarks.py checks it).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Sequence

XVFB_SCREEN = "-screen 0 1280x1024x24"
RERUN = "PALMISH_BENCH_NO_XVFB"  # set in the re-run, so that it never starts another


def percentile(values: Sequence[float], fraction: float) -> float:
    """The value `fraction` of the way up the sorted values (the last for 1.0)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def ms_span(seconds: Sequence[float]) -> str:
    """The range of `seconds` in ms, as `39.8-52.0`."""
    return f"{min(seconds) * 1000:.1f}-{max(seconds) * 1000:.1f}"


def progress(name: str, done: int, total: int, name_width: int) -> None:
    """A progress bar on stderr, redrawn in place; its line ends when done == total."""
    width = 30
    filled = width * done // total
    sys.stderr.write(f"\r{name:<{name_width}} [{'#' * filled}{'.' * (width - filled)}]"
                     f" {done}/{total}")
    if done == total:
        sys.stderr.write("\n")
    sys.stderr.flush()


def under_xvfb(script: str, args: list[str], note: str | None = None) -> int | None:
    """`script` run again with `args` under xvfb-run (a virtual X server, for a
    machine without DISPLAY): its exit status, or None when there is no xvfb-run
    or this already is that re-run. `note` is printed first."""
    xvfb = shutil.which("xvfb-run")
    if xvfb is None or os.environ.get(RERUN):
        return None
    if note is not None:
        print(note, flush=True)
    return subprocess.call([xvfb, "-a", "-s", XVFB_SCREEN, sys.executable, script, *args],
                           env=dict(os.environ, **{RERUN: "1"}))
