"""Issue 41: "once the highlight showed Plugin Manager while Enter opened Preferences".
Whatever mix of keys and pen strokes came before, the item drawn highlighted is the
one Select chooses (and with none drawn, Select chooses nothing but highlights)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from palmish.device.display import CONFIGS, ConfigName
from palmish.device.events import Key, KeyDown, PenDown, PenMove, PenUp
from palmish.device.geometry import Rect
from palmish.device.graphics.screen import WHITE, Framebuffer
from palmish.device.menus import Menu, MenuItem
from palmish.device.ui import MenuBar

MENUS = (
    Menu("Game", (MenuItem("New Game", "new", "N"), MenuItem("-", "sep"),
                  MenuItem("Undo", "undo", "U"), MenuItem("Hint", "hint", "H"))),
    Menu("Options", (MenuItem("Preferences", "prefs", "R"),
                     MenuItem("Plugin Manager", "plugins"), MenuItem("Help", "help"))),
)
CONFIG = CONFIGS[ConfigName.SQUARE]

KEYS = st.sampled_from([Key.UP, Key.DOWN, Key.LEFT, Key.RIGHT]).map(lambda k: ("key", k))
# A pen stroke: down on a menu title, over an item (or off them), up there.
STROKES = st.tuples(st.integers(0, 1), st.integers(-1, 3), st.booleans()).map(
    lambda s: ("pen", s))


def mid(rect: Rect) -> tuple[int, int]:
    return rect.x + rect.w // 2, rect.y + rect.h // 2


def drawn_highlight(bar: MenuBar, fb: Framebuffer) -> int | None:
    rows = bar.item_rects(bar.current)
    lit = [i for i, r in enumerate(rows) if fb.image.getpixel((r.x + 1, r.bottom - 1)) != WHITE
           and MENUS[bar.current].items[i].label != "-"]
    assert len(lit) <= 1
    return lit[0] if lit else None


def stroke(bar: MenuBar, title: int, item: int, lift_on_item: bool) -> None:
    bar.handle(PenDown(*mid(bar.title_rects()[title])))
    rows = bar.item_rects(bar.current)
    if 0 <= item < len(rows):
        bar.handle(PenMove(*mid(rows[item])))
    if not lift_on_item:  # lifted back on the bar: no choice, nothing highlighted
        bar.handle(PenMove(*mid(bar.title_rects()[title])))
        bar.handle(PenUp(*mid(bar.title_rects()[title])))
    elif 0 <= item < len(rows):
        bar.handle(PenUp(*mid(rows[item])))


@settings(max_examples=150, deadline=None)
@given(st.lists(st.one_of(KEYS, STROKES), max_size=12))
def test_select_chooses_the_item_drawn_highlighted(actions: list[tuple[str, object]]) -> None:
    bar = MenuBar(MENUS, CONFIG)
    fb = Framebuffer(CONFIG.width, CONFIG.height, CONFIG.density)
    bar.draw(fb)
    for kind, what in actions:
        if bar.closed:
            return  # a stroke lifted on an item chose it: nothing more to compare
        if kind == "key":
            assert isinstance(what, Key)
            bar.handle(KeyDown(what))
        else:
            assert isinstance(what, tuple)
            stroke(bar, *what)
        if not bar.closed:
            bar.draw(fb)
            assert drawn_highlight(bar, fb) == bar.highlight
    if bar.closed:
        return
    shown = drawn_highlight(bar, fb)
    bar.handle(KeyDown(Key.SELECT))
    if shown is None:
        assert not bar.closed  # nothing shown: Select only highlights the first item
    else:
        assert bar.closed and bar.result == MENUS[bar.current].items[shown].command
