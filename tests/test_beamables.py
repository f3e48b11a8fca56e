"""A game's Beamable and its app (docs/architecture.md, "Adding a game"): the beam
module knows no app class; the running game's item and the opening of a received
number are the app's own `beam_item` and `open_beamed`, which the Beamable passes
on once the app is its game's, through a LazyApp too."""

from __future__ import annotations

import re
from pathlib import Path
from typing import cast

import pytest

from palmish.apps import LazyApp, installed_apps
from palmish.device.disk.resources import bundled_plugins
from palmish.device.display import CONFIGS, ConfigName
from palmish.device.exchange import BeamItem
from palmish.device.machine.app import App
from palmish.device.machine.beamable import Beamable
from palmish.device.machine.system import Device
from palmish.games import GameDescriptor, games, load
from palmish.launcher import LauncherApp

PLUGINS = bundled_plugins()


def beaming_games() -> list[object]:
    """(game, its Beamable) of every game that beams, as pytest's parameters."""
    return [pytest.param(game, cast(Beamable, load(game.beam)), id=game.id)
            for game in games() if game.beam is not None]


def test_an_app_beams_nothing_and_opens_nothing_of_its_own() -> None:
    app = App()
    assert app.beam_item() is None
    with pytest.raises(ValueError, match="a board does not open in App"):
        app.open_beamed(BeamItem("board", "x", number=3), ask=False)


@pytest.mark.parametrize(("game", "beamable"), beaming_games())
def test_a_game_beam_takes_nothing_from_and_opens_nothing_in_another_app(
        game: GameDescriptor, beamable: Beamable) -> None:
    other = LauncherApp()
    assert beamable.current_item(other) is None
    for kind in beamable.number_kinds():
        with pytest.raises(ValueError, match=re.escape(f"a {kind} opens in {game.name}")):
            beamable.open(other, BeamItem(kind, game.id, number=3), ask=False)


@pytest.mark.parametrize(("game", "beamable"), beaming_games())
def test_a_lazy_app_passes_a_beam_on_to_its_game(
        game: GameDescriptor, beamable: Beamable, tmp_path: Path) -> None:
    kinds = beamable.number_kinds()
    if not kinds:
        pytest.skip(f"{game.id} beams no number")
    device = Device(CONFIGS[ConfigName.SQUARE], tmp_path, installed_apps(), game.id,
                    bundled_plugins=PLUGINS, durable=False, alerts=False)
    try:
        lazy = device.running_app
        assert isinstance(lazy, LazyApp) and lazy.descriptor is game
        assert beamable.current_item(lazy) == lazy.app().beam_item()
        beamable.open(lazy, BeamItem(kinds[0], game.id, number=5), ask=False)
        assert beamable.current_item(lazy) == BeamItem(kinds[0], game.id, number=5)
    finally:
        device.shutdown()
