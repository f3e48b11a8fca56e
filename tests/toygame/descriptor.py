"""The toy game as the emulator lists it before importing it."""

from pathlib import Path

from palmish.games import GameDescriptor, GameOption

GAME = GameDescriptor(
    id="toy",
    name="Lamps",
    creator="PToy",
    app="tests.toygame.app:LampsApp",
    schema=Path(__file__).with_name("plugin-schema.yaml"),
    options=(GameOption("--lit", "CELLS", "light these cells first, e.g. 0,4,8"),),
)
