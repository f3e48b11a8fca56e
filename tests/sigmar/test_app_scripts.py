"""Sigmar's Garden driven the way the outside checks drive it: `palmish --screenshot
--events SCRIPT` (docs/events-format.md), then the saved game read back."""

from __future__ import annotations

from pathlib import Path

import pytest

from palmish.cli import main
from palmish.device.display import CONFIGS, ConfigName
from palmish.device.machine.system import Device
from palmish.sigmar import Game
from palmish.sigmar.app import SigmarApp
from palmish.sigmar.layout import layout_for
from tests.game_devices import centre
from tests.sigmar.conftest import PLUGINS


def run(tmp_path: Path, data: Path, script: str, *options: str) -> None:
    events = tmp_path / "run.events"
    events.write_text(script, encoding="utf-8")
    assert main(["--screenshot", str(tmp_path / "shot.png"), "--events", str(events),
                 "--data-dir", str(data), *options]) == 0


def saved_game(data: Path, **prefs: object) -> tuple[Game, SigmarApp]:
    """The game the app resumes from `data` (and, with `prefs`, those preferences set)."""
    app = SigmarApp()
    device = Device(CONFIGS[ConfigName.SQUARE], data, [app], start_app="sigmar",
                    bundled_plugins=PLUGINS, durable=False, alerts=False)
    if prefs:
        app.prefs.update(prefs)
        app.save_prefs()
    device.shutdown()
    return app.game, app


TYPE_43350 = "menu board\n" + "".join(f"char {d}\n" for d in "43350") + "char enter\n"


@pytest.mark.parametrize("difficulty", ["any", "easy", "hard"])
def test_a_typed_board_number_replaces_the_shown_one_and_names_one_board(
        difficulty: str, tmp_path: Path) -> None:
    data = tmp_path / "data"
    run(tmp_path, data, "menu board\n" + "".join(f"char {d}\n" for d in "868213")
        + "char enter\n", "--app", "sigmar")
    shown, _ = saved_game(data, difficulty=difficulty)
    assert shown.seed == 868213
    run(tmp_path, data, TYPE_43350, "--app", "sigmar")  # typed over 868213: 43350, not 868213433
    game, app = saved_game(data)
    assert game.seed == 43350 and game.difficulty is None
    assert game.record() == Game.new(seed=43350).record()  # the same board under any difficulty
    assert app.title() == "Board 43350"


def test_digits_past_nine_are_refused_with_a_word(tmp_path: Path) -> None:
    from palmish.sigmar import dialogs
    entry = dialogs.board_entry(7)
    for d in "1234567890":
        entry._char(d)
    assert entry.digits == "123456789" and "9 digits" in entry.note
    entry._char("\b")
    assert entry.digits == "12345678" and entry.note == ""


def test_escape_on_garden_cleared_is_ok(tmp_path: Path) -> None:
    data = tmp_path / "data"
    folder = data / "files" / "PSgm"
    folder.mkdir(parents=True)
    (folder / "pair.dat").write_text("Pair\n33\n", encoding="utf-8")
    lay = layout_for(CONFIGS[ConfigName.SQUARE], 1, 2)
    taps = "".join("tap {} {}\n".format(*centre(lay.cell_rect(0, c))) for c in (0, 1))
    run(tmp_path, data, taps + "key cancel\n", "--app", "sigmar", "--board", "pair")
    game, _ = saved_game(data)
    assert game.level == "pair" and game.won and len(game.moves) == 1  # the cleared board stays


def test_a_game_saved_with_a_difficulty_keeps_its_board(tmp_path: Path) -> None:
    """Saved before the number alone named a board: it resumes on the board it had."""
    data = tmp_path / "data"
    old = Game.new(seed=43350, difficulty="hard")
    takes = old.legal_takes()
    old.take(takes[0].a, takes[0].b)
    app = SigmarApp()
    device = Device(CONFIGS[ConfigName.SQUARE], data, [app], start_app="sigmar",
                    bundled_plugins=PLUGINS, durable=False, alerts=False)
    app.start_game(Game.from_record(old.record()))
    device.shutdown()
    game, app = saved_game(data)
    assert game.record() == old.record() and "difficulty=hard" in game.record()
    assert app.title() == "Board 43350 (old hard)"
