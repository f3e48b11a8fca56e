"""`palmish gremlins --events N --seed S [--config C] [--app APP] [--data-dir DIR]`:
random pen taps, keys, menus and turns, checking the device after each
(palmish/device/scripting/gremlins.py); the same seed gives the same run."""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

from palmish.apps import hard_buttons, installed_apps
from palmish.commands.args import EXIT_FAILED, EXIT_OK, display_config, positive, seed
from palmish.commands.output import fail
from palmish.commands.start import unknown_app
from palmish.device.disk.storage import usable_dir
from palmish.device.display import config_by_name
from palmish.device.machine.system import Device
from palmish.device.scripting.gremlins import run_gremlins


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--events", type=positive, required=True, metavar="N", dest="count")
    parser.add_argument("--seed", type=seed, required=True, metavar="S")
    parser.add_argument("--config", type=display_config, metavar="C", dest="gremlins_config")
    parser.add_argument("--app", metavar="APP", dest="gremlins_app")
    parser.add_argument(
        "--data-dir", type=Path, metavar="DIR", dest="gremlins_data_dir",
        help="storage to use (default: a temporary folder, removed afterwards)",
    )


def run(args: argparse.Namespace) -> int:
    # Options given before the command word count too (`palmish --config wide gremlins ...`).
    config = args.gremlins_config or args.config or config_by_name("square")
    app = args.gremlins_app or args.app
    with tempfile.TemporaryDirectory(prefix="palmish-gremlins-") as scratch:
        data_dir = args.gremlins_data_dir or args.data_dir or Path(scratch)
        problem = usable_dir(data_dir)
        if problem:
            return fail(problem)
        apps = installed_apps()
        unknown = unknown_app(apps, app)
        if unknown is not None:
            return unknown
        try:
            device = Device(
                config, data_dir, apps, app,
                report=lambda message: None, durable=False, exclusive=True,
                buttons=hard_buttons(),
            )
        except ValueError as exc:
            return fail(str(exc))
        result = run_gremlins(device, args.count, args.seed)
    if not result.ok:
        print(
            f"palmish gremlins: seed {result.seed}, event {result.events}: {result.problem}",
            file=sys.stderr,
        )
        return EXIT_FAILED
    print(f"palmish gremlins: seed {result.seed}: {result.events} events, no problem found")
    return EXIT_OK
