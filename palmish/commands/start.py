"""`palmish` without a command word: its options, and the device they describe,
which the window (window.py) or a screenshot (screenshot.py) then runs.

The options given before a command word are read by the commands too (gremlins'
--config and --app, join's window options, every --data-dir).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from palmish.apps import hard_buttons, installed_apps
from palmish.commands import game_options
from palmish.commands.args import (
    DEFAULT_DATA_DIR,
    EXIT_USAGE,
    add_data_dir,
    display_config,
    listen_port,
    positive,
)
from palmish.commands.output import fail
from palmish.device.addresses import BEAM_PORT, GAME_PORT
from palmish.device.display import ConfigName, DisplayConfig, config_by_name
from palmish.device.machine.app import App
from palmish.device.machine.system import (
    LAUNCHER_CREATOR,
    NO_SERVICES,
    Device,
    Services,
    app_list,
    find_app,
)
from palmish.games import TakesOptions, games


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options before any command word."""
    first = next(iter(games()), None)
    configs = ", ".join(c.value for c in ConfigName)
    parser.add_argument(
        "--device", metavar="NAME", help="device skin (default: classic for square-low, else t3)"
    )
    parser.add_argument(
        "--config", type=display_config, metavar="C", help=f"display configuration: {configs}"
    )
    parser.add_argument("--zoom", type=positive, default=1, metavar="N", help="window scale")
    parser.add_argument(
        "--app", metavar="APP",
        help="the app to start, by id or name in any case (default: the first game,"
             f" {first.id if first else 'none installed'})",
    )
    game_options.add_arguments(parser)
    add_data_dir(parser, dest="data_dir",
                 help=f"the device's storage folder (default: {DEFAULT_DATA_DIR})")
    parser.add_argument(
        "--screenshot", type=Path, metavar="OUT.png", help="no window: write the screen as a PNG"
    )
    parser.add_argument(
        "--events", type=Path, metavar="FILE", help="with --screenshot: events to feed first"
    )
    _add_network_options(parser)


def _add_network_options(parser: argparse.ArgumentParser) -> None:
    """Where a window's Game > Network Game... > Host listens (docs/network.md)."""
    parser.add_argument(
        "--network-listen", "--listen", metavar="ADDRESS", dest="network_listen",
        help="the window hosts network games and receives beams on this address (default:"
             " every interface; Beam on a loopback address such as 127.0.0.1 is neither"
             " announced nor browsed)")
    parser.add_argument(
        "--network-port", type=listen_port, metavar="N",
        help=f"network games on this port (default {GAME_PORT}, or a free one; 0: a free one)")
    parser.add_argument(
        "--beam-port", type=listen_port, metavar="N",
        help=f"Beam Receive on this port (default {BEAM_PORT}, or a free one; 0: a free one)")
    parser.add_argument(
        "--no-discovery", action="store_true",
        help="the window neither announces its games or Beam Receive nor looks for others"
             " (no multicast); join and beam by address")


def unknown_app(apps: list[App], name: str | None) -> int | None:
    """Exit 2 with one line listing the apps when `--app` names none of them."""
    if name is None or find_app(apps, name) is not None:
        return None
    print(f"palmish: no app named {name!r} (installed: {app_list(apps)})", file=sys.stderr)
    return EXIT_USAGE


def _default_start_app(apps: list[App]) -> str | None:
    """The first game when one is installed, else the launcher."""
    found = [a for a in apps if a.creator != LAUNCHER_CREATOR]
    return found[0].name if found else None


def _config(args: argparse.Namespace) -> DisplayConfig:
    given: DisplayConfig | None = args.config
    if given is not None:
        return given
    return config_by_name("square-low" if args.device == "classic" else "square")


def device(args: argparse.Namespace, data_dir: Path, durable: bool,
           services: Services = NO_SERVICES) -> Device | int:
    """The device the options describe, started on the app they name (or the first
    game), that app having taken the games' options, offering its apps `services`;
    else the exit status, its problem said in one line."""
    apps = installed_apps()
    unknown = unknown_app(apps, args.app)
    if unknown is not None:
        return unknown
    start = args.app if args.app is not None else _default_start_app(apps)
    given = game_options.given(args)
    taker: TakesOptions | None = None
    if given:
        found = game_options.hand_over(apps, args.app, given)
        if isinstance(found, str):
            return fail(found)
        start, taker = found
    try:
        made = Device(_config(args), data_dir, apps, start, durable=durable, exclusive=True,
                      buttons=hard_buttons(), services=services)
    except ValueError as exc:
        return fail(str(exc))
    # The app the options went to says, once started, whether it could honour them.
    option_problem = taker.option_problem() if taker is not None else None
    if option_problem:
        made.shutdown()
        return fail(option_problem)
    return made
