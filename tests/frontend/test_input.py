"""Window pixels to LCD pixels and keys to device events (no window needed)."""

from __future__ import annotations

import pytest

from palmish.device.display import CONFIGS, ConfigName
from palmish.device.events import CharKey, Key, KeyDown, Rotate, ToggleInputArea
from palmish.device.geometry import Rect
from palmish.frontend.input import (
    KEY_ACTIONS,
    Layout,
    action_event,
    key_action,
    key_event,
    text_event,
)
from palmish.frontend.skin import load_skin
from palmish.frontend.texture import frame_around


def layout(skin: str, config: ConfigName, zoom: int) -> Layout:
    cfg = CONFIGS[config]
    return Layout(load_skin(skin).face_for(cfg), zoom, cfg.width, cfg.height)


@pytest.mark.parametrize(
    ("skin", "config", "zoom"),
    [
        ("t3", ConfigName.SQUARE, 1),
        ("t3", ConfigName.WIDE, 2),
        ("classic", ConfigName.SQUARE_LOW, 1),
        ("classic", ConfigName.SQUARE_LOW, 3),
    ],
)
def test_every_lcd_pixel_round_trips_through_window_coordinates(
    skin: str, config: ConfigName, zoom: int
) -> None:
    lay = layout(skin, config, zoom)
    cfg = CONFIGS[config]
    for px in range(0, cfg.width, 7):
        for py in range(0, cfg.height, 5):
            wx, wy = lay.window_point_of_lcd(px, py)
            assert lay.lcd_point(*lay.skin_point(wx, wy)) == (px, py)


def test_corners_of_the_lcd_at_zoom_two() -> None:
    lay = layout("classic", ConfigName.SQUARE_LOW, 2)
    lcd = lay.face.lcd  # 2 skin pixels per LCD pixel, so 4 window pixels each
    width, height = lay.window_size
    assert (width, height) == (lay.face.size[0] * 2, lay.face.size[1] * 2)
    top_left = (lcd.x * 2, height - 1 - lcd.y * 2)  # pyglet's y runs up from the bottom
    assert lay.lcd_point(*lay.skin_point(*top_left)) == (0, 0)
    bottom_right = (lcd.right * 2 - 1, height - lcd.bottom * 2)
    assert lay.lcd_point(*lay.skin_point(*bottom_right)) == (159, 159)
    just_outside = (lcd.right * 2, height - lcd.bottom * 2)
    assert lay.lcd_point(*lay.skin_point(*just_outside)) is None


def test_drag_off_the_glass_clamps_to_the_edge() -> None:
    lay = layout("t3", ConfigName.TALL, 1)
    assert lay.clamp_to_lcd(-50, -50) == (0, 0)
    assert lay.clamp_to_lcd(10_000, 10_000) == (319, 479)


def test_gl_rect_flips_y() -> None:
    lay = layout("t3", ConfigName.TALL, 2)
    x, y, w, h = lay.gl_rect(lay.face.lcd)
    assert (w, h) == (640, 960)
    assert y == lay.window_size[1] - lay.face.lcd.bottom * 2
    assert x == lay.face.lcd.x * 2


@pytest.mark.parametrize(
    ("name", "event"),
    [
        ("UP", KeyDown(Key.UP)),
        ("LEFT", KeyDown(Key.LEFT)),
        ("RETURN", KeyDown(Key.SELECT)),
        ("SPACE", KeyDown(Key.SELECT)),
        ("F1", KeyDown(Key.APP1)),
        ("F4", KeyDown(Key.APP4)),
        ("HOME", KeyDown(Key.HOME)),
        ("ESCAPE", KeyDown(Key.CANCEL)),
        ("F5", KeyDown(Key.MENU)),
        ("M", KeyDown(Key.MENU)),
        ("R", Rotate()),
        ("I", ToggleInputArea()),
    ],
)
def test_desktop_keys(name: str, event: object) -> None:
    action = key_action(name)
    assert action is not None
    assert action_event(action) == event


def test_unmapped_keys_do_nothing() -> None:
    assert key_action("Q") is None
    assert key_action("F12") is None


def test_every_device_key_has_a_desktop_key() -> None:
    mapped = {action_event(a) for a in KEY_ACTIONS.values()}
    assert {KeyDown(k) for k in Key} <= mapped


@pytest.mark.parametrize(
    ("name", "ctrl", "wants_text", "event"),
    [
        # Ctrl+letter: the command stroke + letter, also for R and M.
        ("N", True, False, CharKey("n", command=True)),
        ("R", True, False, CharKey("r", command=True)),
        ("M", True, True, CharKey("m", command=True)),
        ("_5", True, False, None),
        # Without Ctrl, R and M keep their device meaning unless a dialog reads text.
        ("R", False, False, Rotate()),
        ("M", False, False, KeyDown(Key.MENU)),
        # Other letters and digits are typed to the app (Pachisi's P passes).
        ("N", False, False, CharKey("n")),
        ("F6", False, False, None),
        ("R", False, True, CharKey("r")),
        ("_7", False, True, CharKey("7")),
        ("NUM_3", False, True, CharKey("3")),
        ("BACKSPACE", False, True, CharKey("\b")),
        # The marks come as text (test_marks_are_taken_from_the_typed_text), not as keys.
        ("PERIOD", False, True, None),
        ("COLON", False, True, None),
        ("RETURN", False, True, CharKey("\n")),
        ("RETURN", False, False, KeyDown(Key.SELECT)),
        ("UP", False, True, KeyDown(Key.UP)),
        ("ESCAPE", False, True, KeyDown(Key.CANCEL)),
    ],
)
def test_key_events(name: str, ctrl: bool, wants_text: bool, event: object) -> None:
    assert key_event(name, ctrl, wants_text) == event


@pytest.mark.parametrize(
    ("text", "wants_text", "event"),
    [
        # An address typed for Join or Beam: its dots, dashes and IPv6 colons, and a
        # name's underscores, only where text is read, whichever key typed them.
        (".", True, CharKey(".")),
        ("-", True, CharKey("-")),
        ("_", True, CharKey("_")),
        (":", True, CharKey(":")),
        (".", False, None),
        ("a", True, None),  # letters and digits come as keys
        ("7", True, None),
        ("/", True, None),
        ("::", True, None),
    ],
)
def test_marks_are_taken_from_the_typed_text(text: str, wants_text: bool,
                                              event: object) -> None:
    assert text_event(text, wants_text) == event


@pytest.mark.parametrize(
    ("name", "event"),
    [
        # A form takes Enter (its default button); other characters are typed as for
        # the app, and a form that reads no text drops them.
        ("RETURN", CharKey("\n")),
        ("NUM_ENTER", CharKey("\n")),
        ("SPACE", KeyDown(Key.SELECT)),  # Space stays the Palm's Select
        ("R", Rotate()),
        ("_7", CharKey("7")),
    ],
)
def test_a_form_takes_enter_only(name: str, event: object) -> None:
    assert key_event(name, False, False, takes_enter=True) == event


@pytest.mark.parametrize(("width", "height", "hole"), [
    (392, 700, Rect(36, 110, 320, 480)),  # a hole inside
    (30, 20, Rect(0, 0, 10, 10)),  # in a corner: no top or left part
    (30, 20, Rect(5, 7, 25, 13)),  # reaching the right and bottom edges
    (30, 20, Rect(0, 0, 30, 20)),  # the whole picture: no parts at all
])
def test_the_bezel_parts_cover_the_picture_but_the_lcd_once(
    width: int, height: int, hole: Rect
) -> None:
    covered = [[0] * width for _ in range(height)]
    for x, y, w, h in frame_around(width, height, hole):
        assert w > 0 and h > 0
        for row in range(height - y - h, height - y):  # GL's y up, back to rows down
            for col in range(x, x + w):
                covered[row][col] += 1
    for row in range(height):
        for col in range(width):
            inside = hole.x <= col < hole.right and hole.y <= row < hole.bottom
            assert covered[row][col] == (0 if inside else 1), (col, row)
