"""`palmish install` of Sigmar levels and Levels databases, `--board`, and gremlins with
Sigmar's Garden running."""

from __future__ import annotations

from pathlib import Path

import pytest

from palmish.apps import installed_apps
from palmish.cli import main
from palmish.device.display import CONFIGS, ConfigName
from palmish.device.machine.system import Device
from palmish.device.scripting.gremlins import run_gremlins
from palmish.sigmar.app import SigmarApp
from prc_tools import plugin
from tests.sigmar.conftest import PLUGINS


def test_install_a_level_then_open_it_by_board(tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    level = tmp_path / "mine.dat"
    level.write_text("Mine\n3 3\n", encoding="utf-8")
    data = tmp_path / "data"
    assert main(["install", str(level), "--data-dir", str(data)]) == 0
    assert "installed Sigmar's Garden level mine 'Mine'" in capsys.readouterr().out
    assert (data / "files" / "PSgm" / "mine.dat").read_text(encoding="utf-8") == "Mine\n3.3\n"
    shot = tmp_path / "shot.png"
    assert main(["--screenshot", str(shot), "--board", "mine", "--data-dir", str(data)]) == 0
    app = SigmarApp()
    device = Device(CONFIGS[ConfigName.SQUARE], data, [app], start_app="sigmar",
                    bundled_plugins=PLUGINS, durable=False, alerts=False)
    assert app.game.level == "mine" and app.game.name == "Mine"
    device.shutdown()


@pytest.mark.parametrize(("text", "problem"), [
    ("Too wide\n" + "3" * 13 + "\n", "too big"),
    ("\n33\n", "no name line"),
    ("Empty\n555\n", "no atoms"),
])
def test_a_bad_level_is_one_line_and_nothing_is_installed(
        text: str, problem: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    level = tmp_path / "bad.dat"
    level.write_text(text, encoding="utf-8")
    assert main(["install", str(level), "--data-dir", str(tmp_path / "data")]) == 1
    err = capsys.readouterr().err
    assert problem in err and len(err.strip().splitlines()) == 1 and "Traceback" not in err
    assert not (tmp_path / "data" / "files").exists()


def test_install_a_levels_database(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "pack"
    folder.mkdir()
    (folder / "1.dat").write_text("Override One\n33\n", encoding="utf-8")
    (folder / "40.dat").write_text("Forty\nbb\n", encoding="utf-8")
    (folder / "manifest.yaml").write_text(
        "name: My Levels\ntype: SgLv\ncreator: PSgm\nresources:\n"
        "  - {file: 1.dat, type: SgLv, id: 1}\n  - {file: 40.dat, type: SgLv, id: 40}\n",
        encoding="utf-8")
    db = plugin.build_folder(folder)
    prc = tmp_path / "levels.prc"
    prc.write_bytes(db.to_bytes())
    data = tmp_path / "data"
    assert main(["install", str(prc), "--data-dir", str(data)]) == 0
    assert "'My Levels': 1, 40" in capsys.readouterr().out
    app = SigmarApp()
    device = Device(CONFIGS[ConfigName.SQUARE], data, [app], start_app="sigmar",
                    bundled_plugins=PLUGINS, durable=False, alerts=False)
    names = {e.id: e.name for e in app.levels}
    assert names["1"] == "Override One" and names["40"] == "Forty" and names["7"] == "Caution"
    assert app.open_board("40") is None and app.game.name == "Forty"
    device.shutdown()


def test_bad_board_ids_are_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    shot = tmp_path / "x.png"
    for board, problem in (("99", "no level 99"), ("a/b", "not a level id")):
        assert main(["--screenshot", str(shot), "--app", "sigmar", "--board", board,
                     "--data-dir", str(tmp_path / "d")]) == 1
        err = capsys.readouterr().err
        assert problem in err and len(err.strip().splitlines()) == 1
    assert main(["--screenshot", str(shot), "--app", "ishido", "--board", "7",
                 "--data-dir", str(tmp_path / "d")]) == 1
    assert "ishido has no --board" in capsys.readouterr().err


def test_board_question_mark_is_a_random_board(tmp_path: Path) -> None:
    shot = tmp_path / "x.png"
    assert main(["--screenshot", str(shot), "--board", "?", "--data-dir",
                 str(tmp_path / "d")]) == 0


@pytest.mark.parametrize("config", ["square-low", "square", "tall", "wide"])
def test_gremlins_with_sigmar_running(config: str, tmp_path: Path) -> None:
    device = Device(CONFIGS[ConfigName(config)], tmp_path, installed_apps(), "sigmar",
                    report=lambda message: None, durable=False, bundled_plugins=PLUGINS)
    result = run_gremlins(device, 800, seed=3)
    assert result.ok, f"event {result.events}: {result.problem}\n{result.detail}"


def test_installing_over_a_bundled_level_says_so(tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    for name, bundled in (("03.dat", "'Projection'"), ("7.dat", "'Caution'")):
        level = tmp_path / name
        level.write_text("Mine\n33\n", encoding="utf-8")
        assert main(["install", str(level), "--data-dir", str(tmp_path / "data")]) == 0
        out = capsys.readouterr().out
        assert f"takes the place of the bundled level {name.lstrip('0')[:-4]} {bundled}" in out
        assert "Remove" in out


def test_question_mark_dat_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    level = tmp_path / "?.dat"
    level.write_text("Random?\n33\n", encoding="utf-8")
    assert main(["install", str(level), "--data-dir", str(tmp_path / "data")]) == 1
    err = capsys.readouterr().err
    assert "random board" in err and len(err.strip().splitlines()) == 1
    assert not (tmp_path / "data" / "files").exists()


@pytest.mark.parametrize("name", ["notes.txt", "picture.png", "fake.prc"])
def test_a_wrong_kind_of_file_says_what_it_is_not(name: str, tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / name
    path.write_bytes(b"hello, this is not a database\n")
    assert main(["install", str(path), "--data-dir", str(tmp_path / "data")]) == 1
    err = capsys.readouterr().err.strip()
    assert err.startswith(f"palmish: {path} is not a Palm database (.prc) or a file of"
                          " Sigmar's Garden:"), err
    assert len(err.splitlines()) == 1


@pytest.mark.parametrize("board", ["MINE", "Mine.dat", "my garden", "CAUTION"])
def test_board_finds_levels_by_id_or_name_in_any_case(board: str, tmp_path: Path) -> None:
    data = tmp_path / "data"
    level = tmp_path / "mine.dat"
    level.write_bytes("\ufeffMy Garden\n33\n".encode())  # a byte-order mark: not in the name
    assert main(["install", str(level), "--data-dir", str(data)]) == 0
    shot = tmp_path / "shot.png"
    assert main(["--screenshot", str(shot), "--app", "sigmar", "--board", board,
                 "--data-dir", str(data)]) == 0
    app = SigmarApp()
    device = Device(CONFIGS[ConfigName.SQUARE], data, [app], start_app="sigmar",
                    bundled_plugins=PLUGINS, durable=False, alerts=False)
    expected = "Caution" if board == "CAUTION" else "My Garden"
    assert app.game.name == expected
    device.shutdown()
