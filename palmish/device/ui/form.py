"""Form: a titled dialog of fields (push-button groups, check boxes, pop-up
lists, headings) above a row of buttons (OK, Cancel). Enough for Preferences.

Result: (button_index, {key: value}) with the values as edited: the selected
index (int) for PushButtons and PopupList, a bool for CheckBox. Cancel returns
the edited values too; the caller ignores them.

Pen: tap a push button to select it, a check box (or its label) to toggle it,
a pop-up trigger to open its list; press and release a button to close.
Keys: up/down move the focus among the fields and the button row; left/right
change the focused field's value (or move along the button row); select
toggles a check box, opens a pop-up list, steps a push-button group, presses
the focused button. The desktop's Enter presses the default button (the first,
OK) wherever the focus is; with a pop-up list open it picks the highlighted
item and closes the list. Fields that do not fit scroll, with a scroll bar.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from palmish.device.events import Key, KeyDown, PenDown, PenMove, PenUp
from palmish.device.geometry import Rect
from palmish.device.graphics.font import get_font
from palmish.device.graphics.screen import BLACK, GREY, WHITE, Framebuffer
from palmish.device.ui.listpopup import ListPopup
from palmish.device.ui.modal import Modal
from palmish.device.ui.widgets import (
    BUTTON_HEIGHT,
    CHECK_SIZE,
    FRAME,
    INSET,
    SCROLL_WIDTH,
    TITLE_HEIGHT,
    ButtonRow,
    ScrollBar,
    dialog_rect,
    draw_check_box,
    draw_dialog,
    draw_down_triangle,
    draw_focus_ring,
)
from prc_tools.frozen import Frozen

ROW_HEIGHT = 15  # standard coordinates per field row
CONTROL_HEIGHT = 12
CELL_PAD = 4  # push-button text to cell edge
LABEL_GAP = 4
TRIANGLE = 7


class PushButtons(Frozen, frozen=False):
    """A group of adjacent push buttons; exactly one is selected."""

    key: str
    label: str
    options: tuple[str, ...]
    selected: int = 0


class CheckBox(Frozen, frozen=False):
    key: str
    label: str
    checked: bool = False
    greyed: bool = False  # shown as it is, in grey; the pen and keys pass it by


class PopupList(Frozen, frozen=False):
    """A trigger showing the current choice; tapping it opens the list."""

    key: str
    label: str
    options: tuple[str, ...]
    selected: int = 0


class Label(Frozen, frozen=False):
    """A bold heading line between fields (not focusable, no value)."""

    text: str


Field = PushButtons | CheckBox | PopupList | Label


class _Row(Frozen, frozen=False):
    field: Field
    y: int  # content coordinates: 0 = top of the scrolling field area
    height: int
    parts: list[Rect]  # hit rects in content coordinates: cells / box / trigger


class Form(Modal):
    takes_enter = True

    @property
    def takes_menu_key(self) -> bool:  # type: ignore[override]
        return self._popup is not None  # the Menu key closes an open list

    def __init__(
        self,
        title: str,
        fields: Sequence[Field],
        buttons: tuple[str, ...] = ("OK", "Cancel"),
    ) -> None:
        super().__init__()
        self.title = title
        self.fields = list(fields)
        for field in self.fields:
            _check(field)
        self.row = ButtonRow(buttons)
        self._rows: list[_Row] = []
        self._view = Rect(0, 0, 0, 0)  # the visible field area on screen
        self._label_x = 0
        self._scroll: ScrollBar | None = None
        self._offset = 0  # native px scrolled
        self._popup: tuple[int, ListPopup] | None = None
        self._popup_shown: Rect | None = None  # where a list was last drawn
        self._armed: tuple[int, int] | None = None  # (row, part) the pen went down on
        focusable = self._focusable()
        self.focus: int | None = focusable[0] if focusable else None  # None: button row

    @property
    def values(self) -> dict[str, object]:
        out: dict[str, object] = {}
        for field in self.fields:
            if isinstance(field, CheckBox):
                out[field.key] = field.checked
            elif isinstance(field, PushButtons | PopupList):
                out[field.key] = field.selected
        return out

    def control_rects(self, key: str) -> list[Rect]:
        """On-screen hit rects of a field's control at the current scroll position:
        one per push button, the check box with its label, the pop-up trigger."""
        for row in self._rows:
            if not isinstance(row.field, Label) and row.field.key == key:
                return [self._to_screen(part) for part in row.parts]
        raise KeyError(key)

    @property
    def popup(self) -> ListPopup | None:
        """The open pop-up list, if any."""
        return self._popup[1] if self._popup is not None else None

    @property
    def scrolled(self) -> int:
        """Native pixels the field area is scrolled down by."""
        return self._offset

    # -- layout ---------------------------------------------------------------------

    def _layout(self, area: Rect, scale: int) -> None:
        s = scale
        std, bold = get_font("std", s), get_font("bold", s)
        full = dialog_rect(area, area.h, s)
        inner_w = full.w - 2 * (FRAME + INSET) * s
        labelled = [f for f in self.fields if isinstance(f, PushButtons | PopupList)]
        labels = [f.label for f in labelled if f.label]
        label_w = max((std.width(label + ":") for label in labels), default=0)
        self._label_x = label_w + (LABEL_GAP * s if label_w else 0)
        # room for the focus ring (2 px out) before the scroll bar
        control_w = inner_w - SCROLL_WIDTH * s - self._label_x - 3 * s
        self._rows = []
        y = 0
        for field in self.fields:
            parts, height = self._place(field, y, control_w, s, std.width, bold.height)
            self._rows.append(_Row(field, y, height, parts))
            y += height
        content_h = y
        chrome = (TITLE_HEIGHT + FRAME + 3 * INSET + BUTTON_HEIGHT) * s
        height = min(full.h, chrome + content_h)
        self.bounds = dialog_rect(area, height, s)
        left = self.bounds.x + (FRAME + INSET) * s
        top = self.bounds.y + (TITLE_HEIGHT + INSET) * s
        view_h = self.bounds.h - chrome
        self._view = Rect(left, top, inner_w, view_h)
        self._scroll = None
        if content_h > view_h:
            bar = Rect(self._view.right - SCROLL_WIDTH * s, top, SCROLL_WIDTH * s, view_h)
            self._scroll = ScrollBar(bar, content_h, view_h, 0)
        self._offset = 0
        self._popup = None
        self._popup_shown = None
        button_y = self.bounds.bottom - (FRAME + INSET + BUTTON_HEIGHT) * s
        self.row.place(left, button_y, s, inner_w)
        self._reveal_focus()

    def _place(self, field: Field, y: int, width: int, s: int, text_width: Callable[[str], int],
               heading_h: int) -> tuple[list[Rect], int]:
        x = self._label_x
        row_h = ROW_HEIGHT * s
        control_h = CONTROL_HEIGHT * s
        top_pad = (row_h - control_h) // 2
        if isinstance(field, Label):
            return [], heading_h + 2 * s
        if isinstance(field, CheckBox):
            hit_w = (CHECK_SIZE + LABEL_GAP) * s + text_width(field.label)
            hit = Rect(x, y, min(hit_w, width), row_h)
            return [hit], row_h
        if isinstance(field, PopupList):
            longest = max(text_width(o) for o in field.options)
            trigger_w = min(width, TRIANGLE * s + LABEL_GAP * s + longest + 2 * s)
            return [Rect(x, y + top_pad, trigger_w, control_h)], row_h
        # PushButtons: cells left to right, wrapping onto more lines when needed.
        cells: list[Rect] = []
        cx, cy = x, y + top_pad
        pad = CELL_PAD * s
        one_line = sum(text_width(o) for o in field.options) + 2 * pad * len(field.options)
        if one_line > width:  # tighter cells before wrapping onto a second line
            pad = s * 2
        for option in field.options:
            cell_w = min(width, text_width(option) + 2 * pad)
            if cx + cell_w > x + width and cx > x:
                cx, cy = x, cy + control_h + 2 * s
            cells.append(Rect(cx, cy, cell_w, control_h))
            cx += cell_w - s  # neighbours share their border
        return cells, cells[-1].bottom - y + top_pad

    def _to_screen(self, r: Rect) -> Rect:
        return Rect(self._view.x + r.x, self._view.y + r.y - self._offset, r.w, r.h)

    def _reveal_focus(self) -> None:
        if self._scroll is None or self.focus is None:
            return
        row = self._rows[self.focus]
        room = 3 * self.scale  # keep the focus ring in view too
        if row.y - room < self._offset:
            self._offset = row.y - room
        elif row.y + row.height + room > self._offset + self._view.h:
            self._offset = row.y + row.height + room - self._view.h
        self._offset = max(0, min(self._offset, self._scroll.max_top))
        self._scroll.top = self._offset

    # -- drawing --------------------------------------------------------------------

    def covered(self) -> Rect:
        # A pop-up list may reach outside the dialog, anywhere in the app area.
        return self.area if self.area is not None else self.bounds

    def _draw(self, fb: Framebuffer) -> None:
        if self._popup_shown is not None:  # repaint the app where the last list was
            self.restore_behind(fb, self._popup_shown)
            self._popup_shown = None
        draw_dialog(fb, self.bounds, self.title)
        for index, row in enumerate(self._rows):
            screen_y = self._view.y + row.y - self._offset
            if screen_y + row.height <= self._view.y or screen_y >= self._view.bottom:
                continue
            self._draw_row(fb, index, row)
        if self._scroll is not None:
            self._scroll.draw(fb)
        self.row.draw(fb, focused=self.focus is None and self._popup is None)
        if self._popup is not None:
            popup = self._popup[1]
            popup.draw(fb)
            self._popup_shown = popup.covered()

    def _draw_row(self, fb: Framebuffer, index: int, row: _Row) -> None:
        s = fb.scale
        std, bold = fb.font("std"), fb.font("bold")
        clip = self._view
        field = row.field
        focused = index == self.focus and self._popup is None
        text_y = self._view.y + row.y - self._offset + (ROW_HEIGHT * s - std.height) // 2
        if isinstance(field, Label):
            fb.text(self._view.x, self._view.y + row.y - self._offset + s, field.text, BLACK,
                    bold, clip=clip)
            return
        if isinstance(field, CheckBox):
            hit = self._to_screen(row.parts[0])
            box_y = hit.y + (hit.h - CHECK_SIZE * s) // 2
            if clip.contains(hit.x, box_y) and clip.contains(hit.x, box_y + CHECK_SIZE * s - 1):
                draw_check_box(fb, hit.x, box_y, field.checked,
                               GREY if field.greyed else BLACK)
            fb.text(hit.x + (CHECK_SIZE + LABEL_GAP) * s, text_y, field.label,
                    GREY if field.greyed else BLACK, std, clip=clip)
            if focused:
                self._ring(fb, hit)
            return
        if field.label:
            label = field.label + ":"
            lx = self._view.x + self._label_x - LABEL_GAP * s - std.width(label)
            fb.text(lx, text_y, label, BLACK, std, clip=clip)
        if isinstance(field, PopupList):
            trigger = self._to_screen(row.parts[0])
            ty = trigger.y + (trigger.h - TRIANGLE * s // 2) // 2
            if clip.contains(trigger.x, ty):
                draw_down_triangle(fb, trigger.x, ty, TRIANGLE * s)
            value = self.trigger_text(index)
            fb.text(trigger.x + (TRIANGLE + LABEL_GAP) * s, text_y, value, BLACK, std, clip=clip)
            if focused:
                self._ring(fb, trigger)
            return
        for option_index, (option, cell) in enumerate(zip(field.options, row.parts, strict=True)):
            box = self._to_screen(cell)
            visible = box.intersect(clip)
            if visible is None:
                continue
            chosen = option_index == field.selected
            fb.fill(visible, BLACK if chosen else WHITE)
            if visible == box:
                fb.rectangle(box, BLACK, width=s)
            label = std.fit(option, box.w - 2 * s)
            tx = box.x + (box.w - std.width(label)) // 2 + s // 2
            ty = box.y + (box.h - std.height) // 2
            fb.text(tx, ty, label, WHITE if chosen else BLACK, std, clip=visible)
        if focused:
            group = self._to_screen(row.parts[0])
            for cell in row.parts[1:]:
                group = group.union(self._to_screen(cell))
            self._ring(fb, group)

    def trigger_text(self, index: int) -> str:
        """What the pop-up trigger of field `index` shows: its choice, shortened to fit
        before its last word (after layout). A last word that only repeats the
        field's label goes first ("Sandalwood Board" beside "Board:" is "Sandalwood")."""
        field = self.fields[index]
        assert isinstance(field, PopupList)
        s = self.scale
        trigger = self._to_screen(self._rows[index].parts[0])
        std = get_font("std", s)
        room = trigger.w - (TRIANGLE + LABEL_GAP) * s
        text = field.options[field.selected]
        head, _, last = text.rpartition(" ")
        if head and std.width(text) > room and _same_word(last, field.label):
            text = head
        return std.shorten(text, room)

    def _ring(self, fb: Framebuffer, rect: Rect) -> None:
        s = fb.scale
        ring = Rect(rect.x - 2 * s, rect.y - 2 * s, rect.w + 4 * s, rect.h + 4 * s)
        if ring.intersect(self._view) == ring:
            draw_focus_ring(fb, rect, 2 * s)
        elif rect.intersect(self._view) == rect:
            # A control at the field area's edge (a one-row form's only field): the ring
            # keeps to the area rather than vanish, so the keys' focus always shows.
            fitted = ring.intersect(self._view)
            if fitted is not None:
                fb.round_rect(fitted, 2 * s, outline=GREY, width=s)

    # -- events ---------------------------------------------------------------------

    def cancel(self) -> None:
        """Escape closes an open pop-up list first (keeping the choice), then the form."""
        if self._popup is not None:
            self._popup = None
            return
        self.close(self.row.result(self.row.cancel_index(), self.values))

    def _char(self, char: str) -> None:
        # Only Enter comes here (takes_enter): an open list picks its item, else OK.
        if self._popup is not None:
            self._popup_event(KeyDown(Key.SELECT))
        else:
            self.close(self.row.result(0, self.values))

    def _handle(self, event: PenDown | PenMove | PenUp | KeyDown) -> None:
        if self._popup is not None:
            self._popup_event(event)
            return
        if isinstance(event, KeyDown):
            self._key(event.key)
            return
        chosen = self.row.pen(event)
        if chosen is not None:
            self.close(self.row.result(chosen, self.values))
            return
        if self.row.armed is not None:
            return
        if self._scroll is not None and self._scroll.rect.contains(event.x, event.y):
            self._scroll_pen(event)
            return
        hit = self._hit(event.x, event.y)
        if isinstance(event, PenDown):
            self._armed = hit
        elif isinstance(event, PenUp):
            if hit is not None and hit == self._armed:
                self._activate(*hit)
            self._armed = None

    def _hit(self, x: int, y: int) -> tuple[int, int] | None:
        if not self._view.contains(x, y):
            return None
        for index, row in enumerate(self._rows):
            for part_index, part in enumerate(row.parts):
                if self._to_screen(part).contains(x, y):
                    return index, part_index
        return None

    def _activate(self, index: int, part: int) -> None:
        field = self.fields[index]
        if isinstance(field, CheckBox) and field.greyed:
            return
        self.focus = index
        if isinstance(field, CheckBox):
            field.checked = not field.checked
        elif isinstance(field, PushButtons):
            field.selected = part
        elif isinstance(field, PopupList):
            self._open_popup(index)

    def _open_popup(self, index: int) -> None:
        field = self.fields[index]
        assert isinstance(field, PopupList) and self.area is not None
        anchor = self._to_screen(self._rows[index].parts[0])
        # inside the form's frame: a list spilling past its edge looked broken (Wide)
        inset = FRAME * self.scale
        frame = Rect(self.bounds.x + inset, self.bounds.y + inset, self.bounds.w - 2 * inset,
                     self.bounds.h - 2 * inset)
        self._popup = (index, ListPopup(field.options, field.selected, anchor,
                                        frame.intersect(self.area) or self.area, self.scale))

    def _popup_event(self, event: PenDown | PenMove | PenUp | KeyDown) -> None:
        assert self._popup is not None
        index, popup = self._popup
        popup.handle(event)
        if popup.done:
            field = self.fields[index]
            if popup.chosen is not None and isinstance(field, PopupList):
                field.selected = popup.chosen
            self._popup = None

    def _scroll_pen(self, event: PenDown | PenMove | PenUp) -> None:
        bar = self._scroll
        if bar is None or not isinstance(event, PenDown):
            return
        bar.tap(event.y, ROW_HEIGHT * self.scale)
        self._offset = bar.top

    def _focusable(self) -> list[int]:
        return [i for i, f in enumerate(self.fields)
                if not isinstance(f, Label) and not (isinstance(f, CheckBox) and f.greyed)]

    def _key(self, key: Key) -> None:
        order: list[int | None] = [*self._focusable(), None]
        if key in (Key.UP, Key.DOWN):
            step = -1 if key is Key.UP else 1
            self.focus = order[(order.index(self.focus) + step) % len(order)]
            self._reveal_focus()
            return
        if self.focus is None:  # on the button row (Up/Down were handled above)
            chosen = self.row.key(key)
            if chosen is not None:
                self.close(self.row.result(chosen, self.values))
            return
        field = self.fields[self.focus]
        if key in (Key.LEFT, Key.RIGHT):
            step = -1 if key is Key.LEFT else 1
            if isinstance(field, PushButtons | PopupList):
                field.selected = (field.selected + step) % len(field.options)
            elif isinstance(field, CheckBox):
                field.checked = key is Key.RIGHT
        elif key is Key.SELECT:
            if isinstance(field, CheckBox):
                field.checked = not field.checked
            elif isinstance(field, PushButtons):
                field.selected = (field.selected + 1) % len(field.options)
            elif isinstance(field, PopupList):
                self._open_popup(self.focus)


def _same_word(word: str, label: str) -> bool:
    """"Sounds" repeats the label "Sound", "Board" the label "Board:"."""
    def stem(w: str) -> str:
        return w.rstrip(":").casefold().removesuffix("s")
    return stem(word) == stem(label)


def _check(field: Field) -> None:
    if isinstance(field, PushButtons | PopupList):
        if not field.options:
            raise ValueError(f"field {field.key!r} has no options")
        if not 0 <= field.selected < len(field.options):
            raise ValueError(f"field {field.key!r}: selected {field.selected} is out of range")
