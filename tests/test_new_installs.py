"""Every kind `prc-tools new` makes, of every game, goes the whole way unedited: new,
build, verify, `palmish install` into a fresh data folder, and the game takes it (a
plugin is listed and chosen; a Levels database's levels are in the game's list and
open) (issue 42)."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from palmish import cli as palmish_cli
from palmish.apps import installed_apps, real_app
from palmish.device.display import CONFIGS, ConfigName
from palmish.device.events import PluginsChanged
from palmish.device.machine.system import Device
from prc_tools import cli as prc_tools_cli
from prc_tools.schema import registry
from prc_tools.studio.catalog import kinds

EVERY_KIND = [(schema.game, kind) for schema in registry() for kind in kinds(schema)]


def test_the_loop_covers_the_levels() -> None:
    assert ("sigmar", "levels") in EVERY_KIND


@pytest.mark.parametrize(("game", "kind"), EVERY_KIND)
def test_a_new_folder_builds_installs_and_the_game_takes_it(
        game: str, kind: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    schema = registry().get(game)
    assert schema is not None
    folder, built, data = tmp_path / kind, tmp_path / f"{kind}.prc", tmp_path / "data"
    assert prc_tools_cli.main(["new", game, kind, str(folder)]) == 0
    assert prc_tools_cli.main(["build", "-q", str(folder), "-o", str(built)]) == 0
    assert prc_tools_cli.main(["verify", str(built)]) == 0
    capsys.readouterr()
    assert palmish_cli.main(["install", str(built), "--data-dir", str(data)]) == 0
    said = capsys.readouterr()
    assert said.err == "" and said.out.startswith("installed "), said
    manifest = yaml.safe_load((folder / "manifest.yaml").read_text(encoding="utf-8"))
    config = (manifest.get("configs") or ["square"])[0]
    device = Device(CONFIGS[ConfigName(config)], data, installed_apps(), game,
                    durable=False, alerts=False)
    try:
        sample = schema.samples.get(kind)
        if sample is not None:  # a game's data: its levels are listed, and open
            app = real_app(device.running_app)
            for item in sample.files:
                assert app.open_board(str(item.id)) is None  # type: ignore[attr-defined]
                assert app.game.level == str(item.id)  # type: ignore[attr-defined]
                listed = [e for e in app.levels if e.id == str(item.id)]  # type: ignore[attr-defined]
                assert listed and listed[0].file is not None  # the installed one
            return
        info = device.plugins.by_name(schema.creator, kind, manifest["name"])
        assert info is not None and not info.bundled and config in info.configs
        device.plugins.choose(info.creator, info.kind, config, info.name)
        device.post(PluginsChanged())  # the game lays out again with it, and draws
        assert device.plugins.choice(info.creator, info.kind, config) == info.name
    finally:
        device.shutdown()
