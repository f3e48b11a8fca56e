"""The base app driven through a device, with a tiny game on the shared layer: fill a
3x3 grid, the computer filling a cell after each of yours. No plugins."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

import pytest

from palmish.boardgame import BoardGameApp, Command, FormResult, Grid, HelpPage, place_board
from palmish.boardgame.stats import ScoreTables
from palmish.device.display import CONFIGS, ConfigName
from palmish.device.events import Key, KeyDown, MenuCommand, PenDown, PenUp, Rotate
from palmish.device.graphics.screen import BLACK, WHITE
from palmish.device.machine.system import Device
from palmish.device.ui.form import CheckBox, Field, Form
from palmish.device.ui.textview import TextViewer
from palmish.outcome import Outcome, Termination

COMPUTER_MS = 100


class FillApp(BoardGameApp):
    id = "fill"
    name = "Fill"
    creator = "TFil"
    state_version = 2
    help_pages = (HelpPage("help-rules", "Rules", "Rules", "Tap the empty cells."),)

    def __init__(self) -> None:
        super().__init__()
        self.cells: list[int] = [0] * 9  # 0 empty, 1 player, 2 computer
        self.grid: Grid | None = None
        self.layouts = 0
        self.computer_moves: list[int] = []

    def new_game(self) -> None:
        self.cells = [0] * 9

    def game_fields(self) -> dict[str, object] | None:
        return {"cells": list(self.cells)}

    def resume(self, fields: Mapping[str, object], version: int) -> None:
        cells = fields.get("cells")
        if not (isinstance(cells, list) and len(cells) == 9
                and all(c in (0, 1, 2) for c in cells)):
            raise ValueError("no cells")
        self.cells = [int(c) for c in cells]

    def score_tables(self) -> ScoreTables[tuple[int, ...]]:
        return ScoreTables(("plain",), lambda *row: tuple(row), width=1)

    def lay_out(self) -> None:
        assert self.ctx is not None
        self.layouts += 1
        cell = 10 * self.ctx.config.scale
        placed = place_board(self.ctx.bounds, 3 * cell, 3 * cell, min_below=cell)
        self.grid = Grid(placed.board.x, placed.board.y, 3, 3, cell, cell)
        self.ctx.screen.fill(self.ctx.bounds, WHITE)
        for i, value in enumerate(self.cells):
            if value:
                self.ctx.screen.fill(self.grid.cell_rect(*divmod(i, 3)), BLACK)

    def pen_up(self, x: int, y: int) -> None:
        assert self.grid is not None
        cell = self.grid.cell_at(x, y)
        if cell is not None:
            self.fill(cell[0] * 3 + cell[1], 1)

    def key(self, key: Key) -> None:
        if key is Key.SELECT and 0 in self.cells:
            self.fill(self.cells.index(0), 1)

    def fill(self, index: int, who: int) -> None:
        if self.cells[index]:
            self.play("illegal")
            return
        self.cells[index] = who
        self.save()
        if 0 not in self.cells:
            won = self.cells.count(1) > 4
            outcome = Outcome(Termination.COMPLETED, winner=0 if won else None)
            self.record_result("plain", outcome, (self.cells.count(1),), players=("Ann",))
        elif who == 1:
            self.turns.after("computer", COMPUTER_MS, self.computer)

    def computer(self) -> None:
        if 0 in self.cells:
            index = self.cells.index(0)
            self.computer_moves.append(index)
            self.fill(index, 2)

    def game_menus(self) -> Sequence[tuple[str, Sequence[Command]]]:
        return (("Game", (Command("New Game", "new", self.restart, "N"),)),)

    def restart(self) -> None:
        self.recorded = False
        self.new_game()
        self.save()
        self.lay_out()

    def pref_fields(self) -> Sequence[Field]:
        return (CheckBox("fast", "Fast", self.prefs.get("fast") is True),)

    def apply_prefs(self, result: FormResult) -> None:
        self.prefs["fast"] = result.flag("fast", False)


Make = Callable[..., tuple[Device, FillApp]]


@pytest.fixture
def make(tmp_path: Path) -> Make:
    empty = tmp_path / "no-plugins"
    empty.mkdir()

    def factory(config: ConfigName = ConfigName.SQUARE) -> tuple[Device, FillApp]:
        app = FillApp()
        device = Device(CONFIGS[config], tmp_path / "device", [app], start_app="fill",
                        bundled_plugins=empty, durable=False, alerts=False)
        return device, app

    return factory


def tap_cell(device: Device, app: FillApp, index: int) -> None:
    assert app.grid is not None
    r = app.grid.cell_rect(*divmod(index, 3))
    device.post(PenDown(r.x + 1, r.y + 1))
    device.post(PenUp(r.x + 1, r.y + 1))


def test_a_move_is_saved_and_resumed(make: Make) -> None:
    device, app = make()
    tap_cell(device, app, 4)
    assert app.cells[4] == 1
    device.shutdown()
    device, again = make()
    assert again.cells[4] == 1 and again is not app


def test_computer_turns_run_on_the_device_clock(make: Make) -> None:
    device, app = make()
    tap_cell(device, app, 0)
    assert app.computer_moves == []
    device.advance(device.now_ms + COMPUTER_MS - 1)
    assert app.computer_moves == []
    device.advance(device.now_ms + 1)
    assert app.computer_moves == [1]
    # Input is handled at once, not after the computer's pending turn.
    tap_cell(device, app, 5)
    assert app.cells[5] == 1 and app.computer_moves == [1]


def test_a_finished_game_is_recorded_once(make: Make) -> None:
    device, app = make()
    for _ in range(9):
        device.post(KeyDown(Key.SELECT))
        device.advance(device.now_ms + COMPUTER_MS)
    assert 0 not in app.cells and app.recorded
    assert app.scores is not None and len(app.scores.table("plain")) == 1
    again_counted = app.record_result("plain", Outcome(Termination.COMPLETED), (9,))
    assert again_counted is None  # already counted
    prefs = device.storage.load_prefs("TFil")
    assert prefs["scores"] == {"plain": [[app.cells.count(1)]]}
    assert isinstance(prefs["stats"], dict) and prefs["stats"]["players"] == {"Ann": 1}
    device.shutdown()
    device, again = make()
    assert again.recorded  # a resumed finished game is not counted again


@pytest.mark.parametrize("data", [b"{not json", b'{"v": 3, "cells": [0,0,0,0,0,0,0,0,0]}',
                                  b'{"v": 1, "cells": "x"}', b"[1]"])
def test_an_unusable_save_gives_one_notice_a_new_game_and_is_kept(make: Make,
                                                                   data: bytes) -> None:
    device, app = make()
    tap_cell(device, app, 4)
    device.shutdown()
    device.storage.save_state("TFil", data)
    device, app = make()
    assert app.cells == [0] * 9
    notes = [m for m in device.messages if "saved game" in m]
    assert len(notes) == 1 and "\n" not in notes[0]
    kept = list((device.storage.databases_dir).glob("*.corrupt-*"))
    assert len(kept) == 1 and data in kept[0].read_bytes()


def test_a_newer_record_names_the_versions(make: Make) -> None:
    device, _ = make()
    device.shutdown()
    device.storage.save_state("TFil", b'{"v": 9, "cells": [0,0,0,0,0,0,0,0,0]}')
    device, _ = make()
    assert any("newer version" in m and "v9" in m for m in device.messages)


def test_display_changes_lay_out_again(make: Make) -> None:
    device, app = make()
    before = app.layouts
    device.post(Rotate())
    assert app.layouts == before + 1
    assert app.grid is not None and device.config.app_bounds.contains(app.grid.x, app.grid.y)


def test_menus_come_from_the_command_table(make: Make) -> None:
    device, app = make()
    titles = [m.title for m in app.menus()]
    assert titles == ["Game", "Options", "Help"]
    assert [i.command for i in app.menus()[2].items] == ["help-rules", "about"]
    tap_cell(device, app, 0)
    device.post(MenuCommand("new"))
    assert app.cells == [0] * 9
    device.post(MenuCommand("help-rules"))
    assert isinstance(device.modals[-1], TextViewer)
    device.post(MenuCommand("no-such-command"))  # ignored, not an error


def test_preferences_carry_the_game_fields_and_sound(make: Make) -> None:
    device, app = make()
    device.post(MenuCommand("prefs"))
    form = device.modals[-1]
    assert isinstance(form, Form)
    keys = [getattr(f, "key", None) for f in form.fields]
    assert keys[-2:] == ["fast", "sound"]
    form.close((0, {**form.values, "fast": True, "sound": False}))
    device.post(KeyDown(Key.UP))  # lets the device notice the closed form
    assert app.prefs["fast"] is True and app.sound_on() is False
    assert device.storage.load_prefs("TFil")["fast"] is True
