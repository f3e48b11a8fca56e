"""Speed where a user feels it, next to yardsticks measured in the same run (issues 17, 27).

    .venv/bin/python benchmarks/felt_speed.py [--repeat N]
                                              [--no-window | --only start|rotate|sound|drag]

One table, every row with its reference measured now on this machine:
- warm start -> first frame, against a minimal pyglet window of the same size
  drawing the same two textures (bezel and LCD), with palmish's pyglet options;
- first start with a fresh data folder, against the warm start;
- turns with PalmIshido running, each to the frame at the new size, on fresh
  installs (0.35 s after the first frame, and the moment it is up) and after
  the idle warm-up, against a minimal window (palmish's pyglet options) resized
  with new textures of the new size, measured in the same rounds; then every
  turn of Sigmar's Garden and Pachisi, each on its own fresh install;
- plugin bitmap decoding during warm starts (several: median and range);
- the first sound of a session, after the window's idle warm-up and without it,
  against a later sound;
- a flood of 3,000 pen moves dragging a tile over the board, sent to the X
  server at once: events per second and the longest time with no frame, against
  a minimal window that moves a sprite per move and draws frames, in turns over
  several rounds;
- encoding the 320x460 tall panel tiled 3x3 at 8 bpp with PackBits, against
  netpbm's pnmtopalm (net of its process start) and Pillow's quantize + Palm writer,
  the three in turns in each round (median and range over the rounds, and the range
  of the ratios to pnmtopalm within a round);
- building all bundled plugins (median and range over the rounds), and `extract`
  of 1,000 bitmaps (into the temporary
  folder, and into a RAM folder when /dev/shm exists: our own work apart from the disk);
- the bundled board plugins' size with forced PackBits and with `best`, and the
  CPU time of decoding all their bitmaps (the two builds in turns; median and
  range over the rounds, and the range of the ratios within a round).

The packer rows use prc_tools' optional C speedups when they are built;
PRC_TOOLS_PURE=1 measures the pure-Python fallback.

The warm start, the minimal window (without pyglet's shadow window, as palmish)
and a first start on a fresh data folder are started in turns (at least
START_PAIRS rounds) and their medians and ranges printed. Window rows need an X
server; without DISPLAY the script re-runs itself under xvfb-run when it can.
Each window measurement runs in a fresh child process.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from _shared import ms_span, under_xvfb

if TYPE_CHECKING:
    from prc_tools import Database

_HERE = Path(__file__).resolve().parent
os.environ.setdefault("PYGLET_AUDIO", "silent")
ROOT = _HERE.parent
sys.path.insert(0, str(ROOT))  # measure the tree this script is in (children run there too)
from palmish.device.disk.resources import bundled_plugins  # noqa: E402  (this tree's)

PLUGINS = bundled_plugins()  # every game's plugins/ folder
PANEL = PLUGINS.folder("ishido-board-tall") / "panel.png"
MOVES = 3000
START_PAIRS = 9  # the least number of warm/minimal start pairs (medians compared)
ENCODE_TILES = 3  # the encode row's picture: the tall panel, this many times each way

# --- children: each prints one JSON line ---------------------------------------

# The minimal windows' pictures: sprite(w, h, colour) uploads a texture of one
# colour and shows it at the origin in the child's `batch`.
YARDSTICK_SPRITE = """
from PIL import Image
def sprite(w, h, colour):
    texture = pyglet.image.Texture.create(w, h)
    picture = Image.new("RGB", (w, h), colour).tobytes()
    texture.blit_into(pyglet.image.ImageData(w, h, "RGB", picture), 0, 0, 0)
    return pyglet.sprite.Sprite(texture, 0, 0, batch=batch)
"""

PALMISH_FIRST_FRAME = """
import json, sys, time
t0 = float(sys.argv[1])
import pyglet
from palmish.frontend import devicewindow
draw = devicewindow.DeviceWindow.on_draw
def on_draw(self):
    draw(self)
    if not getattr(self, "bench_seen", False):
        self.bench_seen = True
        print(json.dumps({"seconds": time.time() - t0, "cpu": time.process_time(),
                          "size": self.layout.window_size,
                          "lcd": [self.lcd.width, self.lcd.height],
                          "bezel": list(self.layout.face.image.size)}), flush=True)
        pyglet.clock.schedule_once(lambda dt: self.dispatch_event("on_close"), 0)
devicewindow.DeviceWindow.on_draw = on_draw
from palmish.cli import main
sys.exit(main(sys.argv[2:]))
"""

MINIMAL_FIRST_FRAME = """
import json, sys, time
t0 = float(sys.argv[1])
width, height, bw, bh, lw, lh = map(int, sys.argv[2:8])
import pyglet
pyglet.options["shadow_window"] = False  # as palmish/frontend/__init__.py sets it
""" + YARDSTICK_SPRITE + """
window = pyglet.window.Window(width, height, caption="yardstick")
batch = pyglet.graphics.Batch()
sprites = [sprite(bw, bh, (90, 90, 100)), sprite(lw, lh, (200, 220, 200))]
seen = []
@window.event
def on_draw():
    batch.draw()
    if not seen:
        seen.append(1)
        print(json.dumps({"seconds": time.time() - t0, "cpu": time.process_time()}),
              flush=True)
        pyglet.clock.schedule_once(lambda dt: pyglet.app.exit(), 0)
pyglet.clock.schedule_once(lambda dt: window.draw(0), 0)  # as palmish: a frame on demand
pyglet.app.run(None)
"""

ROTATIONS = """
import json, sys, tempfile, time
from pathlib import Path
from pyglet import gl
from palmish.apps import installed_apps
from palmish.device.display import config_by_name
from palmish.device.events import Rotate
from palmish.device.machine.system import Device
from palmish.frontend.devicewindow import DeviceWindow
from palmish.frontend.skin import load_skin
data = Path(sys.argv[1])
device = Device(config_by_name("tall"), data, installed_apps(), "PalmIshido", durable=False)
window = DeviceWindow(device, load_skin("t3"), 1)
window.frame()
# As `palmish` does once its first frame is up; a user turns the device later.
# (getattr: the same script measures older trees, which had neither.)
process = getattr(device, "prepare_in_background", lambda: None)()
if process is not None:
    process.wait()
getattr(window, "prepare_turn", lambda: None)()  # the window's idle steps
while getattr(device, "warm_up", lambda: False)():
    pass
times = []
for _ in range(12):
    start = time.perf_counter()
    window.post(Rotate())
    window.frame()
    gl.glFinish()
    times.append(time.perf_counter() - start)
print(json.dumps({"times": times}))
"""

# The first seconds after install, as a user lives them: `palmish` on a fresh data
# folder, and once its first frame is up (and the window's warm-up has begun, as
# it does 0.3 s after it) the device is turned, 12 times 0.15 s apart. Each turn
# is timed from the Rotate to the frame at the new size, finished by GL.
ROTATE_FRESH = """
import json, sys, time
import pyglet
from pyglet import gl
from palmish.device.events import Rotate
from palmish.frontend import devicewindow
draw = devicewindow.DeviceWindow.on_draw
times, sizes = [], []
def turn(window):
    start = time.perf_counter()
    window.post(Rotate())
    window.frame()
    gl.glFinish()
    times.append(time.perf_counter() - start)
    sizes.append([*window.layout.window_size, window.lcd.width, window.lcd.height,
                  *window.layout.face.image.size])
    if len(times) < 12:
        pyglet.clock.schedule_once(lambda dt: turn(window), 0.15)
    else:
        print(json.dumps({"times": times, "sizes": sizes[:2]}), flush=True)
        window.dispatch_event("on_close")
def on_draw(self):
    draw(self)
    if not getattr(self, "bench_seen", False):
        self.bench_seen = True
        pyglet.clock.schedule_once(lambda dt: turn(self), float(sys.argv[1]))
devicewindow.DeviceWindow.on_draw = on_draw
from palmish.cli import main
sys.exit(main(sys.argv[2:]))
"""

# The yardstick of a turn: a minimal window (palmish's pyglet options) resized to
# the other shape with new bezel and LCD textures of that shape, drawn, finished.
ROTATE_MINIMAL = """
import json, sys, time
import pyglet
pyglet.options["shadow_window"] = False
from pyglet import gl
""" + YARDSTICK_SPRITE + """
shapes = json.loads(sys.argv[1])
window = pyglet.window.Window(*shapes[1][:2], caption="yardstick")
batch = pyglet.graphics.Batch()
def sprites(shape):
    w, h, lw, lh, bw, bh = shape
    return [sprite(bw, bh, (90, 90, 100)), sprite(lw, lh, (200, 220, 200))]
shown = sprites(shapes[1])
window.dispatch_events()
batch.draw()
window.flip()
times = []
for n in range(12):
    start = time.perf_counter()
    for old in shown:
        old.delete()
    shape = shapes[n % 2]
    window.set_size(*shape[:2])
    shown = sprites(shape)
    window.dispatch_events()
    window.clear()
    batch.draw()
    window.flip()
    gl.glFinish()
    times.append(time.perf_counter() - start)
print(json.dumps({"times": times}))
"""

DECODE_AT_START = """
import json, sys, time
from pathlib import Path
from prc_tools import bitmap
spent = [0.0, 0]
def timed(decode):
    def run(*args):
        start = time.perf_counter()
        try:
            return decode(*args)
        finally:
            spent[0] += time.perf_counter() - start
            spent[1] += 1
    return run
bitmap.decode = timed(bitmap.decode)  # whole families (verify, the old load check)
if hasattr(bitmap, "decode_member"):
    bitmap.decode_member = timed(bitmap.decode_member)  # one member, when first drawn
from palmish.apps import installed_apps
from palmish.device.display import config_by_name
from palmish.device.machine.system import Device
start = time.perf_counter()
Device(config_by_name(sys.argv[2]), Path(sys.argv[1]), installed_apps(), "PalmIshido",
       durable=False, alerts=False)
total = time.perf_counter() - start
print(json.dumps({"decode": spent[0], "calls": spent[1], "start": total}))
"""

# A flood of pen moves through the X server: press, 3,000 moves, release, sent
# with XSendEvent before the loop runs, so they arrive as one burst.
FLOOD_COMMON = """
import json, sys, time
from ctypes import byref
import pyglet
pyglet.options["shadow_window"] = False  # palmish's setting, for both windows
from pyglet.libs.x11 import xlib

def x_sender(window, flush_each):
    display, target = window._x_display, window._view
    height = window.height
    def send(kind, x, y, state, mask):
        event = xlib.XEvent()
        if kind == xlib.MotionNotify:
            m = event.xmotion
        else:
            m = event.xbutton
            m.button = 1
        m.type, m.display, m.window = kind, display, target
        m.x, m.y, m.state, m.same_screen = int(x), int(height - y), state, 1
        xlib.XSendEvent(display, target, False, mask, byref(event))
        if flush_each:
            xlib.XFlush(display)
    return send

def paced_drag(window, points, hz, frames):
    # Press, then one move every 1/hz s, as a hand drags; the process's CPU time
    # from the first move to the last, and the frames drawn meanwhile.
    send, state = x_sender(window, flush_each=True), {"n": 0}
    def step(dt):
        n = state["n"]
        state["n"] = n + 1
        if n == 0:
            send(xlib.ButtonPress, *points[0], 0, xlib.ButtonPressMask)
            state["cpu"], state["wall"], state["frames"] = time.process_time(), \
                time.perf_counter(), len(frames)
        elif n < len(points):
            send(xlib.MotionNotify, *points[n], xlib.Button1Mask, xlib.Button1MotionMask)
        else:
            pyglet.clock.unschedule(step)
            wall = time.perf_counter() - state["wall"]
            print(json.dumps({"cpu": (time.process_time() - state["cpu"]) / wall,
                              "frames": len(frames) - state["frames"], "seconds": wall,
                              "size": list(window.get_size())}))
            pyglet.app.exit()
    pyglet.clock.schedule_interval(step, 1 / hz)

def send_stroke(window, points):
    send = x_sender(window, flush_each=False)  # all of them at once, flushed once
    send(xlib.ButtonPress, *points[0], 0, xlib.ButtonPressMask)
    for x, y in points[1:]:
        send(xlib.MotionNotify, x, y, xlib.Button1Mask, xlib.Button1MotionMask)
    xlib.XFlush(window._x_display)

def report(drags, frames, moves):
    first, last = drags[0], drags[-1]
    gaps, previous = [], first
    for t in frames:
        if first <= t <= last:
            gaps.append(t - previous)
            previous = t
    gaps.append(last - previous)
    print(json.dumps({"rate": moves / max(last - first, 1e-9), "drain": last - first,
                      "longest_gap": max(gaps), "frames": len([t for t in frames
                                                               if first <= t <= last])}))
"""

# PalmIshido in a window with a tile to drag: argv[1] the data folder, MOVES the
# stroke's moves. Frames and drags are timed; LAST_MOVE ends the loop (None: never).
PALMISH_DRAG_WINDOW = FLOOD_COMMON + """
from pathlib import Path
from palmish.apps import installed_apps
from palmish.device.display import config_by_name
from palmish.device.machine.system import Device
from palmish.frontend.devicewindow import DeviceWindow
from palmish.frontend.skin import load_skin
apps = installed_apps()
device = Device(config_by_name("tall"), Path(sys.argv[1]), apps, "PalmIshido", durable=False,
                alerts=False)
game = next(a for a in apps if a.name == "PalmIshido")
window = DeviceWindow(device, load_skin("t3"), 1)
window.frame()
frames, drags = [], []
draw, drag = window.on_draw, window.on_mouse_drag
def on_draw():
    draw()
    frames.append(time.perf_counter())
def on_mouse_drag(*args):
    drags.append(time.perf_counter())
    drag(*args)
    if len(drags) == LAST_MOVE:
        pyglet.clock.schedule_once(lambda dt: pyglet.app.exit(), 0)
window.on_draw, window.on_mouse_drag = on_draw, on_mouse_drag
well, board = game.layout.tile_well, game.layout.board
lay = window.layout
points = [lay.window_point_of_lcd(well.x + 3, well.y + 3)]
for i in range(MOVES):
    points.append(lay.window_point_of_lcd(board.x + (i * 7) % board.w,
                                          board.y + (i * 13) % board.h))
"""

# The yardstick: a window of argv[1] x argv[2] that moves a sprite per move and
# draws a frame for it, as palmish does; the same names as above.
MINIMAL_DRAG_WINDOW = FLOOD_COMMON + """
width, height = int(sys.argv[1]), int(sys.argv[2])
""" + YARDSTICK_SPRITE + """
window = pyglet.window.Window(width, height, caption="yardstick")
batch = pyglet.graphics.Batch()
sprite(width, height, (90, 90, 100))
tile = sprite(26, 42, (200, 40, 40))
frames, drags, pending = [], [], []
@window.event
def on_draw():
    window.clear()
    batch.draw()
    frames.append(time.perf_counter())
def redraw(dt):
    pending.clear()
    window.draw(0)
@window.event
def on_mouse_drag(x, y, dx, dy, buttons, modifiers):
    drags.append(time.perf_counter())
    tile.position = (x, y, 0)
    if not pending:
        pending.append(1)
        pyglet.clock.schedule_once(redraw, 0)
    if len(drags) == LAST_MOVE:
        pyglet.clock.schedule_once(lambda dt: pyglet.app.exit(), 0)
window.dispatch_events()
points = [(10 + (i * 7) % (width - 20), 10 + (i * 13) % (height - 20))
          for i in range(MOVES + 1)]
"""

FLOOD_PALMISH = """
import sys
MOVES = LAST_MOVE = int(sys.argv[2])
""" + PALMISH_DRAG_WINDOW + """
send_stroke(window, points)
pyglet.app.run(None)
report(drags, frames, MOVES)
"""

FLOOD_MINIMAL = """
import sys
MOVES = LAST_MOVE = int(sys.argv[3])
""" + MINIMAL_DRAG_WINDOW + """
send_stroke(window, points)
pyglet.app.run(None)
report(drags, frames, MOVES)
"""

# Dragging at a hand's pace (DRAG_HZ moves a second for DRAG_SECONDS): the share
# of one core the process uses, palmish dragging a tile over the board and the
# minimal window moving a sprite per move and drawing a frame for it.
DRAG_PALMISH = """
import sys
hz, MOVES, LAST_MOVE = float(sys.argv[2]), int(sys.argv[3]), None
""" + PALMISH_DRAG_WINDOW + """
paced_drag(window, points, hz, frames)
pyglet.app.run(None)
"""

DRAG_MINIMAL = """
import sys
hz, MOVES, LAST_MOVE = float(sys.argv[3]), int(sys.argv[4]), None
""" + MINIMAL_DRAG_WINDOW + """
paced_drag(window, points, hz, frames)
pyglet.app.run(None)
"""
DRAG_HZ = 93  # the measurement
DRAG_SECONDS = 3

FIRST_SOUND = """
import json, sys, time
import pyglet
sys.path.insert(0, "tests/frontend")
from probe import tone
from palmish.frontend.audio import SoundPlayer
window = pyglet.window.Window(visible=False)
player = SoundPlayer()
if sys.argv[1] == "warm":
    while player.warm_up():
        pass
times = []
for _ in range(3):
    t = time.perf_counter()
    player.play(tone())
    times.append(time.perf_counter() - t)
print(json.dumps({"first": times[0], "later": min(times[1:])}))
"""

# As a user runs it: with Python's bytecode cache (some shells turn it off).
CHILD_ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def child(code: str, *args: str, timeout: float = 120) -> dict[str, Any]:
    done = subprocess.run(
        [sys.executable, "-c", code, *args], capture_output=True, text=True, timeout=timeout,
        check=False, cwd=ROOT, env=CHILD_ENV,
    )
    lines = [line for line in done.stdout.splitlines() if line.startswith("{")]
    if done.returncode != 0 or not lines:
        raise RuntimeError(f"child failed (exit {done.returncode}): {done.stderr.strip()[-600:]}")
    result: dict[str, Any] = json.loads(lines[-1])  # numbers, and lists of them
    return result


# --- rows -------------------------------------------------------------------

Row = tuple[str, str, str, str]


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f} ms"


def ms_spread(samples: list[float]) -> str:
    """The median of `samples` (seconds) in ms and their range."""
    return f"{ms(statistics.median(samples))} ({ms_span(samples)})"


def spread(samples: list[float]) -> str:
    """The median of `samples` (seconds) and their range, as the start rows print them."""
    return f"{statistics.median(samples):.2f} s ({min(samples):.2f}-{max(samples):.2f})"


def ratio_spread(ours: list[float], theirs: list[float]) -> str:
    """The ratio of the medians, and the range of the ratios of samples taken in
    the same round."""
    ratios = [a / b for a, b in zip(ours, theirs, strict=False)]
    return (f"x{statistics.median(ours) / statistics.median(theirs):.2f}"
            f" ({min(ratios):.2f}-{max(ratios):.2f} by round)")


def best(repeat: int, work: object) -> float:
    assert callable(work)
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return min(times)


def first_sound_row() -> Row:
    """The first play of a session with and without the idle warm-up, three children each."""
    warmed, cold = [], []
    for _ in range(3):  # in turns
        warmed.append(child(FIRST_SOUND, "warm"))
        cold.append(child(FIRST_SOUND, "cold")["first"])
    first = [w["first"] for w in warmed]
    later = [w["later"] for w in warmed]
    return ("first sound of a session, after the idle warm-up",
            f"{ms_spread(first)} (without it {ms_spread(cold)})",
            f"a later sound {ms_spread(later)}", ratio_spread(first, later))


def drag_row(tmp: Path, repeat: int) -> Row:
    """CPU while dragging at DRAG_HZ, palmish and the minimal window (of palmish's
    window size) in turns."""
    moves = str(DRAG_HZ * DRAG_SECONDS)
    ours: list[dict[str, Any]] = []
    theirs: list[dict[str, Any]] = []
    for n in range(max(3, repeat // 2)):
        ours.append(child(DRAG_PALMISH, str(tmp / f"drag{n}"), str(DRAG_HZ), moves))
        size = ours[-1]["size"]
        assert isinstance(size, list)
        theirs.append(child(DRAG_MINIMAL, *map(str, [*size, DRAG_HZ, moves])))
    cpu = [100 * r["cpu"] for r in ours]
    yard = [100 * r["cpu"] for r in theirs]
    ratios = [a / b for a, b in zip(cpu, yard, strict=True)]
    frames = [int(r["frames"]) for r in ours]
    return (f"CPU while dragging a tile at {DRAG_HZ} Hz",
            f"{min(cpu):.1f}-{max(cpu):.1f} % of a core, {min(frames)}-{max(frames)} frames",
            f"minimal window moving a sprite {min(yard):.1f}-{max(yard):.1f} %",
            f"x{statistics.median(ratios):.2f} ({min(ratios):.2f}-{max(ratios):.2f})")


OTHER_GAMES = ("sigmar", "pachisi")  # `--app` ids; the rows above turn PalmIshido


def rotation_rows(tmp: Path, repeat: int) -> list[Row]:
    """Turns on a fresh install (several, each on its own new data folder) and after
    the idle warm-up, next to a minimal window turned the same way, in turns."""
    rounds = max(3, repeat // 2)
    fresh: list[list[float]] = []
    at_once: list[float] = []
    yard: list[float] = []
    warmed: list[list[float]] = []
    for n in range(rounds):
        data = ["--data-dir", str(tmp / f"turn{n}"), "--config", "tall"]
        got = child(ROTATE_FRESH, "0.35", *data)
        fresh.append(list(got["times"]))
        yard += child(ROTATE_MINIMAL, json.dumps(got["sizes"]))["times"]
        # The harshest case: turned the moment the first frame is up, before any warm-up.
        data = ["--data-dir", str(tmp / f"turn-now{n}"), "--config", "tall"]
        at_once.append(child(ROTATE_FRESH, "0", *data)["times"][0])
        turns = child(ROTATIONS, str(tmp / f"rotate{n}"))["times"]
        assert isinstance(turns, list)
        warmed.append(turns)
    # The other games repaint more on a turn (Sigmar's Garden a marble and a socket
    # per cell): each turned the same way on its own fresh install.
    games: dict[str, list[float]] = {game: [] for game in OTHER_GAMES}
    for n in range(rounds):
        for game in OTHER_GAMES:
            data = ["--data-dir", str(tmp / f"turn-{game}{n}"), "--config", "tall"]
            games[game] += child(ROTATE_FRESH, "0.35", *data, "--app", game)["times"]
    firsts = [f[0] for f in fresh]
    later = [t for f in fresh for t in f[1:]]
    yard_s = statistics.median(yard)

    return [
        ("first turn to Wide, fresh install, 0.35 s after the first frame",
         f"{ms_spread(firsts)}, {rounds} installs",
         f"minimal window resized, new textures {ms_spread(yard)}",
         f"x{statistics.median(firsts) / yard_s:.1f}"),
        ("  later turns on those installs", f"{ms_spread(later)}", "",
         f"x{statistics.median(later) / yard_s:.1f}"),
        ("  turned the moment the first frame is up", f"{ms_spread(at_once)}", "",
         f"x{statistics.median(at_once) / yard_s:.1f}"),
        ("  after the whole idle warm-up: first turn, later turns",
         f"{ms_spread([w[0] for w in warmed])} first,"
         f" {ms_spread([t for w in warmed for t in w[1:]])} later",
         "", f"x{statistics.median(w[0] for w in warmed) / yard_s:.1f}"),
        *((f"  every turn of {game}, fresh install, from 0.35 s",
           f"{ms_spread(times)}, {len(times)} turns", "",
           f"x{statistics.median(times) / yard_s:.1f}") for game, times in games.items()),
    ]


def window_rows(repeat: int, tmp: Path, only_start: bool = False) -> list[Row]:
    rows: list[Row] = []
    data = tmp / "data"
    args = ["--data-dir", str(data), "--config", "square"]
    fresh_folders = iter(range(1_000))

    def cold_start() -> dict[str, float]:
        fresh = ["--data-dir", str(tmp / f"fresh{next(fresh_folders)}"), "--config", "square"]
        return child(PALMISH_FIRST_FRAME, str(time.time()), *fresh)

    child(PALMISH_FIRST_FRAME, str(time.time()), *args)  # makes the warm data folder
    first = child(PALMISH_FIRST_FRAME, str(time.time()), *args)
    size, bezel, lcd = first["size"], first["bezel"], first["lcd"]
    assert isinstance(size, list) and isinstance(bezel, list) and isinstance(lcd, list)
    # Taken in turns (a minimal window, a warm start, a first start on a fresh data
    # folder), so that a change in the machine's load weighs on all alike, and at
    # least 9 rounds: on a busy machine single starts vary by a fifth.
    warm_runs, minimal_runs, cold_runs = [first], [], []
    for n in range(max(repeat, START_PAIRS)):
        minimal_runs.append(child(MINIMAL_FIRST_FRAME, str(time.time()),
                                  *map(str, [*size, *bezel, *lcd])))
        if n:
            warm_runs.append(child(PALMISH_FIRST_FRAME, str(time.time()), *args))
        cold_runs.append(cold_start())
    warm = [r["seconds"] for r in warm_runs]
    minimal = [r["seconds"] for r in minimal_runs]
    cold = [r["seconds"] for r in cold_runs]
    rows.append(("warm start -> first frame", spread(warm),
                 f"minimal window, no shadow window {spread(minimal)}",
                 ratio_spread(warm, minimal)))
    # CPU time to the first frame: what the start itself costs, which the load other
    # processes put on a shared machine disturbs far less than the wall clock.
    warm_cpu = [r["cpu"] for r in warm_runs]
    minimal_cpu = [r["cpu"] for r in minimal_runs]
    cold_cpu = [r["cpu"] for r in cold_runs]
    rows.append(("  the same in CPU time", spread(warm_cpu), f"minimal {spread(minimal_cpu)}",
                 ratio_spread(warm_cpu, minimal_cpu)))
    rows.append(("first start, fresh data folder -> first frame", spread(cold),
                 f"warm start {statistics.median(warm):.2f} s", ratio_spread(cold, warm)))
    rows.append(("  the same in CPU time", spread(cold_cpu),
                 f"warm {statistics.median(warm_cpu):.2f} s", ratio_spread(cold_cpu, warm_cpu)))
    if only_start:
        return rows

    rows += rotation_rows(tmp, repeat)

    decodes = [child(DECODE_AT_START, str(data), "square") for _ in range(max(3, repeat // 2))]
    calls = sorted({int(d["calls"]) for d in decodes})
    rows.append(("bitmap decoding during a warm start",
                 f"{ms_spread([d['decode'] for d in decodes])}"
                 f" ({'/'.join(map(str, calls))} decode calls)",
                 f"whole device start {ms_spread([d['start'] for d in decodes])}",
                 ratio_spread([d["decode"] for d in decodes], [d["start"] for d in decodes])))

    rows.append(first_sound_row())

    # The flood and its yardstick in turns, several rounds: ranges, not one figure.
    floods, yards = [], []
    for n in range(max(3, repeat // 2)):
        floods.append(child(FLOOD_PALMISH, str(tmp / f"flood{n}"), str(MOVES)))
        yards.append(child(FLOOD_MINIMAL, *map(str, [*size, MOVES])))
    rates = [f["rate"] / 1000 for f in floods]
    gaps = [f["longest_gap"] for f in floods]
    yard_rates = [y["rate"] / 1000 for y in yards]
    yard_gaps = [y["longest_gap"] for y in yards]
    ratios = [f["rate"] / y["rate"] for f, y in zip(floods, yards, strict=True)]
    rows.append(drag_row(tmp, repeat))
    rows.append((f"flood of {MOVES:,} pen moves dragging a tile",
                 f"{min(rates):.1f}-{max(rates):.1f}k moves/s, "
                 f"{min(int(f['frames']) for f in floods)}-{max(int(f['frames']) for f in floods)}"
                 f" frames, longest {ms(min(gaps))}-{ms(max(gaps))} with no frame",
                 f"yardstick {min(yard_rates):.1f}-{max(yard_rates):.1f}k/s, "
                 f"longest {ms(min(yard_gaps))}-{ms(max(yard_gaps))}",
                 f"x{statistics.median(ratios):.2f} ({min(ratios):.2f}-{max(ratios):.2f})"))
    return rows


def pnmtopalm_net(image_rgb: object, tmp: Path) -> Callable[[], float] | None:
    """A function giving one sample of pnmtopalm's time on the panel net of its process
    start (its quickest of 3 runs on the panel less its quickest of 3 on a 1x1 picture,
    alternating), or None without netpbm."""
    from PIL import Image

    tool = shutil.which("pnmtopalm")
    if tool is None:
        return None
    assert isinstance(image_rgb, Image.Image)
    panel, tiny = tmp / "panel.ppm", tmp / "tiny.ppm"
    image_rgb.save(panel)
    Image.new("RGB", (1, 1)).save(tiny)
    command = [tool, "-depth", "8", "-packbits_compression"]
    inputs = panel.read_bytes(), tiny.read_bytes()

    def run(data: bytes) -> float:
        return best(1, lambda: subprocess.run(command, input=data, check=True,
                                              capture_output=True))

    def sample() -> float:
        times: tuple[list[float], list[float]] = ([], [])
        for _ in range(3):
            for data, found in zip(inputs, times, strict=True):
                found.append(run(data))
        return min(times[0]) - min(times[1])

    return sample


def extract_row(label: str, many: Database, tmp: Path, repeat: int) -> Row:
    """`extract` of `many` into `tmp`, next to creating as many files of the same sizes there."""
    from prc_tools.plugin.extract import extract

    runs = iter(range(1_000_000))
    first = tmp / f"out{next(runs)}"
    extract(many, first)
    # The floor: creating as many files of the same sizes in the same place
    # (file creation is slow in some temporary folders: ~0.2-0.7 ms each here),
    # taken in the same rounds as `extract`, alternating.
    sizes = [p.stat().st_size for p in first.rglob("*") if p.is_file()]

    def create() -> None:
        folder = tmp / f"floor{next(runs)}"
        folder.mkdir()
        for n, size in enumerate(sizes):
            (folder / str(n)).write_bytes(bytes(size))

    extract_times, floor_times = [], []
    for _ in range(max(3, repeat // 2)):
        extract_times.append(best(1, lambda: extract(many, tmp / f"out{next(runs)}")))
        floor_times.append(best(1, create))
    nets = [e - f for e, f in zip(extract_times, floor_times, strict=True)]
    return (label, f"{min(extract_times):.2f}-{max(extract_times):.2f} s",
            f"creating its {len(sizes):,} files alone"
            f" {min(floor_times):.2f}-{max(floor_times):.2f} s",
            f"{min(nets):.2f}-{max(nets):.2f} s net, by round")


def packer_rows(repeat: int, tmp: Path) -> list[Row]:
    from PIL import Image

    from prc_tools import Database, Resource, bitmap, plugin
    from prc_tools.bitmap.palette import PALM_8BIT, flat

    rows: list[Row] = []
    # The tall panel tiled 3x3 (960x1380): large enough that a process's start and
    # jitter do not dominate pnmtopalm's time, as they did on the 320x460 panel alone.
    tile = Image.open(PANEL).convert("RGBA")
    panel = Image.new("RGBA", (tile.width * ENCODE_TILES, tile.height * ENCODE_TILES))
    for n in range(ENCODE_TILES * ENCODE_TILES):
        panel.paste(tile, (tile.width * (n % ENCODE_TILES), tile.height * (n // ENCODE_TILES)))
    # The same pixels already in the palette, as pnmtopalm needs them.
    mapped = bitmap.decode(bitmap.encode(panel, depth=8, compression="none"))[0]
    netpbm = pnmtopalm_net(mapped.image.convert("RGB"), tmp)
    palette = Image.new("P", (1, 1))
    palette.putpalette(flat(PALM_8BIT))

    def ours() -> None:
        bitmap.encode(panel, depth=8, compression="packbits")

    def pillow() -> None:
        quantized = panel.convert("RGB").quantize(palette=palette, dither=Image.Dither.NONE)
        quantized.save(tmp / "pillow.palm", format="PALM", bpp=8)

    # Ours, pnmtopalm and Pillow in turns, round after round: one load for all three
    # (after a first run each, not counted, that loads what they load).
    for work in (ours, netpbm, pillow):
        if work is not None:
            work()
    ours_s: list[float] = []
    netpbm_s: list[float] = []
    pillow_s: list[float] = []
    for _ in range(max(3, repeat)):
        ours_s.append(best(1, ours))
        if netpbm is not None:
            netpbm_s.append(netpbm())
        pillow_s.append(best(1, pillow))
    reference = f"pnmtopalm {ms_spread(netpbm_s)}" if netpbm_s else "pnmtopalm not installed"
    rows.append((f"encode 8 bpp PackBits, {panel.width}x{panel.height} (panel tiled)",
                 ms_spread(ours_s), f"{reference}; Pillow quantize+save {ms_spread(pillow_s)}",
                 f"{ratio_spread(ours_s, netpbm_s)} pnmtopalm" if netpbm_s else ""))

    folders = PLUGINS.folders()
    build_s = [best(1, lambda: [plugin.build_folder(f) for f in folders])
               for _ in range(max(3, repeat // 2))]
    rows.append((f"build the {len(folders)} bundled plugins", spread(build_s), "", ""))

    pieces = plugin.build_folder(PLUGINS.folder("ishido-pieces"))
    tbmps = [r for r in pieces.resources if r.type == "Tbmp"]
    many = Database(name="Thousand", type="data", creator="bnch", resources=[
        Resource("Tbmp", 1000 + i, tbmps[i % len(tbmps)].data) for i in range(1000)
    ])
    rows.append(extract_row("extract of 1,000 bitmaps", many, tmp, repeat))
    ram = Path("/dev/shm")
    if ram.is_dir() and os.access(ram, os.W_OK):
        # The same into a RAM folder: our own work, apart from this disk's file creation.
        with tempfile.TemporaryDirectory(dir=ram) as name:
            rows.append(extract_row("  the same into a RAM folder (/dev/shm)", many, Path(name),
                                    repeat))

    forced = best_sized = 0
    members: dict[str, list[bytes]] = {"forced": [], "best": []}
    for folder in [f for f in folders if "board" in f.name]:
        copy = tmp / f"best-{folder.name}"
        shutil.copytree(folder, copy)
        manifest = copy / "manifest.yaml"
        # Every bitmap's own choice dropped, then one default for all of them.
        lines = [line for line in manifest.read_text(encoding="utf-8").splitlines()
                 if "compression:" not in line]
        built = {}
        for codec in ("packbits", "best"):
            manifest.write_text("\n".join([*lines, "defaults:", f"  compression: {codec}", ""]),
                                encoding="utf-8")
            built[codec] = plugin.build_folder(copy)
        as_packbits, as_best = built["packbits"], built["best"]
        forced += len(as_packbits.to_bytes())
        best_sized += len(as_best.to_bytes())
        for db, which in ((as_packbits, "forced"), (as_best, "best")):
            members[which] += [r.data for r in db.resources if r.type == "Tbmp"]
    # Every bitmap of the boards decoded, the two builds in turns in each round; in
    # CPU time (this process's own work: the load of a shared machine barely moves it).
    decoded: dict[str, list[float]] = {"forced": [], "best": []}
    for found in members.values():
        [bitmap.decode(m) for m in found]  # not counted: loads what decoding loads
    for _ in range(max(3, repeat)):
        for which, found in members.items():
            start = time.process_time()
            [bitmap.decode(m) for m in found]
            decoded[which].append(time.process_time() - start)
    rows.append(("board plugins, all PackBits vs `best`",
                 f"{forced // 1024} KB, decode CPU {ms_spread(decoded['forced'])}",
                 f"`best` {best_sized // 1024} KB, decode CPU {ms_spread(decoded['best'])}",
                 f"x{best_sized / forced:.2f} size,"
                 f" decode {ratio_spread(decoded['best'], decoded['forced'])}"))
    return rows


def _speedups_state() -> str:
    try:
        from prc_tools import speedups
    except ImportError:  # a tree from before the C speedups
        return "none in this tree"
    if speedups.native is not None:
        return "on (PRC_TOOLS_PURE=1 measures the pure-Python code)"
    return "off" if speedups.built() is not None else "not built"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--no-window", action="store_true", help="packer rows only")
    parser.add_argument("--only", choices=["start", "sound", "rotate", "drag"],
                        help="start: only the start rows (warm and fresh data folder);"
                             " sound: only the first-sound row; rotate: only the turns;"
                             " drag: only CPU while dragging")
    args = parser.parse_args()
    window = not args.no_window
    only_start = args.only == "start"
    if window and not os.environ.get("DISPLAY"):
        status = under_xvfb(__file__, sys.argv[1:])
        if status is not None:
            return status
        print("(no DISPLAY and no xvfb-run: window rows skipped)")
        window = False
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} cores, load "
          f"{os.getloadavg()[0]:.1f}" if hasattr(os, "getloadavg") else "")
    print(f"prc_tools C speedups: {_speedups_state()}")
    with tempfile.TemporaryDirectory(ignore_cleanup_errors=True) as name:
        tmp = Path(name)
        if args.only == "sound":
            rows = [first_sound_row()] if window else []
        elif args.only == "rotate":
            rows = rotation_rows(tmp, args.repeat) if window else []
        elif args.only == "drag":
            rows = [drag_row(tmp, args.repeat)] if window else []
        else:
            rows = window_rows(args.repeat, tmp, only_start) if window else []
        if args.only is None:
            rows += packer_rows(args.repeat, tmp)
    widths = [max(len(r[i]) for r in rows) for i in range(4)]
    for row in (("what", "palmish", "reference", "ratio"), *rows):
        print("  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
