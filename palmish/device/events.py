"""Palm-like events as plain data. Apps receive these; they never see pyglet.

Coordinates are native LCD pixels, origin top-left.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Iterable, Iterator
from typing import TypeVar

from palmish.device.display import DisplayConfig
from palmish.device.exchange import BeamItem, Checked
from palmish.device.geometry import Rect
from prc_tools.frozen import Frozen


class Key(str, enum.Enum):
    UP = "up"
    DOWN = "down"
    LEFT = "left"
    RIGHT = "right"
    SELECT = "select"
    APP1 = "app1"
    APP2 = "app2"
    APP3 = "app3"
    APP4 = "app4"
    MENU = "menu"
    HOME = "home"
    # Escape on the desktop: closes the topmost popup, menu or dialog as Cancel
    # would; with nothing open it is Home.
    CANCEL = "cancel"


class PenDown(Frozen):
    """The stylus touched the screen at (x, y), in LCD pixels."""

    x: int
    y: int


class PenMove(Frozen):
    """The stylus moved to (x, y) while down."""

    x: int
    y: int


class PenUp(Frozen):
    """The stylus was lifted at (x, y)."""

    x: int
    y: int


class KeyDown(Frozen):
    """A hard button (or its desktop key) was pressed."""

    key: Key


TYPED_MARKS = "-_.:[]"  # a name's or an address's marks besides letters and digits


class CharKey(Frozen):
    """A typed character (Graffiti on a Palm, the keyboard here): a letter, a digit,
    one of TYPED_MARKS, "\b" (backspace) or "\n" (enter). `command`: the Palm command
    stroke came first (Ctrl on the desktop), so a letter runs the menu item with that
    shortcut."""

    char: str
    command: bool = False


class MenuCommand(Frozen):
    """A menu item chosen; `command` is the item's id as the app declared it."""

    command: str


class DisplayChanged(Frozen):
    """The display configuration changed (a turn, the input area): lay out again."""

    config: DisplayConfig
    bounds: Rect  # the app's new bounds


class AppStart(Frozen):
    """The app became the running one."""


class AppStop(Frozen):
    """Another app is about to run."""


class Tick(Frozen):
    """A timer the app asked for has fired; `now_ms` is device time."""

    now_ms: int


class PluginsChanged(Frozen):
    """Installed plugins changed on disk (an install while the window runs, a preview's
    rebuild): the device rereads them and the app takes its chosen ones again."""


class Rotate(Frozen):
    """The status bar's rotate button (or a script) asks for a rotation."""


class ToggleInputArea(Frozen):
    """The status bar's input-area button (or a script) opens/closes the input area."""


class NetworkLine(Frozen):
    """One line received from network peer `peer` (docs/network.md), as it came:
    the app that plays over the network validates it. Goes to the running app
    even while a dialog is open (one device's menus never pause the others)."""

    peer: int
    text: str


class NetworkClosed(Frozen):
    """The link to network peer `peer` closed or was dropped (`reason`: one line)."""

    peer: int
    reason: str = ""


class BeamOffered(Frozen):
    """Receiving: `item` from the handheld `sender` passed every check; the person is
    asked (docs/network.md, "Beam") and the answer goes to the receiver's `answer`."""

    ticket: int
    sender: str  # as received (validated, no control characters): show through printable
    item: BeamItem
    checked: Checked
    size: int  # bytes received (0 for a number item)
    note: str = ""  # about the sender's key: "new here, key 5F0C-...", "paired as Den"


class BeamProgress(Frozen):
    """`done` of `total` bytes of beam `ticket` have crossed (`sending`: this device sends);
    `step`, when not empty, the beam's next step in words ("asking its person"),
    which a beam of nothing to count (a board, a deal: 0 bytes) shows instead of a bar."""

    ticket: int
    sending: bool
    done: int
    total: int
    step: str = ""


class BeamDone(Frozen):
    """Beam `ticket` is over: `ok` (accepted and installed or opened) or not; `text` is
    one line for the person ("declined by Kitchen", "busy", "too large: 5 MB, at most 1 MB")."""

    ticket: int
    sending: bool
    ok: bool
    text: str
    why: str = ""  # sending: the sender's status (accepted, refused, code, busy, failed)
    note: str = ""  # sending: about the receiver's key (paired now, with its fingerprint)
    peer: str = ""  # the other handheld's name once it said it (the receiver, or the sender)


class NetworkNews(Frozen):
    """The window's network service learnt something to show (docs/network.md,
    "Across the internet"): an internet code, how a joiner is connected, trouble
    with the rendezvous. `beam`: about Beam Receive (the device says `text` in a
    line); else about the network game (its app asks the service again)."""

    text: str = ""
    beam: bool = False


Event = (
    PenDown | PenMove | PenUp | KeyDown | CharKey | MenuCommand | DisplayChanged | AppStart
    | AppStop | Tick | Rotate | ToggleInputArea | NetworkLine | NetworkClosed
    | BeamOffered | BeamProgress | BeamDone | PluginsChanged | NetworkNews
)


_Item = TypeVar("_Item")


def coalesce_moves(events: Iterable[_Item]) -> Iterator[_Item]:
    """`events` with each run of consecutive pen moves cut to its last move.

    A Palm's pen queue keeps only the latest point between two reads, and the
    device has no queue of its own: whoever hands it a burst (a script between
    two waits; the window keeps the latest move per frame) passes it through
    here, so a drag of a thousand points repaints once, at the point where the
    pen is. Anything that is not a PenMove ends a run and is kept, so the
    stroke's down and up still arrive in order.
    """
    held: _Item | None = None
    for event in events:
        if isinstance(event, PenMove):
            held = event  # replaces a move nobody has seen yet
            continue
        if held is not None:
            yield held
            held = None
        yield event
    if held is not None:
        yield held


def coalesce_toggles(events: Iterable[_Item],
                     event_of: Callable[[_Item], object] = lambda item: item) -> Iterator[_Item]:
    """`events` with each run of consecutive equal display toggles cut to its parity.

    A rotation turns the device to Wide and the next one back to the configuration
    it left, and an input-area toggle turns Square into Tall and the next one back
    (in Wide both do nothing), so two of one kind in a row, with nothing between
    them (no wait, no pen, no key), leave the device as it was; nothing is drawn
    between them either, in a script. A script of a hundred thousand `rotate` (or
    `input-area`) lines so costs one change at most (each costs the game a new
    layout, its plugins and a repaint, some 5 ms). A rotation and a toggle do not
    cancel each other. `event_of` finds the event in an item (a script's numbered
    steps).
    """
    held: _Item | None = None
    for event in events:
        if isinstance(event_of(event), (Rotate, ToggleInputArea)):
            if held is not None and type(event_of(held)) is type(event_of(event)):
                held = None
                continue
            if held is not None:
                yield held
            held = event
            continue
        if held is not None:
            yield held
            held = None
        yield event
    if held is not None:
        yield held
