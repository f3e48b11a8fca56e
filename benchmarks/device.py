"""How fast the handheld starts, redraws and rotates.

    .venv/bin/python benchmarks/device.py [--repeat N]

Measures, and prints:
- process start to first frame: `palmish` opening its window (the first frame
  drawn) and `palmish --screenshot` (the PNG written), cold (each on a fresh data
  folder) and warm (the first of those folders again);
- a framebuffer redraw through the window (device draws, damaged region
  uploaded to the texture, window drawn, GL finished) for the whole screen and
  for an 8x8 change;
- a rotation fully redrawn with PalmIshido running (Rotate posted, the app
  re-lays out, new texture, window resized and drawn);
- CPU used by an idle window over two seconds.

Each line gives the median, the range (least-most) and, for many samples, the
90th percentile. Window parts need an X server; without DISPLAY the script re-runs itself under
xvfb-run when it can.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _shared import ms_span, percentile, under_xvfb

os.environ.setdefault("PYGLET_AUDIO", "silent")

FIRST_FRAME_CHILD = """
import sys, time
import pyglet
from palmish.frontend import devicewindow
draw = devicewindow.DeviceWindow.on_draw
def on_draw(self):
    draw(self)
    if not getattr(self, "bench_seen", False):
        self.bench_seen = True
        print("FIRST_FRAME", time.time(), flush=True)
        pyglet.clock.schedule_once(lambda dt: self.dispatch_event("on_close"), 0)
devicewindow.DeviceWindow.on_draw = on_draw
from palmish.cli import main
sys.exit(main(sys.argv[1:]))
"""


def ms(seconds: float) -> str:
    return f"{seconds * 1000:8.1f} ms"


def summary(samples: list[float]) -> str:
    """Median, range and p90 of `samples` (seconds)."""
    return (f"median {ms(statistics.median(samples))} ({ms_span(samples)})"
            f"  p90 {ms(percentile(samples, 0.9))}  (n={len(samples)})")


def first_frame_with_window(data: Path, config: str) -> float:
    start = time.time()
    done = subprocess.run(
        [sys.executable, "-c", FIRST_FRAME_CHILD, "--data-dir", str(data), "--config", config],
        capture_output=True, text=True, timeout=120, check=False,
    )
    for line in done.stdout.splitlines():
        if line.startswith("FIRST_FRAME "):
            return float(line.split()[1]) - start
    raise RuntimeError(f"no frame drawn (exit {done.returncode}): {done.stderr.strip()}")


def screenshot_run(data: Path, config: str, out: Path) -> float:
    start = time.time()
    done = subprocess.run(
        [sys.executable, "-m", "palmish", "--data-dir", str(data), "--config", config,
         "--screenshot", str(out)],
        capture_output=True, text=True, timeout=120, check=False,
    )
    if done.returncode != 0 or not out.exists():
        raise RuntimeError(f"screenshot failed (exit {done.returncode}): {done.stderr.strip()}")
    return time.time() - start


def start_once(kind: str, data: Path, config: str, out: Path) -> float:
    if kind == "window":
        return first_frame_with_window(data, config)
    return screenshot_run(data, config, out)


def startup(repeat: int, window: bool) -> None:
    print("== process start to first frame")
    for config in ("square", "square-low"):
        kinds = (["window"] if window else []) + ["--screenshot"]
        for kind in kinds:
            with tempfile.TemporaryDirectory() as tmp:
                folders = [Path(tmp) / f"data{n}" for n in range(max(3, repeat // 2))]
                out = Path(tmp) / "shot.png"
                cold = [start_once(kind, data, config, out) for data in folders]  # fresh folders
                warm = [start_once(kind, folders[0], config, out) for _ in range(repeat)]
            print(f"  {config:10} {kind:12} cold {ms(statistics.median(cold))} ({ms_span(cold)})"
                  f"   warm {summary(warm)}")


def in_window_benchmarks(repeat: int) -> None:
    import pyglet
    from pyglet import gl

    from palmish.apps import installed_apps
    from palmish.device.display import config_by_name
    from palmish.device.events import Event, Key, KeyDown, Rotate
    from palmish.device.geometry import Rect
    from palmish.device.machine.app import App, AppContext
    from palmish.device.machine.system import Device
    from palmish.frontend.devicewindow import DeviceWindow
    from palmish.frontend.skin import default_skin_name, load_skin

    class Painter(App):
        """UP repaints all of its bounds, DOWN an 8x8 square: a known amount of damage."""

        name = "Painter"
        creator = "pntr"

        def __init__(self) -> None:
            self.ctx: AppContext | None = None
            self.shade = 0

        def start(self, ctx: AppContext) -> None:
            self.ctx = ctx

        def handle(self, event: Event) -> None:
            if not isinstance(event, KeyDown) or self.ctx is None:
                return
            self.shade = (self.shade + 37) % 256
            colour = (self.shade, 255 - self.shade, 128)
            b = self.ctx.bounds
            area = b if event.key.value == "up" else Rect(b.x + 40, b.y + 40, 8, 8)
            self.ctx.screen.fill(area, colour)

    def timed(window: DeviceWindow, event: Event) -> float:
        start = time.perf_counter()
        window.post(event)
        window.frame()
        gl.glFinish()
        return time.perf_counter() - start

    tmp = Path(tempfile.mkdtemp())
    print(f"== redraw through the window (GL: {gl_renderer()})")
    for config_name, zoom in (("square", 1), ("wide", 1), ("square-low", 1), ("square", 2)):
        config = config_by_name(config_name)
        device = Device(config, tmp / "paint", [Painter()], durable=False, alerts=False)
        window = DeviceWindow(device, load_skin(default_skin_name(config)), zoom)
        pyglet.window.Window._enable_event_queue = False
        window.frame()
        app_area = config.app_bounds
        full = [timed(window, KeyDown(Key.UP)) for _ in range(repeat * 10)]
        small = [timed(window, KeyDown(Key.DOWN)) for _ in range(repeat * 10)]
        label = f"{config_name} {config.width}x{config.height} zoom {zoom}"
        print(f"  {label:28} full app area {app_area.w}x{app_area.h}: {summary(full)}")
        print(f"  {label:28} 8x8 change:                {summary(small)}")
        window.close()

    print("== rotation fully redrawn, PalmIshido running")
    apps = installed_apps()
    start_app = "PalmIshido" if any(a.name == "PalmIshido" for a in apps) else None
    device = Device(config_by_name("tall"), tmp / "ishido", apps, start_app, durable=False)
    window = DeviceWindow(device, load_skin("t3"), 1)
    window.frame()
    to_wide: list[float] = []
    to_tall: list[float] = []
    for _ in range(repeat * 3):
        to_wide.append(timed(window, Rotate()))
        to_tall.append(timed(window, Rotate()))
    print(f"  running app: {device.running_app.name}")
    # The first turn apart: it is the one that finds nothing of the other shape made yet.
    print(f"  first turn, tall -> wide: {ms(to_wide[0])}; back: {ms(to_tall[0])}")
    print(f"  later, tall -> wide: {summary(to_wide[1:])}")
    print(f"  later, wide -> tall: {summary(to_tall[1:])}")

    print("== idle window")
    cpu0, wall0 = time.process_time(), time.perf_counter()
    frames0 = window.frames_drawn
    pyglet.clock.schedule_once(lambda dt: pyglet.app.exit(), 2.0)
    pyglet.app.run(None)
    cpu, wall = time.process_time() - cpu0, time.perf_counter() - wall0
    print(f"  {wall:.2f} s idle: CPU {cpu * 1000:.1f} ms ({100 * cpu / wall:.2f} %),"
          f" frames drawn {window.frames_drawn - frames0}")
    device.shutdown()
    window.close()


def gl_renderer() -> str:
    from pyglet import gl

    info = gl.gl_info
    return f"{info.get_renderer()}, OpenGL {info.get_version_string()}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5, help="warm runs per measurement")
    args = parser.parse_args()
    if not os.environ.get("DISPLAY"):
        status = under_xvfb(__file__, ["--repeat", str(args.repeat)],
                            "(no DISPLAY: running under xvfb-run)")
        if status is not None:
            return status
        print("(no DISPLAY and no xvfb-run: window measurements skipped)")
        startup(args.repeat, window=False)
        return 0
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} cores")
    startup(args.repeat, window=True)
    in_window_benchmarks(args.repeat)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
