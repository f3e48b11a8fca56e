"""What a new player noticed playing Pachisi in the window (the pachisiqa review):
each test failed before its fix."""

from __future__ import annotations

from pathlib import Path

import pytest

from palmish.device.display import CONFIGS, ConfigName
from palmish.device.events import Key, KeyDown, MenuCommand
from palmish.device.machine.system import Device
from palmish.device.ui.alert import Alert
from palmish.device.ui.form import Form, PopupList
from palmish.launcher import LauncherApp
from palmish.launcher.app import default_icon
from palmish.pachisi import Game, Player
from palmish.pachisi.app import PachisiApp
from palmish.pachisi.view import throws_label, throws_lines
from tests.pachisi.conftest import PLUGINS, MakeDevice

YOU, ANN, SILICON = Player("You"), Player("Ann"), Player("Silicon", True)


def test_messages_about_the_default_player_you_read_as_english() -> None:
    # "You" is the default name: the log said "You threw 10 and throws again".
    game = Game.from_position((YOU, SILICON), [[0] * 4, [0] * 4], throws=[10, 2],
                              first_turn=True)
    game.throw()
    assert game.message == "You threw 10 and throw again"
    move = game.default_move()
    assert move is not None
    game.move(move)
    assert game.message == "You enter a piece"
    game.throw()
    move = game.default_move()
    assert move is not None
    game.move(move)
    assert game.message == "You move a piece 2"
    later = Game.from_position((YOU, SILICON), [[0] * 4, [0] * 4], throws=[2])
    later.pass_turn()
    assert later.message == "You pass"


def test_messages_about_a_named_player_keep_the_third_person() -> None:
    game = Game.from_position((ANN, SILICON), [[0] * 4, [0] * 4], throws=[10],
                              first_turn=True)
    game.throw()
    assert game.message == "Ann threw 10 and throws again"
    move = game.default_move()
    assert move is not None
    game.move(move)
    assert game.message == "Ann enters a piece"


def test_the_throws_line_says_whose_throws_it_shows() -> None:
    # Under "Ann to play" the panel said "Throws: 4": Bob's last throw, read as Ann's.
    game = Game.from_position((ANN, Player("Bob")), [[0] * 4, [0] * 4], throws=[10, 3, 4],
                              first_turn=True)
    assert throws_label(game) == "Throws: -"
    game.throw()
    assert throws_label(game) == "Throws: 10"
    game.move(game.legal_moves()[0])
    game.throw()
    game.move(game.legal_moves()[0])
    assert game.current == 1
    assert throws_label(game) == "Ann threw 10 3"
    assert throws_label(game, short=True) == "Ann: 10 3"


def test_after_the_others_pass_unthrown_the_throws_line_is_not_your_old_throw() -> None:
    """Issue 41: Ann throws 4 and moves, Bob passes before throwing: Ann's new turn
    showed "Throws: 4" though she had not thrown."""
    game = Game.from_position((ANN, Player("Bob")), [[10, 0, 0, 0], [10, 0, 0, 0]],
                              throws=[4, 3], first_turn=False)
    game.throw()
    game.move(game.legal_moves()[0])
    assert game.current == 1 and throws_label(game) == "Ann threw 4"
    game.pass_turn()  # Bob, before throwing
    assert game.current == 0 and game.turn_throws == []
    assert throws_label(game) == "Throws: -"
    game.throw()
    assert throws_label(game) == "Throws: 3"


def test_a_long_run_of_throws_goes_on_two_lines_where_one_is_too_narrow() -> None:
    game = Game.from_position((ANN, Player("Bob")), [[10, 0, 0, 0], [10, 0, 0, 0]],
                              throws=[10, 6, 25, 3], first_turn=False)
    for _ in range(3):  # 10, 6 and 25 each give another throw
        game.throw()
        game.move(game.legal_moves()[0])
    game.throw()
    assert game.current == 0 and game.turn_throws == [10, 6, 25, 3]
    assert throws_lines(game, lambda text: True) == ["Throws: 10 6 25 3"]
    assert throws_lines(game, lambda text: len(text) <= 10) == ["Throws:", "10 6 25 3"]


def test_six_throws_on_wide_are_all_shown_on_as_many_lines_as_they_need(
        make_device: MakeDevice) -> None:
    """The second line cut a run of six throws to "10 6 25 10 6..." on Wide."""
    device, app = make_device("wide")
    app.load_game(Game.from_position((ANN, Player("Bob")), [[10, 0, 0, 0], [10, 0, 0, 0]],
                                     throws=[10, 6, 25, 10, 6, 3], first_turn=False))
    for _ in range(5):  # throw and move: each of the five earns another throw
        device.post(KeyDown(Key.SELECT))
        device.post(KeyDown(Key.SELECT))
    device.post(KeyDown(Key.SELECT))
    game = app.game
    assert game.current == 0 and game.turn_throws == [10, 6, 25, 10, 6, 3]
    assert app.layout is not None and app.layout.panel is not None
    std, w = device.screen.font("std"), app.layout.panel.text.w
    lines = throws_lines(game, lambda text: std.width(text) <= w)
    assert len(lines) >= 3 and all(std.width(line) <= w for line in lines)
    assert " ".join(lines) == "Throws: 10 6 25 10 6 3"
    assert throws_lines(game, lambda text: len(text) <= 10) == ["Throws:", "10 6 25 10", "6 3"]


@pytest.mark.parametrize("config", [ConfigName.SQUARE_LOW, ConfigName.TALL])
def test_the_launcher_shows_a_cross_icon_not_the_generic_one(config: ConfigName,
                                                            tmp_path: Path) -> None:
    s = CONFIGS[config].scale
    icon = PachisiApp().icon()
    assert icon is not None and icon.size == (22, 22)
    assert icon.tobytes() != default_icon(1).tobytes()
    device = Device(CONFIGS[config], tmp_path, [LauncherApp(), PachisiApp()],
                    start_app="launcher", bundled_plugins=PLUGINS, durable=False, alerts=False)
    # The cross's red centre square is in the launcher's cell for Pachisi.
    colours = {c for _, c in device.screen.image.getcolors(1 << 20) or []}
    assert (200, 70, 40) in colours, s
    device.shutdown()


@pytest.mark.parametrize("config", list(ConfigName), ids=lambda n: n.value)
@pytest.mark.parametrize("command", ["new", "prefs"])
def test_new_game_and_preferences_fit_each_control_on_one_row(
        config: ConfigName, command: str, make_device: MakeDevice) -> None:
    device, _ = make_device(config.value)
    device.post(MenuCommand(command))
    form = device.modals[-1]
    assert isinstance(form, Form)
    for key in ("humans", "dice", "level", "speed"):
        if any(getattr(f, "key", None) == key for f in form.fields):
            # the 160x160 New Game put "7-sided die" on a second row
            assert len({r.y for r in form.control_rects(key)}) == 1, key
    device.shutdown()


def test_left_and_right_walk_the_marker_too(make_device: MakeDevice) -> None:
    # The seed moves the marker with "the cursor keys"; Left and Right did nothing.
    device, app = make_device()
    app.load_game(Game.from_position((ANN, SILICON), [[30, 10, 0, 0], [0] * 4], throws=[10]))
    device.post(KeyDown(Key.SELECT))
    legal = app.game.legal_moves()[:3]
    assert app.scene.mark == legal[0]
    device.post(KeyDown(Key.RIGHT))
    assert app.scene.mark == legal[1]
    device.post(KeyDown(Key.LEFT))
    device.post(KeyDown(Key.LEFT))
    assert app.scene.mark == legal[2]
    device.shutdown()


def test_pass_and_hint_out_of_your_turn_say_why_they_do_nothing(
        make_device: MakeDevice) -> None:
    # Game > Pass and Hint during Silicon's turn did nothing at all.
    device, app = make_device()
    app.load_game(Game.from_position((ANN, SILICON), [[30, 0, 0, 0], [20, 0, 0, 0]],
                                     current=1, throws=[2]))
    before = (app.game.positions(0), app.game.positions(1), app.game.phase)
    for command in ("pass", "hint"):
        device.post(MenuCommand(command))
        modal = device.modals[-1]
        assert isinstance(modal, Alert) and modal.message == "It is Silicon's turn."
        device.post(KeyDown(Key.SELECT))
    after = (app.game.positions(0), app.game.positions(1), app.game.phase)
    assert after == before and app.game.current == 1 and not device.modals
    device.shutdown()


def test_changing_the_dice_mid_game_says_when_they_come(make_device: MakeDevice) -> None:
    device, app = make_device()
    assert app.game.dice == "cowrie"
    device.post(MenuCommand("prefs"))
    form = device.modals[-1]
    assert isinstance(form, Form)
    form.close(form.row.result(0, {"dice": 1}))  # OK with the 7-sided die
    device.post(KeyDown(Key.SELECT))
    assert app.prefs["dice"] == "die7" and app.game.dice == "cowrie"
    assert any("next game" in m for m in device.messages), device.messages
    device.shutdown()


def test_a_plugin_name_drops_the_word_its_row_label_says_before_an_ellipsis(
        make_device: MakeDevice) -> None:
    # At 160x160 "Sandalwood Board" showed as "Sandalwo… Board" beside "Board:".
    device, _ = make_device(ConfigName.SQUARE_LOW.value)
    device.post(MenuCommand("prefs"))
    form = device.modals[-1]
    assert isinstance(form, Form)
    shown = {f.options[f.selected]: form.trigger_text(i) for i, f in enumerate(form.fields)
             if isinstance(f, PopupList)}
    assert shown["Sandalwood Board"] == "Sandalwood"
    assert shown["Classic Pieces"] == "Classic Pieces"  # it fits: nothing dropped
    device.shutdown()
