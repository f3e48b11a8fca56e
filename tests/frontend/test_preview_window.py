"""`palmish preview` in a real window: a save in the folder reaches the window through
its clock (the watcher's turn, `DeviceWindow.watched`) and the new picture is drawn;
a broken save leaves the window up with the problem over the last good build."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest
from PIL import Image

from .conftest import needs_display

pytestmark = [pytest.mark.window, needs_display]

MAGENTA = (255, 0, 255)


def _paint(path: Path, colour: tuple[int, int, int], grow: int = 0) -> None:
    with Image.open(path) as old:
        size = (old.width + grow, old.height)
    Image.new("RGB", size, colour).save(path)
    later = time.time_ns() + 10_000_000_000
    os.utime(path, ns=(later, later))


def test_a_save_is_drawn_in_the_window_and_an_error_keeps_it_open(tmp_path: Path) -> None:
    import pyglet

    from palmish.apps import installed_apps
    from palmish.commands.preview_session import Preview
    from palmish.device.display import CONFIGS, ConfigName
    from palmish.device.machine.system import Device
    from palmish.device.ui.status_strip import RED
    from palmish.frontend.devicewindow import DeviceWindow
    from palmish.frontend.skin import load_skin
    from prc_tools.cli import main as prc_tools

    folder = tmp_path / "board"
    assert prc_tools(["new", "ishido", "board", "--config", "square", str(folder)]) == 0
    device = Device(CONFIGS[ConfigName.SQUARE], tmp_path / "data", installed_apps(), "ishido",
                    durable=False, alerts=False)
    said: list[str] = []
    preview = Preview(device, folder, "ishido", "board", said.append)
    preview.rebuild()
    window = DeviceWindow(device, load_skin("t3"))
    pyglet.window.Window._enable_event_queue = False
    try:
        window.frame()
        assert MAGENTA not in set(window.capture().get_flattened_data())
        _paint(folder / "board.png", MAGENTA)
        drawn = window.frames_drawn
        window.watched(0.1, preview)  # the clock's turns: seen, then settled and built
        window.watched(0.1, preview)
        assert window.frames_drawn > drawn
        assert MAGENTA in set(window.capture().get_flattened_data())
        _paint(folder / "board.png", (0, 0, 0), grow=1)  # a wrong size
        window.watched(0.1, preview)
        window.watched(0.1, preview)
        shown = set(window.capture().get_flattened_data())
        assert not window.has_exit and preview.problem is not None
        assert RED in shown and MAGENTA in shown  # the problem over the last good build
    finally:
        window.close()
        device.shutdown()
