"""The apps installed on the handheld, in launcher order (the launcher first).

The games are those of the registry (palmish.games): one descriptor each,
declared beside the game. A game's module is imported the first time the game
is used (started, its menus or icon asked for), not when the apps are listed:
a start that shows one game does not pay for importing the others.
Until then the game is a LazyApp that knows only what its descriptor says
(enough for `--app`, the hard buttons and messages); once imported, the class
must agree with its descriptor.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from palmish.device.disk.storage import Storage
from palmish.device.machine.app import App
from palmish.games import HARD_BUTTON_COUNT, GameDescriptor, TakesOptions, games, load

if TYPE_CHECKING:
    from PIL import Image

    from palmish.device.events import Event
    from palmish.device.exchange import BeamItem
    from palmish.device.machine.app import AppContext
    from palmish.device.menus import Menu

LAUNCHER_ID = "launcher"


def hard_buttons() -> tuple[str, ...]:
    """What the four hard app buttons launch, as on a Palm: the games that claim
    buttons 1 to 3, then the launcher. A button no game claims ("") does nothing."""
    by_button = {g.hard_button: g.id for g in games() if g.hard_button is not None}
    return (*(by_button.get(n, "") for n in range(1, HARD_BUTTON_COUNT + 1)), LAUNCHER_ID)


def install_game_file(path: Path, storage: Storage) -> str | None:
    """Let the games install a file of theirs: the line to print, or None when no game
    takes it (then it is a plugin). ValueError (one line) for a bad file of theirs.

    A game's installer is `function(file, the app's files folder, durable) -> line | None`.
    """
    for game in games():
        if game.installer is None:
            continue
        install = load(game.installer)
        if not callable(install):
            raise TypeError(f"{game.id}: installer {game.installer} is not a function")
        done = install(path, storage.files_dir(game.creator), storage.durable)
        if done is not None:
            return str(done)
    return None


def installed_apps() -> list[App]:
    """A fresh instance of every installed app (the games not imported yet: LazyApp)."""
    from palmish.launcher import LauncherApp

    apps: list[App] = [LauncherApp()]
    apps.extend(LazyApp(game) for game in games())
    return apps


def real_app(app: App) -> App:
    """The app itself: a LazyApp's game, imported now if it was not yet."""
    return app.app() if isinstance(app, LazyApp) else app


class LazyApp(App):
    """A game app known by its descriptor, imported and made the first time it is used.

    The App methods are passed on; any other attribute (a game's own, such as
    `layout` or `view`) is looked up on the imported app.
    """

    descriptor: GameDescriptor  # never None: a LazyApp is made from its game's descriptor

    def __init__(self, game: GameDescriptor) -> None:
        self.id = game.id
        self.name = game.name
        self.creator = game.creator
        self.icon_name = game.icon_name
        self.descriptor = game
        self._app: App | None = None

    @property
    def imported(self) -> App | None:
        """The real app if it was made already, else None (nothing is imported)."""
        return self._app

    def app(self) -> App:
        """The real app, importing its module the first time."""
        if self._app is None:
            game = self.descriptor
            made = load(game.app)
            app = made() if isinstance(made, type) else None
            found = (app.id, app.name, app.creator, app.icon_name) if isinstance(app, App) else None
            if not isinstance(app, App) or found != (game.id, game.name, game.creator,
                                                      game.icon_name):
                raise TypeError(f"{game.app} is not the App its descriptor lists"
                                f" (id, name, creator, icon_name {found})")
            if game.options and not isinstance(app, TakesOptions):
                raise TypeError(f"{game.app} does not take the options its descriptor lists")
            self._app = app
        return self._app

    def start(self, ctx: AppContext) -> None:
        self.app().start(ctx)

    def stop(self) -> None:
        if self._app is not None:  # never started: nothing to save
            self._app.stop()

    def handle(self, event: Event) -> None:
        self.app().handle(event)

    def menus(self) -> tuple[Menu, ...]:
        return self.app().menus()

    def commands(self) -> frozenset[str]:
        return self.app().commands()

    def icon(self) -> Image.Image | None:
        return self.app().icon()

    def beam_item(self) -> BeamItem | None:
        return self.app().beam_item()

    def open_beamed(self, item: BeamItem, ask: bool) -> None:
        self.app().open_beamed(item, ask)

    def runs_behind_dialogs(self) -> bool:
        # App's own answer (False) would hide the game's: a network game's Silicon
        # and waits went still under every menu in the window.
        return self._app is not None and self._app.runs_behind_dialogs()

    def __getattr__(self, name: str) -> object:
        # Only reached for attributes the proxy lacks: the game's own.
        if name.startswith("__") or name in ("descriptor", "_app"):
            raise AttributeError(name)
        return getattr(self.app(), name)

    def __repr__(self) -> str:
        state = "imported" if self._app is not None else "not imported yet"
        return f"<LazyApp {self.id} ({state})>"
