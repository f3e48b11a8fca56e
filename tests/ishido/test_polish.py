"""Issue 14 (what a new user ran into), the PalmIshido side: one test per item."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from palmish.device.display import ConfigName
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

    from palmish.device.font import get_font

    zero = get_font("large", 1).render("0")
    zero = zero.crop(zero.getbbox())
    # A plain 0 (or an empty box) is the same mirrored; the slashed zero is not.
    assert ImageOps.mirror(zero).tobytes() != zero.tobytes()
