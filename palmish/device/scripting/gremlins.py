"""Gremlins: random taps, drags, keys, typed characters, menu commands, rotations, switches.

Like the Palm OS Emulator's Gremlins, the stream of events depends only on the
seed, so a failure can be replayed. After every event the device's invariants
are checked; the first exception or broken invariant stops the run and is
reported with the seed and the event number.
"""

from __future__ import annotations

import random
import traceback
from collections.abc import Callable
from dataclasses import dataclass

from palmish.device.events import (
    TYPED_MARKS,
    CharKey,
    Event,
    Key,
    KeyDown,
    MenuCommand,
    PenDown,
    PenUp,
    Rotate,
    ToggleInputArea,
)
from palmish.device.geometry import Rect
from palmish.device.machine.system import Device
from palmish.device.scripting.eventscript import drag_events

# How often each kind of action is picked (relative weights).
WEIGHTS: dict[str, int] = {
    "tap": 40,
    "drag": 15,
    "status-tap": 4,
    "key": 20,
    "menu": 6,
    "rotate": 3,
    "input-area": 3,
    "switch": 3,
    "wait": 6,
    "type": 3,  # typed characters, command strokes and Escape (Cancel)
}
TYPED = "0123456789abcdefghijklmnopqrstuvwxyz" + TYPED_MARKS + "\b\n"  # what a keyboard types
KEYS_WITHOUT_HOME = [k for k in Key if k not in (Key.HOME, Key.CANCEL)]


class InvariantBroken(AssertionError):
    pass


@dataclass
class GremlinsResult:
    seed: int
    events: int  # events sent (all of them when ok)
    ok: bool
    problem: str = ""  # one line: what went wrong
    detail: str = ""  # the traceback, for debugging


def check_invariants(device: Device) -> None:
    """What must hold after every event; InvariantBroken says which does not."""
    config = device.config
    screen = device.screen
    if (screen.width, screen.height) != (config.width, config.height):
        raise InvariantBroken(
            f"framebuffer {screen.width}x{screen.height} does not match "
            f"{config.name.value} {config.width}x{config.height}"
        )
    if screen.image.size != (config.width, config.height):
        raise InvariantBroken(f"framebuffer image is {screen.image.size}")
    if screen.density != config.density:
        raise InvariantBroken(f"framebuffer density {screen.density} is not {config.density}")
    bounds = config.app_bounds
    if not _inside(bounds, screen.bounds):
        raise InvariantBroken(f"app bounds {bounds} outside the screen")
    for rect in device.take_damage():
        if not _inside(rect, screen.bounds) or rect.w <= 0 or rect.h <= 0:
            raise InvariantBroken(f"damage {rect} outside the screen")
    for modal in device.modals:
        if not _inside(modal.bounds, screen.bounds):
            raise InvariantBroken(f"{type(modal).__name__} at {modal.bounds} outside the screen")
    if device.running_app not in device.apps:
        raise InvariantBroken("the running app is not installed")
    due = device.next_timer_ms()
    if due is not None and due < 0:
        raise InvariantBroken(f"timer due at {due} ms")
    for wave in device.take_sounds():
        if wave[:4] != b"RIFF":
            raise InvariantBroken("a queued sound is not a RIFF WAVE")


def _inside(inner: Rect, outer: Rect) -> bool:
    return inner.intersect(outer) == inner


class Gremlins:
    """A seeded stream of random device actions."""

    def __init__(self, device: Device, seed: int) -> None:
        self.device = device
        self.rng = random.Random(seed)
        self._kinds = list(WEIGHTS)
        self._weights = list(WEIGHTS.values())

    def action(self) -> list[Event | Callable[[], None]]:
        """The events (or device calls) of one random action."""
        rng = self.rng
        device = self.device
        kind = rng.choices(self._kinds, self._weights)[0]
        if kind == "tap":
            x, y = self._point(device.config.app_bounds)
            return [PenDown(x, y), PenUp(x, y)]
        if kind == "drag":
            x0, y0 = self._point(device.config.app_bounds)
            x1, y1 = self._point(device.screen.bounds)
            return [*drag_events(x0, y0, x1, y1, rng.randint(1, 6))]
        if kind == "status-tap":
            x, y = self._point(device.screen.bounds)  # anywhere, the OS areas included
            return [PenDown(x, y), PenUp(x, y)]
        if kind == "key":
            # Home mostly through switches, so the game gets played more than the launcher.
            key = Key.HOME if rng.random() < 0.05 else rng.choice(KEYS_WITHOUT_HOME)
            return [KeyDown(key)]
        if kind == "menu":
            commands = [item.command for menu in device.running_app.menus() for item in menu.items]
            return [MenuCommand(rng.choice(commands))] if commands else [KeyDown(Key.MENU)]
        if kind == "type":
            if rng.random() < 0.2:
                return [KeyDown(Key.CANCEL)]
            char = rng.choice(TYPED)
            return [CharKey(char, command=char.isalpha() and rng.random() < 0.5)]
        if kind == "rotate":
            return [Rotate()]
        if kind == "input-area":
            return [ToggleInputArea()]
        if kind == "switch":
            name = rng.choice(device.apps).name
            return [lambda: device.switch_to(name)]
        delay = rng.choice((0, 10, 100, 500, 2000))
        return [lambda: device.advance(device.now_ms + delay)]

    def _point(self, rect: Rect) -> tuple[int, int]:
        return (
            self.rng.randrange(rect.x, rect.right),
            self.rng.randrange(rect.y, rect.bottom),
        )


def run_gremlins(device: Device, events: int, seed: int) -> GremlinsResult:
    """Send `events` random events, checking invariants after each one."""
    gremlins = Gremlins(device, seed)
    sent = 0
    try:
        check_invariants(device)
        while sent < events:
            for item in gremlins.action():
                if sent >= events:
                    break
                sent += 1
                if callable(item):
                    item()
                else:
                    device.post(item)
                check_invariants(device)
        device.shutdown()
    except Exception as exc:  # any failure of an app or the device is the finding
        text = str(exc).strip().splitlines()
        problem = f"{type(exc).__name__}: {text[0]}" if text else type(exc).__name__
        return GremlinsResult(seed, sent, False, problem, traceback.format_exc())
    return GremlinsResult(seed, sent, True)
