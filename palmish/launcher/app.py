"""The 'Applications' screen: a grid of the installed apps' icons; tap or select to start one.

Laid out in standard coordinates times the screen's scale, so it looks the same
on the 160x160 device and on the double-density configurations; Wide gets
more columns. Up/down/left/right move the highlight, Select starts the app.
"""

from __future__ import annotations

from functools import cache

from PIL import Image, ImageDraw

from palmish import __version__
from palmish.device.events import Event, Key, KeyDown, MenuCommand, PenDown, PenMove, PenUp
from palmish.device.geometry import Rect
from palmish.device.graphics.screen import BLACK, WHITE, Framebuffer
from palmish.device.machine.app import App, AppContext
from palmish.device.machine.system import LAUNCHER_CREATOR
from palmish.device.menus import Menu, MenuItem
from palmish.device.ui.alert import Alert

# Standard (low-density) metrics.
TITLE_H = 15
CELL_W = 53  # three columns on a 160-wide screen; names like "PalmIshido" fit
CELL_H = 40
ICON_BOX = 26  # height reserved for the icon inside a cell


@cache
def default_icon(scale: int) -> Image.Image:
    """A generic app icon (a framed card with a diamond), drawn at the scale."""
    s = scale
    img = Image.new("RGBA", (22 * s, 22 * s), (0, 0, 0, 0))
    draw = ImageDraw.Draw(img)
    box = (0, 0, 22 * s - 1, 22 * s - 1)
    draw.rounded_rectangle(box, 3 * s, fill=WHITE, outline=BLACK, width=s)
    c = 11 * s
    r = 7 * s
    draw.polygon([(c, c - r), (c + r, c), (c, c + r), (c - r, c)], fill=BLACK)
    return img


def fit_icon(icon: Image.Image, scale: int) -> Image.Image:
    """An app icon sized for the cell: low-density art is doubled on double density."""
    box = (CELL_W - 4) * scale, ICON_BOX * scale
    icon = icon.convert("RGBA")
    if scale == 2 and icon.width * 2 <= box[0] and icon.height * 2 <= box[1]:
        icon = icon.resize((icon.width * 2, icon.height * 2), Image.Resampling.NEAREST)
    if icon.width > box[0] or icon.height > box[1]:
        ratio = min(box[0] / icon.width, box[1] / icon.height)
        size = max(1, int(icon.width * ratio)), max(1, int(icon.height * ratio))
        icon = icon.resize(size, Image.Resampling.LANCZOS)
    return icon


class LauncherApp(App):
    id = "launcher"
    name = "Applications"
    creator = LAUNCHER_CREATOR

    def __init__(self) -> None:
        self._ctx: AppContext | None = None
        self._focus = 0
        self._focus_shown = False  # the highlight appears once a key is used
        self._pressed: int | None = None
        self._top_row = 0

    # ----------------------------------------------------------- app protocol

    def start(self, ctx: AppContext) -> None:
        self._ctx = ctx
        self._pressed = None
        self._focus = min(self._focus, max(0, len(self._apps()) - 1))
        self._draw()

    def stop(self) -> None:
        self._ctx = None

    def menus(self) -> tuple[Menu, ...]:
        return (Menu("App", (MenuItem("About palmish", "about", "A"),)),
                Menu("Options", (MenuItem("Preferences", "prefs", "R"),
                                 MenuItem("Beam Receive", "beam", "B"))))

    def handle(self, event: Event) -> None:
        if self._ctx is None:
            return
        if isinstance(event, PenDown | PenMove | PenUp):
            self._pen(event)
        elif isinstance(event, KeyDown):
            self._key(event.key)
        elif isinstance(event, MenuCommand) and event.command == "about":
            text = f"palmish {__version__}: a Palm OS-style handheld running retro games."
            self._ctx.open_modal(Alert("About palmish", text))
        elif isinstance(event, MenuCommand) and event.command in ("prefs", "beam"):
            from palmish.launcher import beam_receive  # not on the first frame's path

            if event.command == "prefs":
                beam_receive.open_preferences(self._ctx)
            else:
                beam_receive.open_screen(self._ctx)
        elif isinstance(event, MenuCommand):
            pass  # another app's command (a script may send any)
        else:  # a display change or anything else: draw afresh
            self._draw()

    # ---------------------------------------------------------------- layout

    def _apps(self) -> list[App]:
        assert self._ctx is not None
        return [a for a in self._ctx.apps() if a.creator != LAUNCHER_CREATOR]

    def _grid(self) -> tuple[Rect, int, int, int]:
        """The icon area, the number of columns, visible rows and the scale."""
        assert self._ctx is not None
        b = self._ctx.bounds
        s = self._ctx.config.scale
        area = Rect(b.x, b.y + TITLE_H * s, b.w, b.h - TITLE_H * s)
        columns = max(1, area.w // (CELL_W * s))
        rows = max(1, area.h // (CELL_H * s))
        return area, columns, rows, s

    def _cell_rect(self, index: int) -> Rect:
        area, columns, _, s = self._grid()
        row, col = divmod(index, columns)
        row -= self._top_row
        left = area.x + (area.w - columns * CELL_W * s) // 2
        return Rect(left + col * CELL_W * s, area.y + row * CELL_H * s, CELL_W * s, CELL_H * s)

    def _index_at(self, x: int, y: int) -> int | None:
        for index in range(len(self._apps())):
            if self._visible(index) and self._cell_rect(index).contains(x, y):
                return index
        return None

    def _visible(self, index: int) -> bool:
        _, columns, rows, _ = self._grid()
        return self._top_row <= index // columns < self._top_row + rows

    # ----------------------------------------------------------------- input

    def _pen(self, event: PenDown | PenMove | PenUp) -> None:
        under = self._index_at(event.x, event.y)
        if isinstance(event, PenDown):
            self._set_pressed(under)
        elif isinstance(event, PenMove):
            if under != self._pressed:
                self._set_pressed(None)
        else:
            pressed = self._pressed
            self._set_pressed(None)
            if pressed is not None and under == pressed:
                self._launch(pressed)

    def _key(self, key: Key) -> None:
        apps = self._apps()
        if not apps:
            return
        _, columns, rows, _ = self._grid()
        step = {Key.LEFT: -1, Key.RIGHT: 1, Key.UP: -columns, Key.DOWN: columns}.get(key)
        if step is not None:
            if self._focus_shown:
                self._focus = max(0, min(len(apps) - 1, self._focus + step))
            self._focus_shown = True
            row = self._focus // columns
            self._top_row = min(max(self._top_row, row - rows + 1), row)
            self._draw()
        elif key is Key.SELECT:
            self._launch(self._focus)

    def _set_pressed(self, index: int | None) -> None:
        if index != self._pressed:
            old, self._pressed = self._pressed, index
            for i in (old, index):
                if i is not None:
                    self._draw_cell(i)

    def _launch(self, index: int) -> None:
        apps = self._apps()
        if 0 <= index < len(apps) and self._ctx is not None:
            self._focus = index
            self._ctx.launch(apps[index].name)

    # ---------------------------------------------------------------- drawing

    def _draw(self) -> None:
        assert self._ctx is not None
        fb = self._ctx.screen
        b = self._ctx.bounds
        s = self._ctx.config.scale
        fb.fill(b, WHITE)
        self._draw_title(fb, b, s)
        apps = self._apps()
        if not apps:
            fb.text(b.x + 6 * s, b.y + (TITLE_H + 8) * s, "No applications installed.")
        for index in range(len(apps)):
            self._draw_cell(index)

    def _draw_title(self, fb: Framebuffer, b: Rect, s: int) -> None:
        bold = fb.font("bold")
        label = "Applications"
        tab = Rect(b.x, b.y, bold.width(label) + 8 * s, (TITLE_H - 2) * s)
        fb.round_rect(tab, 3 * s, fill=BLACK)
        fb.fill(Rect(tab.x, tab.bottom - 3 * s, tab.w, 3 * s), BLACK)
        fb.text(tab.x + 4 * s, tab.y + (tab.h - bold.height) // 2 + s, label, WHITE, bold)
        fb.fill(Rect(b.x, tab.bottom, b.w, 2 * s), BLACK)
        # No category pop-up: every installed app is a game, so "All" would be the only
        # useful category, and a trigger that does nothing misleads.

    def _draw_cell(self, index: int) -> None:
        assert self._ctx is not None
        if not self._visible(index):
            return
        fb = self._ctx.screen
        s = self._ctx.config.scale
        app = self._apps()[index]
        cell = self._cell_rect(index)
        clip = cell.intersect(self._grid()[0])
        if clip is None:
            return
        fb.fill(clip, WHITE)
        icon = app.icon()
        image = fit_icon(icon, s) if icon is not None else default_icon(s)
        ix = cell.x + (cell.w - image.width) // 2
        iy = cell.y + 2 * s + (ICON_BOX * s - image.height) // 2
        fb.blit(image, ix, iy, clip=clip)
        if index == self._pressed:
            fb.invert(Rect(ix - s, iy - s, image.width + 2 * s, image.height + 2 * s))
        std = fb.font("std")
        label = std.fit(app.icon_name or app.name, cell.w - s)
        width = std.width(label)
        lx = cell.x + (cell.w - width) // 2
        ly = cell.y + (ICON_BOX + 3) * s
        fb.text(lx, ly, label, BLACK, std, clip=clip)
        if self._focus_shown and index == self._focus:
            fb.invert(Rect(lx - s, ly, width + 2 * s, std.height))
