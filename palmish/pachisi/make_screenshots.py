"""Write docs/screenshots/pachisi-<config>.png: Pachisi mid-game in every configuration.

    .venv/bin/python -m palmish.pachisi.make_screenshots [--out DIR]

The same game each time: you against Silicon, Silicon1 and Silicon2 with the
seed below, played through the real Device with the bundled plugins (you take
Silicon's advice through Game > Hint), stopped on your turn with the marker on
a piece and its target marked. The pictures are the LCD, without a skin.
"""

from __future__ import annotations

import tempfile
from collections.abc import Sequence
from pathlib import Path

from palmish.boardgame.screenshots import save, screenshot_arguments, start
from palmish.device.display import ConfigName
from palmish.device.events import Key, KeyDown, MenuCommand
from palmish.device.machine.system import Device
from palmish.pachisi import Game, Player
from palmish.pachisi.app import SPEED_MS, PachisiApp

SEED = 2026
PLAYERS = (Player("You"), Player("Silicon", True), Player("Silicon1", True),
           Player("Silicon2", True))
THROWS = 100  # pieces all round the cross, some finished


def play(device: Device, app: PachisiApp) -> None:
    app.load_game(Game.new(seed=SEED, players=PLAYERS))
    while len(app.game.history) < THROWS or not (app.human_turn and app.game.phase == "move"):
        if app.game.over:
            raise SystemExit("the game ended before the picture; choose another SEED")
        if device.modals or app.scene.notice:
            device.post(KeyDown(Key.SELECT))  # a message
        elif app.human_turn:
            if app.game.phase == "move":
                device.post(MenuCommand("hint"))
                if device.modals:  # "Silicon would pass."
                    device.post(KeyDown(Key.SELECT))
                    device.post(MenuCommand("pass"))
                    continue
            device.post(KeyDown(Key.SELECT))
        else:
            device.advance(device.now_ms + SPEED_MS["normal"])


def main(argv: Sequence[str] | None = None) -> int:
    out = screenshot_arguments(__doc__, argv)
    with tempfile.TemporaryDirectory() as tmp:
        data = Path(tmp)
        for name in ConfigName:
            app = PachisiApp()
            device = start(name, data, app, "pachisi")
            if app.game.seed != SEED:
                play(device, app)  # the first run plays; later runs resume the game
            device.advance(device.now_ms + 2 * SPEED_MS["slow"])  # a slide ends, a box clears
            save(device, "pachisi", name, f"throws {len(app.game.history)}", out=out)
            device.shutdown()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
