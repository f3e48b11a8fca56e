"""The apps installed on the handheld, in launcher order (the launcher first)."""

from __future__ import annotations

import importlib

from palmish.device.app import App

# (module, class) of each game app, in launcher order.
GAMES: tuple[tuple[str, str], ...] = (("palmish.ishido.app", "IshidoApp"),)


def installed_apps() -> list[App]:
    """A fresh instance of every installed app."""
    from palmish.launcher import LauncherApp

    apps: list[App] = [LauncherApp()]
    apps.extend(_games())
    return apps


def _games() -> list[App]:
    games: list[App] = []
    for module_name, class_name in GAMES:
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError as exc:
            if exc.name != module_name:
                raise  # a real bug inside the app, not an app that is absent
            continue
        app = getattr(module, class_name)()
        if not isinstance(app, App):
            raise TypeError(f"{module_name}.{class_name} is not an App")
        games.append(app)
    return games
