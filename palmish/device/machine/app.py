"""The contract between the device and the apps that run on it.

An app is an object that handles events and draws into the framebuffer through
its `AppContext`. It never imports pyglet and never touches the disk directly:
preferences, saved state, plugins and sounds all go through the context.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol

from palmish.device.display import DisplayConfig
from palmish.device.events import Event
from palmish.device.geometry import Rect
from palmish.device.menus import Menu

if TYPE_CHECKING:
    from PIL import Image

    from palmish.device.beam.beaming import BeamService
    from palmish.device.exchange import BeamItem
    from palmish.device.graphics.screen import Framebuffer
    from palmish.device.machine.services import NetworkService
    from palmish.device.store.info import PluginInfo
    from palmish.device.store.loaded import LoadedPlugin
    from palmish.device.ui.modal import Modal
    from prc_tools import Database


class AppContext(Protocol):
    """What the device offers a running app."""

    @property
    def config(self) -> DisplayConfig: ...

    @property
    def bounds(self) -> Rect: ...

    @property
    def screen(self) -> Framebuffer:
        """The framebuffer (native size). Draw only inside `bounds`; drawing records damage."""
        ...

    def invalidate(self, rect: Rect | None = None) -> None:
        """Report a changed region (None: all of the app's bounds)."""

    def play_sound(self, wave: bytes) -> None:
        """Ask the frontend to play a RIFF WAVE (the bytes of a 'wave' resource)."""

    def set_timer(self, delay_ms: int) -> None:
        """Deliver a Tick to the app after `delay_ms` (replaces any pending timer)."""

    def open_modal(
        self, modal: Modal, on_close: Callable[[object], None] | None = None
    ) -> None:
        """Show a menu, alert, form or text viewer over the app; `on_close` gets its result."""

    def close_modal(self, modal: Modal) -> None:
        """Close a modal this app opened that no longer applies (a question about a game
        that another has replaced), without its result: `on_close` is not called."""

    def load_prefs(self) -> dict[str, object]: ...

    def save_prefs(self, prefs: dict[str, object]) -> None: ...

    def load_state(self) -> bytes | None: ...

    def save_state(self, data: bytes) -> None: ...

    def set_aside_state(self, problem: str) -> None:
        """The saved state cannot be used (damaged, or from a newer version): keep a copy.

        The state file is moved aside as NAME.corrupt-<time> with a one-line
        notice naming `problem`, so the next save_state cannot replace it.
        """

    @property
    def now_ms(self) -> int:
        """Device time in milliseconds (the clock Tick.now_ms uses)."""
        ...

    def cancel_timer(self) -> None:
        """Drop the pending timer, if any."""

    def notify(self, message: str) -> None:
        """Tell the user something short (an alert shown by the device, also logged)."""

    # Plugins of this app's creator (see palmish.device.store.plugins). `slot` is
    # 'square', 'tall' or 'wide' (DisplayConfig.plugin_slot); kind 'board',
    # 'pieces' or 'sound'.
    def plugins(self, kind: str | None = None, slot: str | None = None) -> list[PluginInfo]:
        """Bundled and installed plugins of a kind serving a slot (None: any)."""
        ...

    def plugin(self, kind: str, slot: str | None = None) -> LoadedPlugin | None:
        """The plugin in use (the user's choice, else the bundled default; the user is
        told when a choice could not be used). Slot default: the current config's."""
        ...

    def plugin_choice(self, kind: str, slot: str) -> str | None:
        """The plugin name the user chose for (kind, slot); None = the default."""
        ...

    def choose_plugin(self, kind: str, slot: str, name: str | None) -> None:
        """Remember the user's choice (None = back to the default); ValueError if unknown."""

    def delete_plugin(self, info: PluginInfo) -> None:
        """Delete an installed plugin from storage (ValueError for a bundled one)."""

    def plugin_file(self, info: PluginInfo) -> bytes:
        """The plugin's database as stored (Beam sends it); ValueError (one line)
        when it cannot be read."""
        ...

    # App data besides plugins (a game's levels, say).
    def bundled_databases(self, db_type: str) -> list[Database]:
        """This app's bundled data databases of a type (not plugins: no pINF)."""
        ...

    def user_files(self) -> list[tuple[str, bytes]]:
        """The files `palmish install` put in this app's files folder: (name, bytes)."""
        ...

    def remove_user_file(self, name: str) -> None:
        """Delete one file `user_files` listed; OSError when it cannot, ValueError for
        a name that is not a plain file name."""
        ...

    # What the command line offers beyond the device (palmish.device.machine.services).
    def network(self) -> NetworkService | None:
        """The window's network game service; None in tests, screenshots and scripts."""
        ...

    def beam(self) -> BeamService | None:
        """The window's Beam service; None in tests, screenshots and scripts."""
        ...

    # For system apps (the launcher).
    def apps(self) -> tuple[App, ...]:
        """Every installed app in launcher order."""
        ...

    def launch(self, name: str) -> None:
        """Switch to the named app once the current event has been handled."""


class Declaration(Protocol):
    """What an app's class can be declared from, so that its identity is written once:
    a game's descriptor (palmish.games.GameDescriptor) is one."""

    @property
    def id(self) -> str: ...

    @property
    def name(self) -> str: ...

    @property
    def creator(self) -> str: ...

    @property
    def icon_name(self) -> str: ...


class App:
    """Base class for apps. Subclasses set the class attributes, or declare them from a
    game's descriptor (`class LampsApp(BoardGameApp, descriptor=GAME)`), and override
    what they need."""

    id: str = "app"  # short lowercase id: `palmish --app ID`, the hard buttons
    name: str = "App"  # the app's full name (title bars, --app)
    icon_name: str = ""  # the launcher's label when `name` is too long for it (Palm's tAIN)
    creator: str = "????"  # four-character Palm creator code
    descriptor: Declaration | None = None  # what the class was declared from, if anything

    def __init_subclass__(cls, descriptor: Declaration | None = None, **kwargs: object) -> None:
        """Take the id, name, creator and launcher label from `descriptor` when given,
        as a python-chess variant declares itself on its class."""
        super().__init_subclass__(**kwargs)
        if descriptor is not None:
            cls.descriptor = descriptor
            cls.id, cls.name, cls.creator = descriptor.id, descriptor.name, descriptor.creator
            cls.icon_name = descriptor.icon_name

    def start(self, ctx: AppContext) -> None:
        """Called once when the app becomes the running app; draw the whole screen here."""

    def stop(self) -> None:
        """Called before another app runs: save what must survive."""

    def handle(self, event: Event) -> None:
        """Pen, keys, menu commands, ticks and display changes arrive here."""

    def menus(self) -> tuple[Menu, ...]:
        """The menu bar the device opens when the Menu button is pressed."""
        return ()

    def runs_behind_dialogs(self) -> bool:
        """True while the app's timer must not wait for this device's dialogs and
        menus (a network game: other devices play on); it then paints under them."""
        return False

    def commands(self) -> frozenset[str]:
        """The MenuCommand names the app understands: those of its menus by default."""
        return frozenset(item.command for menu in self.menus() for item in menu.items
                         if item.command)

    def icon(self) -> Image.Image | None:
        """The launcher icon (decoded from the app's 'tAIB' resource), if any."""
        return None

    # Beam, as a Palm app takes part in it (its game's Beamable, machine/beamable.py,
    # passes these on): the app knows its own game, so the beam needs no app class.
    def beam_item(self) -> BeamItem | None:
        """What the app's Beam menu item sends from the game being played (a board or
        deal by its number, a level by its contents); None when it has nothing to send."""
        return None

    def open_beamed(self, item: BeamItem, ask: bool) -> None:
        """Open an accepted number item (a board, a deal) in this running app; with
        `ask`, first ask whether a game in progress may be lost. ValueError (one line)
        for an item the app does not open."""
        raise ValueError(f"a {item.kind} does not open in {self.name}")
