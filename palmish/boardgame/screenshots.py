"""What the games' screenshot scripts (palmish/<game>/make_screenshots.py) share: their
command line, a device per configuration with the bundled plugins, and the LCD
saved as a PNG.

Only the screenshot scripts (and docs/screenshots/make_beam_screenshots.py) import
it; the contract they keep is in docs/architecture.md, "Adding a game".
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path

import palmish
from palmish.device.display import CONFIGS, ConfigName
from palmish.device.machine.app import App
from palmish.device.machine.system import Device

# Where the docs show them: the checkout's docs/screenshots/.
DOCS_SCREENSHOTS = Path(palmish.__file__).resolve().parents[1] / "docs" / "screenshots"


def screenshot_arguments(doc: str | None, argv: Sequence[str] | None) -> Path:
    """The scripts' command line: the --out folder (default docs/screenshots/)."""
    parser = argparse.ArgumentParser(description=(doc or "").splitlines()[0])
    parser.add_argument("--out", type=Path, default=DOCS_SCREENSHOTS,
                        help="where the pictures go (default: docs/screenshots/)")
    out: Path = parser.parse_args(argv).out
    out.mkdir(parents=True, exist_ok=True)
    return out


def start(config: ConfigName, data: Path, app: App, start_app: str) -> Device:
    """A device showing `app` in `config` with the bundled plugins, its storage in
    `data` (the same folder again resumes what the last device saved)."""
    return Device(CONFIGS[config], data, [app], start_app=start_app, durable=False,
                  alerts=False)


def save(device: Device, stem: str, config: ConfigName, *facts: str, out: Path) -> None:
    """out/<stem>-<config>.png: the LCD, without a skin; said on stderr with `facts`."""
    path = out / f"{stem}-{config.value}.png"
    device.screen.image.save(path, optimize=True)
    print(path, device.screen.image.size, *facts, file=sys.stderr)


def every_config(shoot: Callable[[ConfigName, Path], None]) -> int:
    """`shoot` once per configuration, all with one temporary folder; exit status 0."""
    with tempfile.TemporaryDirectory() as tmp:
        for config in ConfigName:
            shoot(config, Path(tmp))
    return 0
