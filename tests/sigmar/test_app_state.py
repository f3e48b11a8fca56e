"""Sigmar's Garden keeps its game: saved after every take and undo, resumed on the next
start, kept through rotation and the input-area toggle; statistics and levels."""

from __future__ import annotations

import json
from pathlib import Path

from palmish.device.display import ConfigName
from palmish.device.events import CharKey, Key, KeyDown, MenuCommand, Rotate, ToggleInputArea
from palmish.device.ui.alert import Alert
from palmish.device.ui.form import Form, PopupList
from palmish.device.ui.number_entry import NumberEntry
from palmish.sigmar import Game, generator, solver
from tests.sigmar.conftest import Make, play_solution, press, tap_cell


def saved_record(device_dir: Path, app_device: object) -> dict[str, object]:
    data = app_device.storage.load_state("PSgm")  # type: ignore[attr-defined]
    assert data is not None
    value = json.loads(data.decode("utf-8"))
    assert isinstance(value, dict)
    return value


def test_every_take_and_undo_is_saved_and_resumed(make: Make, tmp_path: Path) -> None:
    device, app = make(board="3")
    takes = solver.solve(app.game)
    assert takes is not None
    for n, t in enumerate(takes[:2], start=1):
        tap_cell(device, app, t.a)
        if t.b is not None:
            tap_cell(device, app, t.b)
        assert Game.from_record(str(saved_record(tmp_path, device)["record"])).moves == takes[:n]
    device.post(MenuCommand("undo"))
    assert Game.from_record(str(saved_record(tmp_path, device)["record"])).moves == takes[:1]
    device.shutdown()
    again, app2 = make()
    assert app2.game.level == "3" and app2.game.moves == takes[:1]
    again.shutdown()


def test_a_hint_used_is_remembered_across_a_restart(make: Make) -> None:
    device, app = make(board="3")
    assert not app.assisted
    device.post(MenuCommand("hint"))
    device.shutdown()
    _, app2 = make()
    assert app2.assisted


def test_rotation_and_the_input_area_keep_the_selection_and_the_hint(make: Make) -> None:
    device, app = make(board="7")
    takes = solver.solve(app.game)
    assert takes is not None and takes[0].b is not None
    first, partner = takes[0].a, takes[0].b
    tap_cell(device, app, first)
    assert app.scene.selected == first
    for event in (ToggleInputArea(), Rotate(), Rotate(), ToggleInputArea()):
        device.post(event)
        assert app.scene.selected == first
        assert app.layout is not None and app.layout.config is device.config
    assert device.config.name is ConfigName.SQUARE
    device.post(Rotate())
    assert app.layout is not None and app.layout.config.name is ConfigName.WIDE
    tap_cell(device, app, partner)  # tapped where Wide draws it
    assert app.game.atom_at(*first) is None and app.game.atom_at(*partner) is None
    device.post(MenuCommand("hint"))
    hint = app.scene.hint
    assert hint
    device.post(Rotate())
    assert app.scene.hint == hint
    device.post(KeyDown(Key.SELECT))
    assert len(app.game.moves) == 2
    device.shutdown()


def test_statistics_dialog_counts_wins_streaks_and_levels(make: Make) -> None:
    device, app = make(board="4")
    for _ in range(2):
        play_solution(device, app)
        press(device, "OK")
        device.post(MenuCommand("restart"))
    device.post(MenuCommand("stats"))
    top = device.modals[-1]
    assert isinstance(top, Alert)
    assert "Won: 2 (assisted by Hint: 0)" in top.message
    assert "Winning streak: 2" in top.message and "Best streak: 2" in top.message
    assert "Levels cleared: 1 of 12" in top.message
    device.shutdown()
    prefs = device.storage.load_prefs("PSgm")
    assert prefs["cleared"] == ["4"]


def test_levels_dialog_lists_bundled_and_installed_levels_and_opens_one(
        make: Make, tmp_path: Path) -> None:
    folder = tmp_path / "device" / "files" / "PSgm"
    folder.mkdir(parents=True)
    (folder / "test.dat").write_text("My Test\n33\n", encoding="utf-8")
    (folder / "broken.dat").write_text("Broken\n\n", encoding="utf-8")
    device, app = make()
    assert any("broken.dat" in m for m in device.messages)  # one line, the rest still loads
    device.post(MenuCommand("levels"))
    form = device.modals[-1]
    assert isinstance(form, Form)
    field = form.fields[0]
    assert isinstance(field, PopupList)
    assert field.options[2] == "3. Projection"
    assert field.options[-1] == "My Test"
    field.selected = len(field.options) - 1
    press(device, "Play")
    assert app.game.level == "test" and app.game.name == "My Test"
    tap_cell(device, app, (0, 0))
    tap_cell(device, app, (0, 1))
    press(device, "OK")
    device.post(MenuCommand("levels"))
    form = device.modals[-1]
    assert isinstance(form, Form) and "1/13 cleared" in form.title
    assert isinstance(form.fields[0], PopupList)
    assert form.fields[0].options[-1] == "My Test *"
    device.shutdown()


def test_levels_by_keys_enter_plays_the_chosen_level(make: Make) -> None:
    """Select opens the list, Down moves, Enter picks; a second Enter presses Play."""
    device, app = make()
    device.post(MenuCommand("levels"))
    form = device.modals[-1]
    assert isinstance(form, Form) and device.takes_enter() and not device.wants_text()
    device.post(KeyDown(Key.SELECT))
    device.post(KeyDown(Key.DOWN))
    device.post(CharKey("\n"))
    assert device.modals[-1] is form and form.popup is None
    device.post(CharKey("\n"))
    assert not device.modals and not device.takes_enter()
    field = form.fields[0]
    assert isinstance(field, PopupList)
    assert app.title().endswith(field.options[field.selected].split(". ", 1)[-1])
    device.shutdown()


def test_board_number_opens_the_same_random_board(make: Make) -> None:
    device, app = make()
    device.post(MenuCommand("board"))
    entry = device.modals[-1]
    assert isinstance(entry, NumberEntry)
    entry.digits = "4242"
    press(device, "OK")
    assert app.game.seed == 4242 and app.game.level is None
    assert app.game.record() == Game.new(seed=4242).record()
    assert app.title() == "Board 4242"
    device.shutdown()


def test_new_game_is_a_short_numbered_random_board(make: Make) -> None:
    device, app = make()
    device.post(MenuCommand("new"))
    assert app.game.seed is not None and 1 <= app.game.seed <= 999_999
    assert app.game.rows == app.game.cols == 11
    device.shutdown()


def test_preferences_dim_locked_and_difficulty(make: Make) -> None:
    device, app = make(board="7")
    assert app.view is not None
    locked_fire = app.view.art.locked
    assert app.scene.dim_locked
    device.post(MenuCommand("prefs"))
    form = device.modals[-1]
    assert isinstance(form, Form)
    keys = [getattr(f, "key", None) for f in form.fields]
    assert {"dim_locked", "difficulty", "square/pieces", "square/board", "square/sound",
            "sound"} <= set(keys)
    dim = next(f for f in form.fields if getattr(f, "key", None) == "dim_locked")
    dim.checked = False  # type: ignore[union-attr]
    diff = next(f for f in form.fields if getattr(f, "key", None) == "difficulty")
    diff.selected = 1  # type: ignore[union-attr]
    pieces = next(f for f in form.fields if getattr(f, "key", None) == "square/pieces")
    assert isinstance(pieces, PopupList) and "Glyph Atoms" in pieces.options
    pieces.selected = pieces.options.index("Glyph Atoms")
    press(device, "OK")
    assert not app.scene.dim_locked
    assert app.prefs["difficulty"] == "easy"
    assert app.view.art.locked is not locked_fire  # new art from the Glyph plugin
    device.post(MenuCommand("new"))
    assert app.game.difficulty is None  # the number alone names the board
    assert generator.rating(app.game.seed or 0) == "easy"
    device.shutdown()


def test_tapping_the_panel_shows_the_atoms_left_and_the_metals(make: Make) -> None:
    device, app = make(board="7")
    assert app.layout is not None
    from tests.sigmar.conftest import centre, tap

    tap(device, *centre(app.layout.panel))
    top = device.modals[-1]
    assert isinstance(top, Alert)
    assert "7. Caution" in top.message and "Atoms left: 10" in top.message
    assert "Current metal: lead" in top.message and "Fire 4" in top.message
    device.shutdown()
