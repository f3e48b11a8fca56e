"""Write docs/screenshots/sigmar-<config>.png and sigmar-hex-<config>.png: both of
Sigmar's Gardens mid-game in every configuration.

    .venv/bin/python -m palmish.sigmar.make_screenshots [--out DIR]

The same random board of each garden and the solver's first takes each time,
then an atom selected (its partners marked), through the real Device with the
bundled plugins. Wide shows the second sets (Glyph Atoms on the Parchment
Board, the Hex Parchment Board in the hexagonal garden). The pictures are the
LCD, without a skin.
"""

from __future__ import annotations

import tempfile
from collections.abc import Sequence
from pathlib import Path

from palmish.boardgame.screenshots import save, screenshot_arguments, start
from palmish.device.display import ConfigName
from palmish.device.events import PenDown, PenUp
from palmish.device.machine.system import Device
from palmish.sigmar import garden
from palmish.sigmar.app import SigmarApp
from palmish.sigmar.atoms import Take

# Each garden's board (a random board's number) and how many takes in it is shown.
SHOTS = {garden.SQUARE: ("sigmar", 2026, 9), garden.HEXAGONAL: ("sigmar-hex", 2026, 8)}


def tap(device: Device, app: SigmarApp, cell: tuple[int, int]) -> None:
    assert app.layout is not None
    r = app.layout.cell_rect(*cell)
    device.post(PenDown(r.x + r.w // 2, r.y + r.h // 2))
    device.post(PenUp(r.x + r.w // 2, r.y + r.h // 2))


def solution(game: garden.Garden) -> list[Take]:
    """A whole solution of a generated board (every one has one)."""
    steps = garden.solving(game, max_nodes=10**7)
    try:
        while True:
            next(steps)
    except StopIteration as done:
        takes: list[Take] | None = done.value
    assert takes is not None
    return takes


def main(argv: Sequence[str] | None = None) -> int:
    out = screenshot_arguments(__doc__, argv)
    with tempfile.TemporaryDirectory() as tmp:
        for which, (stem, board, count) in SHOTS.items():
            for name in ConfigName:
                app = SigmarApp()
                app.accept_option("--garden", which)
                device = start(name, Path(tmp) / f"{which}-{name.value}", app, "sigmar")
                if name is ConfigName.WIDE:
                    device.context.choose_plugin("pieces", "wide", "Glyph Atoms")
                    device.context.choose_plugin("board", "wide", "Parchment Board")
                    device.context.choose_plugin("hexboard", "wide", "Hex Parchment Board")
                    app.relayout()
                app.start_game(garden.new_game(which, board))
                takes = solution(app.game)
                for t in takes[:count]:
                    tap(device, app, t.a)
                    if t.b is not None:
                        tap(device, app, t.b)
                tap(device, app, takes[count].a)  # selected: its partners are marked
                app.relayout()
                save(device, stem, name, f"{app.game.remaining} atoms left", out=out)
                device.shutdown()
    return 0

if __name__ == "__main__":
    raise SystemExit(main())
