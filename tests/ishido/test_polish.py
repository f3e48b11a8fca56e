"""Issue 14 (what a new user ran into), the PalmIshido side: one test per item."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from palmish.device.display import ConfigName
from palmish.device.events import (
    CharKey,
    Key,
    KeyDown,
    MenuCommand,
    PenDown,
    PenMove,
    PenUp,
    Rotate,
)
from palmish.device.geometry import Rect
from palmish.device.graphics.font import get_font
from palmish.device.machine.system import Device
from palmish.device.ui.alert import Alert
from palmish.device.ui.form import Form, Label, PopupList
from palmish.device.ui.number_entry import NumberEntry
from palmish.device.ui.textview import TextViewer
from palmish.ishido.app import NOTICE_MS, IshidoApp
from palmish.ishido.dialogs import GameOverViewer
from palmish.ishido.view import REFUSED

Make = Callable[..., tuple[Device, IshidoApp]]


def centre(r: Rect) -> tuple[int, int]:
    return (r.x + r.w // 2, r.y + r.h // 2)


def tap(device: Device, x: int, y: int) -> None:
    device.post(PenDown(x, y))
    device.post(PenUp(x, y))


def choose_in_preferences(device: Device, key: str, option: str, share: bool = False) -> None:
    device.post(MenuCommand("prefs"))
    form = device.modals[-1]
    assert isinstance(form, Form)
    field = next(f for f in form.fields if isinstance(f, PopupList) and f.key == key)
    field.selected = field.options.index(option)
    box = next(f for f in form.fields if getattr(f, "key", None) == "share_plugins")
    box.checked = share  # type: ignore[union-attr]
    tap(device, *centre(form.row.buttons[0].rect))  # OK
    assert not device.modals


def test_15_high_contrast_pieces_stay_after_a_rotation(make_ishido: Make) -> None:
    device, app = make_ishido()
    # With "Every display: Same plugins" ticked (issue 21: else only Square changes).
    choose_in_preferences(device, "square/pieces", "High Contrast Pieces", share=True)
    assert device.context.plugin_choice("pieces", "wide") == "High Contrast Pieces Wide"
    assert device.context.plugin_choice("pieces", "tall") == "High Contrast Pieces"
    device.post(Rotate())
    pieces = app.media.plugin("pieces")
    assert pieces is not None and pieces.info.name == "High Contrast Pieces Wide"


def test_15_a_configurations_own_choice_is_kept(make_ishido: Make) -> None:
    device, _ = make_ishido()
    device.context.choose_plugin("board", "wide", "Oak Board Wide")
    device.context.choose_plugin("pieces", "wide", "Ceramic Pieces Wide")
    choose_in_preferences(device, "square/pieces", "High Contrast Pieces")
    choose_in_preferences(device, "square/board", "Cherry Board")
    assert device.context.plugin_choice("pieces", "wide") == "Ceramic Pieces Wide"
    assert device.context.plugin_choice("board", "wide") == "Oak Board Wide"
    assert device.context.plugin_choice("board", "tall") is None  # no Cherry for Tall


def test_4_the_plugins_help_describes_the_preferences_screen(make_ishido: Make) -> None:
    from palmish.ishido.help_text import PLUGINS

    device, _ = make_ishido()
    device.post(MenuCommand("prefs"))
    form = device.modals[-1]
    assert isinstance(form, Form)
    buttons = [b.label for b in form.row.buttons]
    assert "Other" not in buttons and "'Other'" not in PLUGINS
    assert "The ? button" in PLUGINS and "?" in buttons
    headings = [f.text for f in form.fields if isinstance(f, Label)]
    assert headings[:3] == ["Square display", "Tall display", "Wide display"]
    assert "scroll down for the others" in PLUGINS


def test_11_the_deal_keypad_takes_typed_digits_backspace_and_enter(make_ishido: Make) -> None:
    device, app = make_ishido()
    device.post(MenuCommand("deal"))
    entry = device.modals[-1]
    assert isinstance(entry, NumberEntry) and device.wants_text()
    for _ in range(12):
        device.post(CharKey("\b"))
    assert entry.digits == ""
    for char in "4219":
        device.post(CharKey(char))
    device.post(CharKey("\b"))  # 421
    device.post(CharKey("x"))  # not a digit: ignored
    device.post(CharKey("\n"))
    assert device.modals == () and app.game.seed == 421


def ink_extent(device: Device, box: Rect, ink: tuple[int, int, int]) -> int:
    """How far down the box (in pixels) the ink reaches from the first inked row."""
    rows = [y for y in range(box.y, box.bottom)
            if any(device.screen.image.getpixel((x, y)) == ink for x in range(box.x, box.right))]
    return rows[-1] - rows[0] + 1 if rows else 0


@pytest.mark.parametrize("config", [ConfigName.SQUARE, ConfigName.WIDE, ConfigName.SQUARE_LOW])
def test_13_the_narrow_panels_label_their_values(make_ishido: Make, config: ConfigName) -> None:
    device, app = make_ishido(config)
    assert app.layout is not None and app.view is not None
    fb, ink = device.screen, app.view.art.text_colour
    gap = fb.text_width(" ", "std")
    # "0 pts": the score, then its label; "66 left"; "no 4-way".
    score = fb.text_width("0", "large") + gap + fb.text_width("pts", "std")
    assert ink_extent(device, app.layout.modern, ink) >= score - 2 * fb.scale
    left = fb.text_width("66", "bold") + gap + fb.text_width("left", "std")
    assert ink_extent(device, app.layout.tiles_left, ink) >= left - 2 * fb.scale
    assert ink_extent(device, app.layout.ancient, ink) > 0


def test_13_a_zero_on_its_side_is_not_a_box() -> None:
    from PIL import ImageOps

    from palmish.device.graphics.font import get_font

    zero = get_font("large", 1).render("0")
    zero = zero.crop(zero.getbbox())
    # A plain 0 (or an empty box) is the same mirrored; the slashed zero is not.
    assert ImageOps.mirror(zero).tobytes() != zero.tobytes()


def play_to_the_end(device: Device, app: IshidoApp) -> None:
    while not app.game.over:
        device.post(KeyDown(Key.DOWN))
        device.post(KeyDown(Key.SELECT))


def test_8_select_on_game_over_is_done_not_a_new_game(make_ishido: Make) -> None:
    device, app = make_ishido()
    play_to_the_end(device, app)
    assert isinstance(device.modals[-1], GameOverViewer)
    device.post(KeyDown(Key.SELECT))
    assert device.modals == () and app.game.over  # the finished board stays


def test_8_escape_on_game_over_is_done_too(make_ishido: Make) -> None:
    device, app = make_ishido()
    play_to_the_end(device, app)
    device.post(KeyDown(Key.CANCEL))
    assert device.modals == () and app.game.over and device.running_app is app


@pytest.mark.parametrize("config", [ConfigName.SQUARE, ConfigName.TALL])
def test_8_a_finished_game_shows_it_and_a_tap_is_answered(
    make_ishido: Make, config: ConfigName
) -> None:
    device, app = make_ishido(config)
    assert app.layout is not None and app.view is not None
    well = app.layout.tile_well
    before = device.screen.image.crop(well.box())
    play_to_the_end(device, app)
    device.post(KeyDown(Key.SELECT))  # Done
    # The well is dimmed (greyer: less spread between its darkest and lightest pixels).
    after = device.screen.image.crop(well.box()).convert("L")
    low, high = after.getextrema()  # type: ignore[misc]
    low0, high0 = before.convert("L").getextrema()  # type: ignore[misc]
    assert high - low < high0 - low0
    fb, ink = device.screen, app.view.art.text_colour
    if config is ConfigName.SQUARE:  # "Game over", on its side, where the count was
        phrase = (fb.text_width("Game", "bold") + fb.text_width(" ", "std")
                  + fb.text_width("over", "bold"))
        both = app.layout.tiles_left.union(app.layout.ancient)
        assert ink_extent(device, both, ink) >= phrase - 2 * fb.scale
    else:  # a bold "Game over" line
        assert app.layout.scoring is not None
        assert ink_width(device, app.layout.scoring, ink) >= fb.text_width("Game over", "bold") - 4
    tap(device, *centre(app.layout.cell_rect(3, 3)))
    alert = device.modals[-1]
    assert isinstance(alert, Alert) and alert.title == "Game Over"
    assert "New Game" in alert.message


def ink_width(device: Device, box: Rect, ink: tuple[int, int, int]) -> int:
    cols = [x for x in range(box.x, box.right)
            if any(device.screen.image.getpixel((x, y)) == ink for y in range(box.y, box.bottom))]
    return cols[-1] - cols[0] + 1 if cols else 0


def test_9_high_scores_are_in_the_game_menu_at_any_time(make_ishido: Make) -> None:
    device, app = make_ishido()
    game = next(m for m in app.menus() if m.title == "Game")
    item = next(i for i in game.items if i.command == "scores")
    assert item.label == "High Scores"
    device.post(MenuCommand("scores"))
    viewer = device.modals[-1]
    assert isinstance(viewer, TextViewer)
    assert "# Modern" in viewer.text and "# Scored" in viewer.text  # per scoring
    assert viewer.text.index("# Modern") < viewer.text.index("# Scored")  # the one played
    device.post(KeyDown(Key.CANCEL))
    play_to_the_end(device, app)
    device.post(KeyDown(Key.SELECT))
    device.post(MenuCommand("scores"))
    text = device.modals[-1].text  # type: ignore[attr-defined]
    assert f"1. {app.game.score} (" in text and f"deal {app.game.seed}" in text


def red_pixels(device: Device, rect: Rect) -> int:
    crop = device.screen.image.crop(rect.box()).convert("RGB")
    return sum(1 for y in range(crop.height) for x in range(crop.width)
               if crop.getpixel((x, y)) == REFUSED)


def test_10_an_illegal_tap_marks_the_cell_and_says_why(make_ishido: Make) -> None:
    device, app = make_ishido(ConfigName.TALL)
    assert app.layout is not None
    legal = set(app.game.legal_moves())
    cell = next((r, c) for r in range(8) for c in range(12)
                if (r, c) not in legal and app.game.tile_at(r, c) is None)
    tap(device, *centre(app.layout.cell_rect(*cell)))
    assert app.scene.refused == cell and app.scene.notice == "No match there"
    assert red_pixels(device, app.layout.cell_rect(*cell)) > 20
    assert red_pixels(device, app.layout.panel) > 20  # the panel's line, in red
    device.advance(device.now_ms + NOTICE_MS)
    assert app.scene.refused is None and app.scene.notice is None
    assert red_pixels(device, app.layout.cell_rect(*cell)) == 0
    assert red_pixels(device, app.layout.panel) == 0


def test_10_a_drop_off_the_board_says_so(make_ishido: Make) -> None:
    device, app = make_ishido(ConfigName.SQUARE)
    assert app.layout is not None
    well = app.layout.tile_well
    device.post(PenDown(*centre(well)))
    device.post(PenMove(150, 470))  # over the input area, off the board and the panel
    device.post(PenUp(150, 470))
    assert app.scene.notice == "Off the board" and app.scene.refused is None
    assert red_pixels(device, app.layout.panel) > 10


def test_12_left_and_right_walk_the_legal_cells_like_up_and_down(make_ishido: Make) -> None:
    device, app = make_ishido()
    legal = app.game.legal_moves()
    device.post(KeyDown(Key.RIGHT))
    assert app.scene.mark == legal[0]
    device.post(KeyDown(Key.RIGHT))
    assert app.scene.mark == legal[1]
    device.post(KeyDown(Key.LEFT))
    device.post(KeyDown(Key.LEFT))
    assert app.scene.mark == legal[-1]


def test_18_new_game_and_restart_ask_first_when_a_game_is_in_progress(
    make_ishido: Make
) -> None:
    device, app = make_ishido()
    device.post(MenuCommand("new"))  # nothing played yet: no question
    assert device.modals == ()
    seed = app.game.seed
    device.post(KeyDown(Key.DOWN))
    device.post(KeyDown(Key.SELECT))
    for command, button in (("new", "New Game"), ("restart", "Restart")):
        device.post(MenuCommand(command))
        question = device.modals[-1]
        assert isinstance(question, Alert) and question.row.buttons[0].label == button
        device.post(KeyDown(Key.CANCEL))  # keeps the game
        assert app.game.seed == seed and app.game.remaining == 65
    device.post(CharKey("n", command=True))  # Ctrl+N
    assert isinstance(device.modals[-1], Alert)
    device.post(KeyDown(Key.SELECT))
    assert app.game.remaining == 66 and not device.modals


def test_18_about_shows_the_version(make_ishido: Make) -> None:
    from palmish import __version__

    device, _ = make_ishido()
    device.post(MenuCommand("about"))
    about = device.modals[-1]
    assert isinstance(about, Alert) and f"Version {__version__}" in about.message


def test_18_the_readme_runs_palmish_from_the_venv() -> None:
    from pathlib import Path

    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text()
    section = readme.split("### Command line", 1)[1].split("\n## ", 1)[0]
    block = section.split("```")[1]
    commands = [line for line in block.splitlines() if line and not line.startswith((" ", "#"))]
    assert commands and all(line.startswith(".venv/bin/palmish") for line in commands)
    assert "make run ARGS=" in section


def test_14_long_names_keep_the_word_that_matters() -> None:
    std = get_font("std", 2)
    for text, width in (("Ceramic Pieces Wide", 150), ("High Contrast Pieces Wide (pieces)", 290)):
        short = std.shorten(text, width)
        assert std.width(short) <= width and "\u2026" in short
        assert short.endswith("Wide") or short.endswith("Wide (pieces)")
    assert std.shorten("Jade Board", 500) == "Jade Board"


def test_14_preferences_and_plugin_manager_fit_their_rows(make_ishido: Make) -> None:
    device, _ = make_ishido(ConfigName.WIDE)
    device.post(MenuCommand("prefs"))
    form = device.modals[-1]
    assert isinstance(form, Form)
    index = next(i for i, f in enumerate(form.fields)
                 if isinstance(f, PopupList) and f.key == "wide/pieces")
    assert form.trigger_text(index).endswith("Wide")  # "Ceramic Pi… Wide", not "…Pieces …"
    device.post(KeyDown(Key.CANCEL))
    for config in (ConfigName.SQUARE_LOW, ConfigName.SQUARE):
        device, _ = make_ishido(config, data=device.storage.data_dir.parent / config.value)
        device.post(MenuCommand("plugins"))
        manager = device.modals[-1]
        assert isinstance(manager, Form)
        device.post(KeyDown(Key.SELECT))  # open the list of plugins
        popup = manager._popup[1] if manager._popup else None
        assert popup is not None
        font = get_font("std", device.config.scale)
        for i, option in enumerate(popup.options):
            shown = popup.row_text(i)
            assert font.width(shown) <= popup.rows_rect.w  # nothing clipped mid-letter
            assert shown == option or "\u2026" in shown
        assert all("bundled" not in o for o in popup.options)  # short kind labels


@pytest.mark.parametrize(("command", "key", "kept"), [
    ("new", "n", True), ("new", "escape", True), ("new", "y", False),
    ("restart", "N", True), ("restart", "Y", False)])
def test_y_and_n_answer_new_game_and_restart(make_ishido: Make, command: str, key: str,
                                              kept: bool) -> None:
    """Issue 41: every yes/no question answers Y and N (N and Escape keep the game)."""
    device, app = make_ishido()
    device.post(KeyDown(Key.DOWN))
    device.post(KeyDown(Key.SELECT))  # a tile placed: the game is in progress
    assert app.game.remaining == 65
    device.post(MenuCommand(command))
    assert isinstance(device.modals[-1], Alert)
    device.post(KeyDown(Key.CANCEL) if key == "escape" else CharKey(key))
    assert not device.modals
    assert (app.game.remaining == 65) is kept
