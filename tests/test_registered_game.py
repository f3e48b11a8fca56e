"""A fourth game kept outside palmish/, as a program that embeds the emulator keeps one:
the example game of docs/adding-a-game.md under another package name
(tests/guide_game.py), registered with palmish.games.register, launched by
`palmish --app`, played by an event script, its option taken from the command line
and its plugin built by prc_tools and installed."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from PIL import Image

from palmish.apps import LazyApp, hard_buttons, installed_apps
from palmish.cli import main
from palmish.device.display import CONFIGS, ConfigName
from palmish.device.machine.system import Device
from palmish.gamecheck import check
from palmish.games import (
    GameDescriptor,
    GameOption,
    RegistryError,
    games,
    load,
    register,
    unregister,
)
from prc_tools import Database, bitmap, schema
from prc_tools.cli import main as prc_tools_main
from tests.guide_game import embedded

PLAY = "tap 160 76   # the middle lamp: it and its four neighbours\n" \
       "tap 120 36   # the top-left one: it, the top and the left\n"


@pytest.fixture(scope="module")
def lamps(tmp_path_factory: pytest.TempPathFactory) -> Iterator[GameDescriptor]:
    """The descriptor of the game, its package importable; its art drawn in plugins/."""
    yield from embedded(tmp_path_factory.mktemp("embedded"))


@pytest.fixture
def registered(lamps: GameDescriptor) -> Iterator[GameDescriptor]:
    register(lamps)
    yield lamps
    unregister(lamps.id)


@pytest.fixture
def installed(registered: GameDescriptor, tmp_path: Path,
              capsys: pytest.CaptureFixture[str]) -> tuple[Path, tuple[int, int, int]]:
    """A data folder with the game's plugin, built by prc_tools and installed, and the
    colour of its lit lamp as decoded."""
    prc = tmp_path / "lamps-board.prc"
    source = registered.schema.parent.parent / "plugins" / "lamps-board"
    assert prc_tools_main(["build", "-q", str(source), "-o", str(prc)]) == 0
    data = tmp_path / "data"
    assert main(["install", str(prc), "--data-dir", str(data)]) == 0
    assert "installed 'Brass Lamps' (lamps board, square, tall, wide)" in capsys.readouterr().out
    glass = Database.read(prc.read_bytes()).resource("Tbmp", 2001)
    assert glass is not None
    lit = bitmap.best(bitmap.decode(glass.data), 144).image.convert("RGB").getpixel((20, 20))
    return data, lit


def lit(shot: Path, lamp: tuple[int, int, int]) -> list[int]:
    """The lamps of a Square screenshot drawn lit by the plugin (40-pixel lamps from
    x 100, y 16)."""
    image = Image.open(shot).convert("RGB")
    assert image.size == (320, 480)  # Square: the LCD with its input area
    middles = [image.getpixel((120 + 40 * col, 36 + 40 * row))
               for row, col in (divmod(cell, 3) for cell in range(9))]
    return [cell for cell, colour in enumerate(middles) if colour == lamp]


def test_the_game_is_listed_only_while_registered(lamps: GameDescriptor) -> None:
    register(lamps)
    assert [g.id for g in games()][-1] == "lamps"
    apps = installed_apps()
    assert isinstance(apps[-1], LazyApp) and apps[-1].imported is None
    assert (apps[-1].id, apps[-1].name, apps[-1].creator) == ("lamps", "Lamps", "PLmp")
    assert "lamps" not in hard_buttons()  # it claims none
    assert schema.registry().get("lamps") is not None  # prc_tools knows its plugins
    unregister("lamps")
    assert "lamps" not in [g.id for g in games()] and schema.registry().get("lamps") is None


def test_launched_played_by_a_script_and_saved(
    installed: tuple[Path, tuple[int, int, int]], tmp_path: Path
) -> None:
    data, lamp = installed
    script = tmp_path / "play.events"
    script.write_text(PLAY)
    shot = tmp_path / "lamps.png"
    assert main(["--app", "Lamps", "--screenshot", str(shot), "--events", str(script),
                 "--data-dir", str(data)]) == 0
    assert lit(shot, lamp) == [0, 4, 5, 7]  # 1, 3, 4, 5 and 7, then 0, 1 and 3 switched
    # The game saved: a device on the same data folder resumes it.
    device = Device(CONFIGS[ConfigName.SQUARE], data, installed_apps(), "lamps",
                    durable=False, alerts=False)
    app = device.running_app
    assert isinstance(app, LazyApp) and app.app().game.record() == "0,4,5,7 2"
    device.shutdown()


def test_its_command_line_option(installed: tuple[Path, tuple[int, int, int]], tmp_path: Path,
                                 capsys: pytest.CaptureFixture[str]) -> None:
    data, lamp = installed
    shot = tmp_path / "lamps.png"
    assert main(["--lit", "0,8", "--screenshot", str(shot), "--data-dir", str(data)]) == 0
    assert lit(shot, lamp) == [0, 8]
    for argv, problem in (
        (["--lit", "x"], "--lit: 'x' is not lamp numbers such as 0,4,8"),
        (["--lit", "9"], "--lit: lamps are 0 to 8"),
        (["--app", "sigmar", "--lit", "1"], "--lit: sigmar has no --lit (only Lamps has)"),
        (["--app", "lamps", "--board", "7"],
         "--board: lamps has no --board (only Sigmar's Garden has)"),
        (["--lit", "1", "--board", "7"], "--board and --lit are options of different games"),
    ):
        assert main([*argv, "--screenshot", str(shot), "--data-dir", str(data)]) == 1
        assert capsys.readouterr().err == f"palmish: {problem}\n"


def test_a_bad_or_clashing_descriptor_is_refused(lamps: GameDescriptor, tmp_path: Path) -> None:
    for change, problem in (
        ({"id": "Lamps"}, "id 'Lamps' is not short lowercase letters"),
        ({"creator": "PIsh"}, "share the creator 'PIsh'"),
        ({"name": "palmishido"}, "share the name"),
        ({"hard_button": 1}, "share the hard button 1"),
        ({"hard_button": 4}, "hard button 4 is not 1 to 3"),
        ({"app": "lampsgame.app.LampsApp"}, "is not 'module:name'"),
        ({"schema": tmp_path / "none.yaml"}, "none.yaml"),
        ({"creator": "PLMP"}, "is for game 'lamps', creator 'PLmp'"),
    ):
        with pytest.raises(RegistryError, match=problem):
            register(lamps._replace(**change))  # type: ignore[arg-type]
    assert "lamps" not in [g.id for g in games()]


def test_an_option_that_is_palmish_s_own_is_one_line(
    lamps: GameDescriptor, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    register(lamps._replace(options=(GameOption("--app", "X", "a clash"),)))
    try:
        assert main(["--data-dir", str(tmp_path), "plugins"]) == 1
    finally:
        unregister(lamps.id)
    assert capsys.readouterr().err == (
        "palmish: a game cannot be listed: Lamps: the option --app is one of palmish's own\n")


def test_plugins_beside_a_game_kept_elsewhere_are_not_bundled(lamps: GameDescriptor) -> None:
    """palmish.gamecheck says so: only palmish/<game>/plugins/ folders are bundled."""
    folder = lamps.schema.with_name("plugins")
    assert lamps.art_script is not None
    assert load(lamps.art_script)(["--out", str(folder)]) == 0
    try:
        assert ("its plugins/ folder is not bundled (only palmish/<game>/plugins/ are): move"
                " the game under palmish/, or install its plugins with palmish install"
                ) in check(lamps)
    finally:
        shutil.rmtree(folder)
