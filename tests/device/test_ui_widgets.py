"""Every modal driven by pen and by keys to each of its results, at both densities."""

from __future__ import annotations

from typing import Any

import pytest

from palmish.device.display import CONFIGS, ConfigName, DisplayConfig
from palmish.device.events import CharKey, Key, KeyDown, PenDown, PenMove, PenUp, Tick
from palmish.device.geometry import Rect
from palmish.device.graphics.screen import BLACK, WHITE, Framebuffer
from palmish.device.menus import Menu, MenuItem
from palmish.device.ui import (
    Alert,
    CheckBox,
    Form,
    Label,
    MenuBar,
    Modal,
    PopupList,
    PushButtons,
    TextViewer,
)
from palmish.device.ui.result import FormResult
from palmish.device.ui.status_strip import StatusStrip
from palmish.device.ui.widgets import ScrollBar

APP_COLOUR = (10, 200, 30)
CONFIG_NAMES = [ConfigName.SQUARE_LOW, ConfigName.SQUARE, ConfigName.TALL, ConfigName.WIDE]


@pytest.fixture(params=CONFIG_NAMES, ids=lambda c: c.value)
def config(request: pytest.FixtureRequest) -> DisplayConfig:
    return CONFIGS[request.param]


def screen_for(config: DisplayConfig) -> Framebuffer:
    fb = Framebuffer(config.width, config.height, config.density)
    fb.fill(fb.bounds, APP_COLOUR)
    fb.take_damage()
    return fb


def show(modal: Modal, config: DisplayConfig) -> Framebuffer:
    fb = screen_for(config)
    modal.layout(config.app_bounds, config.density)
    modal.draw(fb)
    return fb


def centre(rect: Rect) -> tuple[int, int]:
    return rect.x + rect.w // 2, rect.y + rect.h // 2


def tap(modal: Modal, fb: Framebuffer, rect: Rect) -> None:
    x, y = centre(rect)
    for event in (PenDown(x, y), PenMove(x, y), PenUp(x, y)):
        if modal.closed:  # closed on pen down: the rest of the stroke is not its own
            assert not modal.handle(event)
            break
        assert modal.handle(event)
        modal.draw(fb)


def keys(modal: Modal, fb: Framebuffer, *pressed: Key) -> None:
    for key in pressed:
        assert modal.handle(KeyDown(key))
        modal.draw(fb)


def within(inner: Rect, outer: Rect) -> bool:
    return inner.intersect(outer) == inner


def app_pixels_back(fb: Framebuffer) -> bool:
    return fb.image.getcolors() == [(fb.width * fb.height, APP_COLOUR)]


# -- Modal basics -----------------------------------------------------------------


def test_modal_saves_behind_and_erases(config: DisplayConfig) -> None:
    alert = Alert("Note", "Saved.")
    fb = show(alert, config)
    assert within(alert.bounds, config.app_bounds)
    assert fb.take_damage() and not app_pixels_back(fb)
    keys(alert, fb, Key.SELECT)  # closes; drawing a closed modal erases it
    assert alert.closed and alert.result == FormResult("OK")
    assert app_pixels_back(fb)


def test_modal_leaves_home_and_outside_pens_to_the_device() -> None:
    config = CONFIGS[ConfigName.SQUARE]
    alert = Alert("Note", "Hello")
    show(alert, config)
    assert not alert.handle(KeyDown(Key.HOME))
    assert config.status_bar is not None
    x, y = centre(config.status_bar)
    assert not alert.handle(PenDown(x, y))
    assert alert.handle(PenDown(5, 5))  # inside the app area: swallowed
    assert not alert.handle(Tick(0))
    assert not alert.closed


def test_draw_without_layout_uses_the_area_every_configuration_shares() -> None:
    alert = Alert("Note", "Hi")
    fb = Framebuffer(320, 480, 144)
    alert.draw(fb)
    assert within(alert.bounds, Rect(0, 0, 320, 320))


def test_relayout_on_a_new_screen_after_rotation() -> None:
    alert = Alert("Note", "Hi")
    show(alert, CONFIGS[ConfigName.TALL])
    wide = CONFIGS[ConfigName.WIDE]
    fb = screen_for(wide)
    alert.layout(wide.app_bounds, wide.density)
    alert.draw(fb)
    assert within(alert.bounds, wide.app_bounds)
    alert.erase(fb)
    assert app_pixels_back(fb)


# -- Alert ------------------------------------------------------------------------


def test_alert_keys_reach_every_button(config: DisplayConfig) -> None:
    for presses, expected in [((), "Yes"), ((Key.RIGHT,), "No"), ((Key.RIGHT,) * 2, "Later"),
                              ((Key.LEFT,), "Later")]:
        alert = Alert("Game Over", "Play again?", ("Yes", "No", "Later"))
        fb = show(alert, config)
        keys(alert, fb, *presses, Key.SELECT)
        assert alert.closed and alert.result == FormResult(expected)


def test_alert_pen_presses_a_button_only_when_released_on_it(config: DisplayConfig) -> None:
    alert = Alert("Game Over", "A long message " * 8, ("Yes", "No"))
    fb = show(alert, config)
    yes, no = alert.row.rects()
    x, y = centre(yes)
    alert.handle(PenDown(x, y))
    alert.draw(fb)
    assert fb.image.getpixel((x - 8 * fb.scale, y)) == BLACK  # pressed: drawn inverted
    alert.handle(PenMove(*centre(no)))
    alert.handle(PenUp(*centre(no)))  # slid off: nothing pressed
    assert not alert.closed
    tap(alert, fb, no)
    assert alert.closed and alert.result == FormResult("No")


def test_alert_title_bar_is_inverted(config: DisplayConfig) -> None:
    alert = Alert("Title", "Body")
    fb = show(alert, config)
    b = alert.bounds
    assert fb.image.getpixel((b.x + 4 * fb.scale, b.y + 6 * fb.scale)) == BLACK
    assert fb.image.getpixel((b.x + 4 * fb.scale, b.y + 20 * fb.scale)) == WHITE


def test_alert_needs_a_button() -> None:
    with pytest.raises(ValueError, match="button"):
        Alert("x", "y", ())


# -- MenuBar ----------------------------------------------------------------------

MENUS = (
    Menu("Game", (MenuItem("New", "new", "N"), MenuItem("-", "sep"), MenuItem("Undo", "undo"))),
    Menu("Options", (MenuItem("Preferences", "prefs", "R"), MenuItem("Help", "help"))),
)


def test_menubar_keys_choose_items(config: DisplayConfig) -> None:
    cases: list[tuple[tuple[Key, ...], str | None]] = [
        ((Key.SELECT,), "new"),  # it opens on the first item: Select chooses it at once
        ((Key.DOWN, Key.SELECT), "undo"),  # the separator is skipped
        ((Key.DOWN, Key.DOWN, Key.SELECT), "new"),  # round again
        ((Key.UP, Key.SELECT), "undo"),
        ((Key.RIGHT, Key.DOWN, Key.SELECT), "help"),
        ((Key.LEFT, Key.SELECT), "prefs"),
        ((Key.DOWN, Key.RIGHT, Key.SELECT), "prefs"),  # the highlight follows to the menu
        ((Key.MENU,), None),
    ]
    for presses, expected in cases:
        bar = MenuBar(MENUS, config)
        fb = screen_for(config)
        bar.draw(fb)
        keys(bar, fb, *presses)
        assert bar.closed and bar.result == expected, presses


def test_menubar_pen_opens_titles_and_chooses(config: DisplayConfig) -> None:
    bar = MenuBar(MENUS, config)
    fb = screen_for(config)
    bar.draw(fb)
    titles = bar.title_rects()
    assert within(bar.bounds, config.app_bounds)
    tap(bar, fb, titles[1])
    assert bar.current == 1 and not bar.closed
    tap(bar, fb, bar.item_rects(1)[1])
    assert bar.closed and bar.result == "help"
    assert app_pixels_back(fb)


def test_menubar_drag_from_title_to_item(config: DisplayConfig) -> None:
    bar = MenuBar(MENUS, config)
    fb = screen_for(config)
    bar.draw(fb)
    bar.handle(PenDown(*centre(bar.title_rects()[0])))
    bar.handle(PenMove(*centre(bar.item_rects(0)[2])))
    assert bar.highlight == 2
    bar.handle(PenUp(*centre(bar.item_rects(0)[2])))
    assert bar.result == "undo"


def test_menubar_opens_on_its_first_item_and_draws_it_highlighted(
        config: DisplayConfig) -> None:
    """Issue 41: Enter on a fresh menu only highlighted the first item; what is drawn
    highlighted is what Select chooses."""
    bar = MenuBar(MENUS, config)
    fb = screen_for(config)
    bar.draw(fb)
    first = bar.item_rects(0)[0]
    assert bar.highlight == 0
    assert fb.image.getpixel((first.x + 1, first.bottom - 1)) != WHITE  # drawn inverted
    keys(bar, fb, Key.SELECT)
    assert bar.result == "new"


def test_menubar_separator_and_outside_taps(config: DisplayConfig) -> None:
    bar = MenuBar(MENUS, config)
    fb = screen_for(config)
    bar.draw(fb)
    tap(bar, fb, bar.item_rects(0)[1])  # the separator does nothing
    assert not bar.closed
    area = config.app_bounds
    tap(bar, fb, Rect(area.right - 4, area.bottom - 4, 2, 2))
    assert bar.closed and bar.result is None
    assert app_pixels_back(fb)


def test_menubar_switching_menus_restores_the_old_pulldown() -> None:
    config = CONFIGS[ConfigName.SQUARE_LOW]
    bar = MenuBar(MENUS, config)
    fb = screen_for(config)
    bar.draw(fb)
    under_game = bar.item_rects(0)[2]  # not the first item: that one is highlighted
    assert fb.image.getpixel((under_game.x + 1, under_game.bottom - 1)) == WHITE
    keys(bar, fb, Key.RIGHT)
    x = under_game.x + 1
    if not bar.bounds.contains(x, under_game.bottom - 1):
        assert fb.image.getpixel((x, under_game.bottom - 1)) == APP_COLOUR


# -- Form -------------------------------------------------------------------------


def prefs() -> Form:
    return Form(
        "Preferences",
        [
            Label("Square"),
            PopupList("board", "Board", ("Wood", "Marble", "Slate"), 0),
            PushButtons("scoring", "Scoring", ("Modern", "Scored"), 0),
            CheckBox("hints", "Show moves", False),
        ],
    )


def test_form_keys_edit_every_kind_of_field(config: DisplayConfig) -> None:
    form = prefs()
    fb = show(form, config)
    keys(form, fb, Key.RIGHT)  # board: Wood -> Marble
    keys(form, fb, Key.SELECT, Key.DOWN, Key.SELECT)  # open the list, Slate
    assert form.popup is None
    keys(form, fb, Key.DOWN, Key.SELECT)  # scoring steps to Scored
    keys(form, fb, Key.DOWN, Key.SELECT)  # hints on
    keys(form, fb, Key.DOWN, Key.SELECT)  # the button row: OK
    assert form.closed
    assert form.result == FormResult("OK", {"board": 2, "scoring": 1, "hints": True})


def test_form_keys_reach_cancel_and_left_changes_back(config: DisplayConfig) -> None:
    form = prefs()
    fb = show(form, config)
    keys(form, fb, Key.LEFT)  # board wraps: Wood -> Slate
    keys(form, fb, Key.UP, Key.RIGHT, Key.SELECT)  # up from the first field: buttons
    assert form.result == FormResult("Cancel", {"board": 2, "scoring": 0, "hints": False})


def test_form_enter_presses_ok_wherever_the_focus_is(config: DisplayConfig) -> None:
    for downs in range(3):  # focus on the list trigger, the push buttons, the check box
        form = prefs()
        fb = show(form, config)
        keys(form, fb, Key.RIGHT, *[Key.DOWN] * downs)
        assert form.handle(CharKey("\n"))
        assert form.closed
        assert form.result == FormResult("OK", {"board": 1, "scoring": 0, "hints": False})


def test_form_enter_in_an_open_list_picks_the_item_and_keeps_the_form(
    config: DisplayConfig,
) -> None:
    form = prefs()
    fb = show(form, config)
    keys(form, fb, Key.SELECT, Key.DOWN)  # the list is open on Marble
    assert form.handle(CharKey("\n"))
    assert form.popup is None and not form.closed and form.values["board"] == 1
    assert form.handle(CharKey("\n"))
    assert form.result == FormResult("OK", {"board": 1, "scoring": 0, "hints": False})


def test_enter_reaches_only_modals_that_take_it(config: DisplayConfig) -> None:
    alert = Alert("Note", "Hello")
    show(alert, config)
    assert not alert.handle(CharKey("\n")) and not alert.closed  # Select presses its button
    form = prefs()
    show(form, config)
    assert not form.handle(CharKey("x")) and not form.handle(CharKey("\n", command=True))
    assert not form.closed


def test_form_popup_closes_without_change(config: DisplayConfig) -> None:
    form = prefs()
    fb = show(form, config)
    keys(form, fb, Key.SELECT, Key.DOWN, Key.LEFT)
    assert form.popup is None and form.values["board"] == 0
    outside = fb.image.copy()
    outside.paste((1, 2, 3), form.bounds.box())  # the list left nothing outside the form
    assert {colour for _, colour in outside.getcolors() or []} == {APP_COLOUR, (1, 2, 3)}


def test_form_pen_edits_every_kind_of_field(config: DisplayConfig) -> None:
    form = prefs()
    fb = show(form, config)
    tap(form, fb, form.control_rects("board")[0])
    popup = form.popup
    assert popup is not None and within(popup.rect, config.app_bounds)
    tap(form, fb, popup.row_rect(1))
    assert form.popup is None and form.values["board"] == 1
    tap(form, fb, form.control_rects("scoring")[1])
    tap(form, fb, form.control_rects("hints")[0])
    assert form.values == {"board": 1, "scoring": 1, "hints": True}
    tap(form, fb, form.control_rects("hints")[0])
    assert form.values["hints"] is False
    tap(form, fb, form.row.rects()[1])
    assert form.result == FormResult("Cancel", {"board": 1, "scoring": 1, "hints": False})


def test_form_pen_outside_the_popup_closes_it(config: DisplayConfig) -> None:
    form = prefs()
    fb = show(form, config)
    tap(form, fb, form.control_rects("board")[0])
    assert form.popup is not None
    tap(form, fb, Rect(form.bounds.x + 1, form.bounds.y + 1, 1, 1))
    assert form.popup is None and not form.closed


def test_form_too_tall_scrolls_to_the_focused_field() -> None:
    config = CONFIGS[ConfigName.SQUARE_LOW]
    fields: list[PopupList | Label] = []
    for slot in ("Square", "Tall", "Wide"):
        fields.append(Label(slot))
        fields += [PopupList(f"{slot}{k}", k, ("A", "B"), 0) for k in ("Board", "Pieces", "Sound")]
    form = Form("Preferences", fields)
    fb = show(form, config)
    assert within(form.bounds, config.app_bounds)
    assert form.scrolled == 0
    keys(form, fb, *[Key.DOWN] * 8, Key.RIGHT)  # the last pop-up
    assert form.scrolled > 0
    assert within(form.control_rects("WideSound")[0], form.bounds)
    keys(form, fb, Key.DOWN, Key.SELECT)
    chosen = {**{f.key: 0 for f in fields if isinstance(f, PopupList)}, "WideSound": 1}
    assert form.result == FormResult("OK", chosen)


def test_form_rejects_bad_fields() -> None:
    with pytest.raises(ValueError, match="out of range"):
        Form("x", [PopupList("k", "K", ("a",), 3)])
    with pytest.raises(ValueError, match="no options"):
        Form("x", [PushButtons("k", "K", (), 0)])


# -- TextViewer -------------------------------------------------------------------

HELP = "# Rules\n" + " ".join(f"Sentence number {i} of the help text." for i in range(60))


def test_textviewer_keys_page_and_close(config: DisplayConfig) -> None:
    viewer = TextViewer("Help", HELP)
    fb = show(viewer, config)
    assert within(viewer.bounds, config.app_bounds)
    page = viewer.scroll.visible - 1
    keys(viewer, fb, Key.DOWN)
    assert viewer.top == page
    keys(viewer, fb, *[Key.DOWN] * 50)
    assert viewer.top == viewer.scroll.max_top > 0
    keys(viewer, fb, Key.UP)
    assert viewer.top == viewer.scroll.max_top - page
    keys(viewer, fb, Key.SELECT)
    assert viewer.closed and viewer.result is None
    assert app_pixels_back(fb)


def test_textviewer_pen_arrows_track_thumb_and_done(config: DisplayConfig) -> None:
    viewer = TextViewer("Help", HELP)
    fb = show(viewer, config)
    bar = viewer.scroll
    tap(viewer, fb, bar.down_arrow())
    assert viewer.top == 1
    tap(viewer, fb, bar.up_arrow())
    assert viewer.top == 0
    track = bar.track()
    tap(viewer, fb, Rect(track.x, track.bottom - 2, track.w, 1))
    assert viewer.top == bar.visible
    thumb = bar.thumb()
    x, y = centre(thumb)
    viewer.handle(PenDown(x, y))
    viewer.handle(PenMove(x, track.bottom + 50))
    viewer.handle(PenUp(x, track.bottom + 50))
    assert viewer.top == bar.max_top
    tap(viewer, fb, viewer.row.rects()[0])
    assert viewer.closed


def test_scroll_bar_taps_move_a_line_on_the_arrows_and_a_page_on_the_track() -> None:
    bar = ScrollBar(Rect(0, 0, 7, 100), total=50, visible=10, top=20)
    assert bar.tap(bar.up_arrow().y, line=3) and bar.top == 17
    assert bar.tap(bar.down_arrow().y, line=3) and bar.top == 20
    assert bar.tap(bar.thumb().y - 1, line=3) and bar.top == 10
    assert bar.tap(bar.thumb().bottom, line=3) and bar.top == 20
    assert not bar.tap(bar.thumb().y, line=3) and bar.top == 20
    bar.top = bar.max_top
    assert bar.tap(bar.down_arrow().y, line=3) and bar.top == bar.max_top


def test_textviewer_short_text_does_not_scroll() -> None:
    config = CONFIGS[ConfigName.TALL]
    viewer = TextViewer("About", "palmish 1.0")
    fb = show(viewer, config)
    keys(viewer, fb, Key.DOWN)
    assert viewer.top == 0 and viewer.lines == [("palmish 1.0", False)]


def test_alert_icon_sits_left_of_the_text(config: DisplayConfig) -> None:
    plain, with_icon = Alert("T", "Message"), Alert("T", "Message", icon="warning")
    fb_plain, fb_icon = show(plain, config), show(with_icon, config)
    s = fb_icon.scale
    b = with_icon.bounds
    icon_centre = (b.x + (2 + 4 + 4) * s, b.y + (13 + 4 + 14) * s)  # ink, beside the "!"
    assert fb_icon.image.getpixel(icon_centre) == BLACK
    # The same line of text, moved right by the icon and its gap.
    left, top = b.x + (2 + 4) * s, b.y + (13 + 4) * s
    w, h = fb_plain.text_width("Message"), fb_plain.line_height()
    plain_top = plain.bounds.y + (13 + 4) * s
    moved = (left + (17 + 5) * s, top, left + (17 + 5) * s + w, top + h)
    assert fb_icon.image.crop(moved).tobytes() == fb_plain.image.crop(
        (left, plain_top, left + w, plain_top + h)
    ).tobytes()
    keys(with_icon, fb_icon, Key.SELECT)
    assert with_icon.result == FormResult("OK")
    with pytest.raises(ValueError, match="icon"):
        Alert("T", "M", icon="smiley")



class _Lines(Framebuffer):
    """A framebuffer that keeps the lines of text drawn on it."""

    def __init__(self, side: int, density: int) -> None:
        super().__init__(side, side, density)
        self.lines: list[str] = []

    def text(self, x: int, y: int, s: str, *args: Any, **kwargs: Any) -> int:
        self.lines.append(s)
        return super().text(x, y, s, *args, **kwargs)


@pytest.mark.parametrize("density", [72, 144])
def test_a_status_strip_too_narrow_for_its_status_draws_the_short_one(density: int) -> None:
    side = 160 if density == 72 else 320
    bounds = Rect(0, 0, side, side)
    strip = StatusStrip(lambda label: None)
    strip.show("built 12:00:00; level 1 of 2", buttons=("Tall", "Next", "Beam"),
               short="1/2 12:00:00")
    fb = _Lines(side, density)
    strip.draw(fb, bounds, None)
    assert fb.lines[-1].startswith("1/2 ")  # the buttons first, then the status
    strip.show("built 12:00:00; level 1 of 2", buttons=(), short="1/2 12:00:00")
    fb = _Lines(side, density)
    strip.draw(fb, bounds, None)  # room enough: the whole status
    assert fb.lines[-1] == "built 12:00:00; level 1 of 2"
