"""Pachisi as the emulator lists it before importing it (palmish.games)."""

from pathlib import Path

from palmish.games import GameDescriptor

GAME = GameDescriptor(
    id="pachisi",
    name="Pachisi",
    creator="PPch",
    app="palmish.pachisi.app:PachisiApp",
    schema=Path(__file__).with_name("plugin-schema.yaml"),
    hard_button=3,
    art_script="palmish.pachisi.make_art:main",
    screenshot_script="palmish.pachisi.make_screenshots:main",
    network="palmish.pachisi.net.engine:ENGINE",
    network_screenshot_script="palmish.pachisi.net.make_table_screenshots:main",
)
