"""The AppContext a running app talks to: screen, timers, sounds, modals, storage, plugins.

One context per run of an app; when the app is stopped its context goes
inactive, so a stale reference can no longer set timers or open dialogs. The
context knows the device it serves only as a `Handheld`: the few members of
`Device` (machine/system.py) it forwards to, so this module sits below it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from palmish.device.display import DisplayConfig
from palmish.device.geometry import Rect
from palmish.device.store.info import PluginInfo
from palmish.device.store.loaded import LoadedPlugin
from prc_tools import Database

MAX_USER_FILE = 1 << 20  # an installed app file bigger than this is not read

if TYPE_CHECKING:
    from palmish.device.beam.beaming import BeamService
    from palmish.device.disk.storage import Storage
    from palmish.device.graphics.screen import Framebuffer
    from palmish.device.machine.app import App
    from palmish.device.machine.services import NetworkService
    from palmish.device.store.plugins import PluginRegistry
    from palmish.device.ui.modal import Modal


class Handheld(Protocol):
    """What a context uses of the device it serves (machine/system.py's `Device`)."""

    @property
    def config(self) -> DisplayConfig: ...

    @property
    def screen(self) -> Framebuffer: ...

    @property
    def now_ms(self) -> int: ...

    @property
    def storage(self) -> Storage: ...

    @property
    def plugins(self) -> PluginRegistry: ...

    @property
    def apps(self) -> Sequence[App]: ...

    def set_timer(self, delay_ms: int | None) -> None: ...

    def queue_sound(self, wave: bytes) -> None: ...

    def open_modal(self, modal: Modal, on_close: Callable[[object], None] | None = None,
                   ) -> None: ...

    def close_modal(self, modal: Modal) -> None: ...

    def notify(self, message: str) -> None: ...

    def network(self) -> NetworkService | None: ...

    def beam_service(self) -> BeamService | None: ...

    def request_switch(self, name: str) -> None: ...


class DeviceContext:
    """The device's side of the AppContext protocol, bound to one app."""

    def __init__(self, device: Handheld, app: App) -> None:
        self._device = device
        self._app = app
        self.active = True

    # ---------------------------------------------------------------- display

    @property
    def config(self) -> DisplayConfig:
        return self._device.config

    @property
    def bounds(self) -> Rect:
        return self._device.config.app_bounds

    @property
    def screen(self) -> Framebuffer:
        return self._device.screen

    def invalidate(self, rect: Rect | None = None) -> None:
        self._device.screen.damage(rect if rect is not None else self.bounds)

    # ------------------------------------------------- time, sound, dialogs

    @property
    def now_ms(self) -> int:
        """Device time in milliseconds (what Tick.now_ms counts)."""
        return self._device.now_ms

    def set_timer(self, delay_ms: int) -> None:
        if self.active:
            self._device.set_timer(max(0, int(delay_ms)))

    def cancel_timer(self) -> None:
        if self.active:
            self._device.set_timer(None)

    def play_sound(self, wave: bytes) -> None:
        if self.active and wave:
            self._device.queue_sound(bytes(wave))

    def open_modal(
        self, modal: Modal, on_close: Callable[[object], None] | None = None
    ) -> None:
        if self.active:
            self._device.open_modal(modal, on_close)

    def close_modal(self, modal: Modal) -> None:
        if self.active:
            self._device.close_modal(modal)

    def notify(self, message: str) -> None:
        """Tell the user something in one line (shown in an alert, also logged)."""
        self._device.notify(message)

    # ------------------------------------------------------------- storage

    def load_prefs(self) -> dict[str, object]:
        return self._device.storage.load_prefs(self._app.creator)

    def save_prefs(self, prefs: dict[str, object]) -> None:
        self._device.storage.save_prefs(self._app.creator, prefs)

    def load_state(self) -> bytes | None:
        return self._device.storage.load_state(self._app.creator)

    def set_aside_state(self, problem: str) -> None:
        self._device.storage.set_aside_state(self._app.creator, problem)

    def save_state(self, data: bytes) -> None:
        self._device.storage.save_state(self._app.creator, data)

    # ------------------------------------------------------------- plugins

    def plugins(self, kind: str | None = None, slot: str | None = None) -> list[PluginInfo]:
        """The plugins for this app's creator (bundled and installed), by kind and slot.

        Storage is rescanned, so a plugin installed while the device runs shows up.
        """
        self._device.plugins.refresh(bundled=False)
        return self._device.plugins.find(self._app.creator, kind, slot)

    def plugin(self, kind: str, slot: str | None = None) -> LoadedPlugin | None:
        """The plugin in use for `kind` in `slot` (default: the current configuration's).

        The user's choice if it is usable, else the bundled default (the user is
        told why); None only when no plugin of that kind exists at all.
        """
        slot = slot or self.config.plugin_slot
        return self._device.plugins.chosen(self._app.creator, kind, slot)

    def plugin_choice(self, kind: str, slot: str) -> str | None:
        """The name the user chose for (kind, slot), None for the default."""
        return self._device.plugins.choice(self._app.creator, kind, slot)

    def choose_plugin(self, kind: str, slot: str, name: str | None) -> None:
        """Remember the user's plugin for (kind, slot); None returns to the default."""
        self._device.plugins.choose(self._app.creator, kind, slot, name)

    def delete_plugin(self, info: PluginInfo) -> None:
        """Remove an installed plugin (the Plugin Manager's Delete)."""
        self._device.plugins.delete(info)

    def plugin_file(self, info: PluginInfo) -> bytes:
        """The plugin's database as stored (the Plugin Manager's Beam sends it);
        ValueError (one line) when it cannot be read."""
        try:
            return self._device.plugins.database_bytes(info)  # PrcError is a ValueError
        except OSError as exc:
            raise ValueError(f"cannot read {info.path.name}: {exc.strerror or exc}") from None

    # ------------------------------------------------------------ app data

    def bundled_databases(self, db_type: str) -> list[Database]:
        """This app's bundled data databases of a type (Sigmar's Levels database)."""
        return self._device.plugins.bundled_data(self._app.creator, db_type)

    def user_files(self) -> list[tuple[str, bytes]]:
        """The files installed for this app (`palmish install`), by name: (name, bytes).

        Only regular files up to MAX_USER_FILE bytes; anything else is skipped.
        """
        folder = self._device.storage.files_dir(self._app.creator)
        if not folder.is_dir():
            return []
        found = []
        for path in sorted(folder.iterdir()):
            try:
                if path.is_file() and path.stat().st_size <= MAX_USER_FILE:
                    found.append((path.name, path.read_bytes()))
            except OSError:
                continue  # unreadable: as if absent
        return found

    def remove_user_file(self, name: str) -> None:
        """Delete one file `user_files` listed (Sigmar's Levels... > Remove); OSError
        when it cannot, ValueError for a name that is not a plain file name."""
        folder = self._device.storage.files_dir(self._app.creator)
        if name in ("", ".", "..") or Path(name).name != name:
            raise ValueError(f"{name!r} is not an installed file's name")
        (folder / name).unlink()

    # ------------------------------------------------------ the command line's

    def network(self) -> NetworkService | None:
        return self._device.network()

    def beam(self) -> BeamService | None:
        return self._device.beam_service()

    # ------------------------------------------------------ system (launcher)

    def apps(self) -> tuple[App, ...]:
        """Every installed app, in launcher order."""
        return tuple(self._device.apps)

    def launch(self, name: str) -> None:
        """Switch to another app once the current event is handled."""
        if self.active:
            self._device.request_switch(name)
