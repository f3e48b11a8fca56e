"""The apps installed on the handheld, in launcher order (the launcher first).

Registering a game is one line in GAMES: its id, name, creator code, launcher
label, module and app class. A game whose package is absent is simply not
installed.

A game's module is imported the first time the game is used (started, its
menus or icon asked for), not when the apps are listed: a start that shows
PalmIshido does not pay for importing the other games. Until then the game is
a LazyApp that knows only what GAMES says (enough for `--app`, the hard
buttons and messages); once imported, the class must agree with its entry.
"""

from __future__ import annotations

import importlib
import sys
from importlib.machinery import PathFinder
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from palmish.device.app import App
from palmish.device.storage import Storage

if TYPE_CHECKING:
    from PIL import Image

    from palmish.device.app import AppContext, Menu
    from palmish.device.events import Event


class Game(NamedTuple):
    """One game app, as the device lists it before importing it."""

    id: str
    name: str
    creator: str
    icon_name: str  # the launcher's label when `name` is too long ("" = the name)
    module: str
    class_name: str


# The game apps, in launcher order.
GAMES: tuple[Game, ...] = (
    Game("ishido", "PalmIshido", "PIsh", "", "palmish.ishido.app", "IshidoApp"),
    Game("sigmar", "Sigmar's Garden", "PSgm", "Sigmar", "palmish.sigmar.app", "SigmarApp"),
    Game("pachisi", "Pachisi", "PPch", "", "palmish.pachisi.app", "PachisiApp"),
)

# What the four hard app buttons launch, as on a Palm: the games, then the launcher.
# A button whose app is not installed does nothing.
HARD_BUTTONS: tuple[str, ...] = ("ishido", "sigmar", "pachisi", "launcher")


# Games that install files of their own with `palmish install FILE` (Sigmar's levels):
# (creator, module, function(file, the app's files folder, durable) -> line | None).
INSTALLERS: tuple[tuple[str, str, str], ...] = (
    ("PSgm", "palmish.sigmar.install", "install"),
)


def install_game_file(path: Path, storage: Storage) -> str | None:
    """Let the games install a file of theirs: the line to print, or None when no game
    takes it (then it is a plugin). ValueError (one line) for a bad file of theirs."""
    for creator, module_name, function in INSTALLERS:
        module = _module(module_name)
        if module is None:
            continue
        done = getattr(module, function)(path, storage.files_dir(creator), storage.durable)
        if done is not None:
            return str(done)
    return None


def _module(module_name: str) -> object | None:
    """The module, or None when its package is not installed."""
    try:
        return importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        parts = module_name.split(".")
        if exc.name not in {".".join(parts[:i]) for i in range(1, len(parts) + 1)}:
            raise  # a real bug inside the app, not an app that is absent
        return None


def installed_apps() -> list[App]:
    """A fresh instance of every installed app (the games not imported yet: LazyApp)."""
    from palmish.launcher import LauncherApp

    apps: list[App] = [LauncherApp()]
    apps.extend(LazyApp(game) for game in GAMES if _present(game.module))
    return apps


def _present(module_name: str) -> bool:
    """Whether the game's package is installed, found without importing it
    (importlib.util.find_spec would do, but costs ~2 ms to import)."""
    package = module_name.rpartition(".")[0]
    parent = sys.modules.get(package.rpartition(".")[0])
    where = getattr(parent, "__path__", None)
    return where is not None and PathFinder.find_spec(package, where) is not None


class LazyApp(App):
    """A game app known by its GAMES entry, imported and made the first time it is used.

    The App methods are passed on; any other attribute (a game's own, such as
    `request_board` or `view`) is looked up on the imported app.
    """

    def __init__(self, game: Game) -> None:
        self.id = game.id
        self.name = game.name
        self.creator = game.creator
        self.icon_name = game.icon_name
        self._entry = game
        self._app: App | None = None

    @property
    def imported(self) -> App | None:
        """The real app if it was made already, else None (nothing is imported)."""
        return self._app

    def app(self) -> App:
        """The real app, importing its module the first time."""
        if self._app is None:
            game = self._entry
            module = importlib.import_module(game.module)
            app = getattr(module, game.class_name)()
            found = (app.id, app.name, app.creator, app.icon_name) if isinstance(app, App) else None
            if found != (game.id, game.name, game.creator, game.icon_name):
                raise TypeError(f"{game.module}.{game.class_name} is not the App its GAMES"
                                f" entry lists (id, name, creator, icon_name {found})")
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

    def __getattr__(self, name: str) -> object:
        # Only reached for attributes the proxy lacks: the game's own.
        if name.startswith("__") or name in ("_entry", "_app"):
            raise AttributeError(name)
        return getattr(self.app(), name)

    def __repr__(self) -> str:
        state = "imported" if self._app is not None else "not imported yet"
        return f"<LazyApp {self.id} ({state})>"
