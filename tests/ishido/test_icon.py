"""PalmIshido's launcher icon: its own stones, not the launcher's generic card."""

from __future__ import annotations

from pathlib import Path

from palmish.device.display import CONFIGS, ConfigName
from palmish.device.machine.system import Device
from palmish.ishido.app import IshidoApp
from palmish.ishido.art import FALLBACK_COLOURS
from palmish.launcher import LauncherApp
from palmish.launcher.app import default_icon
from tests.game_devices import PLUGINS


def test_the_launcher_shows_ishido_stones(tmp_path: Path) -> None:
    icon = IshidoApp().icon()
    assert icon is not None and icon.size == (22, 22)
    assert icon.tobytes() != default_icon(1).tobytes()
    device = Device(CONFIGS[ConfigName.SQUARE_LOW], tmp_path, [LauncherApp(), IshidoApp()],
                    start_app="launcher", bundled_plugins=PLUGINS, durable=False, alerts=False)
    colours = {c for _, c in device.screen.image.convert("RGB").getcolors(1 << 20) or []}
    assert set(FALLBACK_COLOURS[:4]) <= colours  # the four stones are in Ishido's cell
    device.shutdown()
