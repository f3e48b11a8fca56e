"""Write docs/screenshots/ishido-<config>.png: PalmIshido mid-game in every configuration.

    .venv/bin/python -m palmish.ishido.make_screenshots [--out DIR]

The same deal and moves each time (a greedy player that prefers cells with the
most neighbours), with the Up/Down mark on a legal cell, through the real
Device with the bundled plugins. The pictures are the LCD, without a skin.
"""

from __future__ import annotations

import tempfile
from collections.abc import Sequence
from pathlib import Path

from palmish.boardgame.screenshots import save, screenshot_arguments, start
from palmish.device.display import ConfigName
from palmish.device.events import Key, KeyDown, PenDown, PenUp
from palmish.ishido.app import IshidoApp

SEED = 42  # greedy play makes two four-ways in this deal: the Roman numerals show
MOVES = 45


def main(argv: Sequence[str] | None = None) -> int:
    out = screenshot_arguments(__doc__, argv)
    with tempfile.TemporaryDirectory() as tmp:
        data = Path(tmp)
        for name in ConfigName:
            app = IshidoApp()
            device = start(name, data, app, "PalmIshido")
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
            save(device, "ishido", name, f"score {app.game.score}",
                 f"four-ways {app.game.fourways}", out=out)
            device.post(KeyDown(Key.UP))  # unmark before saving the shared game
            device.shutdown()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
