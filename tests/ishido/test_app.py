"""PalmIshido through the real Device: scripted pen, key, menu and display events."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

import pytest

from palmish.device.display import ConfigName
from palmish.device.events import Key, KeyDown, MenuCommand, PenDown, PenMove, PenUp, Rotate
from palmish.device.machine.system import Device
from palmish.device.ui.form import Form, PopupList
from palmish.device.ui.number_entry import NumberEntry
from palmish.ishido import Game
from palmish.ishido.app import (
    DEMO_STEP_MS,
    SOUND_FOURWAY,
    SOUND_GAME_OVER,
    SOUND_ILLEGAL,
    SOUND_PLACE,
    IshidoApp,
)
from palmish.ishido.dialogs import GameOverViewer
from tests.game_devices import centre, run_timers_while, start_device, tap

Make = Callable[..., tuple[Device, IshidoApp]]


@pytest.fixture
def make(tmp_path: Path, built_plugins: Path) -> Make:
    def factory(config: ConfigName = ConfigName.SQUARE, data: Path | None = None
                ) -> tuple[Device, IshidoApp]:
        app = IshidoApp()
        device = start_device(app, "PalmIshido", built_plugins, config,
                              data or tmp_path / "device")
        device.take_sounds()
        return device, app

    return factory


def tap_cell(device: Device, app: IshidoApp, row: int, col: int) -> None:
    assert app.layout is not None
    tap(device, *centre(app.layout.cell_rect(row, col)))


def illegal_empty_cell(game: Game) -> tuple[int, int]:
    legal = set(game.legal_moves())
    return next((r, c) for r in range(8) for c in range(12)
                if game.tile_at(r, c) is None and (r, c) not in legal)


def wave(device: Device, sound_id: int) -> bytes:
    plugin = device.context.plugin("sound")
    assert plugin is not None
    data = plugin.sound(sound_id)
    assert data is not None
    return data


def test_starts_with_a_dealt_game_and_the_plugins(make: Make) -> None:
    device, app = make()
    assert device.running_app is app
    assert app.game.remaining == 66
    assert app.view is not None and app.view.art.board is not None
    assert app.view.art.lifted, "the bundled pieces carry lifted tiles"


def test_tap_on_a_legal_cell_places_and_saves(make: Make) -> None:
    device, app = make()
    row, col = app.game.legal_moves()[0]
    tile = app.game.current
    tap_cell(device, app, row, col)
    assert app.game.tile_at(row, col) == tile
    assert app.game.remaining == 65
    assert device.take_sounds() in ([wave(device, SOUND_PLACE)], [wave(device, SOUND_FOURWAY)])
    saved = device.storage.load_state("PIsh")
    assert saved is not None and app.game.record().encode() in saved


def test_tap_on_an_illegal_cell_buzzes_and_places_nothing(make: Make) -> None:
    device, app = make()
    row, col = illegal_empty_cell(app.game)
    tap_cell(device, app, row, col)
    assert app.game.remaining == 66 and app.game.tile_at(row, col) is None
    assert device.take_sounds() == [wave(device, SOUND_ILLEGAL)]


def test_drag_draws_the_lifted_tile_and_drops_on_the_cell(make: Make) -> None:
    device, app = make()
    assert app.layout is not None and app.view is not None
    row, col = app.game.legal_moves()[-1]
    well = centre(app.layout.tile_well)
    target = centre(app.layout.cell_rect(row, col))
    device.post(PenDown(*well))
    device.take_damage()
    device.post(PenMove(*centre(app.layout.board)))
    # Only the old and new places of the dragged tile were redrawn, not the screen.
    damaged = sum(r.w * r.h for r in device.take_damage())
    assert 0 < damaged < app.layout.bounds.w * app.layout.bounds.h // 4
    t = app.game.current
    assert t is not None
    lifted = app.view.art.tile(t.color, t.shape, lifted=True)
    drag = app.view.drag_rect(app.scene)
    assert drag is not None
    shown = device.screen.image.crop(drag.box())
    # The lifted picture is on the screen where the pen holds it (its opaque pixels).
    opaque = [(x, y) for x in range(lifted.width) for y in range(lifted.height)
              if lifted.getpixel((x, y))[3] == 255]  # type: ignore[index]
    assert all(shown.getpixel(p) == lifted.getpixel(p)[:3]  # type: ignore[index]
               for p in opaque[::7])
    device.post(PenMove(*target))
    device.post(PenUp(*target))
    assert app.game.tile_at(row, col) == t
    assert app.drag is None


def test_illegal_drop_puts_the_tile_back(make: Make) -> None:
    device, app = make()
    assert app.layout is not None
    row, col = illegal_empty_cell(app.game)
    before = app.game.current
    device.post(PenDown(*centre(app.layout.tile_well)))
    device.post(PenMove(*centre(app.layout.cell_rect(row, col))))
    device.post(PenUp(*centre(app.layout.cell_rect(row, col))))
    assert app.game.current == before and app.game.tile_at(row, col) is None
    assert device.take_sounds() == [wave(device, SOUND_ILLEGAL)]
    assert app.drag is None


def test_up_down_cycle_the_legal_cells_and_select_places(make: Make) -> None:
    device, app = make()
    legal = app.game.legal_moves()
    assert len(legal) >= 2
    device.post(KeyDown(Key.DOWN))
    assert app.scene.mark == legal[0]
    device.post(KeyDown(Key.DOWN))
    assert app.scene.mark == legal[1]
    device.post(KeyDown(Key.UP))
    device.post(KeyDown(Key.UP))
    assert app.scene.mark == legal[-1]  # wraps around
    tile = app.game.current
    device.post(KeyDown(Key.SELECT))
    assert app.game.tile_at(*legal[-1]) == tile
    assert app.scene.mark is None


def test_mark_is_drawn_from_the_board_plugin(make: Make) -> None:
    device, app = make()
    assert app.layout is not None and app.view is not None
    device.post(KeyDown(Key.DOWN))
    assert app.scene.mark is not None
    cell = app.layout.cell_rect(*app.scene.mark)
    mark = app.view.art.mark
    assert mark is not None
    shown = device.screen.image.crop(cell.box())
    opaque = [(x, y) for x in range(mark.width) for y in range(mark.height)
              if mark.getpixel((x, y))[3] == 255]  # type: ignore[index]
    assert opaque and all(shown.getpixel(p) == mark.getpixel(p)[:3]  # type: ignore[index]
                          for p in opaque)


def test_undo_takes_back_the_last_tile(make: Make) -> None:
    device, app = make()
    row, col = app.game.legal_moves()[0]
    tap_cell(device, app, row, col)
    device.post(MenuCommand("undo"))
    assert app.game.tile_at(row, col) is None and app.game.remaining == 66
    saved = device.storage.load_state("PIsh")
    assert saved is not None and b"moves=\"" in saved


def play_to_the_end(device: Device, app: IshidoApp) -> None:
    while not app.game.over:
        device.post(KeyDown(Key.DOWN))
        device.post(KeyDown(Key.SELECT))


def test_game_over_shows_the_result_and_keeps_the_high_score(make: Make) -> None:
    device, app = make()
    play_to_the_end(device, app)
    sounds = device.take_sounds()
    assert sounds[-1] in (wave(device, SOUND_GAME_OVER), wave(device, 3004))
    top = device.modals[-1]
    assert isinstance(top, GameOverViewer)
    assert f"Tiles left: {app.game.remaining}" in top.text
    assert str(app.game.score) in top.text
    prefs = device.storage.load_prefs("PIsh")
    scores = prefs["scores"]
    assert isinstance(scores, dict)
    assert scores["modern"] == [[app.game.score, app.game.fourways, app.game.remaining,
                                 app.game.seed]]
    # Done (the default: Select alone) keeps the finished board; New Game deals afresh.
    device.post(KeyDown(Key.SELECT))
    assert not device.modals and app.game.over
    device.post(MenuCommand("new"))
    assert not app.game.over and app.game.remaining == 66


def test_a_game_the_demo_played_in_says_why_it_is_not_in_the_high_scores(make: Make) -> None:
    device, app = make()
    device.post(MenuCommand("demo"))
    device.advance(device.now_ms + DEMO_STEP_MS)  # the demo plays one move
    device.post(PenDown(1, 1))  # and stops; the person finishes the game
    device.post(PenUp(1, 1))
    assert not app.demo
    play_to_the_end(device, app)
    top = device.modals[-1]
    assert isinstance(top, GameOverViewer)
    assert "The Demo played in this game, so it is not in the high scores." in top.text
    assert "scores" not in device.storage.load_prefs("PIsh")


def test_a_game_played_alone_has_no_such_line(make: Make) -> None:
    device, app = make()
    play_to_the_end(device, app)
    top = device.modals[-1]
    assert isinstance(top, GameOverViewer) and "not in the high scores" not in top.text


def test_game_over_is_scored_once_even_after_a_restart(make: Make, tmp_path: Path) -> None:
    device, app = make()
    play_to_the_end(device, app)
    device.shutdown()
    device, app = make(data=tmp_path / "device")
    assert app.game.over
    scores = device.storage.load_prefs("PIsh")["scores"]
    assert isinstance(scores, dict) and len(scores["modern"]) == 1


def test_rotation_in_the_middle_of_a_drag_keeps_the_drag(make: Make) -> None:
    device, app = make()
    assert app.layout is not None
    row, col = app.game.legal_moves()[0]
    tile = app.game.current
    device.post(PenDown(*centre(app.layout.tile_well)))
    device.post(PenMove(100, 100))
    device.post(Rotate())
    assert device.config.name is ConfigName.WIDE
    assert app.layout.cell_w == 34 and app.drag is not None
    # The pen moves on in the new (landscape) coordinates and drops on the cell.
    target = centre(app.layout.cell_rect(row, col))
    device.post(PenMove(*target))
    device.post(PenUp(*target))
    assert app.game.tile_at(row, col) == tile


def test_a_pen_lifted_right_after_rotating_does_not_place(make: Make) -> None:
    device, app = make()
    assert app.layout is not None
    remaining = app.game.remaining
    device.post(PenDown(*centre(app.layout.tile_well)))
    device.post(PenMove(*centre(app.layout.cell_rect(*app.game.legal_moves()[0]))))
    device.post(Rotate())
    device.post(PenUp(10, 10))
    assert app.game.remaining == remaining and app.drag is None


def test_preferences_switch_the_pieces_plugin_live(make: Make) -> None:
    device, app = make()
    assert app.view is not None and app.layout is not None
    before = app.view.art.tiles[(0, 0)]
    device.post(MenuCommand("prefs"))
    form = device.modals[-1]
    assert isinstance(form, Form)
    field = next(f for f in form.fields
                 if isinstance(f, PopupList) and f.key == "square/pieces")
    assert "High Contrast Pieces" in field.options
    # Only plugins for that configuration are offered: no Wide pieces for Square.
    assert all("Wide" not in o for o in field.options)
    field.selected = field.options.index("High Contrast Pieces")
    tap(device, *centre(form.row.buttons[0].rect))
    assert not device.modals
    assert device.context.plugin_choice("pieces", "square") == "High Contrast Pieces"
    after = app.view.art.tiles[(0, 0)]
    assert after.tobytes() != before.tobytes()
    # The board on screen shows the new pieces: the corner tile is the new picture.
    t = app.game.tile_at(0, 0)
    assert t is not None
    shown = device.screen.image.crop(app.layout.cell_rect(0, 0).box())
    expected = app.view.art.tile(t.color, t.shape)
    assert shown.getpixel((expected.width // 2, 2)) == expected.getpixel(
        (expected.width // 2, 2))[:3]  # type: ignore[index]
    # Only the configuration edited changes (docs/ui.md, "Preferences").
    assert device.context.plugin_choice("pieces", "wide") is None
    # "Every display: Same plugins" copies a choice, as the same pieces' Wide version.
    for pieces, share in (("Ceramic Pieces", False), ("High Contrast Pieces", True)):
        device.post(MenuCommand("prefs"))
        form = device.modals[-1]
        assert isinstance(form, Form)
        field = next(f for f in form.fields
                     if isinstance(f, PopupList) and f.key == "square/pieces")
        field.selected = field.options.index(pieces)
        box = next(f for f in form.fields if getattr(f, "key", None) == "share_plugins")
        box.checked = share  # type: ignore[union-attr]
        tap(device, *centre(form.row.buttons[0].rect))
        assert device.context.plugin_choice("pieces", "square") == pieces
    assert device.context.plugin_choice("pieces", "wide") == "High Contrast Pieces Wide"


def test_resume_after_restart_and_across_a_rotation(make: Make, tmp_path: Path) -> None:
    device, app = make()
    for _ in range(5):
        device.post(KeyDown(Key.DOWN))
        device.post(KeyDown(Key.SELECT))
    device.post(Rotate())
    device.post(KeyDown(Key.DOWN))
    device.post(KeyDown(Key.SELECT))
    record = app.game.record()
    assert app.game.remaining == 60
    device.shutdown()
    device, app = make(ConfigName.TALL, data=tmp_path / "device")
    assert app.game.record() == record


def test_a_damaged_save_starts_a_new_game_with_a_note(make: Make, tmp_path: Path) -> None:
    device, _ = make()
    device.shutdown()
    device.storage.save_state("PIsh", b'{"record": "ishido 1 seed=3 moves=zz9"}')
    device, app = make(data=tmp_path / "device")
    assert app.game.remaining == 66
    assert any("saved game" in m for m in device.messages)


def test_deal_number_plays_the_chosen_seed(make: Make) -> None:
    device, app = make()
    device.post(MenuCommand("deal"))
    entry = device.modals[-1]
    assert isinstance(entry, NumberEntry)
    tap(device, *centre(entry.keys[-1].rect))  # Clr
    for digit in "42":
        key = next(k for k in entry.keys if k.label == digit)
        tap(device, *centre(key.rect))
    tap(device, *centre(entry.row.buttons[0].rect))
    assert app.game.seed == 42
    assert app.game.record() == Game.new(seed=42).record()


def test_restart_deals_the_same_tiles_again(make: Make) -> None:
    device, app = make()
    seed = app.game.seed
    device.post(KeyDown(Key.DOWN))
    device.post(KeyDown(Key.SELECT))
    device.post(MenuCommand("restart"))
    assert app.game.remaining == 65  # a game in progress: first a confirmation
    device.post(KeyDown(Key.SELECT))  # "Restart"
    assert app.game.seed == seed and app.game.remaining == 66


@pytest.mark.parametrize("command", ["help-play", "help-scoring", "help-plugins", "about"])
def test_help_and_about_open_a_dialog(make: Make, command: str) -> None:
    device, _ = make()
    device.post(MenuCommand(command))
    assert device.modals


def test_sound_off_in_preferences_silences_the_game(make: Make) -> None:
    device, app = make()
    device.post(MenuCommand("prefs"))
    form = device.modals[-1]
    assert isinstance(form, Form)
    from palmish.device.ui.form import CheckBox

    box = next(f for f in form.fields if isinstance(f, CheckBox) and f.key == "sound")
    box.checked = False
    tap(device, *centre(form.row.buttons[0].rect))
    tap_cell(device, app, *illegal_empty_cell(app.game))
    assert device.take_sounds() == []


def hint_answered(device: Device, app: IshidoApp) -> None:
    """Post Game > Hint and let device time run until its thinking is done."""
    device.post(MenuCommand("hint"))
    run_timers_while(device, lambda: app.thinking is not None)


def test_hint_marks_a_legal_cell_and_select_places_there(make: Make) -> None:
    device, app = make()
    hint_answered(device, app)
    mark = app.scene.mark
    assert mark is not None and mark in app.game.legal_moves()
    device.post(KeyDown(Key.SELECT))
    assert app.game.tile_at(*mark) is not None


@pytest.fixture
def sliced_by_evals(monkeypatch: pytest.MonkeyPatch) -> Callable[[Game], tuple[int, int]]:
    """The hint's search stopped by a count of evaluations, not by time, and cut
    into the shortest slices: its answer is `choose`'s with that count, whatever
    the machine. Returns that `choose`."""
    from palmish.ishido import ai
    from palmish.ishido import app as ishido_app

    evals = 3000
    thinking = ai.thinking
    monkeypatch.setattr(ishido_app, "HINT_SLICE_MS", 0.001)
    monkeypatch.setattr(ai, "thinking", lambda game, aim, deadline, rng, max_evals=None,
                        slice_ms=None: thinking(game, aim, deadline, rng, evals, slice_ms))
    return lambda game: ai.choose(game, rng=random.Random(len(game.moves)), max_evals=evals)


def test_the_hint_thinks_between_frames_and_marks_the_searched_cell(
        make: Make, sliced_by_evals: Callable[[Game], tuple[int, int]]) -> None:
    device, app = make()
    tap_cell(device, app, *app.game.legal_moves()[0])  # a position with choices
    expected = sliced_by_evals(app.game)
    device.post(MenuCommand("hint"))
    assert app.scene.mark is None and app.thinking is not None  # not done in one slice
    assert run_timers_while(device, lambda: app.thinking is not None) > 1
    assert app.scene.mark == expected


def test_input_while_the_hint_thinks_stops_it(
        make: Make, sliced_by_evals: Callable[[Game], tuple[int, int]]) -> None:
    device, app = make()
    device.post(MenuCommand("hint"))
    assert app.thinking is not None
    device.post(MenuCommand("about"))  # any command, pen or key
    assert app.thinking is None
    device.advance(device.now_ms + 5000)
    assert app.scene.mark is None


def test_demo_plays_on_timer_ticks_until_the_pen_stops_it(make: Make) -> None:
    device, app = make()
    device.post(MenuCommand("demo"))
    for step in range(1, 4):
        device.advance(device.now_ms + DEMO_STEP_MS - 1)
        assert app.game.remaining == 66 - step + 1  # thought of between frames, not played
        device.advance(device.now_ms + 1)
        assert app.game.remaining == 66 - step
    device.post(PenDown(1, 1))
    device.post(PenUp(1, 1))
    assert not app.demo
    device.advance(device.now_ms + 5000)
    assert app.game.remaining == 63


def test_the_demo_thinks_of_its_move_between_frames_and_plays_it_on_the_step(
        make: Make, sliced_by_evals: Callable[[Game], tuple[int, int]]) -> None:
    device, app = make()
    expected = sliced_by_evals(app.game)
    device.post(MenuCommand("demo"))
    assert app.thinking is not None  # begun at once, in slices
    device.advance(device.now_ms + DEMO_STEP_MS - 1)
    assert app.game.remaining == 66
    device.advance(device.now_ms + 1)  # the step: the rest of the thinking, then the move
    assert app.game.moves == [expected]
    assert app.thinking is not None  # and the next move is on its way


def test_the_question_mark_in_preferences_opens_the_plugins_help(make: Make) -> None:
    from palmish.device.ui.textview import TextViewer

    device, _ = make()
    device.post(MenuCommand("prefs"))
    form = device.modals[-1]
    assert isinstance(form, Form)
    tap(device, *centre(form.row.buttons[2].rect))
    viewer = device.modals[-1]
    assert isinstance(viewer, TextViewer) and viewer.title == "Plugins"
    tap(device, *centre(viewer.row.buttons[0].rect))
    assert isinstance(device.modals[-1], Form)  # back in Preferences


@pytest.mark.parametrize("seed", [3, 8])
def test_random_events_never_break_the_app(make: Make, seed: int) -> None:
    """Pen strokes, keys, every menu command, rotations and time, in a random mix
    (fixed seeds): nothing raises and the saved record always replays."""
    import random

    from palmish.device.events import ToggleInputArea

    rng = random.Random(seed)
    commands = [item.command for menu in IshidoApp().menus() for item in menu.items]
    device, app = make(rng.choice(list(ConfigName)))
    for _ in range(400):
        w, h = device.config.width, device.config.height
        r = rng.random()
        if r < 0.4:
            device.post(PenDown(rng.randrange(w), rng.randrange(h)))
            for _ in range(rng.randrange(3)):
                device.post(PenMove(rng.randrange(w), rng.randrange(h)))
            if rng.random() < 0.1:
                device.post(rng.choice([Rotate(), ToggleInputArea()]))
            device.post(PenUp(rng.randrange(w), rng.randrange(h)))
        elif r < 0.7:
            device.post(KeyDown(rng.choice([k for k in Key if k is not Key.HOME])))
        elif r < 0.8:
            device.post(MenuCommand(rng.choice(commands)))
        elif r < 0.85:
            device.post(rng.choice([Rotate(), ToggleInputArea()]))
        else:
            device.advance(device.now_ms + rng.randrange(1000))
    assert device.running_app is app
    record = app.game.record()
    device.shutdown()
    saved = device.storage.load_state("PIsh")
    assert saved is not None and record.encode() in saved
    assert Game.from_record(record).record() == record


def test_rotating_under_an_open_dialog_redraws_the_game_beneath(make: Make) -> None:
    device, app = make()
    device.post(MenuCommand("prefs"))
    device.post(Rotate())
    form = device.modals[-1]
    assert isinstance(form, Form)
    assert app.layout is not None and app.layout.cell_w == 34
    # The top-left cell (above the dialog) shows the Wide board and its tile.
    t = app.game.tile_at(0, 0)
    assert t is not None and app.view is not None
    tile = app.view.art.tile(t.color, t.shape)
    assert device.screen.image.getpixel((17, 20)) == tile.getpixel((17, 20))[:3]  # type: ignore[index]
    tap(device, *centre(form.row.buttons[1].rect))  # Cancel
    assert not device.modals
    assert device.screen.image.getpixel((17, 20)) == tile.getpixel((17, 20))[:3]  # type: ignore[index]


def test_drag_from_the_enlarged_well_in_tall(make: Make) -> None:
    device, app = make(ConfigName.TALL)
    assert app.layout is not None and app.layout.well_zoom == 2
    row, col = app.game.legal_moves()[0]
    tile = app.game.current
    target = centre(app.layout.cell_rect(row, col))
    device.post(PenDown(*centre(app.layout.tile_well)))
    assert app.drag is not None
    # Held by its middle: the lifted tile is drawn at normal size around the pen.
    assert (app.drag.grab_dx, app.drag.grab_dy) == (12, 20)
    device.post(PenMove(*target))
    device.post(PenUp(*target))
    assert app.game.tile_at(row, col) == tile


def test_the_end_is_tallied_as_played_neither_won_nor_lost(make: Make) -> None:
    device, app = make()
    play_to_the_end(device, app)
    outcome = app.game.outcome()
    assert outcome is not None and outcome.winner is None and outcome.score == app.game.score
    tally = app.tallies.tally(app.game.scoring)
    assert (tally.played, tally.won, tally.lost, tally.streak) == (1, 0, 0, 0)
