"""The games' own options of the window and screenshot modes (`palmish --board 7`):
declared by each game's descriptor (palmish.games.GameOption), handed to the
app that takes them (palmish.games.TakesOptions) before the device starts it."""

from __future__ import annotations

import argparse

from palmish.apps import LazyApp, real_app
from palmish.device.machine.app import App
from palmish.device.machine.system import find_app
from palmish.games import GameOption, RegistryError, TakesOptions, games


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options the games' descriptors declare; one a flag several games share."""
    declared: dict[str, list[tuple[str, GameOption]]] = {}
    for game in games():
        for option in game.options:
            declared.setdefault(option.flag, []).append((game.name, option))
    for flag, users in declared.items():
        try:
            parser.add_argument(
                flag, metavar=users[0][1].metavar, dest=_dest(flag),
                help="; ".join(f"{name}: {option.help}" for name, option in users),
            )
        except argparse.ArgumentError:
            names = ", ".join(name for name, _ in users)
            raise RegistryError(f"{names}: the option {flag} is one of palmish's own") from None


def _dest(flag: str) -> str:
    return "game_option_" + flag[2:].replace("-", "_")


def given(args: argparse.Namespace) -> list[tuple[str, str]]:
    """The games' options on the command line: (flag, value)."""
    flags = dict.fromkeys(o.flag for g in games() for o in g.options)
    return [(flag, value) for flag in flags
            if (value := vars(args).get(_dest(flag))) is not None]


def hand_over(apps: list[App], name: str | None,
              options: list[tuple[str, str]]) -> tuple[str, TakesOptions] | str:
    """The app the games' options go to (the named one, else the first game that
    declares them) having taken them, or a one-line problem. The app checks the
    values now and acts on them when it starts."""
    installed = [a for a in apps if isinstance(a, LazyApp)]
    flags = [flag for flag, _ in options]
    if name is not None:
        app = find_app(apps, name)
        chosen = [app] if isinstance(app, LazyApp) else []
    else:
        chosen = [g for g in installed
                  if set(flags) <= {o.flag for o in g.descriptor.options}][:1]
        if not chosen:
            return f"{' and '.join(flags)} are options of different games"
    declared = {o.flag for o in chosen[0].descriptor.options} if chosen else set()
    for flag in flags:
        if flag not in declared:
            takers = ", ".join(g.name for g in installed
                               if flag in {o.flag for o in g.descriptor.options})
            only = f" (only {takers} has)" if takers else ""
            return f"{flag}: {name} has no {flag}{only}"
    taker = real_app(chosen[0])
    if not isinstance(taker, TakesOptions):  # LazyApp checked this when importing it
        return f"{chosen[0].name} takes no options"
    for flag, value in options:
        try:
            taker.accept_option(flag, value)
        except ValueError as exc:
            return f"{flag}: {exc}"
    return chosen[0].id, taker
