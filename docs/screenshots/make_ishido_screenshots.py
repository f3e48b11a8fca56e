"""Write docs/screenshots/ishido-<config>.png: PalmIshido mid-game in every configuration.

    .venv/bin/python docs/screenshots/make_ishido_screenshots.py

The same deal and moves each time (a greedy player that prefers cells with the
most neighbours), with the Up/Down mark on a legal cell, through the real
Device with the bundled plugins. The pictures are the LCD, without a skin.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from palmish.device.display import CONFIGS, ConfigName
from palmish.device.events import Key, KeyDown, PenDown, PenUp
from palmish.device.system import Device
from palmish.ishido.app import IshidoApp

HERE = Path(__file__).resolve().parent
PLUGINS = HERE.parents[1] / "skins" / "plugins"
SEED = 42  # greedy play makes two four-ways in this deal: the Roman numerals show
MOVES = 45


def main() -> int:
    with tempfile.TemporaryDirectory() as tmp:
        data = Path(tmp)
        for name in ConfigName:
            app = IshidoApp()
            device = Device(CONFIGS[name], data, [app], start_app="PalmIshido",
                            bundled_plugins=PLUGINS, durable=False, alerts=False)
            if app.game.seed != SEED:
                app.deal(SEED)  # the first run deals; later runs resume it
                for _ in range(MOVES):
                    legal = app.game.legal_moves()
                    if not legal:
                        break
                    best = max(legal, key=lambda rc: (app.game.neighbour_count(*rc), rc))
                    assert app.layout is not None
                    cell = app.layout.cell_rect(*best)
                    device.post(PenDown(cell.x + 2, cell.y + 2))
                    device.post(PenUp(cell.x + 2, cell.y + 2))
            device.post(KeyDown(Key.DOWN))
            out = HERE / f"ishido-{name.value}.png"
            device.screen.image.save(out, optimize=True)
            print(out, device.screen.image.size, f"score {app.game.score}",
                  f"four-ways {app.game.fourways}", file=sys.stderr)
            device.post(KeyDown(Key.UP))  # unmark before saving the shared game
            device.shutdown()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
