"""The status bar the OS draws on the T3-style device: Home, Menu, input-area toggle, rotate.

It runs along the bottom in portrait and down the right side in landscape.
Buttons are 16x16 pixel icons in cells along the bar; a button acts when the
pen is lifted over the same button it went down on (as Palm buttons do).
"""

from __future__ import annotations

import enum
from functools import cache

from PIL import Image

from palmish.device.display import DisplayConfig
from palmish.device.geometry import Rect
from palmish.device.graphics.screen import Framebuffer

BAR_COLOUR = (44, 48, 56)
ICON_COLOUR = (232, 234, 238)
PRESSED_COLOUR = (120, 150, 200)
CELL = 28  # length of a button cell along the bar


class StatusButton(str, enum.Enum):
    HOME = "home"
    MENU = "menu"
    INPUT_AREA = "input-area"
    ROTATE = "rotate"


# 16x16 icons, '#' = ink. Drawn for this project.
_ICONS: dict[str, tuple[str, ...]] = {
    "home": (
        "................",
        ".......##.......",
        "......####......",
        ".....##..##.....",
        "....##....##....",
        "...##......##...",
        "..##........##..",
        ".##..........##.",
        "####........####",
        "..#..........#..",
        "..#...####...#..",
        "..#...#..#...#..",
        "..#...#..#...#..",
        "..#...#..#...#..",
        "..############..",
        "................",
    ),
    "menu": (
        "................",
        "................",
        ".##############.",
        ".#............#.",
        ".#.##########.#.",
        ".#............#.",
        ".#.########...#.",
        ".#............#.",
        ".#.##########.#.",
        ".#............#.",
        ".#.######.....#.",
        ".#............#.",
        ".##############.",
        "................",
        "................",
        "................",
    ),
    # Input area open: an arrow pointing down into the area (press to close it).
    "input-close": (
        "................",
        "..############..",
        "..#..........#..",
        "..#..######..#..",
        "..#...####...#..",
        "..#....##....#..",
        "..#..........#..",
        "..############..",
        "................",
        ".##############.",
        ".#.#.#.#.#.#.##.",
        ".##.#.#.#.#.#.#.",
        ".#.#.#.#.#.#.##.",
        ".##############.",
        "................",
        "................",
    ),
    # Input area closed: an arrow pointing up (press to open it).
    "input-open": (
        "................",
        "..############..",
        "..#..........#..",
        "..#....##....#..",
        "..#...####...#..",
        "..#..######..#..",
        "..#..........#..",
        "..############..",
        "................",
        ".##############.",
        ".#............#.",
        ".#............#.",
        ".#............#.",
        ".##############.",
        "................",
        "................",
    ),
    "rotate": (
        "................",
        ".....######.....",
        "...##......##...",
        "..#..........#..",
        ".#............#.",
        ".#............#.",
        "#..............#",
        "#..............#",
        "#..............#",
        "#..........#####",
        ".#..........###.",
        ".#...........#..",
        "..#.............",
        "...##......#....",
        ".....######.....",
        "................",
    ),
}


@cache
def icon_image(name: str) -> Image.Image:
    """An RGBA image of the icon: ink opaque, the rest transparent."""
    rows = _ICONS[name]
    ink, clear = bytes((*ICON_COLOUR, 255)), bytes(4)
    # Built as bytes: a putpixel per ink pixel cost a millisecond of every start.
    pixels = b"".join(ink if ch == "#" else clear for row in rows for ch in row)
    return Image.frombytes("RGBA", (len(rows[0]), len(rows)), pixels)


def button_rects(config: DisplayConfig) -> dict[StatusButton, Rect]:
    """Where each button sits on the bar (empty on a device without a status bar)."""
    bar = config.status_bar
    if bar is None:
        return {}
    near = (StatusButton.HOME, StatusButton.MENU)
    far = (StatusButton.INPUT_AREA, StatusButton.ROTATE)
    rects: dict[StatusButton, Rect] = {}
    if config.landscape:
        for i, button in enumerate(near):
            rects[button] = Rect(bar.x, bar.y + i * CELL, bar.w, CELL)
        for i, button in enumerate(reversed(far)):
            rects[button] = Rect(bar.x, bar.bottom - (i + 1) * CELL, bar.w, CELL)
    else:
        for i, button in enumerate(near):
            rects[button] = Rect(bar.x + i * CELL, bar.y, CELL, bar.h)
        for i, button in enumerate(reversed(far)):
            rects[button] = Rect(bar.right - (i + 1) * CELL, bar.y, CELL, bar.h)
    return rects


def button_at(config: DisplayConfig, x: int, y: int) -> StatusButton | None:
    for button, rect in button_rects(config).items():
        if rect.contains(x, y):
            return button
    return None


def button_enabled(config: DisplayConfig, button: StatusButton) -> bool:
    """The input-area toggle does nothing in landscape (no input area there)."""
    if button is StatusButton.INPUT_AREA:
        return not config.landscape
    if button is StatusButton.ROTATE:
        return config.can_rotate
    return True


def _icon_name(config: DisplayConfig, button: StatusButton) -> str:
    if button is StatusButton.INPUT_AREA:
        return "input-close" if config.input_area_open else "input-open"
    return str(button.value)


def draw_status_bar(
    fb: Framebuffer, config: DisplayConfig, pressed: StatusButton | None = None
) -> None:
    """Draw the whole bar; `pressed` is shown highlighted while the pen is on it."""
    bar = config.status_bar
    if bar is None:
        return
    fb.fill(bar, BAR_COLOUR)
    for button, rect in button_rects(config).items():
        if not button_enabled(config, button):
            continue
        if button is pressed:
            fb.fill(Rect(rect.x + 1, rect.y + 1, rect.w - 2, rect.h - 2), PRESSED_COLOUR)
        icon = icon_image(_icon_name(config, button))
        fb.blit(
            icon,
            rect.x + (rect.w - icon.width) // 2,
            rect.y + (rect.h - icon.height) // 2,
            clip=rect,
        )
