"""Sigmar's Garden through the real Device: taps, keys, menus, messages and sounds."""

from __future__ import annotations

from pathlib import Path

from palmish.device.events import Key, KeyDown, MenuCommand
from palmish.device.machine.system import Device
from palmish.device.ui.alert import Alert
from palmish.sigmar import solver
from palmish.sigmar.app import NO_SOLUTION, SigmarApp
from palmish.sigmar.schema import SCHEMA
from tests.sigmar.conftest import Make, play_solution, press, tap_cell

SOUNDS = SCHEMA.sounds


def sound_ids(device: Device, app: SigmarApp) -> list[int]:
    """The ids of the sounds played since the last call (matched by their bytes)."""
    plugin = app.media.plugin("sound")
    assert plugin is not None
    by_bytes = {plugin.sound(i): i for i in SOUNDS.values()}
    return [by_bytes[s] for s in device.take_sounds()]


def test_a_level_is_solved_by_taps_with_sounds_stats_and_a_win_dialog(make: Make) -> None:
    device, app = make(board="3")
    assert app.game.level == "3" and app.game.name == "Projection"
    play_solution(device, app)
    assert app.game.won
    played = sound_ids(device, app)
    assert SOUNDS["select"] in played and SOUNDS["react"] in played
    assert SOUNDS["transmute"] in played and SOUNDS["gold"] in played
    assert played[-1] == SOUNDS["win"]
    tally = app.tallies.tally("garden")
    assert (tally.won, tally.lost, tally.streak) == (1, 0, 1)
    assert app.prefs["cleared"] == ["3"]
    assert device.modals and "cleared in" in getattr(device.modals[-1], "message", "")
    press(device, "New Game")
    assert not device.modals and app.game.level is None and app.game.moves == []
    device.shutdown()


def test_illegal_taps_buzz_and_say_why(make: Make) -> None:
    device, app = make(board="7")  # Caution
    cases = [
        ((2, 1), "Fire is locked: it needs two empty sides"),
        ((2, 0), "Metals go in order: lead first"),
        ((4, 0), "Slag never reacts: it only blocks"),
        ((0, 0), "No free lead for quicksilver"),
    ]
    for cell, message in cases:
        tap_cell(device, app, cell)
        assert app.scene.message == message
        assert app.scene.selected is None
        assert sound_ids(device, app) == [SOUNDS["illegal"]]
    assert app.game.moves == []
    device.shutdown()


def test_selection_moves_deselects_and_refuses_a_non_partner(make: Make) -> None:
    device, app = make(board="7")
    game = app.game
    tap_cell(device, app, (1, 0))  # Fire, free
    assert app.scene.selected == (1, 0)
    assert app.scene.partners == game.partners(1, 0)
    tap_cell(device, app, (1, 0))
    assert app.scene.selected is None
    tap_cell(device, app, (1, 0))
    tap_cell(device, app, (1, 2))  # the other free Fire reacts
    assert game.atom_at(1, 0) is None and game.atom_at(1, 2) is None
    device.take_sounds()
    tap_cell(device, app, (0, 0))  # quicksilver: lead is still locked
    assert app.scene.selected is None
    device.shutdown()


def install_levels(data: Path, levels: dict[str, str]) -> None:
    folder = data / "files" / "PSgm"
    folder.mkdir(parents=True, exist_ok=True)
    for level_id, text in levels.items():
        (folder / f"{level_id}.dat").write_text(text, encoding="utf-8")


TRAP = "Trap\n338e\n"  # Air, Air, Salt, Fire in a row: Air + Salt strands the Fire
BOXED = "Boxed\n2\n\n888\n8a8\n888\n"  # lead free, its quicksilver walled in by Salt


def test_gold_goes_with_one_tap_when_current(make: Make, tmp_path: Path) -> None:
    install_levels(tmp_path / "device", {"gold": "Gold\n4\n"})
    device, app = make(board="gold")
    tap_cell(device, app, (0, 0))
    assert app.game.won
    assert sound_ids(device, app) == [SOUNDS["win"]]
    device.shutdown()


def test_a_free_metal_without_free_quicksilver_says_so(make: Make, tmp_path: Path) -> None:
    install_levels(tmp_path / "device", {"boxed": BOXED})
    device, app = make(board="boxed")
    tap_cell(device, app, (0, 0))
    assert app.scene.message == "No free quicksilver"
    tap_cell(device, app, (3, 1))
    assert app.scene.message == "Quicksilver is locked: it needs two empty sides"
    device.shutdown()


def test_keys_walk_the_selectable_atoms_then_partners_and_take(make: Make) -> None:
    device, app = make(board="7")
    game = app.game
    selectable = sorted({c for t in game.legal_takes() for c in (t.a, t.b) if c})
    device.post(KeyDown(Key.DOWN))
    assert app.focus == selectable[0]
    device.post(KeyDown(Key.UP))
    assert app.focus == selectable[-1]
    device.post(KeyDown(Key.DOWN))
    device.post(KeyDown(Key.SELECT))
    first = selectable[0]
    assert app.scene.selected == first
    device.post(KeyDown(Key.DOWN))
    assert app.focus in game.partners(*first)
    device.post(KeyDown(Key.SELECT))
    assert len(game.moves) == 1
    assert game.atom_at(*first) is None
    device.shutdown()


def test_undo_and_try_again(make: Make) -> None:
    device, app = make(board="3")
    play_solution(device, app, 3)
    device.post(MenuCommand("undo"))
    assert len(app.game.moves) == 2
    device.post(MenuCommand("restart"))
    press(device, "Try Again")  # the takes made are thrown away: the app asked first
    assert app.game.moves == [] and app.game.level == "3"
    device.post(MenuCommand("undo"))
    assert app.scene.message == "Nothing to undo"
    device.shutdown()


def test_undo_after_a_win_and_after_getting_stuck(make: Make) -> None:
    device, app = make(board="3")
    play_solution(device, app)
    assert app.game.won
    device.post(MenuCommand("undo"))  # over the Garden Cleared alert: as the Menu key, nothing
    assert app.game.won
    press(device, "OK")
    device.post(MenuCommand("undo"))
    assert not app.game.won and len(app.game.moves) > 0
    device.shutdown()


def test_hint_marks_a_take_and_select_takes_it_assisted(make: Make) -> None:
    device, app = make(board="3")
    device.post(MenuCommand("hint"))
    hint = solver.hint(app.game)
    assert hint is not None
    assert app.scene.hint == tuple(c for c in (hint.a, hint.b) if c is not None)
    assert app.assisted
    device.post(KeyDown(Key.SELECT))
    assert app.game.moves == [hint] and app.scene.hint == ()
    while not app.game.won:
        device.post(MenuCommand("hint"))
        device.post(KeyDown(Key.SELECT))
    tally = app.tallies.tally("garden")
    assert tally.won == 1 and app.prefs["assisted"] == 1
    device.shutdown()


def test_a_stuck_board_is_lost_once_and_the_hint_says_undo(make: Make, tmp_path: Path) -> None:
    install_levels(tmp_path / "device", {"trap": TRAP})
    device, app = make(board="trap")
    device.post(MenuCommand("hint"))
    assert app.scene.hint == ((0, 0), (0, 1))  # the Airs together: the only way out
    device.post(MenuCommand("restart"))
    assert not app.assisted
    tap_cell(device, app, (0, 1))
    tap_cell(device, app, (0, 2))  # Air + Salt
    assert app.game.stuck
    assert sound_ids(device, app)[-1] == SOUNDS["stuck"]
    assert "Stuck" in app.scene.message
    stuck = device.modals[-1]  # a dialog like the win's; Escape leaves the board
    assert isinstance(stuck, Alert) and stuck.title == "Stuck"
    assert [b.label for b in stuck.row.buttons] == ["Undo", "Retry", "New Game"]
    device.post(KeyDown(Key.CANCEL))
    assert not device.modals and app.game.stuck
    tally = app.tallies.tally("garden")
    assert (tally.lost, tally.streak) == (1, -1)
    device.post(MenuCommand("hint"))
    assert app.scene.message == NO_SOLUTION and app.scene.hint == ()
    device.post(MenuCommand("undo"))  # back to a position with a solution: still one loss
    device.post(MenuCommand("hint"))
    device.post(KeyDown(Key.SELECT))
    device.post(MenuCommand("hint"))
    device.post(KeyDown(Key.SELECT))
    assert app.game.won
    tally = app.tallies.tally("garden")
    assert (tally.won, tally.lost) == (0, 1)  # this attempt was counted when it got stuck
    press(device, "OK")
    assert not device.modals
    device.post(MenuCommand("restart"))  # a new attempt counts again
    tap_cell(device, app, (0, 0))
    tap_cell(device, app, (0, 1))
    tap_cell(device, app, (0, 2))
    tap_cell(device, app, (0, 3))
    tally = app.tallies.tally("garden")
    assert (tally.won, tally.lost, tally.streak) == (1, 1, 1)
    from palmish.sigmar.catalog import cleared_key  # an installed level: its id and board

    assert app.prefs["cleared"] == [cleared_key(next(e for e in app.levels if e.id == "trap"))]
    assert app.prefs["cleared"][0].startswith("trap#")
    device.shutdown()




def test_the_stuck_dialog_undoes_tries_again_or_deals(make: Make, tmp_path: Path) -> None:
    install_levels(tmp_path / "device", {"trap": TRAP})
    device, app = make(board="trap")
    for button, moves in (("Undo", 0), ("Retry", 0)):
        tap_cell(device, app, (0, 1))
        tap_cell(device, app, (0, 2))  # Air + Salt: stuck
        assert app.game.stuck and device.modals[-1].title == "Stuck"  # type: ignore[attr-defined]
        press(device, button)
        assert not device.modals and len(app.game.moves) == moves and not app.game.stuck
    tap_cell(device, app, (0, 1))
    tap_cell(device, app, (0, 2))
    press(device, "New Game")
    assert app.game.seed is not None and app.game.level is None
    device.shutdown()


def test_a_level_of_slag_only_opens_as_won(make: Make, tmp_path: Path) -> None:
    install_levels(tmp_path / "device", {"slag": "Slag Garden\n77\n7\n"})
    device, app = make(board="slag")
    assert app.game.won
    won = device.modals[-1]
    assert isinstance(won, Alert) and won.title == "Garden Cleared"
    device.post(KeyDown(Key.CANCEL))  # Escape is OK: the board stays
    assert not device.modals and app.game.level == "slag"
    assert [k.split("#")[0] for k in app.prefs["cleared"]] == ["slag"]  # type: ignore[attr-defined,union-attr]
    device.shutdown()
