"""`palmish install FILE [--data-dir DIR]`: a file a game installs (its installer,
palmish.games), else a plugin database, checked and copied onto the device."""

from __future__ import annotations

import argparse
from pathlib import Path

from palmish.apps import install_game_file
from palmish.commands.args import EXIT_OK, add_data_dir, data_dir
from palmish.commands.output import fail
from palmish.commands.plugins import plugin_registry
from palmish.device.store.info import InvalidPlugin, NotADatabase, PluginInfo
from palmish.games import games
from prc_tools.text import printable


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", type=Path, metavar="FILE")
    add_data_dir(parser)


def installable() -> str:
    """What `palmish install` takes, for its messages: a plugin database, or a file
    of each game that has an installer (`or a file of NAME`)."""
    installers = [g.name for g in games() if g.installer is not None]
    files = f" or a file of {', '.join(installers)}" if installers else ""
    return f"a Palm database (.prc){files}"


def run(args: argparse.Namespace) -> int:
    registry = plugin_registry(data_dir(args))
    if isinstance(registry, str):
        return fail(registry)
    replaced: list[PluginInfo] = []
    try:
        done = install_game_file(args.file, registry.storage)
    except ValueError as exc:
        return fail(str(exc))
    if done is not None:
        for line in done.splitlines():  # the level's line, and a warning under it
            print(printable(line))
        return EXIT_OK
    try:
        info = registry.install(args.file, replaced)
    except NotADatabase as exc:  # say what the file is not before the detail
        return fail(f"{args.file} is not {installable()}: {exc}")
    except InvalidPlugin as exc:
        return fail(f"{args.file}: {exc}")
    except OSError as exc:
        return fail(f"{args.file}: cannot install: {exc.strerror or exc}")
    configs = printable(", ".join(info.configs))
    print(f"installed {printable(repr(info.name))} ({printable(info.game)} {printable(info.kind)},"
          f" {configs}) as {printable(str(info.path))}")
    for old in replaced:
        print(f"replaced {printable(repr(old.name))} version {old.version}"
              f" ({printable(str(old.path))})")
    return EXIT_OK
