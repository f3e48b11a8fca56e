"""Issue 14 (what a new user ran into), the PalmIshido side: one test per item."""

from __future__ import annotations

from collections.abc import Callable

from palmish.device.events import CharKey, MenuCommand, PenDown, PenUp, Rotate
from palmish.device.geometry import Rect
from palmish.device.system import Device
from palmish.device.ui.form import Form, Label, PopupList
from palmish.device.ui.number_entry import NumberEntry
from palmish.ishido.app import IshidoApp

Make = Callable[..., tuple[Device, IshidoApp]]


def centre(r: Rect) -> tuple[int, int]:
    return (r.x + r.w // 2, r.y + r.h // 2)


def tap(device: Device, x: int, y: int) -> None:
    device.post(PenDown(x, y))
    device.post(PenUp(x, y))


def choose_in_preferences(device: Device, key: str, option: str) -> None:
    device.post(MenuCommand("prefs"))
    form = device.modals[-1]
    assert isinstance(form, Form)
    field = next(f for f in form.fields if isinstance(f, PopupList) and f.key == key)
    field.selected = field.options.index(option)
    tap(device, *centre(form.row.buttons[0].rect))  # OK
    assert not device.modals


def test_15_high_contrast_pieces_stay_after_a_rotation(make_ishido: Make) -> None:
    device, app = make_ishido()
    choose_in_preferences(device, "square/pieces", "High Contrast Pieces")
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
