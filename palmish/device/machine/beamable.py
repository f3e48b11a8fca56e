"""A game's beam items as the device and the network reach them (docs/network.md, "Beam").

The records that travel (BeamItem, Checked) are the device's plain data
(palmish.device.exchange); this is what a game's descriptor's `beam` target
offers: it checks, names, installs and opens its own items, in terms of the
running app and the device's storage.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from palmish.device.exchange import BeamItem, Checked

if TYPE_CHECKING:
    from pathlib import Path

    from palmish.device.disk.storage import Storage
    from palmish.device.machine.app import App


class Beamable(Protocol):
    """A game's beam items: the object its descriptor's `beam` target names."""

    def kinds(self) -> tuple[str, ...]:
        """The kinds of item this game sends and takes ("board", "level")."""

    def number_kinds(self) -> tuple[str, ...]:
        """Those of `kinds` that are numbers (a board, a deal); the rest carry data."""

    def current_item(self, app: App) -> BeamItem | None:
        """What the game's Beam menu item sends from the running game `app`: the
        board or deal being played (None when it has no number to send, or `app`
        is not the game's). The app knows it: `App.beam_item()`."""

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
        (the window; a headless receiver's `--accept` is its yes). The app does it:
        `App.open_beamed(item, ask)`; ValueError (one line) when `app` is not the
        game's."""
