"""Window-test helpers: a real Device with the probe app, shown in a real pyglet window.

Sound is forced silent by the root tests/conftest.py, before anything imports
pyglet, so the tests never depend on a sound card or server. Window tests
need an X server (Xvfb in CI: `make test` wraps pytest in xvfb-run); they
skip only when there is no DISPLAY outside CI.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from palmish.device.display import CONFIGS, ConfigName

from .probe import ProbeApp

if TYPE_CHECKING:
    from palmish.frontend.devicewindow import DeviceWindow

# Window tests skip without an X server only outside CI; in CI (CI=true) they must run.
needs_display = pytest.mark.skipif(
    not os.environ.get("DISPLAY") and not os.environ.get("CI"),
    reason="no X server (run under xvfb-run, as `make test` does)",
)


WindowFactory = Callable[..., "tuple[DeviceWindow, ProbeApp]"]


@pytest.fixture
def open_window(tmp_path: Path) -> Iterator[WindowFactory]:
    """open_window(config="square", skin=None, zoom=1) -> (DeviceWindow, ProbeApp)."""
    import pyglet

    from palmish.device.machine.system import Device
    from palmish.frontend.devicewindow import DeviceWindow
    from palmish.frontend.skin import default_skin_name, load_skin

    windows: list[DeviceWindow] = []

    def factory(
        config: str = "square", skin: str | None = None, zoom: int = 1
    ) -> tuple[DeviceWindow, ProbeApp]:
        cfg = CONFIGS[ConfigName(config)]
        app = ProbeApp()
        empty = tmp_path / "no-plugins"
        empty.mkdir(exist_ok=True)
        device = Device(
            cfg, tmp_path / "data", [app], durable=False, bundled_plugins=empty, alerts=False
        )
        window = DeviceWindow(device, load_skin(skin or default_skin_name(cfg)), zoom)
        # Pitfall 1 of the pyglet notes: deliver dispatched events at once.
        pyglet.window.Window._enable_event_queue = False
        windows.append(window)
        window.frame()
        return window, app

    yield factory
    for window in windows:
        window.close()
