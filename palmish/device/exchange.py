"""What can be beamed (docs/network.md, "Beam"), as the device and the games see it.

A Palm's Exchange Manager belonged to the OS: any app could hand it a
record to send and take one that arrived. Here the device holds only the
records. A game says what it beams through its descriptor's `beam` target
(palmish.games): a `Beamable` (palmish.device.machine.beamable) that checks,
names, installs and opens its own items. The network (palmish/network/beam/)
moves the bytes and never knows a game; the games never import the network.
"""

from __future__ import annotations

from palmish.device.frozen import Frozen

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
