"""What the make_*_screenshots.py scripts share: a device per configuration
with the bundled plugins, and the LCD saved next to the scripts.

The scripts import it as a sibling (`python docs/screenshots/make_X_screenshots.py`
puts this folder first on the path).
"""

from __future__ import annotations

import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

from palmish.device.app import App
from palmish.device.display import CONFIGS, ConfigName
from palmish.device.system import Device

HERE = Path(__file__).resolve().parent
PLUGINS = HERE.parents[1] / "skins" / "plugins"


def start(config: ConfigName, data: Path, app: App, start_app: str) -> Device:
    """A device showing `app` in `config`, its storage in `data` (the same folder
    again resumes what the last device saved)."""
    return Device(CONFIGS[config], data, [app], start_app=start_app,
                  bundled_plugins=PLUGINS, durable=False, alerts=False)


def save(device: Device, game: str, config: ConfigName, *facts: str) -> None:
    """docs/screenshots/<game>-<config>.png: the LCD, without a skin."""
    out = HERE / f"{game}-{config.value}.png"
    device.screen.image.save(out, optimize=True)
    print(out, device.screen.image.size, *facts, file=sys.stderr)


def every_config(shoot: Callable[[ConfigName, Path], None]) -> int:
    """`shoot` once per configuration, all with one temporary folder; exit status 0."""
    with tempfile.TemporaryDirectory() as tmp:
        for config in ConfigName:
            shoot(config, Path(tmp))
    return 0
