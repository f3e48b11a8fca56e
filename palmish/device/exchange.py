"""What can be beamed (docs/network.md, "Beam"), as the device and the games see it.

A Palm's Exchange Manager belonged to the OS: any app could hand it a
record to send and take one that arrived. Here the device holds only the
types. A game says what it beams through its descriptor's `beam` target
(palmish.games): a `Beamable` that checks, names, installs and opens its own
items. The network (palmish/network/beam/) moves the bytes and never knows a
game; the games never import the network.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from palmish.device.frozen import Frozen

if TYPE_CHECKING:
    from pathlib import Path

    from palmish.device.app import App
    from palmish.device.storage import Storage

PLUGIN = "plugin"  # the kind no game declares: a plugin database, checked as `palmish install` does
MAX_ITEM_BYTES = 1 << 20  # 1 MiB: an item's content at most


class BeamItem(Frozen):
    """One thing to beam, as it travels.

    A *number item* (a Sigmar board, a PalmIshido deal) has a `number` and no
    data; a *file item* (a plugin, a Sigmar level) has `data`, and a level its
    `name` (the level id: `7`, `spiral`).
    """

    kind: str  # PLUGIN, or a kind its game's Beamable declares: "board", "deal", "level"
    app: str = ""  # the game's id; "" for a plugin (its database says which game)
    name: str = ""
    number: int | None = None
    data: bytes = b""


class Checked(Frozen):
    """What the receiver learned of an item by checking it (never the sender's word)."""

    title: str  # "Jade Board", "Board 1234", "Level 7 'Spiral'" (unescaped: show via printable)
    what: str  # "Board plugin for PalmIshido", "Sigmar's Garden board"


class Beamable(Protocol):
    """A game's beam items: the object its descriptor's `beam` target names."""

    def kinds(self) -> tuple[str, ...]:
        """The kinds of item this game sends and takes ("board", "level")."""

    def number_kinds(self) -> tuple[str, ...]:
        """Those of `kinds` that are numbers (a board, a deal); the rest carry data."""

    def current_item(self, app: App) -> BeamItem | None:
        """What the game's Beam menu item sends from the running game `app`: the
        board or deal being played (None when it has no number to send)."""

    def item_from_file(self, path: Path) -> BeamItem | None:
        """The file as an item of this game's (a `.dat` level), None when it is not one
        of its files; ValueError (one line) for a file of its kind that cannot be read."""

    def check_database(self, data: bytes) -> Checked | None:
        """A received plugin-kind item that is a database of this game's own, which
        `palmish install` gives to the game's installer (Sigmar's Levels), checked;
        None when it is not one. ValueError (one line) for a bad one."""

    def check(self, item: BeamItem) -> Checked:
        """Check a received item fully in memory; ValueError (one line) if it is bad."""

    def install(self, item: BeamItem, storage: Storage) -> str:
        """Install an accepted file item as `palmish install` does; the line it printed.
        ValueError (one line) when it cannot."""

    def open(self, app: App, item: BeamItem, ask: bool) -> None:
        """Open an accepted number item in the running game `app` (the game's own
        App, started); with `ask`, first ask whether a game in progress may be lost
        (the window; a headless receiver's `--accept` is its yes)."""
