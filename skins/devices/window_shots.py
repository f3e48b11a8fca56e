"""Screenshots of the real emulator window, one per configuration, to look at.

    xvfb-run -a -s "-screen 0 1280x1024x24" .venv/bin/python skins/devices/window_shots.py [OUT]

Runs the installed apps (the first game of the registry in front) on a fresh
device in each display configuration with its default skin, draws the window
and reads it back from the GL colour buffer, so the PNGs show exactly what a
player sees. OUT defaults to skins/devices/previews/.
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

os.environ.setdefault("PYGLET_AUDIO", "silent")

SHOTS = (("square", 1), ("tall", 1), ("wide", 1), ("square-low", 1))


def main() -> int:
    import pyglet

    from palmish.apps import installed_apps
    from palmish.device.display import config_by_name
    from palmish.device.machine.system import Device
    from palmish.frontend.devicewindow import DeviceWindow
    from palmish.frontend.skin import default_skin_name, load_skin
    from palmish.games import games

    out = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).parent / "previews"
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as data:
        for name, zoom in SHOTS:
            config = config_by_name(name)
            apps = installed_apps()
            front = games()[0].id if games() else None  # the first game, as a start shows
            device = Device(config, Path(data), apps, front, durable=False, alerts=False)
            skin = default_skin_name(config)
            window = DeviceWindow(device, load_skin(skin), zoom)
            pyglet.window.Window._enable_event_queue = False
            window.frame()
            path = out / f"{skin}-{name}.png"
            window.capture().save(path, optimize=True)
            print(f"wrote {path} ({device.running_app.name})")
            device.shutdown()
            window.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
