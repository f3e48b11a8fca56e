"""The apps installed on the handheld, in launcher order (the launcher first).

Registering a game is one line in GAMES: its id, module and app class. A game
whose package is absent is simply not installed.
"""

from __future__ import annotations

import importlib

from palmish.device.app import App

# (id, module, class) of each game app, in launcher order.
GAMES: tuple[tuple[str, str, str], ...] = (
    ("ishido", "palmish.ishido.app", "IshidoApp"),
)

# What the four hard app buttons launch, as on a Palm: the games, then the launcher.
# A button whose app is not installed does nothing.
HARD_BUTTONS: tuple[str, ...] = ("ishido", "sigmar", "pachisi", "launcher")


def installed_apps() -> list[App]:
    """A fresh instance of every installed app."""
    from palmish.launcher import LauncherApp

    apps: list[App] = [LauncherApp()]
    apps.extend(_games())
    return apps


def _games() -> list[App]:
    games: list[App] = []
    for app_id, module_name, class_name in GAMES:
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError as exc:
            parts = module_name.split(".")
            if exc.name not in {".".join(parts[:i]) for i in range(1, len(parts) + 1)}:
                raise  # a real bug inside the app, not an app that is absent
            continue
        app = getattr(module, class_name)()
        if not isinstance(app, App) or app.id != app_id:
            raise TypeError(f"{module_name}.{class_name} is not an App with id {app_id!r}")
        games.append(app)
    return games
