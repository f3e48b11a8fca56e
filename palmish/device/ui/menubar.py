"""MenuBar: Palm's menu bar with pull-down menus, opened by the Menu button.

It opens with the first menu pulled down and its first item highlighted, so that
Select (or Enter) does at once what the screen shows it will.
Pen: tapping a title pulls its menu down; dragging over items highlights them,
lifting the pen on an item chooses it; a tap outside bar and menu closes.
Keys: left/right go to the neighbouring menu, up/down move the highlight,
select (or a typed Enter) chooses the highlighted item (with none, as after a
pen left the items, it highlights the first), Menu closes. A typed letter
chooses the item with that shortcut (the Palm command stroke: Menu, then the
letter).
Result: the chosen item's command, or None when closed without a choice.
An item labelled "-" is a separator.
"""

from __future__ import annotations

from palmish.device.display import DisplayConfig
from palmish.device.events import Key, KeyDown, PenDown, PenMove, PenUp
from palmish.device.geometry import Rect
from palmish.device.graphics.font import get_font
from palmish.device.graphics.screen import BLACK, WHITE, Framebuffer
from palmish.device.menus import Menu
from palmish.device.ui.modal import Modal

BAR_HEIGHT = 13  # standard coordinates
TITLE_PAD = 5
ITEM_HEIGHT = 11
SEPARATOR_HEIGHT = 5
ITEM_PAD = 4
SHORTCUT_GAP = 10
SHADOW = 1


def is_separator(label: str) -> bool:
    return label == "-"


def shortcut_command(menus: tuple[Menu, ...], letter: str) -> str | None:
    """The command of the item whose shortcut is `letter` (any case), or None."""
    wanted = letter.upper()
    for menu in menus:
        for item in menu.items:
            if item.shortcut and item.shortcut.upper() == wanted:
                return item.command
    return None


class MenuBar(Modal):
    wants_text = True
    takes_menu_key = True  # Menu closes the bar

    def __init__(self, menus: tuple[Menu, ...], config: DisplayConfig | None = None) -> None:
        super().__init__()
        self.menus = menus
        self.current = 0  # index of the pulled-down menu
        self.highlight: int | None = None  # item index in the current menu
        selectable = self._selectable()
        if selectable:
            self.highlight = selectable[0]
        self._bar = Rect(0, 0, 0, 0)
        self._titles: list[Rect] = []
        self._pulldowns: list[Rect] = []
        self._items: list[list[Rect]] = []
        self._pen_down = False
        if config is not None:
            self.layout(config.app_bounds, config.density)

    # -- layout ---------------------------------------------------------------------

    def _layout(self, area: Rect, scale: int) -> None:
        bold, std = get_font("bold", scale), get_font("std", scale)
        s = scale
        self._bar = Rect(area.x, area.y, area.w, BAR_HEIGHT * s)
        x = area.x + 2 * s
        self._titles, self._pulldowns, self._items = [], [], []
        for menu in self.menus:
            title_w = bold.width(menu.title) + 2 * TITLE_PAD * s
            title = Rect(x, area.y + s, title_w, (BAR_HEIGHT - 2) * s)
            self._titles.append(title)
            x = title.right
            label_w = max((std.width(i.label) for i in menu.items), default=0)
            shortcuts = ["/" + i.shortcut for i in menu.items if i.shortcut]
            short_w = max((std.width(mark) for mark in shortcuts), default=0)
            width = label_w + 2 * ITEM_PAD * s + (short_w + SHORTCUT_GAP * s if short_w else 0)
            width = min(width, area.w - 2 * s)
            left = max(area.x, min(title.x - s, area.right - width - SHADOW * s))
            top = self._bar.bottom
            rows: list[Rect] = []
            y = top + s
            for item in menu.items:
                h = (SEPARATOR_HEIGHT if is_separator(item.label) else ITEM_HEIGHT) * s
                rows.append(Rect(left + s, y, width - 2 * s, h))
                y += h
            height = min(y + s - top, area.bottom - top - SHADOW * s)
            self._pulldowns.append(Rect(left, top, width, height))
            self._items.append(rows)
        self.bounds = self._current_bounds()

    def title_rects(self) -> list[Rect]:
        """Where each menu's title sits in the bar (after layout)."""
        return list(self._titles)

    def item_rects(self, menu: int) -> list[Rect]:
        """Where the items of a menu are when it is pulled down."""
        return list(self._items[menu])

    def _current_bounds(self) -> Rect:
        if not self.menus:
            return self._bar
        pull = self._pulldowns[self.current]
        shadowed = Rect(pull.x, pull.y, pull.w + SHADOW * self.scale, pull.h + SHADOW * self.scale)
        return self._bar.union(shadowed)

    def covered(self) -> Rect:
        rect = self._bar
        for pull in self._pulldowns:
            s = SHADOW * self.scale
            rect = rect.union(Rect(pull.x, pull.y, pull.w + s, pull.h + s))
        return rect

    # -- drawing --------------------------------------------------------------------

    def _draw(self, fb: Framebuffer) -> None:
        s = fb.scale
        self.restore_behind(fb)  # the previous pull-down may sit elsewhere
        bar = self._bar
        fb.fill(bar, WHITE)
        fb.fill(Rect(bar.x, bar.bottom - s, bar.w, s), BLACK)
        bold = fb.font("bold")
        for index, (menu, title) in enumerate(zip(self.menus, self._titles, strict=True)):
            open_now = index == self.current
            if open_now:
                fb.round_rect(title, 2 * s, fill=BLACK)
            colour = WHITE if open_now else BLACK
            fb.text(title.x + TITLE_PAD * s, title.y, menu.title, colour, bold, clip=bar)
        if self.menus:
            self._draw_pulldown(fb)

    def _draw_pulldown(self, fb: Framebuffer) -> None:
        s = fb.scale
        pull = self._pulldowns[self.current]
        fb.fill(Rect(pull.x + SHADOW * s, pull.y + SHADOW * s, pull.w, pull.h), BLACK)
        fb.fill(pull, WHITE)
        fb.rectangle(pull, BLACK, width=s)
        std = fb.font("std")
        menu = self.menus[self.current]
        rows = self._items[self.current]
        for index, (item, row) in enumerate(zip(menu.items, rows, strict=True)):
            if row.bottom > pull.bottom:
                break
            if is_separator(item.label):
                mid = row.y + row.h // 2
                for x in range(row.x + s, row.right - s, 2 * s):  # Palm's dotted rule
                    fb.fill(Rect(x, mid, s, s), BLACK)
                continue
            lit = index == self.highlight
            if lit:
                fb.fill(row, BLACK)
            colour = WHITE if lit else BLACK
            fb.text(row.x + (ITEM_PAD - 1) * s, row.y, item.label, colour, std, clip=row)
            if item.shortcut:
                mark = "/" + item.shortcut
                fb.text(row.right - ITEM_PAD * s - std.width(mark), row.y, mark, colour, std)

    # -- events ---------------------------------------------------------------------

    def _selectable(self) -> list[int]:
        if not self.menus:
            return []
        items = self.menus[self.current].items
        return [i for i, item in enumerate(items) if not is_separator(item.label)]

    def _open(self, index: int) -> None:
        if index != self.current:
            self.current = index
            self.highlight = None
            self.bounds = self._current_bounds()

    def _choose(self, index: int) -> None:
        self.close(self.menus[self.current].items[index].command)

    def _item_at(self, x: int, y: int) -> int | None:
        if not self.menus or not self._pulldowns[self.current].contains(x, y):
            return None
        rows = self._items[self.current]
        items = self.menus[self.current].items
        hit = next((i for i, r in enumerate(rows) if r.contains(x, y)), None)
        return None if hit is None or is_separator(items[hit].label) else hit

    def _title_at(self, x: int, y: int) -> int | None:
        return next((i for i, t in enumerate(self._titles) if t.contains(x, y)), None)

    def _handle(self, event: PenDown | PenMove | PenUp | KeyDown) -> None:
        if isinstance(event, KeyDown):
            self._key(event.key)
            return
        x, y = event.x, event.y
        title = self._title_at(x, y)
        item = self._item_at(x, y)
        if isinstance(event, PenDown):
            inside = self._bar.contains(x, y) or (
                bool(self.menus) and self._pulldowns[self.current].contains(x, y)
            )
            if not inside:
                self.close(None)
                return
            self._pen_down = True
        elif not self._pen_down:
            return
        if title is not None:
            self._open(title)
        self.highlight = item
        if isinstance(event, PenUp):
            self._pen_down = False
            if item is not None:
                self._choose(item)

    def _char(self, char: str) -> None:
        if char == "\n":
            self._key(Key.SELECT)
            return
        command = shortcut_command(self.menus, char)
        if command is not None:
            self.close(command)

    def _key(self, key: Key) -> None:
        if key is Key.MENU:
            self.close(None)
            return
        if not self.menus:
            if key is Key.SELECT:
                self.close(None)
            return
        choices = self._selectable()
        if key in (Key.LEFT, Key.RIGHT):
            step = -1 if key is Key.LEFT else 1
            had_highlight = self.highlight is not None
            self._open((self.current + step) % len(self.menus))
            if had_highlight and self._selectable():
                self.highlight = self._selectable()[0]
        elif key in (Key.UP, Key.DOWN) and choices:
            if self.highlight not in choices:
                self.highlight = choices[0] if key is Key.DOWN else choices[-1]
            else:
                step = -1 if key is Key.UP else 1
                position = choices.index(self.highlight) + step
                self.highlight = choices[position % len(choices)]
        elif key is Key.SELECT and choices:
            if self.highlight in choices:
                self._choose(self.highlight)
            else:
                self.highlight = choices[0]
