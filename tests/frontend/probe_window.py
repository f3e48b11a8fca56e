"""Run the real `palmish.frontend.window.run` loop on the probe app, then report.

Used by test_run_loop.py as a subprocess (so the pyglet event loop runs as it
does for a player): `python probe_window.py CONFIG SKIN ZOOM DATA_DIR`. When
the window closes it prints one JSON line: the final config, the framebuffer
size and the events the app received.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

os.environ["PYGLET_AUDIO"] = "silent"
sys.path.insert(0, str(Path(__file__).resolve().parent))

from probe import ProbeApp

from palmish.device.display import config_by_name
from palmish.device.machine.system import Device
from palmish.frontend.window import run


def main() -> int:
    config, skin, zoom, data = sys.argv[1], sys.argv[2], int(sys.argv[3]), Path(sys.argv[4])
    app = ProbeApp()
    empty = data / "no-plugins"
    empty.mkdir(parents=True, exist_ok=True)
    device = Device(config_by_name(config), data / "store", [app], durable=False,
                    bundled_plugins=empty, alerts=False)
    status = run(device, skin, zoom)
    device.shutdown()
    report = {
        "status": status,
        "config": device.config.name.value,
        "screen": list(device.screen.image.size),
        "events": [type(e).__name__ + json.dumps(getattr(e, "__dict__", {}), default=str)
                   for e in app.events],
    }
    print(json.dumps(report))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
