"""The apps installed on the handheld, in launcher order (the launcher first).

Registering a game is one line in GAMES: its id, module and app class. A game
whose package is absent is simply not installed.
"""

from __future__ import annotations

import importlib
from pathlib import Path

from palmish.device.app import App
from palmish.device.storage import Storage

# (id, module, class) of each game app, in launcher order.
GAMES: tuple[tuple[str, str, str], ...] = (
    ("ishido", "palmish.ishido.app", "IshidoApp"),
    ("sigmar", "palmish.sigmar.app", "SigmarApp"),
    ("pachisi", "palmish.pachisi.app", "PachisiApp"),
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
    """A fresh instance of every installed app."""
    from palmish.launcher import LauncherApp

    apps: list[App] = [LauncherApp()]
    apps.extend(_games())
    return apps


def _games() -> list[App]:
    games: list[App] = []
    for app_id, module_name, class_name in GAMES:
        module = _module(module_name)
        if module is None:
            continue
        app = getattr(module, class_name)()
        if not isinstance(app, App) or app.id != app_id:
            raise TypeError(f"{module_name}.{class_name} is not an App with id {app_id!r}")
        games.append(app)
    return games
