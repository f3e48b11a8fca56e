"""Write docs/screenshots/sigmar-<config>.png: Sigmar's Garden mid-game in every configuration.

    .venv/bin/python -m palmish.sigmar.make_screenshots [--out DIR]

The same random board and the solver's first takes each time, then an atom
selected (its partners marked), through the real Device with the bundled
plugins. Wide shows the second sets (Glyph Atoms on the Parchment Board). The
pictures are the LCD, without a skin.
"""

from __future__ import annotations

import tempfile
from collections.abc import Sequence
from pathlib import Path

from palmish.boardgame.screenshots import save, screenshot_arguments, start
from palmish.device.display import ConfigName
from palmish.device.events import PenDown, PenUp
from palmish.device.machine.system import Device
from palmish.sigmar import Game, solver
from palmish.sigmar.app import SigmarApp

BOARD = 2026  # a random board's number
TAKES = 9


def tap(device: Device, app: SigmarApp, cell: tuple[int, int]) -> None:
    assert app.layout is not None
    r = app.layout.cell_rect(*cell)
    device.post(PenDown(r.x + r.w // 2, r.y + r.h // 2))
    device.post(PenUp(r.x + r.w // 2, r.y + r.h // 2))


def main(argv: Sequence[str] | None = None) -> int:
    out = screenshot_arguments(__doc__, argv)
    with tempfile.TemporaryDirectory() as tmp:
        for name in ConfigName:
            app = SigmarApp()
            device = start(name, Path(tmp) / name.value, app, "sigmar")
            if name is ConfigName.WIDE:
                device.context.choose_plugin("pieces", "wide", "Glyph Atoms")
                device.context.choose_plugin("board", "wide", "Parchment Board")
            app.start_game(Game.new(seed=BOARD))
            takes = solver.solve(app.game)
            assert takes is not None
            for t in takes[:TAKES]:
                tap(device, app, t.a)
                if t.b is not None:
                    tap(device, app, t.b)
            nxt = takes[TAKES]
            tap(device, app, nxt.a)  # selected: its partners are marked
            app.relayout()
            save(device, "sigmar", name, f"{app.game.remaining} atoms left", out=out)
            device.shutdown()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
