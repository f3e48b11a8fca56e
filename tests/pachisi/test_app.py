"""Pachisi played through the device: people by keys and taps, Silicon on the clock."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from palmish.device.events import (
    Key,
    KeyDown,
    MenuCommand,
    PenDown,
    PenUp,
    Rotate,
    ToggleInputArea,
)
from palmish.device.geometry import Rect
from palmish.device.machine.system import Device
from palmish.device.ui.alert import Alert
from palmish.device.ui.form import Form
from palmish.device.ui.modal import Modal
from palmish.device.ui.name_entry import NameEntry
from palmish.device.ui.textview import TextViewer
from palmish.pachisi import Game, Player, ai
from palmish.pachisi.app import NOTICE_MS, SPEED_MS, PachisiApp

ANN, BOB = Player("Ann"), Player("Bob")
SILICON, SILICON1 = Player("Silicon", True), Player("Silicon1", True)
STEP = SPEED_MS["normal"]
MakeDevice = Callable[..., tuple[Device, PachisiApp]]  # the make_device fixture (conftest.py)


def tap(device: Device, rect: Rect) -> None:
    x, y = rect.x + rect.w // 2, rect.y + rect.h // 2
    device.post(PenDown(x, y))
    device.post(PenUp(x, y))


def labels(modal: Modal) -> tuple[str, ...]:
    """The open alert's or form's button labels."""
    assert isinstance(modal, Alert | Form), modal
    return modal.row.labels()


def answer(device: Device, label: str) -> None:
    """Press the open dialog's button with this label (focus moves with Right)."""
    modal = device.modals[-1]
    assert isinstance(modal, Alert | Form), modal
    labels = modal.row.labels()
    assert label in labels, labels
    focus = modal.row.focus
    step = Key.RIGHT if labels.index(label) > focus else Key.LEFT
    for _ in range(abs(labels.index(label) - focus)):
        device.post(KeyDown(step))
    device.post(KeyDown(Key.SELECT))


def alert_text(device: Device) -> str:
    modal = device.modals[-1]
    assert isinstance(modal, Alert)
    return modal.message


def set_up(app: PachisiApp, positions: list[list[int]], throws: list[int],
           players: tuple[Player, ...] = (ANN, SILICON), first: bool = False) -> None:
    app.load_game(Game.from_position(players, positions, throws=throws, first_turn=first))


def test_starts_with_four_players_and_the_bundled_plugins(make_device: MakeDevice) -> None:
    device, app = make_device()
    assert [p.name for p in app.game.players] == ["You", "Silicon", "Silicon1", "Silicon2"]
    assert app.media.plugin("board") is not None and app.media.plugin("pieces") is not None
    assert app.human_turn and app.game.phase == "throw"
    assert device.messages == []


def test_a_game_of_people_and_computers_runs_to_the_winner(make_device: MakeDevice) -> None:
    device, app = make_device("square-low")
    app.prefs["speed"] = "fast"
    app.start_game([ANN, BOB, SILICON, SILICON1], "die7")
    seen_marker = False
    for _ in range(5000):
        if app.game.over:
            break
        if device.modals:
            # A lost throw's message, or a caution question (made anyway: no 1 ever comes).
            answer(device, "Move" if "Move" in labels(device.modals[-1]) else "OK")
        elif app.human_turn:
            if app.game.phase == "move":
                assert app.scene.mark == app.game.default_move()
                seen_marker = True
            device.post(KeyDown(Key.SELECT))
        else:
            device.advance(device.now_ms + SPEED_MS["fast"])
    game = app.game
    assert game.over and seen_marker
    assert game.winner is not None and game.finished(game.winner) == 4
    assert alert_text(device).startswith(f"{game.players[game.winner].name} wins!")
    answer(device, "No")
    assert not device.modals
    games = app.tallies.tally("games")
    assert games.played == 1
    for pl, p in enumerate(game.players):
        key = ("c:" if p.computer else "h:") + p.name
        assert app.tallies.tally(key).played == 1
        assert app.tallies.tally(key).won == (1 if pl == game.winner else 0)
    prefs = device.storage.load_prefs("PPch")
    assert isinstance(prefs.get("stats"), dict)
    assert device.messages == []


def test_computer_turns_throw_mark_and_move_half_a_second_apart(make_device: MakeDevice) -> None:
    device, app = make_device()
    set_up(app, [[0, 0, 0, 0], [20, 0, 0, 0]], [5, 4], players=(ANN, SILICON))
    device.post(MenuCommand("pass"))
    assert app.game.current == 1 and app.game.phase == "throw"
    device.advance(device.now_ms + STEP - 1)
    assert app.game.phase == "throw"
    device.advance(device.now_ms + 1)
    assert app.game.phase == "move" and app.scene.mark is None
    device.advance(device.now_ms + STEP)
    assert app.scene.mark is not None and app.scene.mark.frm == 20
    device.advance(device.now_ms + STEP)
    assert app.game.position(1, 0) == 25 and app.game.current == 0
    assert app.scene.mark is None


def test_a_menu_interrupts_the_computer_and_it_goes_on_after(make_device: MakeDevice) -> None:
    device, app = make_device()
    set_up(app, [[0, 0, 0, 0], [20, 0, 0, 0]], [5, 4], players=(ANN, SILICON))
    device.post(MenuCommand("pass"))
    device.post(KeyDown(Key.MENU))
    assert device.modals
    device.advance(device.now_ms + 10 * STEP)
    assert app.game.current == 1 and app.game.phase == "throw"  # the clock waits
    device.post(KeyDown(Key.HOME))  # closes the menu bar
    assert not device.modals
    device.advance(device.now_ms + 3 * STEP)
    assert app.game.current == 0


def test_throw_by_tapping_the_die_and_move_by_tapping_the_target(make_device: MakeDevice
                                                                  ) -> None:
    device, app = make_device()
    set_up(app, [[10, 0, 0, 0], [0, 0, 0, 0]], [3])
    assert app.layout is not None and app.view is not None
    tap(device, app.layout.die_rect(0))
    assert app.game.phase == "move" and app.game.last_throw == 3
    mark = app.scene.mark
    assert mark is not None and (mark.frm, mark.to) == (10, 13)
    tap(device, app.view.target_rect(app.game, mark))
    assert app.game.position(0, 0) == 13
    saved = device.storage.load_state("PPch")  # a set-up position has no record to save
    assert saved is not None and b"Ann" not in saved


def test_up_down_choose_another_piece_and_select_moves_it(make_device: MakeDevice) -> None:
    device, app = make_device()
    set_up(app, [[30, 10, 0, 0], [0, 0, 0, 0]], [10, 2])
    device.post(KeyDown(Key.SELECT))
    # each waiting piece has its own entering move; the marker stops once
    # at the start area, on the lowest-numbered piece's move
    assert [m.frm for m in app.game.legal_moves()] == [30, 10, 0, 0]
    legal = app.game.legal_moves()[:3]
    assert app.scene.mark == legal[0]
    device.post(KeyDown(Key.DOWN))
    device.post(KeyDown(Key.DOWN))
    assert app.scene.mark == legal[2]
    device.post(KeyDown(Key.DOWN))
    assert app.scene.mark == legal[0]
    device.post(KeyDown(Key.UP))
    assert app.scene.mark == legal[2]
    device.post(KeyDown(Key.SELECT))
    assert app.game.positions(0) == (30, 10, 10, 0)  # entered on 10: a double now
    assert app.game.current == 0 and app.game.phase == "throw"  # 10 throws again


def test_tapping_a_piece_marks_it_and_a_second_tap_moves_it(make_device: MakeDevice) -> None:
    device, app = make_device()
    set_up(app, [[30, 12, 0, 0], [0, 0, 0, 0]], [3])
    device.post(KeyDown(Key.SELECT))
    assert app.layout is not None
    square = app.layout.square_rect(app.game.square(0, 1) or (0, 0))
    tap(device, square)
    assert app.scene.mark is not None and app.scene.mark.frm == 12
    tap(device, square)
    assert app.game.positions(0) == (30, 15, 0, 0)


def test_a_tap_on_the_third_waiting_piece_enters_one(make_device: MakeDevice) -> None:
    """Issue 41: with an entering throw, a tap on any waiting piece marks the entering
    move, and a tap on any of them when it is marked enters a piece."""
    device, app = make_device()
    set_up(app, [[30, 0, 0, 0], [0, 0, 0, 0]], [10])
    device.post(KeyDown(Key.SELECT))
    assert app.layout is not None and app.scene.mark is not None
    assert app.scene.mark.frm == 30  # the most advanced piece first
    tap(device, app.layout.waiting_slot(0, 2))
    assert app.scene.mark is not None and app.scene.mark.frm == 0
    tap(device, app.layout.waiting_slot(0, 3))
    assert sorted(app.game.positions(0)) == [0, 0, 10, 30]


def test_an_unmovable_piece_says_why_in_a_message_box(make_device: MakeDevice) -> None:
    device, app = make_device()
    set_up(app, [[10, 0, 0, 0], [0, 0, 0, 0]], [3])
    assert app.layout is not None
    tap(device, app.layout.waiting_slot(0, 1))
    assert app.scene.notice == "Throw first." and not device.modals  # a box on the board
    device.post(KeyDown(Key.SELECT))  # any key only clears it
    assert app.scene.notice is None and app.game.phase == "throw"
    device.take_sounds()
    device.post(KeyDown(Key.SELECT))
    tap(device, app.layout.waiting_slot(0, 1))
    assert app.scene.notice == "Enter with 6, 10 or 25."
    assert device.take_sounds()  # the illegal buzz
    tap(device, app.layout.waiting_slot(0, 1))  # the tap only clears the box
    assert app.scene.notice is None
    assert app.game.phase == "move" and app.game.position(0, 0) == 10


def test_a_throw_nothing_can_use_says_so(make_device: MakeDevice) -> None:
    device, app = make_device()
    set_up(app, [[0, 0, 0, 0], [0, 0, 0, 0]], [3, 4, 2])
    device.post(KeyDown(Key.SELECT))
    assert app.scene.notice == "Ann threw 3: can't move any piece!" and not device.modals
    assert app.scene.shown_throw == (0, 3)  # the shells stay in Ann's corner
    assert app.game.current == 1 and app.game.events[-1].text == "Ann can't move any piece!"
    device.advance(device.now_ms + NOTICE_MS - 1)
    assert app.game.current == 1 and app.game.phase == "throw"  # the computer waits
    device.advance(device.now_ms + 1)  # the box clears by itself, like the computer's
    assert app.scene.notice is None and app.scene.shown_throw is None
    device.advance(device.now_ms + STEP)
    assert app.scene.notice == "Silicon threw 4: can't move any piece!"
    device.advance(device.now_ms + NOTICE_MS - 1)
    assert app.scene.notice is not None
    device.advance(device.now_ms + 1)
    assert app.scene.notice is None and app.game.current == 0


def test_any_key_clears_a_computer_notice_at_once(make_device: MakeDevice) -> None:
    device, app = make_device()
    set_up(app, [[0, 0, 0, 0], [0, 0, 0, 0]], [4, 3])
    device.post(MenuCommand("pass"))
    device.advance(device.now_ms + STEP)
    assert app.scene.notice == "Silicon threw 4: can't move any piece!"
    device.post(KeyDown(Key.DOWN))
    assert app.scene.notice is None and app.game.current == 0
    assert app.game.phase == "throw"  # the key only cleared the box


def test_a_caution_move_asks_first(make_device: MakeDevice) -> None:
    device, app = make_device()
    set_up(app, [[72, 0, 0, 0], [0, 0, 0, 0]], [3])
    device.post(KeyDown(Key.SELECT))
    mark = app.scene.mark
    assert mark is not None and mark.caution
    assert app.scene.notice_title == "CAUTION"  # as soon as the marker lands on it
    device.post(KeyDown(Key.SELECT))  # clears the caution
    assert app.scene.notice is None and not device.modals
    device.post(KeyDown(Key.SELECT))
    modal = device.modals[-1]
    assert isinstance(modal, Alert) and modal.title == "Caution"
    device.post(KeyDown(Key.SELECT))  # the default is Cancel: Space x3 strands nothing
    assert app.game.position(0, 0) == 72 and app.game.phase == "move"
    device.post(KeyDown(Key.SELECT))
    answer(device, "Move")
    assert app.game.position(0, 0) == 75


def test_pass_from_the_second_turn_on(make_device: MakeDevice) -> None:
    device, app = make_device()
    set_up(app, [[0, 0, 0, 0], [0, 0, 0, 0]], [3], first=True)
    device.post(MenuCommand("pass"))
    assert app.scene.notice == "No passing in the first turn: pass from the second turn on."
    device.post(KeyDown(Key.SELECT))
    assert app.game.current == 0
    set_up(app, [[10, 0, 0, 0], [0, 0, 0, 0]], [3])
    device.post(KeyDown(Key.SELECT))
    assert app.game.phase == "move"
    device.post(MenuCommand("pass"))  # after the throw too
    assert app.game.current == 1 and app.game.position(0, 0) == 10


def test_the_panel_throws_and_passes_in_wide(make_device: MakeDevice) -> None:
    device, app = make_device("wide")
    set_up(app, [[10, 0, 0, 0], [0, 0, 0, 0]], [3])
    assert app.layout is not None and app.layout.panel is not None
    tap(device, app.layout.panel.throw_button)
    assert app.game.phase == "move"
    tap(device, app.layout.panel.pass_button)
    assert app.game.current == 1


def test_rotation_mid_turn_keeps_the_marker(make_device: MakeDevice) -> None:
    device, app = make_device("square")
    set_up(app, [[30, 10, 0, 0], [0, 0, 0, 0]], [4])
    device.post(KeyDown(Key.SELECT))
    device.post(KeyDown(Key.DOWN))
    mark = app.scene.mark
    assert mark is not None and mark.frm == 10
    device.post(Rotate())
    assert device.config.name.value == "wide" and app.layout is not None
    assert app.layout.panel is not None and app.scene.mark == mark
    assert app.view is not None
    tap(device, app.view.target_rect(app.game, mark))
    assert app.game.positions(0) == (30, 14, 0, 0)


def test_closing_the_input_area_mid_turn_keeps_the_game(make_device: MakeDevice) -> None:
    device, app = make_device("square")
    set_up(app, [[30, 10, 0, 0], [0, 0, 0, 0]], [4])
    device.post(KeyDown(Key.SELECT))
    device.post(KeyDown(Key.DOWN))
    mark = app.scene.mark
    device.post(ToggleInputArea())
    assert device.config.name.value == "tall" and app.layout is not None
    assert app.layout.panel is not None and app.scene.mark == mark
    assert app.game.phase == "move" and app.game.last_throw == 4
    device.post(ToggleInputArea())
    assert device.config.name.value == "square" and app.layout is not None
    assert app.layout.panel is None and app.scene.mark == mark
    device.post(KeyDown(Key.SELECT))
    assert app.game.positions(0) == (30, 14, 0, 0)


def test_every_decision_is_saved_and_resumed_exactly(make_device: MakeDevice,
                                                     tmp_path: Path) -> None:
    data = tmp_path / "resume"
    device, app = make_device("square", data)
    app.load_game(Game.new(seed=7, players=(ANN, SILICON)))
    device.post(KeyDown(Key.SELECT))  # any throw enters in the first turn
    assert app.game.phase == "move"
    saved = device.storage.load_state("PPch")
    assert saved is not None and app.game.record().encode() in saved
    record = app.game.record()
    device.shutdown()
    device, again = make_device("tall", data)
    assert again.game.record() == record and again.game.phase == "move"
    assert again.scene.mark == again.game.default_move()
    device.post(KeyDown(Key.SELECT))
    assert again.game.record() != record
    device.shutdown()


def test_hint_marks_silicons_choice(make_device: MakeDevice) -> None:
    device, app = make_device()
    set_up(app, [[30, 10, 0, 0], [14, 0, 0, 0]], [4])
    device.post(KeyDown(Key.SELECT))
    device.post(MenuCommand("hint"))
    device.advance(device.now_ms + 1000)  # it thinks between frames
    assert app.scene.mark == ai.choose(app.game, ai.STRONGEST)
    assert app.scene.mark != app.game.default_move()  # not just the seed's marker


def test_hint_marks_a_move_where_passing_gains_next_to_nothing(make_device: MakeDevice) -> None:
    # hard without its pass margin would pass here; once another player has
    # passed (Silicon2, just before Ann) it has the margin, and the Hint marks
    # the move instead
    device, app = make_device()
    players = (ANN, SILICON, Player("Silicon1", True), Player("Silicon2", True))
    game = Game.from_position(players, [[4, 0, 0, 0], [4, 0, 0, 0], [4, 0, 0, 0], [2, 0, 0, 0]],
                              throws=[3], current=3)
    game.pass_turn()
    app.load_game(game)
    device.post(KeyDown(Key.SELECT))
    device.post(MenuCommand("hint"))
    device.advance(device.now_ms + 1000)
    assert not device.modals  # no "Silicon would pass."
    assert app.scene.mark == app.game.legal_moves()[0]


def test_new_game_asks_the_seed_questions_and_the_names(make_device: MakeDevice) -> None:
    device, app = make_device()
    device.post(MenuCommand("new"))
    form = device.modals[-1]
    assert isinstance(form, Form)
    form.close(form.row.result(0, {"humans": 1, "dice": 1}))  # two people, the seven-sided die
    device.post(KeyDown(Key.LEFT))
    assert "the other 2 seats" in alert_text(device)
    answer(device, "Yes")
    for name in ("Ann", "Bob"):
        entry = device.modals[-1]
        assert isinstance(entry, NameEntry)
        entry.text = ""
        entry.type(name)
        device.post(KeyDown(Key.SELECT))
    assert [(p.name, p.computer) for p in app.game.players] == [
        ("Ann", False), ("Bob", False), ("Silicon", True), ("Silicon1", True)]
    assert app.game.dice == "die7" and not device.modals


def test_one_person_plays_one_or_three_computers(make_device: MakeDevice) -> None:
    device, app = make_device()
    device.post(MenuCommand("new"))
    form = device.modals[-1]
    assert isinstance(form, Form)
    form.close(form.row.result(0, {"humans": 0, "dice": 0}))
    device.post(KeyDown(Key.LEFT))
    answer(device, "One")
    entry = device.modals[-1]
    assert isinstance(entry, NameEntry) and entry.text == "You"
    device.post(KeyDown(Key.SELECT))
    assert [p.name for p in app.game.players] == ["You", "Silicon"]
    assert app.game.dice == "cowrie"
    device.post(MenuCommand("again"))
    assert [p.name for p in app.game.players] == ["You", "Silicon"]


def test_the_name_keyboard_types_by_pen(make_device: MakeDevice) -> None:
    device, _ = make_device()
    entry = NameEntry("Name")
    device.open_modal(entry)
    for key in ("a", "l", "i", "1"):
        rect = next(r for k, r in entry.keys if k == key)
        tap(device, rect)
    assert entry.text == "Ali1"
    rect = next(r for k, r in entry.keys if k == "Del")
    tap(device, rect)
    assert entry.text == "Ali"


def test_statistics_list_people_and_computers(make_device: MakeDevice) -> None:
    device, app = make_device()
    set_up(app, [[76, 76, 76, 70], [0, 0, 0, 0]], [6])
    device.post(KeyDown(Key.SELECT))
    device.post(KeyDown(Key.SELECT))
    assert app.game.winner == 0
    answer(device, "No")
    device.post(MenuCommand("stats"))
    viewer = device.modals[-1]
    assert isinstance(viewer, TextViewer)
    assert "Ann: 1 game, 1 won (100%)" in viewer.text
    assert "Silicon: 1 game, 0 won (0%)" in viewer.text


def test_play_again_after_a_win_keeps_the_players(make_device: MakeDevice) -> None:
    device, app = make_device()
    set_up(app, [[76, 76, 76, 70], [0, 0, 0, 0]], [6])
    device.post(KeyDown(Key.SELECT))
    device.post(KeyDown(Key.SELECT))
    answer(device, "Yes")
    answer(device, "Yes")
    assert not app.game.over and [p.name for p in app.game.players] == ["Ann", "Silicon"]
    assert app.game.history == [] and not app.recorded


def test_help_pages_and_about_open(make_device: MakeDevice) -> None:
    device, _ = make_device()
    for command in ("help-rules", "help-play", "help-plugins", "about"):
        device.post(MenuCommand(command))
        assert device.modals
        device.post(KeyDown(Key.HOME))
        assert not device.modals, command


def test_sounds_come_from_the_sound_plugin_and_the_preference_silences_them(
        make_device: MakeDevice) -> None:
    device, app = make_device()
    sound = app.media.plugin("sound")
    assert sound is not None
    set_up(app, [[10, 0, 0, 0], [0, 0, 0, 0]], [3, 3])
    device.take_sounds()
    device.post(KeyDown(Key.SELECT))
    assert device.take_sounds() == [sound.sound(app.sound_ids["throw"])]
    device.post(KeyDown(Key.SELECT))
    assert device.take_sounds() == [sound.sound(app.sound_ids["move"])]
    app.prefs["sound"] = False
    device.advance(device.now_ms + 3 * STEP)
    assert device.take_sounds() == []


def test_preferences_set_the_level_speed_and_dice(make_device: MakeDevice) -> None:
    device, app = make_device()
    device.post(MenuCommand("prefs"))
    form = device.modals[-1]
    assert isinstance(form, Form)
    values = dict(form.values)
    values.update(level=2, speed=2, dice=1)
    form.close(form.row.result(0, values))
    device.post(KeyDown(Key.LEFT))
    assert (app.level_pref(), app.speed_ms(), app.dice_pref()) == ("hard", SPEED_MS["fast"],
                                                                   "die7")
    assert app.game.dice == "cowrie"  # the dice change from the next game
    device.post(MenuCommand("again"))
    assert app.game.dice == "die7"
    prefs = device.storage.load_prefs("PPch")
    assert prefs["level"] == "hard" and prefs["speed"] == "fast"
