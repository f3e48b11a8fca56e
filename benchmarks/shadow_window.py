"""What pyglet's hidden "shadow" window costs a start (palmish/frontend/__init__.py).

    .venv/bin/python benchmarks/shadow_window.py [--pairs N]

Each run is a fresh child process that imports pyglet.gl and opens one
320x480 window up to its first flipped frame, with pyglet's shadow window on
(pyglet's default) or off (palmish's setting), the two kinds in turns. It
reports the medians of the child's wall time and of its CPU time (user +
system, which other load on the machine disturbs far less). Needs an X
server; without DISPLAY the script re-runs itself under xvfb-run when it can.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys

from _shared import under_xvfb

CHILD = """
import sys, time
wall, cpu = time.perf_counter(), time.process_time()
import pyglet
pyglet.options["shadow_window"] = sys.argv[1] == "on"
import pyglet.gl
window = pyglet.window.Window(320, 480)
window.dispatch_events()
window.clear()
window.flip()
print((time.perf_counter() - wall) * 1000, (time.process_time() - cpu) * 1000)
window.close()
"""


def one_run(shadow: str) -> tuple[float, float]:
    out = subprocess.run([sys.executable, "-c", CHILD, shadow], check=True,
                         capture_output=True, text=True).stdout.split()
    return float(out[-2]), float(out[-1])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=15, help="runs of each kind, in turns")
    args = parser.parse_args()
    if not os.environ.get("DISPLAY"):
        status = under_xvfb(__file__, ["--pairs", str(args.pairs)])
        if status is None:
            print("no DISPLAY and no xvfb-run: nothing to measure")
            return 1
        return status
    runs: dict[str, list[tuple[float, float]]] = {"on": [], "off": []}
    for _ in range(args.pairs):
        for shadow in ("on", "off"):
            runs[shadow].append(one_run(shadow))
    print(f"import pyglet.gl + one window to its first frame, medians of {args.pairs} runs:")
    for what, column in (("wall", 0), ("CPU", 1)):
        on, off = (statistics.median(r[column] for r in runs[k]) for k in ("on", "off"))
        print(f"  {what:4}: shadow window on {on:6.1f} ms, off (palmish) {off:6.1f} ms, "
              f"saved {on - off:5.1f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
