"""PalmIshido as the emulator lists it before importing it (palmish.games)."""

from pathlib import Path

from palmish.games import GameDescriptor

GAME = GameDescriptor(
    id="ishido",
    name="PalmIshido",
    creator="PIsh",
    app="palmish.ishido.app:IshidoApp",
    schema=Path(__file__).with_name("plugin-schema.yaml"),
    hard_button=1,
    beam="palmish.ishido.beam:BEAM",  # a deal (docs/network.md, "Beam")
    art_script="palmish.ishido.make_art:main",
    screenshot_script="palmish.ishido.make_screenshots:main",
)
