"""docs/adding-a-game.md, followed as written: its example game, Lamps, is built from
the document's own blocks in a scratch folder laid out like the repository (the folder's
palmish/ joins the palmish package, as a new palmish/lamps/ would), its commands run
one after the other, and the game, played by its event script, passes the checks every
game passes. When the document and the code part, this fails."""

from __future__ import annotations

import importlib
import importlib.util
import inspect
import runpy
import shlex
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from PIL import Image

from palmish.cli import main as palmish_main
from palmish.device.disk.storage import Storage
from palmish.gamecheck import check
from palmish.games import games, load
from prc_tools import Database, bitmap
from prc_tools.cli import main as prc_tools_main
from tests import test_apps, test_games, test_layout
from tests.guide_game import PACKAGE, ROOT, Guide, as_written, reinstall

CONFIG_SIZES = {"square-low": (160, 160), "square": (320, 480), "tall": (320, 480),
                "wide": (480, 320)}


@pytest.fixture
def guide(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Guide]:
    yield from as_written(tmp_path, monkeypatch)


def follow(command: list[str], guide: Guide) -> None:
    """Run one of the guide's commands here, in this process (the scratch game is part
    of the palmish package only here); a command this does not know fails the test."""
    program, *args = command
    program = program.removeprefix(".venv/bin/")
    if (program, args) == ("make", []):
        reinstall(guide)
    elif program == "mkdir" and args[:1] == ["-p"]:
        for folder in args[1:]:
            Path(folder).mkdir(parents=True, exist_ok=True)
    elif program == "python" and args[:2] == ["-m", "pytest"]:
        for folder in args[2:]:
            run_tests(Path(folder))
    elif program == "python" and args[:1] == ["-m"]:
        assert load(f"{args[1]}:main")(args[2:]) == 0, command
    elif program == "python" and args[:1] == ["skins/game_scripts.py"]:
        assert runpy.run_path(str(ROOT / args[0]))["main"](args[1:]) == 0, command
    elif program == "prc-tools":
        assert prc_tools_main(args) == 0, command
    elif program == "palmish":
        assert palmish_main(args) == 0, command
    else:
        pytest.fail(f"the guide runs `{shlex.join(command)}`, which this test cannot follow")


def run_tests(folder: Path) -> None:
    """Every test function of the folder's test modules, called as pytest would (they
    take no fixtures)."""
    modules = sorted(folder.glob("test_*.py"))
    assert modules, folder
    for path in modules:
        spec = importlib.util.spec_from_file_location(f"guide_{path.stem}", path)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        tests = [f for name, f in vars(module).items() if name.startswith("test_")]
        assert tests, path
        for test in tests:
            assert not inspect.signature(test).parameters, test.__name__
            test()


def lit_lamps(shot: Path, lit: tuple[int, int, int]) -> list[int]:
    """The lamps of a Square screenshot drawn lit by the plugin (40-pixel lamps from
    x 100, y 16; `lit` is the plugin's lit lamp as decoded)."""
    image = Image.open(shot).convert("RGB")
    assert image.size == CONFIG_SIZES["square"]
    middles = [image.getpixel((120 + 40 * col, 36 + 40 * row))
               for row, col in (divmod(cell, 3) for cell in range(9))]
    return [cell for cell, colour in enumerate(middles) if colour == lit]


def test_the_guide_builds_a_fourth_game_that_passes_every_game_check(
    guide: Guide, tmp_path: Path
) -> None:
    # Step 1-2: the registry finds it beside the others, without importing its engine.
    game = next(g for g in games() if g.id == "lamps")
    assert [g.id for g in games()][-1] == "lamps" and len(games()) == 4  # no hard button
    assert [m for m in sys.modules if m.startswith(f"{PACKAGE}.")] == [f"{PACKAGE}.descriptor"]
    package = importlib.import_module(PACKAGE)
    assert all(getattr(package, name) is not None for name in package.__all__)

    # Step 9, as written: make, the art, the plugin built and verified, the check, the
    # game's own tests, a play through its event script, gremlins, the screenshots.
    assert [c[0].removeprefix(".venv/bin/") for c in guide.commands][:1] == ["make"]
    for command in guide.commands:
        follow(command, guide)

    # The event script lit all nine lamps, each drawn by the bundled plugin the art
    # script drew (its lit lamp, decoded, is the colour on the screen) ...
    built = Database.read(Path("out/lamps-board.prc").read_bytes())
    glass = built.resource("Tbmp", 2001)
    assert glass is not None
    lit = bitmap.best(bitmap.decode(glass.data), 144).image.convert("RGB").getpixel((20, 20))
    assert lit_lamps(Path("out/lamps.png"), lit) == list(range(9))
    # ... and the game counted itself won: played 1, won 1, lost 0, streak 1, best 1.
    prefs = Storage(Path("out/lamps"), report=print).load_prefs(game.creator)
    assert prefs["stats"] == {"variants": {"3x3": [1, 1, 0, 1, 1]}, "players": {}}
    # Its screenshot script drew the four configurations.
    for config, size in CONFIG_SIZES.items():
        assert Image.open(f"out/lamps-screenshots/lamps-{config}.png").size == size

    # The checks every game passes, with the fourth among them.
    assert check(game) == []
    test_games.test_nothing_outside_a_game_names_it("lamps")
    test_layout.test_prc_tools_holds_no_game_codes_or_keys()
    test_apps.test_every_app_has_a_unique_short_lowercase_id()
    test_apps.test_each_game_agrees_with_its_entry_and_opens(tmp_path / "apps")


def test_every_block_of_the_guide_is_a_file_or_a_command(guide: Guide) -> None:
    """Nothing in the document is left out of the build above (read_guide refuses any
    other block), and the game's files are all there."""
    assert sorted(guide.files) == [
        "palmish/lamps/__init__.py", "palmish/lamps/app.py", "palmish/lamps/descriptor.py",
        "palmish/lamps/make_art.py", "palmish/lamps/make_screenshots.py",
        "palmish/lamps/plugin-schema.yaml", "palmish/lamps/rules.py", "palmish/lamps/schema.py",
        "tests/lamps/light-all.events", "tests/lamps/test_rules.py"]
    assert guide.entry_points == {
        "prc_tools.plugin_schemas": [("lamps", "palmish.lamps.schema:SCHEMA_PATH")]}
