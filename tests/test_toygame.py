"""A fourth game added through its descriptor alone (tests/toygame): registered with
palmish.games.register, launched by `palmish --app`, played by an event script,
its option taken from the command line and its plugin built by prc_tools."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from PIL import Image

from palmish.apps import LazyApp, hard_buttons, installed_apps
from palmish.cli import main
from palmish.device.display import CONFIGS, ConfigName
from palmish.device.system import Device
from palmish.games import RegistryError, games, register, unregister
from prc_tools import schema
from prc_tools.cli import main as prc_tools_main
from tests.toygame.descriptor import GAME

TOY = Path(__file__).resolve().parent / "toygame"
# The plugin's lamps as the 16-bit bitmaps show them (without the plugin the app
# draws (250, 210, 40) and (60, 60, 90): these prove the plugin is in use).
PLUGIN_LAMPS = {(246, 210, 41): "on", (57, 60, 90): "off"}


@pytest.fixture
def toy() -> Iterator[None]:
    register(GAME)
    yield
    unregister(GAME.id)


@pytest.fixture
def installed(toy: None, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    """A data folder with the toy's plugin, built by prc_tools and installed."""
    prc = tmp_path / "toy-lamps.prc"
    assert prc_tools_main(["build", "-q", str(TOY / "plugins" / "toy-lamps"), "-o", str(prc)]) == 0
    data = tmp_path / "data"
    assert main(["install", str(prc), "--data-dir", str(data)]) == 0
    assert "installed 'Toy Lamps' (toy board, square, tall)" in capsys.readouterr().out
    return data


def lit(image: Image.Image) -> list[int]:
    """The lit lamps of a screenshot, each drawn by the plugin (cells are 40 pixels
    from x 100, y 16)."""
    middles = [image.getpixel((120 + 40 * col, 36 + 40 * row))
               for row, col in (divmod(cell, 3) for cell in range(9))]
    assert all(m in PLUGIN_LAMPS for m in middles), middles
    return [cell for cell, m in enumerate(middles) if PLUGIN_LAMPS[m] == "on"]


def test_the_toy_is_listed_only_while_registered(toy: None) -> None:
    assert [g.id for g in games()][-1] == "toy"
    apps = installed_apps()
    assert isinstance(apps[-1], LazyApp) and apps[-1].imported is None
    assert (apps[-1].id, apps[-1].name, apps[-1].creator) == ("toy", "Lamps", "PToy")
    assert "toy" not in hard_buttons()  # it claims none
    assert schema.registry().get("toy") is not None  # prc_tools knows its plugins
    unregister("toy")
    assert "toy" not in [g.id for g in games()] and schema.registry().get("toy") is None


def test_launched_played_by_a_script_and_saved(installed: Path, tmp_path: Path) -> None:
    script = tmp_path / "play.events"
    script.write_text("tap 140 56   # the middle lamp: it and its four neighbours\n"
                      "tap 100 16   # the top-left one: it, the top and the left\n")
    shot = tmp_path / "toy.png"
    assert main(["--app", "Lamps", "--screenshot", str(shot), "--events", str(script),
                 "--data-dir", str(installed)]) == 0
    image = Image.open(shot).convert("RGB")
    assert image.size == (320, 480)  # Square: the LCD with its input area
    assert lit(image) == [0, 4, 5, 7]  # 1, 3, 4, 5 and 7, then 0, 1 and 3 switched
    # The game saved: a device on the same data folder resumes it.
    device = Device(CONFIGS[ConfigName.SQUARE], installed, installed_apps(), "toy",
                    durable=False, alerts=False)
    app = device.running_app
    assert isinstance(app, LazyApp) and vars(app.app())["lit"] == {0, 4, 5, 7}
    device.shutdown()


def test_its_command_line_option(installed: Path, tmp_path: Path,
                                 capsys: pytest.CaptureFixture[str]) -> None:
    shot = tmp_path / "toy.png"
    assert main(["--lit", "0,8", "--screenshot", str(shot), "--data-dir", str(installed)]) == 0
    image = Image.open(shot).convert("RGB")
    assert lit(image) == [0, 8]
    for argv, problem in (
        (["--lit", "x"], "--lit: 'x' is not cell numbers such as 0,4,8"),
        (["--lit", "9"], "--lit: cells are 0 to 8"),
        (["--app", "sigmar", "--lit", "1"], "--lit: sigmar has no --lit (only Lamps has)"),
        (["--app", "toy", "--board", "7"],
         "--board: toy has no --board (only Sigmar's Garden has)"),
        (["--lit", "1", "--board", "7"], "--board and --lit are options of different games"),
    ):
        assert main([*argv, "--screenshot", str(shot), "--data-dir", str(installed)]) == 1
        assert capsys.readouterr().err == f"palmish: {problem}\n"


def test_a_bad_or_clashing_descriptor_is_refused(tmp_path: Path) -> None:

    for change, problem in (
        ({"id": "Toy"}, "id 'Toy' is not short lowercase letters"),
        ({"creator": "PIsh"}, "share the creator 'PIsh'"),
        ({"name": "palmishido"}, "share the name"),
        ({"hard_button": 1}, "share the hard button 1"),
        ({"hard_button": 4}, "hard button 4 is not 1 to 3"),
        ({"app": "tests.toygame.app.LampsApp"}, "is not 'module:name'"),
        ({"schema": tmp_path / "none.yaml"}, "none.yaml"),
        ({"creator": "PTOY"}, "is for game 'toy', creator 'PToy'"),
    ):
        with pytest.raises(RegistryError, match=problem):
            register(GAME._replace(**change))  # type: ignore[arg-type]
    assert "toy" not in [g.id for g in games()]


def test_an_option_that_is_palmish_s_own_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:

    from palmish.games import GameOption

    register(GAME._replace(options=(GameOption("--app", "X", "a clash"),)))
    try:
        assert main(["--data-dir", str(tmp_path), "plugins"]) == 1
    finally:
        unregister(GAME.id)
    assert capsys.readouterr().err == (
        "palmish: a game cannot be listed: Lamps: the option --app is one of palmish's own\n")
