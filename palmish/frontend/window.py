"""`run(device, skin, zoom)`: the emulator window, as the command line opens it.

pyglet connects to the display as soon as its window module is imported, so
it is imported here only once the options are known to be good; a machine
without a display or OpenGL gets one line and exit status 1, not a traceback.
"""

from __future__ import annotations

import gc
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Protocol, runtime_checkable

from palmish.device.disk.storage import report_to_stderr
from palmish.frontend.skin import SkinError, default_skin_name, load_skin

if TYPE_CHECKING:
    from palmish.frontend.devicewindow import DeviceLike

# The longest the idle warm-up holds the event loop at a time (input waits at most this).
WARM_SLICE_S = 0.004


@runtime_checkable
class WarmsUp(Protocol):
    """A device that, once the first frame is up, makes what later turns need
    (palmish.device.machine.system.Device; a test's bare device need not)."""

    def prepare_in_background(self) -> object:
        """Start building the plugins and art a later turn will need."""

    def warm_up(self) -> bool:
        """Make one more bitmap ahead of time; whether there is more to make."""


@runtime_checkable
class Watcher(Protocol):
    """Something the window asks every `interval_s` whether the device changed (a
    preview's folder, the installed plugins): a cheap check, no thread."""

    interval_s: float

    def poll(self) -> bool:
        """Look once; True when the device's screen may have changed."""


def _fail(message: str) -> int:
    report_to_stderr(message)  # a skin's file names and values, escaped
    return 1


def _reason(exc: BaseException) -> str:
    text = str(exc).splitlines()[0] if str(exc) else ""
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


def run(device: DeviceLike, skin: str | None = None, zoom: int = 1,
        cache_dir: Path | None = None, watchers: Sequence[Watcher] = ()) -> int:
    """Open the device window and run until it is closed; the exit status.

    The caller owns the device: it should call device.shutdown() afterwards.
    `cache_dir`: where the skin read at start is kept for the next one.
    `watchers`: asked on pyglet's clock, each at its own interval.
    """
    if zoom < 1:
        return _fail(f"--zoom must be 1 or more, not {zoom}")
    try:
        chosen = load_skin(skin or default_skin_name(device.config), cache_dir=cache_dir)
        # Made now: a picture that cannot be read is one line, not a traceback.
        chosen.face_for(device.config).bezel(chosen.background)
    except SkinError as exc:
        return _fail(str(exc))
    try:
        import pyglet

        from palmish.frontend.devicewindow import DeviceWindow
        from palmish.frontend.glconfig import window_config

        display = pyglet.display.get_display()  # the connection the window will use
    except Exception as exc:  # pyglet raises its own types when X or GL is missing
        return _fail(f"cannot open a window, no usable display ({_reason(exc)})")
    try:
        config = window_config(display)
    except Exception:  # pyglet's X classes not as expected: pyglet chooses itself
        config = None
    try:
        window = DeviceWindow(device, chosen, zoom, **({"config": config} if config else {}))
    except Exception as exc:  # no GL context of the needed kind, display gone, ...
        return _fail(f"cannot open a window ({_reason(exc)})")
    screen = window.screen
    width, height = window.layout.window_size
    if width > screen.width or height > screen.height:
        print(
            f"palmish: note: the {width}x{height} window is larger than the"
            f" {screen.width}x{screen.height} screen; a smaller --zoom would fit",
            file=sys.stderr,
        )
    warming = device if isinstance(device, WarmsUp) else None
    turn_ready = [False]

    def warm_step(_dt: float) -> None:
        # Small steps for up to WARM_SLICE_S, then back to the event loop, so input
        # is handled at once between slices. The turned device first (its bezel and
        # LCD textures, then one bitmap per step): a turn is what a new user tries
        # first; then the audio path (the first tap's sound).
        ends = time.perf_counter() + WARM_SLICE_S
        more = True
        while more and time.perf_counter() < ends and not window.has_exit:
            if not turn_ready[0]:
                window.prepare_turn()
                turn_ready[0] = True
                continue
            more = ((warming is not None and warming.warm_up())
                    or window.sounds.warm_up())
        if more and not window.has_exit:
            pyglet.clock.schedule_once(warm_step, 0)

    def start_preparing(_dt: float) -> None:
        if window.frames_drawn == 0:  # not before the first frame is up
            pyglet.clock.schedule_once(start_preparing, 0.01)
            return
        gc.enable()  # the command line holds cyclic collection back until now
        if warming is not None:
            warming.prepare_in_background()
        warm_step(0.0)

    for watcher in watchers:
        pyglet.clock.schedule_interval(window.watched, watcher.interval_s, watcher)
    # Once the first frame is up: the plugins and art a later turn will need.
    pyglet.clock.schedule_once(start_preparing, 0)
    pyglet.app.run(None)  # no redraw interval: frames are drawn on demand
    window.close()
    return 0
