"""The launcher: icons of the installed apps, pen and keys start them, Home comes back."""

from __future__ import annotations

from typing import Any

import pytest
from PIL import Image

from palmish.device.events import Key, KeyDown, MenuCommand, PenDown, PenMove, PenUp
from palmish.device.graphics.screen import Framebuffer
from palmish.launcher import LauncherApp
from palmish.launcher.app import CELL_H, CELL_W, TITLE_H, fit_icon

WHITE = (255, 255, 255)


def first_cell_centre(device: Any) -> tuple[int, int]:
    s = device.config.scale
    b = device.config.app_bounds
    columns = b.w // (CELL_W * s)
    left = b.x + (b.w - columns * CELL_W * s) // 2
    return left + CELL_W * s // 2, b.y + TITLE_H * s + CELL_H * s // 2


@pytest.mark.parametrize("config", ["square-low", "square", "wide"])
def test_a_tap_on_an_icon_starts_the_app(make_device: Any, recording_app: Any, config: str) -> None:
    device = make_device(config, start="Applications")
    x, y = first_cell_centre(device)
    before = device.screen.image.copy()
    device.post(PenDown(x, y))
    assert device.screen.image != before  # the icon shows it is pressed
    device.post(PenUp(x, y))
    assert device.running_app is recording_app and recording_app.starts == 1


def test_dragging_off_the_icon_cancels(make_device: Any, recording_app: Any) -> None:
    device = make_device("square", start="Applications")
    x, y = first_cell_centre(device)
    device.post(PenDown(x, y))
    device.post(PenMove(x + 200, y + 200))
    device.post(PenUp(x + 200, y + 200))
    assert device.running_app.name == "Applications"


def test_keys_move_the_highlight_and_select_launches(
    make_device: Any, recording_app: Any, app_class: Any
) -> None:
    second = app_class("Second", "Scnd")
    device = make_device("square", apps=[LauncherApp(), recording_app, second],
                         start="Applications")
    device.post(KeyDown(Key.RIGHT))  # the first key shows the highlight on the first app
    device.post(KeyDown(Key.RIGHT))
    device.post(KeyDown(Key.SELECT))
    assert device.running_app is second
    device.post(KeyDown(Key.HOME))
    assert device.running_app.name == "Applications"
    device.post(KeyDown(Key.LEFT))
    device.post(KeyDown(Key.SELECT))
    assert device.running_app is recording_app


def test_icons_and_names_are_drawn(make_device: Any, app_class: Any) -> None:
    class WithIcon(app_class):  # type: ignore[misc, valid-type]
        def icon(self) -> Image.Image:
            return Image.new("RGBA", (32, 22), (0, 128, 255, 255))

    device = make_device("square", apps=[LauncherApp(), WithIcon("Blue", "Blue")],
                         start="Applications")
    x, y = first_cell_centre(device)
    icon_pixels = device.screen.image.crop((x - 40, y - 40, x + 40, y + 10)).getcolors(100000)
    assert any(colour == (0, 128, 255) for _, colour in icon_pixels)


def test_fit_icon_scales_for_the_density() -> None:
    small = Image.new("RGBA", (32, 22))
    assert fit_icon(small, 2).size == (64, 44)
    assert fit_icon(small, 1).size == (32, 22)
    huge = Image.new("RGBA", (200, 100))
    w, h = fit_icon(huge, 1).size
    assert w <= (CELL_W - 4) and h <= 26


def test_about_menu_opens_an_alert(make_device: Any) -> None:
    device = make_device("square", start="Applications")
    device.post(MenuCommand("about"))
    assert type(device.modals[-1]).__name__ == "Alert"


def _ink(image: Image.Image) -> Image.Image:
    """The black strokes of `image`, cropped to their bounding box."""
    strokes = image.convert("L").point(lambda v: 255 if v < 128 else 0)
    box = strokes.getbbox()
    assert box is not None, "nothing is drawn"
    return strokes.crop(box)


def _written(text: str, scale: int) -> Image.Image:
    fb = Framebuffer(400 * scale, 40 * scale, 72 * scale)
    fb.text(4, 4, text)
    return _ink(fb.image)


@pytest.mark.parametrize("config", ["square-low", "square"])
def test_no_apps_says_so(make_device: Any, config: str) -> None:
    device = make_device(config, apps=[LauncherApp()], start=None)
    assert device.running_app.name == "Applications"
    s = device.config.scale
    b = device.config.app_bounds
    # Below the title bar, the sentence and nothing else, in the standard font.
    below_title = device.screen.image.crop((b.x, b.y + TITLE_H * s, b.right, b.bottom))
    shown = _ink(below_title)
    expected = _written("No applications installed.", s)
    assert (shown.size, shown.tobytes()) == (expected.size, expected.tobytes())
    assert shown.size != _written("No applications installed", s).size  # the check can fail


@pytest.mark.parametrize("config", ["square-low", "square", "wide"])
def test_no_dead_category_trigger_in_the_title_bar(make_device: Any, config: str) -> None:
    """The launcher has no categories, so it shows no category pop-up that does nothing."""
    device = make_device(config, start="Applications")
    s = device.config.scale
    b = device.config.app_bounds
    corner = (b.right - 50 * s, b.y, b.right, b.y + (TITLE_H - 2) * s)
    assert device.screen.image.crop(corner).getcolors() == [(50 * s * (TITLE_H - 2) * s, WHITE)]
    before = device.screen.image.copy()
    device.post(PenDown(b.right - 10 * s, b.y + 5 * s))
    device.post(PenUp(b.right - 10 * s, b.y + 5 * s))
    assert device.screen.image == before and device.modals == ()
