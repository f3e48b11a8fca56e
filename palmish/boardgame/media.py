"""The plugins a game draws and sounds with, for the current display configuration.

`Media.load` asks the device for the Board, Pieces and Sound plugins chosen for
the configuration now shown (the device falls back to the bundled default and
says why when a choice cannot be used). `play(name)` plays a sound by the name
the game's schema gives it. `report` tells the user, in one notice, what the
game had to draw plainly because a plugin lacked it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Protocol

from palmish.device.machine.app import AppContext
from palmish.device.store.info import PluginInfo
from palmish.device.store.loaded import LoadedPlugin

KINDS = ("board", "pieces", "sound")


class PluginContext(Protocol):
    """The plugin side of the device's context (palmish.device.machine.context.DeviceContext)."""

    def plugins(self, kind: str | None = None, slot: str | None = None) -> list[PluginInfo]: ...

    def plugin(self, kind: str, slot: str | None = None) -> LoadedPlugin | None: ...

    def plugin_choice(self, kind: str, slot: str) -> str | None: ...

    def choose_plugin(self, kind: str, slot: str, name: str | None) -> None: ...

    def delete_plugin(self, info: PluginInfo) -> None: ...

    def plugin_file(self, info: PluginInfo) -> bytes: ...

    def notify(self, message: str) -> None: ...


class Media:
    def __init__(self, app_name: str, sound_ids: Mapping[str, int]) -> None:
        self.app_name = app_name
        self.sound_ids = dict(sound_ids)  # sound name -> 'wave' resource id
        self.enabled = True  # the player's Sound preference
        self._ctx: AppContext | None = None
        self._loaded: dict[str, LoadedPlugin | None] = dict.fromkeys(KINDS)
        self._reported: set[str] = set()  # a notice is given once, not at every relayout

    def load(self, ctx: AppContext | None) -> None:
        """Take the plugins chosen for the context's current configuration."""
        self._ctx = ctx
        self._loaded = {kind: ctx.plugin(kind) if ctx is not None else None for kind in KINDS}

    def plugin(self, kind: str) -> LoadedPlugin | None:
        """The loaded plugin of a kind ('board', 'pieces', 'sound'), None if there is none."""
        return self._loaded.get(kind)

    def play(self, name: str) -> None:
        """Play the named sound if sound is on and the Sound plugin has it."""
        sound = self._loaded.get("sound")
        if self._ctx is None or not self.enabled or sound is None:
            return
        sound_id = self.sound_ids.get(name)
        data = sound.sound(sound_id) if sound_id is not None else None
        if data:
            self._ctx.play_sound(data)

    def report(self, notes: Sequence[str]) -> None:
        """One notice for what the art lacked (the device shows a message once a session)."""
        if not notes or self._ctx is None:
            return
        shown = "; ".join(notes[:3]) + ("; ..." if len(notes) > 3 else "")
        message = f"{self.app_name}: {shown}; plain pictures are used instead"
        if message not in self._reported:
            self._reported.add(message)
            self._ctx.notify(message)
