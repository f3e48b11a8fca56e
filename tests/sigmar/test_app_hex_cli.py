"""The hexagonal garden from the command line: event scripts that play it to the clear,
`--garden`, `palmish install FILE.hgl` and Beam of its boards and levels."""

from __future__ import annotations

from pathlib import Path

import pytest

from palmish.cli import main
from palmish.device.display import CONFIGS, ConfigName
from palmish.device.exchange import BeamItem
from palmish.device.machine.system import Device
from palmish.sigmar import garden
from palmish.sigmar.app import SigmarApp
from palmish.sigmar.beam import BEAM, HEX_BOARD, LEVEL
from palmish.sigmar.hexagonal import solver as hex_solver
from palmish.sigmar.hexagonal.game import HexGame
from palmish.sigmar.hexagonal.level import bundled_levels
from palmish.sigmar.install import install
from palmish.sigmar.layout import layout_for
from palmish.sigmar.level import LevelError
from tests.game_devices import centre
from tests.sigmar.conftest import PLUGINS

LAYOUT = layout_for(CONFIGS[ConfigName.SQUARE], 11, 11, hexagonal=True)


def run(tmp_path: Path, data: Path, script: str, *options: str) -> None:
    events = tmp_path / "run.events"
    events.write_text(script, encoding="utf-8")
    assert main(["--screenshot", str(tmp_path / "shot.png"), "--events", str(events),
                 "--data-dir", str(data), *options]) == 0


def saved(data: Path) -> SigmarApp:
    app = SigmarApp()
    device = Device(CONFIGS[ConfigName.SQUARE], data, [app], start_app="sigmar",
                    bundled_plugins=PLUGINS, durable=False, alerts=False)
    device.shutdown()
    return app


def taps(game: HexGame) -> str:
    """The script that taps a whole solution of the game, cell by cell."""
    takes = hex_solver.solve(game)
    assert takes is not None
    lines = []
    for t in takes:
        for cell in (t.a, t.b):
            if cell is not None:
                lines.append("tap {} {}\n".format(*centre(LAYOUT.cell_rect(*cell))))
    return "".join(lines)


def test_a_script_plays_a_hexagonal_board_number_to_the_clear(tmp_path: Path) -> None:
    data = tmp_path / "data"
    number = 31337
    script = ("menu garden-hexagonal\nmenu board\n"
              + "".join(f"char {d}\n" for d in str(number)) + "char enter\n"
              + taps(HexGame.new(seed=number)) + "key cancel\n")
    run(tmp_path, data, script, "--app", "sigmar")
    app = saved(data)
    assert isinstance(app.game, HexGame) and app.game.seed == number
    assert app.game.won and len(app.game.moves) == 28  # the whole garden, 28 takes
    assert app.tallies.tally("hexagonal").won == 1 and app.tallies.tally("garden").won == 0


@pytest.mark.parametrize(("level_id", "level"), bundled_levels())
def test_a_script_clears_each_bundled_level_opened_by_garden_and_board(
        level_id: str, level: object, tmp_path: Path) -> None:
    data = tmp_path / "data"
    game = HexGame.from_level(level, level=level_id)  # type: ignore[arg-type]
    run(tmp_path, data, taps(game) + "key cancel\n",
        "--app", "sigmar", "--garden", "hexagonal", "--board", level_id)
    app = saved(data)
    assert isinstance(app.game, HexGame) and app.game.level == level_id and app.game.won
    assert level_id in app.prefs["hexagonal_cleared"]  # type: ignore[operator]


def test_a_bad_garden_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--screenshot", str(tmp_path / "x.png"), "--app", "sigmar",
                 "--garden", "round", "--data-dir", str(tmp_path / "d")]) != 0
    err = capsys.readouterr().err
    assert "--garden" in err and "'round' is not a garden" in err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err


RING = """Two Fires
     F . . . . F
    . . . . . . .
   . . . . . . . .
  . . . . . . . . .
 . . . . . . . . . .
. . . . . . . . . . .
 . . . . . . . . . .
  . . . . . . . . .
   . . . . . . . .
    . . . . . . .
     . . . . . .
"""


def test_install_a_hexagonal_level_then_play_it(tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    level = tmp_path / "fires.hgl"
    level.write_text(RING, encoding="utf-8")
    data = tmp_path / "data"
    assert main(["install", str(level), "--data-dir", str(data)]) == 0
    out = capsys.readouterr().out
    assert "installed Sigmar's Garden hexagonal level fires 'Two Fires'" in out
    assert (data / "files" / "PSgm" / "fires.hgl").exists()
    game = HexGame.from_level(RING, level="fires")
    run(tmp_path, data, taps(game) + "key cancel\n",
        "--app", "sigmar", "--garden", "hex", "--board", "fires")
    app = saved(data)
    assert app.game.level == "fires" and app.game.won
    assert [e.id for e in app.garden_levels["hexagonal"]][-1] == "fires"


def test_installing_over_a_bundled_hexagonal_level_and_an_unclearable_one_say_so(
        tmp_path: Path) -> None:
    level = tmp_path / "1.hgl"
    level.write_text(RING.replace(" F . . . . F", " F . . . . W", 1), encoding="utf-8")
    said = install(level, tmp_path / "files")
    assert said is not None
    assert "takes the place of the bundled hexagonal level 1" in said
    assert "cannot be cleared" in said


@pytest.mark.parametrize(("text", "problem"), [
    ("Bad\n" + "x" * 6 + "\n", "1 rows; a hexagonal garden has 11"),
    (RING.replace(" F . . . . F", " F . . . . x", 1), "'x' is not a cell"),
    ("", "the file is empty"),
    (RING + "F\n", "a row after the 11th"),
])
def test_a_bad_hexagonal_level_is_one_line_and_nothing_is_installed(
        text: str, problem: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    level = tmp_path / "bad.hgl"
    level.write_text(text, encoding="utf-8")
    assert main(["install", str(level), "--data-dir", str(tmp_path / "data")]) == 1
    err = capsys.readouterr().err
    assert problem in err and len(err.strip().splitlines()) == 1 and "Traceback" not in err
    assert not (tmp_path / "data" / "files" / "PSgm" / "bad.hgl").exists()


def test_a_hexagonal_file_name_must_be_a_level_id(tmp_path: Path) -> None:
    level = tmp_path / "?.hgl"
    level.write_text(RING, encoding="utf-8")
    with pytest.raises(LevelError, match="not a level id"):
        install(level, tmp_path / "files")


# ---------------------------------------------------------------- Beam


def test_beam_sends_a_hexagonal_board_by_number_and_opens_it_in_its_garden(
        tmp_path: Path) -> None:
    app = SigmarApp()
    device = Device(CONFIGS[ConfigName.SQUARE], tmp_path / "a", [app], start_app="sigmar",
                    bundled_plugins=PLUGINS, durable=False, alerts=False)
    app.choose_garden(garden.HEXAGONAL)
    item = BEAM.current_item(app)
    assert item is not None and item.kind == HEX_BOARD and item.number == app.game.seed
    checked = BEAM.check(item)
    assert checked.title == f"Hex Board {item.number}"
    app.choose_garden(garden.SQUARE)
    BEAM.open(app, BeamItem(HEX_BOARD, "sigmar", number=77), ask=False)
    assert isinstance(app.game, HexGame) and app.game.seed == 77 and app.garden() == "hexagonal"
    device.shutdown()


def test_beam_sends_a_hexagonal_level_by_contents_and_installs_it(tmp_path: Path) -> None:
    level = tmp_path / "fires.hgl"
    level.write_text(RING, encoding="utf-8")
    item = BEAM.item_from_file(level)
    assert item is not None and item.kind == LEVEL and item.name == "fires.hgl"
    assert BEAM.check(item).title == "Hex Level fires: Two Fires"
    bad = BeamItem(LEVEL, "sigmar", name="bad.hgl", data=b"Bad\nxx\n")
    with pytest.raises(ValueError, match="a hexagonal garden has 11"):
        BEAM.check(bad)
    app = SigmarApp()
    device = Device(CONFIGS[ConfigName.SQUARE], tmp_path / "b", [app], start_app="sigmar",
                    bundled_plugins=PLUGINS, durable=False, alerts=False)
    said = BEAM.install(item, device.storage)
    assert "hexagonal level fires" in said
    app.choose_garden(garden.HEXAGONAL)
    app._ask_level()  # the list reads the installed files again
    assert "fires" in [e.id for e in app.levels]
    device.shutdown()
