"""The menus an app declares: the titles and items of its menu bar (docs/architecture.md).

Plain records, so that an app declares its menus and the menu bar draws them
without either importing the other.
"""

from __future__ import annotations

from palmish.device.frozen import Frozen


class MenuItem(Frozen):
    """One item of a menu: its label, the command it sends and its shortcut letter."""

    label: str
    command: str  # delivered back to the app as MenuCommand(command)
    shortcut: str = ""  # Palm's Graffiti command-stroke letter, shown at the right


class Menu(Frozen):
    """One menu of the menu bar: its title and items."""

    title: str
    items: tuple[MenuItem, ...] = ()
