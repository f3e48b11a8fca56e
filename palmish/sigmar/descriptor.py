"""Sigmar's Garden as the emulator lists it before importing it (palmish.games)."""

from pathlib import Path

from palmish.games import GameDescriptor, GameOption

GAME = GameDescriptor(
    id="sigmar",
    name="Sigmar's Garden",
    creator="PSgm",
    app="palmish.sigmar.app:SigmarApp",
    schema=Path(__file__).with_name("plugin-schema.yaml"),
    icon_name="Sigmar",  # "Sigmar's Garden" is cut off under a launcher icon
    hard_button=2,
    installer="palmish.sigmar.install:install",  # level files and Levels databases
    options=(GameOption("--board", "ID",
                        "open this board: a level number or name, or ? for a random one"),
             GameOption("--garden", "NAME",
                        "play this garden: hexagonal (Opus Magnum's) or square (the remake)")),
    beam="palmish.sigmar.beam:BEAM",  # a board or a level (docs/network.md, "Beam")
    art_script="palmish.sigmar.make_art:main",
    screenshot_script="palmish.sigmar.make_screenshots:main",
)
