"""`palmish ...`: the command line of the emulator, and its table of commands.

    palmish [--device NAME] [--config C] [--zoom N] [--app NAME] [GAME OPTION] [--data-dir DIR]
    palmish --screenshot OUT.png [--config C] [--app NAME] [--events FILE] [--data-dir DIR]
    palmish gremlins --events N --seed S [--config C] [--data-dir DIR]
    palmish install FILE.prc|LEVEL.dat [--data-dir DIR]
    palmish plugins [--data-dir DIR]
    palmish preview FOLDER [--config C] [--no-discovery] [--screenshot OUT.png [--events FILE]]
    palmish host --app GAME [--port N] [--seats SPEC] [--code NNNN] ...  (docs/network.md)
    palmish join HOST:PORT --code NNNN --name NAME [--auto] [--data-dir DIR]
    palmish beam FILE|--board N|--deal N --to HOST:PORT ...            (docs/network.md)
    palmish receive [--accept] [--listen ADDRESS] [--port N] ...

Each command is a module of this package, `palmish/commands/<name>.py`, with
`add_arguments(parser)` and `run(args) -> exit status`; without a command
word the device opens in a window (window.py) or writes a screenshot
(screenshot.py), with the options of start.py. A command's module is imported
only when it runs, and its options are added only then (`_CommandParser`), so a
start pays for one command, and what a game declares (its options, the items it
beams) is read only by the command that uses it.

A game's own options (such as `--board ID`) come from its descriptor (palmish.games).
The options before the command word count for it too; a few are taken after it as
well (a command's own `--data-dir`, and `--no-discovery` of the commands that open a
window: args.data_dir and args.no_discovery read both).
Usage errors exit 2 (argparse, and a bad --events script: a line it cannot read,
an app or menu command the device does not have); bad files and names print one
line and exit 1 (args.py).
"""

from __future__ import annotations

import argparse
import gc
import importlib
from collections.abc import Callable
from typing import Any, NamedTuple, Protocol, cast

from palmish import __version__
from palmish.commands import start
from palmish.commands.args import DEFAULT_DATA_DIR, EXIT_INTERRUPTED
from palmish.commands.output import fail
from palmish.device.disk.storage import default_data_dir
from palmish.device.exchange import PLUGIN
from palmish.games import RegistryError, games
from prc_tools.cli import version_action

BEAMED = "<what the games beam>"  # named only when help is shown: it imports the games' Beamables


class Command(NamedTuple):
    """A command word: its module is palmish/commands/<name>.py."""

    name: str
    summary: str  # its line in `palmish --help`


def commands() -> tuple[Command, ...]:
    """Every command, in the order `palmish --help` lists them."""
    installers = ", ".join(g.name for g in games() if g.installer is not None)
    return (
        Command("gremlins", "stress the device with random events"),
        Command("install", "validate a plugin"
                           + (f" (or a file of {installers})" if installers else "")
                           + " and copy it onto the device"),
        Command("plugins", "list the bundled and installed plugins"),
        Command("preview", "show the plugin a folder builds on its game, rebuilt at every save"),
        Command("host", "host a network game without a window"),
        Command("join", "join a network game"),
        Command("beam", f"beam {BEAMED} to another handheld"),
        Command("receive", "receive beams from other handhelds"),
    )


class Mode(Protocol):
    """A module that runs a command, or the window or screenshot mode."""

    def run(self, args: argparse.Namespace) -> int: ...


class CommandModule(Mode, Protocol):
    """A command's module: its options, and what runs it."""

    def add_arguments(self, parser: argparse.ArgumentParser) -> None: ...


def _command(name: str) -> CommandModule:
    return cast("CommandModule", importlib.import_module(f"palmish.commands.{name}"))


class _CommandParser(argparse.ArgumentParser):
    """A command's parser, whose options are added when the command is chosen (its
    module imported then), before its arguments or its --help are read."""

    command: str | None = None

    def parse_known_args(self, *args: Any, **options: Any) -> Any:
        # argparse's subcommand action reads the chosen command's arguments through here
        if self.command is not None:
            name, self.command = self.command, None
            _command(name).add_arguments(self)
        return super().parse_known_args(*args, **options)


class _HelpFormatter(argparse.HelpFormatter):
    """Fills in, only when help is shown, what a start need not find: the default data
    folder (finding it may import platformdirs, which a start given --data-dir does
    not need) and what the games beam (their Beamables)."""

    def _get_help_string(self, action: argparse.Action) -> str | None:
        text = super()._get_help_string(action)
        for placeholder, find in _SHOWN_LATE.items():
            if text is not None and placeholder in text:
                text = text.replace(placeholder, find().replace("%", "%%"))
        return text


def _beamed() -> str:
    """`a plugin, a deal, a board or a level`: plugins and the kinds the games beam."""
    from palmish.network.beam.items import beamables  # imports the games' Beamables

    kinds = dict.fromkeys(kind for _, beamable in beamables() for kind in beamable.kinds())
    named = [f"a {kind}" for kind in (PLUGIN, *kinds)]
    return " or ".join([", ".join(named[:-1]), named[-1]] if len(named) > 1 else named)


_SHOWN_LATE: dict[str, Callable[[], str]] = {
    DEFAULT_DATA_DIR: lambda: str(default_data_dir()),
    BEAMED: _beamed,
}


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="palmish",
        description="A Palm OS-style handheld running retro games.",
        epilog="Without a command, the device opens in a window.",
        formatter_class=_HelpFormatter,
    )
    parser.add_argument("--version", action=version_action(f"palmish {__version__}"),
                        help="show the version and whether prc_tools' C speedups run, then exit")
    start.add_arguments(parser)
    # a command's own --data-dir and --no-discovery (args.data_dir, args.no_discovery)
    parser.set_defaults(command_data_dir=None, command_no_discovery=False)
    words = parser.add_subparsers(dest="command", metavar="COMMAND",
                                  parser_class=_CommandParser)
    for command in commands():
        chosen = words.add_parser(command.name, help=command.summary,
                                  formatter_class=_HelpFormatter)
        chosen.command = command.name
    return parser


def main(argv: list[str] | None = None) -> int:
    try:  # a game's descriptor is bad: one line, not a traceback
        parser = build_parser()
        args = parser.parse_args(argv)
    except RegistryError as exc:
        return fail(f"a game cannot be listed: {exc}")
    if args.command is None and args.events is not None and args.screenshot is None:
        parser.error("--events needs --screenshot (or use the gremlins command)")
    mode = args.command or ("window" if args.screenshot is None else "screenshot")
    collecting = gc.isenabled()
    if mode == "window":
        # No cyclic garbage collection until the window's first frame is up (the
        # window turns it back on): a start allocates much and frees nearly all of
        # it by reference counting, and the collections cost ~8 ms of it.
        gc.disable()
    try:
        return cast("Mode", importlib.import_module(f"palmish.commands.{mode}")).run(args)
    except KeyboardInterrupt:
        return EXIT_INTERRUPTED
    finally:
        if collecting:
            gc.enable()

