"""Issue 21, Pachisi: the seed's keys and caution, the messages a player can
follow, the history, skipping computer turns, the slide and the marks, driven
where possible by the documented event scripts (docs/events-format.md)."""

from __future__ import annotations

from palmish.device.events import CharKey, Key, KeyDown, PenDown, PenUp
from palmish.device.machine.system import Device
from palmish.device.scripting.eventscript import parse_script, run_script
from palmish.device.ui.alert import Alert
from palmish.device.ui.name_entry import NameEntry
from palmish.device.ui.textview import TextViewer
from palmish.frontend.input import key_event
from palmish.pachisi import Player
from palmish.pachisi.app import NOTICE_MS, SPEED_MS
from tests.pachisi.conftest import MakeDevice
from tests.pachisi.test_app import ANN, BOB, SILICON, set_up


def play(device: Device, script: str) -> None:
    run_script(device, parse_script(script))


def test_the_caution_shows_when_the_marker_lands_and_space_x3_strands_nothing(
        make_device: MakeDevice) -> None:
    device, app = make_device()
    set_up(app, [[72, 10, 0, 0], [0, 0, 0, 0]], [3, 3])
    play(device, "key select")  # the default marker lands on 72 -> 75
    assert app.scene.mark is not None and app.scene.mark.caution
    assert app.scene.notice_title == "CAUTION" and "could never finish" in (app.scene.notice or "")
    play(device, "key select\nkey select\nkey select")  # clear, move?, confirm = Cancel
    assert app.game.positions(0) == (72, 10, 0, 0) and not device.modals
    play(device, "key down")  # Down moves to 10 -> 13: no caution
    assert app.scene.mark is not None and app.scene.mark.frm == 10 and app.scene.notice is None
    play(device, "key up")  # back on the caution move: said again
    assert app.scene.notice_title == "CAUTION"


def test_the_caution_confirmation_defaults_to_cancel_and_moves_on_request(
        make_device: MakeDevice) -> None:
    device, app = make_device()
    set_up(app, [[72, 0, 0, 0], [0, 0, 0, 0]], [3])
    play(device, "key select\nkey select\nkey select")
    modal = device.modals[-1]
    assert isinstance(modal, Alert) and modal.row.labels()[modal.row.focus] == "Cancel"
    play(device, "char m")  # the button's letter: Move anyway
    assert app.game.position(0, 0) == 75


def test_y_and_n_answer_move_it_anyway(make_device: MakeDevice) -> None:
    """Issue 41: Y and N answer every yes/no question, though its buttons say Move/Cancel."""
    device, app = make_device()
    set_up(app, [[72, 0, 0, 0], [0, 0, 0, 0]], [3])
    play(device, "key select\nkey select\nkey select")
    play(device, "char n")  # No: Cancel, nothing moved
    assert not device.modals and app.game.position(0, 0) == 72
    play(device, "key select")  # the caution again, then Move it anyway?
    assert isinstance(device.modals[-1], Alert)
    play(device, "char Y")
    assert not device.modals and app.game.position(0, 0) == 75


def test_y_and_n_answer_new_game_and_play_again_while_a_game_is_on(
        make_device: MakeDevice) -> None:
    """Issue 41: "New Game? The game in progress will be lost." (New Game / Cancel) took
    no key: N (not New Game's first letter) keeps the game, Y goes on."""
    device, app = make_device()
    set_up(app, [[10, 0, 0, 0], [20, 0, 0, 0]], [3, 4], players=(ANN, BOB))
    play(device, "key select")  # Ann throws: the game is under way
    game = app.game
    for command in ("new", "again"):
        play(device, f"menu {command}")
        assert isinstance(device.modals[-1], Alert)
        play(device, "char n")
        assert not device.modals and app.game is game and game.phase == "move"
    play(device, "menu again\nchar y")  # Play Again: a new game with the same players
    assert not device.modals and app.game is not game and not app.game.history
    assert [p.name for p in app.game.players] == ["Ann", "Bob"]
    play(device, "key select\nmenu new\nchar Y")  # New Game...: its set-up form
    assert device.modals and not isinstance(device.modals[-1], Alert)


def test_p_passes_before_and_after_the_throw_from_a_script(make_device: MakeDevice) -> None:
    device, app = make_device()
    set_up(app, [[10, 0, 0, 0], [20, 0, 0, 0], [0, 0, 0, 0]], [3, 4, 5],
           players=(ANN, BOB, Player("Cy")))
    play(device, "char p")  # before the throw
    assert app.game.current == 1 and app.game.events[-1].text == "Ann passes"
    play(device, "key select\nchar P")  # Bob: after the throw (capital P too)
    assert app.game.current == 2 and app.game.events[-1].text == "Bob passes"
    record_tokens = [e.kind for e in app.game.events]
    assert record_tokens.count("pass") == 2


def test_p_in_the_first_turn_says_why_and_the_saved_record_keeps_passes(
        make_device: MakeDevice) -> None:
    device, app = make_device()
    app.start_game([ANN, SILICON])
    play(device, "char p")
    assert app.scene.notice is not None and "first turn" in app.scene.notice
    assert app.game.current == 0
    play(device, "key select")  # clears the box
    for _ in range(40):  # play until Ann's second turn
        if app.game.current == 0 and not app.game.in_first_turn(0) and not app.scene.notice:
            break
        if device.modals or app.game.current == 0:
            play(device, "key select")
        else:
            play(device, "wait 600")
    assert app.game.current == 0 and app.game.phase == "throw"
    play(device, "char p")
    saved = device.storage.load_state("PPch")
    assert saved is not None and app.game.current == 1
    assert b" P" in saved  # the record's pass before the throw


def test_the_window_sends_p_y_n_as_typed_letters() -> None:
    assert key_event("P", ctrl=False, wants_text=False) == CharKey("p")
    assert key_event("Y", ctrl=False, wants_text=False) == CharKey("y")
    assert key_event("M", ctrl=False, wants_text=False) == KeyDown(Key.MENU)  # kept
    assert key_event("P", ctrl=True, wants_text=False) == CharKey("p", command=True)


def test_preferences_moved_to_r_and_ctrl_p_passes(make_device: MakeDevice) -> None:
    device, app = make_device()
    shortcuts = {item.command: item.shortcut for menu in app.menus() for item in menu.items}
    assert shortcuts["prefs"] == "R" and shortcuts["pass"] == "P"
    assert len([s for s in shortcuts.values() if s]) == len({s for s in shortcuts.values() if s})
    play(device, "command r")
    assert device.modals and "Preferences" in getattr(device.modals[-1], "title", "")


def test_y_and_n_answer_the_end_of_game_questions(make_device: MakeDevice) -> None:
    device, app = make_device()
    set_up(app, [[76, 76, 76, 70], [0, 0, 0, 0]], [6])
    play(device, "key select\nkey select")
    assert app.game.winner == 0 and device.modals
    play(device, "char y")
    assert isinstance(device.modals[-1], Alert) and "same players" in device.modals[-1].message
    play(device, "char y")
    assert not device.modals and [p.name for p in app.game.players] == ["Ann", "Silicon"]
    assert app.game.history == []  # a new game


def test_n_and_escape_on_play_again_start_nothing(make_device: MakeDevice) -> None:
    device, app = make_device()
    for answer in ("char n", "key cancel"):
        set_up(app, [[76, 76, 76, 70], [0, 0, 0, 0]], [6])
        play(device, "key select\nkey select")
        play(device, answer)
        assert not device.modals and app.game.over, answer


def test_any_key_clears_a_message_box_and_escape_keeps_its_meaning(
        make_device: MakeDevice) -> None:
    device, app = make_device()
    set_up(app, [[10, 0, 0, 0], [0, 0, 0, 0]], [3])
    play(device, "menu hint")  # "Throw first": a message box
    assert device.modals
    play(device, "char x")
    assert not device.modals
    play(device, "menu hint\nkey left")
    assert not device.modals
    play(device, "menu hint\nkey cancel")  # Escape closes it (as its OK)
    assert not device.modals and app.game.phase == "throw"


def test_names_are_typed_on_the_keyboard(make_device: MakeDevice) -> None:
    device, app = make_device()
    play(device, "menu new\nchar enter\nchar o")  # one person, One computer player
    entry = device.modals[-1]
    assert isinstance(entry, NameEntry) and entry.text == "You"
    play(device, "char backspace\nchar backspace\nchar backspace\nchar z\nchar o\nchar e\n"
                 "char 7\nchar enter")
    assert not device.modals
    assert [p.name for p in app.game.players] == ["Zoe7", "Silicon"]


def test_the_arrow_keys_walk_over_the_name_keyboard(make_device: MakeDevice) -> None:
    device, _ = make_device()
    entry = NameEntry("Name", "A")
    device.open_modal(entry)
    play(device, "key up\nkey up\nkey right\nkey select")  # from OK: up to Shift, up to z.. x
    assert entry.text == "X"  # the name shown was selected: the first key replaces it
    play(device, "key select")
    assert entry.text == "Xx"
    play(device, "key down\nkey down\nkey select")  # down to the buttons: OK
    assert entry.closed and entry.result == "Xx"


def test_typing_over_the_name_shown_replaces_it(make_device: MakeDevice) -> None:
    """Issue 41: "You" + "ann" was "Youann"; as Board Number does, the first key replaces."""
    device, _ = make_device()
    entry = NameEntry("Your name", "You")
    device.open_modal(entry)
    play(device, "char a\nchar n\nchar n")
    assert entry.text == "Ann"
    kept = NameEntry("Your name", "Bob")
    device.open_modal(kept)
    play(device, "char enter")  # OK keeps the name shown
    assert kept.result == "Bob"
    cleared = NameEntry("Your name", "Bob")
    device.open_modal(cleared)
    play(device, "char backspace")  # Del clears it all at once
    assert cleared.text == ""


def test_a_persons_lost_throw_names_them_keeps_the_shells_and_clears_itself(
        make_device: MakeDevice) -> None:
    device, app = make_device("tall")
    set_up(app, [[0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]], [3, 4, 5],
           players=(ANN, BOB, SILICON))
    play(device, "key select")
    assert app.scene.notice == "Ann threw 3: can't move any piece!"
    assert app.scene.shown_throw == (0, 3) and app.game.current == 1
    box, _ = app.view.notice_rect(device.screen, app.scene.notice) if app.view else (None, [])
    assert box is not None and app.layout is not None
    assert abs(box.x + box.w // 2 - (app.layout.board.x + app.layout.board.w // 2)) <= 1
    play(device, "key select")  # any key clears it at once and does nothing else
    assert app.scene.notice is None and app.game.phase == "throw" and app.game.current == 1
    play(device, "key select")  # Bob loses his throw too
    assert app.scene.notice == "Bob threw 4: can't move any piece!"
    play(device, f"wait {NOTICE_MS}")
    assert app.scene.notice is None
    texts = [e.text for e in app.game.events]
    assert "Ann can't move any piece!" in texts and "Bob can't move any piece!" in texts
    assert not any(t.startswith("You") for t in texts)


def test_the_history_of_the_last_round_in_the_panel_and_the_menu(
        make_device: MakeDevice) -> None:
    device, app = make_device("tall")
    set_up(app, [[10, 0, 0, 0], [0, 0, 0, 0]], [3, 6, 2, 4], players=(ANN, SILICON))
    play(device, "key select\nkey select")  # Ann 10 -> 13
    play(device, "wait 3000")  # Silicon: 6 (enters, again), 2
    assert app.game.current == 0
    assert app.scene.log[0] == "Ann threw 3"
    assert any(line.startswith("Silicon") for line in app.scene.log)
    play(device, "menu history")
    viewer = device.modals[-1]
    assert isinstance(viewer, TextViewer)
    assert "# Ann\nAnn threw 3\nAnn moves a piece 3" in viewer.text
    assert "# Silicon\nSilicon threw 6 and throws again" in viewer.text


def test_the_panel_history_scrolls(make_device: MakeDevice) -> None:
    device, app = make_device("wide")
    players = (ANN, BOB, Player("Cy"), Player("Di"))
    set_up(app, [[10, 20, 0, 0]] * 1 + [[0] * 4] * 3, [6, 6, 6, 3, 3, 3, 3],
           players=players)
    for _ in range(4):
        play(device, "key select\nkey select")
    bar = app.view.log_bar if app.view else None
    assert bar is not None and bar.total > bar.visible and bar.top == bar.max_top
    newest, before = bar.top, (app.game.current, app.game.phase, len(app.game.history))
    x, y = bar.rect.x + bar.rect.w // 2, bar.rect.y + 1
    device.post(PenDown(x, y))
    device.post(PenUp(x, y))
    assert app.scene.log_top == newest - 1
    assert (app.game.current, app.game.phase, len(app.game.history)) == before  # only scrolled


def test_a_key_finishes_a_computer_turn_at_once(make_device: MakeDevice) -> None:
    device, app = make_device()
    set_up(app, [[0, 0, 0, 0], [20, 0, 0, 0]], [10, 4], players=(ANN, SILICON))
    play(device, "char p\nwait 10")  # Ann passes; Silicon's turn is under way
    assert app.game.current == 1
    play(device, "key down")
    assert app.game.current == 0 and app.game.phase == "throw"
    last = app.game.events[-4:]  # the log still tells each step
    assert [e.player for e in last] == [1, 1, 1, 1]
    assert [e.text for e in last[::2]] == ["Silicon threw 10 and throws again", "Silicon threw 4"]
    assert app.game.positions(1) != (20, 0, 0, 0)


def test_a_tap_finishes_a_computer_turn_and_does_not_throw_for_the_person(
        make_device: MakeDevice) -> None:
    device, app = make_device()
    set_up(app, [[0, 0, 0, 0], [20, 0, 0, 0]], [5, 4], players=(ANN, SILICON))
    play(device, "char p")
    assert app.layout is not None
    die = app.layout.die_rect(0)
    play(device, f"tap {die.x + 2} {die.y + 2}")
    assert app.game.current == 0 and app.game.phase == "throw"  # only the skip


def test_a_moved_piece_slides_along_its_path(make_device: MakeDevice) -> None:
    device, app = make_device()
    set_up(app, [[10, 0, 0, 0], [0, 0, 0, 0]], [5])
    play(device, "key select\nkey select")
    assert app.game.position(0, 0) == 15  # the state changed at once
    slide = app.scene.slide
    assert slide is not None and len(slide.path) == 5 and slide.step == 0
    assert app.game.square(0, 0) == slide.path[-1]
    play(device, f"wait {SPEED_MS['normal']}")
    assert app.scene.slide is None


def test_every_movable_piece_is_marked(make_device: MakeDevice) -> None:
    device, app = make_device()
    set_up(app, [[30, 10, 0, 0], [0, 0, 0, 0]], [6])
    play(device, "key select")
    assert app.view is not None and app.layout is not None
    shot = device.screen.image.convert("RGB")
    other = app.view.mark_rect(app.game, app.game.legal_moves()[1])  # the piece on 10
    corner = shot.getpixel((other.x + 1, other.y + 1))
    assert corner == (255, 220, 0)  # the movable mark's yellow tick
