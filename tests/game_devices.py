"""What the game app tests share: the bundled plugins built once a session, a
real Device whose storage starts from a copy of that build, and the pen."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from palmish.device.disk.resources import bundled_plugins
from palmish.device.display import CONFIGS, ConfigName
from palmish.device.events import PenDown, PenUp
from palmish.device.geometry import Rect
from palmish.device.machine.app import App
from palmish.device.machine.system import Device

PLUGINS = bundled_plugins()  # every game's plugins/ folder, and the prebuilt ones


def build_plugins(tmp_path_factory: pytest.TempPathFactory, name: str, app: App) -> Path:
    """The bundled plugins built by a device running `app`: the cache folder to copy."""
    data = tmp_path_factory.mktemp(name)
    device = Device(CONFIGS[ConfigName.SQUARE], data, [app], bundled_plugins=PLUGINS,
                    durable=False, alerts=False)
    assert device.messages == []
    device.shutdown()
    return data / "cache"


def start_device(app: App, start_app: str, built: Path, config: ConfigName,
                 data: Path, **options: Any) -> Device:
    """A device running `app` on `data`, whose cache starts as a copy of `built`
    (copytree keeps the mtimes, so nothing is built again); the same data folder
    again resumes what the last device saved. `options` go to Device (alerts
    are off unless given)."""
    if not (data / "cache").exists():
        shutil.copytree(built, data / "cache")
    options.setdefault("alerts", False)
    return Device(CONFIGS[config], data, [app], start_app=start_app,
                  bundled_plugins=PLUGINS, durable=False, **options)


def centre(r: Rect) -> tuple[int, int]:
    return (r.x + r.w // 2, r.y + r.h // 2)


def tap(device: Device, x: int, y: int) -> None:
    device.post(PenDown(x, y))
    device.post(PenUp(x, y))


def run_timers_while(device: Device, going: Callable[[], bool], most: int = 100_000) -> int:
    """Let device time run to one due timer after another while `going()` (an app
    thinking in slices); how many timers fired."""
    for fired in range(most):
        if not going():
            return fired
        due = device.next_timer_ms()
        assert due is not None  # its next slice
        device.advance(due)
    raise AssertionError(f"still going after {most} timers")
