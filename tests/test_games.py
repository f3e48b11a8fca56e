"""The game registry (palmish/games.py): every game is declared once, beside itself.

Outside a game's own package nothing names it but setup.cfg's entry point for
prc_tools; that entry point and the descriptor agree on the schema."""

from __future__ import annotations

import configparser
import importlib
import re
import runpy
import subprocess
import sys
from pathlib import Path

import pytest

from palmish.gamecheck import check, plugins_folder
from palmish.games import GameDescriptor, games, load
from prc_tools import schema

ROOT = Path(__file__).resolve().parents[1]


def schema_entry_points() -> dict[str, str]:
    """setup.cfg's prc_tools.plugin_schemas entry points: game -> target."""
    setup = configparser.ConfigParser()
    setup.read(ROOT / "setup.cfg", encoding="utf-8")
    entries = {}
    for line in setup["options.entry_points"]["prc_tools.plugin_schemas"].strip().splitlines():
        name, _, target = line.partition("=")
        entries[name.strip()] = target.strip()
    return entries


def test_there_are_games_and_each_descriptor_is_good() -> None:
    assert len(games()) >= 3
    for game in games():
        assert game.problems() == [], game.id


def test_the_entry_points_register_exactly_the_games_schemas() -> None:
    entries = schema_entry_points()
    assert set(entries) == {g.id for g in games()}
    for game in games():
        module, _, name = entries[game.id].partition(":")
        assert Path(getattr(importlib.import_module(module), name)) == game.schema
        installed = schema.registry().get(game.id)
        assert installed is not None and Path(installed.source) == game.schema.resolve()
        assert installed.creator == game.creator


@pytest.mark.parametrize("game", games(), ids=lambda g: g.id)
def test_each_game_has_everything_a_game_needs(game: GameDescriptor) -> None:
    """palmish.gamecheck: its schema and codes, its app declared from it, its scripts,
    its bundled plugins named by kind, built and verified."""
    assert check(game) == []


@pytest.mark.slow
@pytest.mark.parametrize("game", [g for g in games() if g.art_script is not None],
                         ids=lambda g: g.id)
def test_each_art_script_draws_exactly_the_bundled_plugins(
    game: GameDescriptor, tmp_path: Path
) -> None:
    """The art scripts' contract (docs/architecture.md, "Adding a game"): every plugin
    folder in git is what the script draws, byte for byte, and it draws no other."""
    assert game.art_script is not None
    assert load(game.art_script)(["--out", str(tmp_path)]) == 0
    folder = plugins_folder(game)
    assert folder is not None
    drawn = {p.relative_to(tmp_path): p.read_bytes() for p in tmp_path.rglob("*") if p.is_file()}
    drawn_folders = {path.parts[0] for path in drawn}
    kept = {p.relative_to(folder): p.read_bytes() for p in folder.rglob("*")
            if p.is_file() and p.relative_to(folder).parts[0] in drawn_folders}
    assert drawn_folders and drawn == kept
    plugins = {f.name for f in folder.iterdir() if (f / "manifest.yaml").is_file()
               and "kind:" in (f / "manifest.yaml").read_text(encoding="utf-8")}
    assert drawn_folders == plugins  # data folders (levels) are the game's own, not drawn


@pytest.mark.process
def test_the_scripts_runner_reads_the_registry() -> None:
    done = subprocess.run([sys.executable, str(ROOT / "skins" / "game_scripts.py"), "art",
                           "nope"], capture_output=True, text=True, timeout=60, check=False)
    ids = ", ".join(g.id for g in games())
    assert done.returncode == 1 and done.stderr == f"game_scripts: no game nope (games: {ids})\n"


def test_the_scripts_runner_checks_the_games(capsys: pytest.CaptureFixture[str]) -> None:
    runner = runpy.run_path(str(ROOT / "skins" / "game_scripts.py"))
    assert runner["main"](["check"]) == 0
    assert capsys.readouterr().out == "".join(f"{g.id}: nothing missing\n" for g in games())


def shared_files(game_id: str) -> list[Path]:
    """Where a game would be registered if the registry did not exist: the emulator
    outside the game's package, the shared scripts and the layout test."""
    own = {ROOT / "palmish" / game_id}
    files = [*ROOT.joinpath("palmish").rglob("*.py"), *ROOT.joinpath("skins").rglob("*.py"),
             *ROOT.joinpath("docs", "screenshots").glob("*.py"), ROOT / "tests" / "test_layout.py"]
    return [f for f in files if not own & set(f.parents)]


@pytest.mark.parametrize("game", [g.id for g in games()])
def test_nothing_outside_a_game_names_it(game: str) -> None:
    creator = next(g.creator for g in games() if g.id == game)
    names_it = re.compile(rf"palmish\.{game}\b|[\"']{game}[\"']|\b{creator}\b")
    offenders = [f"{path.relative_to(ROOT)}:{text.count(chr(10), 0, m.start()) + 1}"
                 for path in shared_files(game)
                 for text in [path.read_text(encoding="utf-8")]
                 for m in names_it.finditer(text)]
    assert offenders == []


@pytest.mark.process
def test_each_game_package_imports_its_engine_only_when_asked() -> None:
    """A descriptor is read without the engine; every export still resolves."""
    code = (
        "import importlib, sys\n"
        "from palmish.games import GameDescriptor, games\n"
        "for game in games():\n"
        "    package = importlib.import_module(f'palmish.{game.id}')\n"
        "    loaded = [m for m in sys.modules if m.startswith(f'palmish.{game.id}.')]\n"
        "    assert loaded == [f'palmish.{game.id}.descriptor'], loaded\n"
        "    for name in package.__all__:\n"
        "        assert getattr(package, name) is not None, name\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=60, check=False, cwd=ROOT)
    assert done.returncode == 0, done.stderr
