"""`palmish preview`: from a save in the folder to the new picture in the window, and
what the preview costs while nothing changes (issue 42: at most 1 s; idle 0%).

    .venv/bin/python benchmarks/studio_preview.py [--saves N] [--idle-s S]

1. Save to screen. A PalmIshido Board folder for Square (the 320x480 LCD, a
   288x320 board) is previewed in a real window (DeviceWindow, the t3 skin), its
   watcher on pyglet's clock at its interval as `palmish preview` schedules it.
   N times, after a random pause (so a save falls anywhere between two looks),
   board.png is saved in a new colour, and the clock and the window's events are
   pumped until a frame has been drawn whose LCD shows that colour. Reported: the
   median and worst of the N times, and what a build (build, install, layout)
   alone took.
2. Idle. `palmish preview DIR` and `palmish` (a game window, its InstalledWatch on) run as child
   processes; once started, their CPU time (user + system, /proc) over S seconds
   with nothing changing is reported as a share of one core.

Needs an X server; without DISPLAY it re-runs itself under xvfb-run when it can.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _shared import under_xvfb
from PIL import Image


def save_to_screen(folder: Path, data: Path, saves: int) -> tuple[list[float], list[float]]:
    """The N latencies (s) and the N build times (s)."""
    import pyglet

    from palmish.apps import installed_apps
    from palmish.commands.preview_session import Preview
    from palmish.device.display import CONFIGS, ConfigName
    from palmish.device.machine.system import Device
    from palmish.frontend.devicewindow import DeviceWindow
    from palmish.frontend.skin import load_skin

    device = Device(CONFIGS[ConfigName.SQUARE], data, installed_apps(), "ishido",
                    durable=False, alerts=False)
    preview = Preview(device, folder, "ishido", "board", lambda line: None)
    preview.rebuild()
    window = DeviceWindow(device, load_skin("t3"))
    pyglet.clock.schedule_interval(window.watched, preview.interval_s, preview)
    builds: list[float] = []
    rebuild = preview.rebuild

    def timed_rebuild() -> None:
        started = time.perf_counter()
        rebuild()
        builds.append(time.perf_counter() - started)

    preview.rebuild = timed_rebuild  # type: ignore[method-assign]
    rng = random.Random(42)
    latencies = []
    probe = (40, 40)  # an LCD pixel of the board, clear of the tiles dealt
    try:
        for number in range(saves):
            pause = time.monotonic() + rng.uniform(0.05, 0.4)
            while time.monotonic() < pause:
                pump(pyglet, window)
            colour = (rng.randrange(256), rng.randrange(256), (number * 37) % 256)
            image = Image.new("RGB", (288, 320), colour)
            saved = time.perf_counter()
            image.save(folder / "board.png")
            drawn = window.frames_drawn
            while True:
                pump(pyglet, window)
                shown = device.screen.image.getpixel(probe)
                assert isinstance(shown, tuple)
                if (window.frames_drawn > drawn  # 16-bit colour: within 8 a channel
                        and all(abs(a - b) < 8 for a, b in zip(shown[:3], colour, strict=True))):
                    break
                if time.perf_counter() - saved > 10:
                    raise SystemExit("no new picture within 10 s")
            latencies.append(time.perf_counter() - saved)
    finally:
        window.close()
        device.shutdown()
    return latencies, builds


def pump(pyglet: object, window: object) -> None:
    """One turn of the loop `pyglet.app.run` runs: due clock items, then window events."""
    pyglet.clock.tick()  # type: ignore[attr-defined]
    window.dispatch_events()  # type: ignore[attr-defined]
    time.sleep(0.001)


def cpu_seconds(pid: int) -> float:
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def idle_share(command: list[str], settle_s: float, idle_s: float) -> float:
    """The share of one core a window uses while nothing changes."""
    with tempfile.TemporaryDirectory() as data:
        child = subprocess.Popen([*command, "--data-dir", data],
                                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            time.sleep(settle_s)
            if child.poll() is not None:
                raise SystemExit(f"{command} ended early ({child.returncode})")
            before = cpu_seconds(child.pid)
            time.sleep(idle_s)
            return (cpu_seconds(child.pid) - before) / idle_s
        finally:
            child.terminate()
            child.wait(timeout=10)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--saves", type=int, default=20)
    parser.add_argument("--idle-s", type=float, default=10.0)
    parser.add_argument("--settle-s", type=float, default=15.0,
                        help="how long a window runs before it is measured (its start-up work)")
    args = parser.parse_args()
    if not os.environ.get("DISPLAY"):
        status = under_xvfb(__file__, sys.argv[1:], "no DISPLAY: running under xvfb-run")
        return 1 if status is None else status
    palmish = [sys.executable, "-m", "palmish", "--no-discovery"]
    with tempfile.TemporaryDirectory() as work:
        folder = Path(work) / "board"
        subprocess.run([sys.executable, "-m", "prc_tools", "new", "ishido", "board",
                        "--config", "square", str(folder)], check=True,
                       stdout=subprocess.DEVNULL)
        latencies, builds = save_to_screen(folder, Path(work) / "data", args.saves)
        print(f"save -> new picture in the window, {len(latencies)} saves (Square 320x480,"
              f" a 288x320 board): median {statistics.median(latencies) * 1000:.0f} ms,"
              f" worst {max(latencies) * 1000:.0f} ms (goal: 1000 ms)")
        print(f"  of which the build, install and layout: median"
              f" {statistics.median(builds) * 1000:.0f} ms, worst {max(builds) * 1000:.0f} ms")
        for name, command in (("palmish preview DIR", [*palmish, "preview", str(folder)]),
                              ("palmish (a game window, watching the installed plugins)", palmish)):
            share = idle_share(command, args.settle_s, args.idle_s)
            print(f"idle CPU over {args.idle_s:.0f} s, {name}: {share * 100:.2f}% of a core")
    return 0


if __name__ == "__main__":
    sys.exit(main())
