"""`palmish ...`: the command line of the emulator.

    palmish [--device NAME] [--config C] [--zoom N] [--app NAME] [GAME OPTION] [--data-dir DIR]
    palmish --screenshot OUT.png [--config C] [--app NAME] [--events FILE] [--data-dir DIR]
    palmish gremlins --events N --seed S [--config C] [--data-dir DIR]
    palmish install FILE.prc|LEVEL.dat [--data-dir DIR]
    palmish plugins [--data-dir DIR]
    palmish host --app GAME [--port N] [--seats SPEC] [--code NNNN] ...  (docs/network.md)
    palmish join HOST:PORT --code NNNN --name NAME [--auto] [--data-dir DIR]

A game's own options (such as `--board ID`) come from its descriptor (palmish.games).
Usage errors exit 2 (argparse, and a bad --events script: a line it cannot read,
an app or menu command the device does not have); bad files and names print one
line and exit 1.
Only the window mode imports the frontend (and so pyglet); what only the other
modes need (event scripts, temporary folders) is imported by them.
"""

from __future__ import annotations

import argparse
import gc
import importlib
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from palmish import __version__
from palmish.device.app import App
from palmish.device.display import ConfigName, DisplayConfig, config_by_name
from palmish.device.plugins import InvalidPlugin, NotADatabase, PluginInfo, PluginRegistry
from palmish.device.resources import bundled_plugins_dir
from palmish.device.storage import Storage, default_data_dir, report_to_stderr, usable_dir
from palmish.device.system import LAUNCHER_CREATOR, Device, app_list, find_app
from palmish.games import GameOption, RegistryError, TakesOptions, games
from prc_tools.cli import version_action
from prc_tools.text import plain_message, printable

if TYPE_CHECKING:
    from palmish.device.eventscript import Step

EXIT_OK, EXIT_FAILED, EXIT_USAGE = 0, 1, 2


def _config(text: str) -> DisplayConfig:
    try:
        return config_by_name(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"{value} must be 1 or more")
    return value


def _seed(text: str) -> int:
    try:
        return int(text, 0)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None


_DEFAULT_DATA_DIR = "<default data folder>"  # filled in by _HelpFormatter


class _HelpFormatter(argparse.HelpFormatter):
    """Names the default data folder only when help is shown: finding it may import
    platformdirs, which a start given --data-dir does not need."""

    def _get_help_string(self, action: argparse.Action) -> str | None:
        text = super()._get_help_string(action)
        if text is None or _DEFAULT_DATA_DIR not in text:
            return text
        return text.replace(_DEFAULT_DATA_DIR, str(default_data_dir()).replace("%", "%%"))


def _add_data_dir(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--data-dir",
        type=Path,
        metavar="DIR",
        help=f"the device's storage folder (default: {_DEFAULT_DATA_DIR})",
    )


def _port(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a port number") from None
    if not 0 <= value <= 65535:
        raise argparse.ArgumentTypeError(f"{value} is not a port (0-65535)")
    return value


def _add_network_options(parser: argparse.ArgumentParser) -> None:
    """Where a window's Game > Network Game... > Host listens (docs/network.md)."""
    parser.add_argument(
        "--network-listen", "--listen", metavar="ADDRESS", dest="network_listen",
        help="the window hosts network games and receives beams on this address (default:"
             " every interface; Beam on a loopback address such as 127.0.0.1 is neither"
             " announced nor browsed)")
    parser.add_argument(
        "--network-port", type=_port, metavar="N",
        help="... and this port (default 40731, or a free one; 0: a free one)")
    parser.add_argument(
        "--no-discovery", action="store_true",
        help="the window neither announces its games nor looks for others (no multicast);"
             " join by address")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="palmish",
        description="A Palm OS-style handheld running retro games.",
        epilog="Without a command, the device opens in a window.",
        formatter_class=_HelpFormatter,
    )
    first = next(iter(games()), None)
    installers = ", ".join(g.name for g in games() if g.installer is not None)
    parser.add_argument("--version", action=version_action(f"palmish {__version__}"),
                        help="show the version and whether prc_tools' C speedups run, then exit")
    configs = ", ".join(c.value for c in ConfigName)
    parser.add_argument(
        "--device", metavar="NAME", help="device skin (default: classic for square-low, else t3)"
    )
    parser.add_argument(
        "--config", type=_config, metavar="C", help=f"display configuration: {configs}"
    )
    parser.add_argument("--zoom", type=_positive, default=1, metavar="N", help="window scale")
    parser.add_argument(
        "--app", metavar="APP",
        help="the app to start, by id or name in any case (default: the first game,"
             f" {first.id if first else 'none installed'})",
    )
    _add_game_options(parser)
    _add_data_dir(parser)
    parser.add_argument(
        "--screenshot", type=Path, metavar="OUT.png", help="no window: write the screen as a PNG"
    )
    parser.add_argument(
        "--events", type=Path, metavar="FILE", help="with --screenshot: events to feed first"
    )
    _add_network_options(parser)
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")

    gremlins = commands.add_parser("gremlins", help="stress the device with random events")
    gremlins.add_argument("--events", type=_positive, required=True, metavar="N", dest="count")
    gremlins.add_argument("--seed", type=_seed, required=True, metavar="S")
    gremlins.add_argument("--config", type=_config, metavar="C", dest="gremlins_config")
    gremlins.add_argument("--app", metavar="APP", dest="gremlins_app")
    gremlins.add_argument(
        "--data-dir", type=Path, metavar="DIR", dest="gremlins_data_dir",
        help="storage to use (default: a temporary folder, removed afterwards)",
    )

    install = commands.add_parser(
        "install", help="validate a plugin"
                        + (f" (or a file of {installers})" if installers else "")
                        + " and copy it onto the device"
    )
    install.add_argument("file", type=Path, metavar="FILE")
    install.add_argument("--data-dir", type=Path, metavar="DIR", dest="command_data_dir")

    plugins = commands.add_parser("plugins", help="list the bundled and installed plugins")
    plugins.add_argument("--data-dir", type=Path, metavar="DIR", dest="command_data_dir")

    from palmish.commands.host import add_commands

    add_commands(commands)  # host, join
    from palmish.commands.beam import add_commands as add_beam_commands

    add_beam_commands(commands)  # beam, receive
    return parser


def _add_game_options(parser: argparse.ArgumentParser) -> None:
    """The options the games' descriptors declare; one a flag several games share."""
    declared: dict[str, list[tuple[str, GameOption]]] = {}
    for game in games():
        for option in game.options:
            declared.setdefault(option.flag, []).append((game.name, option))
    for flag, users in declared.items():
        try:
            parser.add_argument(
                flag, metavar=users[0][1].metavar, dest=_option_dest(flag),
                help="; ".join(f"{name}: {option.help}" for name, option in users),
            )
        except argparse.ArgumentError:
            names = ", ".join(name for name, _ in users)
            raise RegistryError(f"{names}: the option {flag} is one of palmish's own") from None


def _option_dest(flag: str) -> str:
    return "game_option_" + flag[2:].replace("-", "_")


def main(argv: list[str] | None = None) -> int:
    try:
        parser = build_parser()
    except RegistryError as exc:  # a game's descriptor is bad: one line, not a traceback
        return fail(f"a game cannot be listed: {exc}")
    args = parser.parse_args(argv)
    handlers: dict[str | None, Callable[[argparse.Namespace], int]] = {
        None: _screenshot_or_window,
        "gremlins": _gremlins,
        "install": _install,
        "plugins": _plugins,
        "host": _network("run_host"),
        "join": _network("run_join"),
        "beam": _network("run_beam", "beam"),
        "receive": _network("run_receive", "beam"),
    }
    if args.command is None and args.events is not None and args.screenshot is None:
        parser.error("--events needs --screenshot (or use the gremlins command)")
    collecting = gc.isenabled()
    if args.command is None and args.screenshot is None:
        # No cyclic garbage collection until the window's first frame is up (the
        # window turns it back on): a start allocates much and frees nearly all of
        # it by reference counting, and the collections cost ~8 ms of it.
        gc.disable()
    try:
        return handlers[args.command](args)
    except KeyboardInterrupt:
        return 130
    finally:
        if collecting:
            gc.enable()


def _network(name: str, module: str = "host") -> Callable[[argparse.Namespace], int]:
    """A network command's handler, imported only when it runs."""
    def handler(args: argparse.Namespace) -> int:
        commands = importlib.import_module(f"palmish.commands.{module}")
        run: Callable[[argparse.Namespace], int] = getattr(commands, name)
        return run(args)

    return handler


def fail(message: str, status: int = EXIT_FAILED) -> int:
    # Names may come from files; Python's wording is said in the user's terms.
    print(f"palmish: {printable(plain_message(message))}", file=sys.stderr)
    return status


def _data_dir(*candidates: Path | None) -> Path:
    given = next((c for c in candidates if c is not None), None)
    return given if given is not None else default_data_dir()  # the default only when needed


def _unknown_app(apps: list[App], name: str | None) -> int | None:
    """Exit 2 with one line listing the apps when `--app` names none of them."""
    if name is None or find_app(apps, name) is not None:
        return None
    print(f"palmish: no app named {name!r} (installed: {app_list(apps)})", file=sys.stderr)
    return EXIT_USAGE


def _default_start_app(apps: list[App]) -> str | None:
    """The first game when one is installed, else the launcher."""
    games = [a for a in apps if a.creator != LAUNCHER_CREATOR]
    return games[0].name if games else None


def _screenshot_or_window(args: argparse.Namespace) -> int:
    from palmish.apps import hard_buttons, installed_apps

    config: DisplayConfig
    if args.config is not None:
        config = args.config
    elif args.device == "classic":
        config = config_by_name("square-low")
    else:
        config = config_by_name("square")
    if args.screenshot is not None and args.screenshot.suffix.lower() != ".png":
        return fail(f"{args.screenshot}: the screenshot is written as PNG; name it .png")
    data_dir = _data_dir(args.data_dir)
    problem = usable_dir(data_dir)
    if problem:
        return fail(problem)
    numbered: list[tuple[int, Step]] = []
    if args.events is not None:
        # Only for a script: a window start does not import the script reader.
        from palmish.device.eventscript import ScriptError, ScriptFileError, read_numbered

        try:
            numbered = read_numbered(args.events)
        except ScriptFileError as exc:
            return fail(str(exc))
        except ScriptError as exc:
            return fail(str(exc), EXIT_USAGE)
    apps = installed_apps()
    unknown = _unknown_app(apps, args.app)
    if unknown is not None:
        return unknown
    start = args.app if args.app is not None else _default_start_app(apps)
    given = _game_options_given(args)
    taker: TakesOptions | None = None
    if given:
        found = _option_taker(apps, args.app, given)
        if isinstance(found, str):
            return fail(found)
        start, taker = found
    try:
        device = Device(config, data_dir, apps, start, durable=args.screenshot is None,
                        exclusive=True, buttons=hard_buttons())
    except ValueError as exc:
        return fail(str(exc))
    # The app the options went to says, once started, whether it could honour them.
    option_problem = taker.option_problem() if taker is not None else None
    if option_problem:
        device.shutdown()
        return fail(option_problem)
    if args.screenshot is not None:
        try:  # checked before anything runs
            from palmish.device.eventscript import check_script

            check_script(numbered, str(args.events), device.running_app, device.find_app,
                         device.apps)
        except ScriptError as exc:
            device.shutdown()
            return fail(str(exc), EXIT_USAGE)
        return _screenshot(device, [step for _, step in numbered], args.screenshot)
    return _window(device, args.device, args.zoom, args)


def _game_options_given(args: argparse.Namespace) -> list[tuple[str, str]]:
    """The games' options on the command line: (flag, value)."""
    flags = dict.fromkeys(o.flag for g in games() for o in g.options)
    return [(flag, value) for flag in flags
            if (value := vars(args).get(_option_dest(flag))) is not None]


def _option_taker(apps: list[App], name: str | None,
                  given: list[tuple[str, str]]) -> tuple[str, TakesOptions] | str:
    """The app the games' options go to (the named one, else the first game that
    declares them) having taken them, or a one-line problem. The app checks the
    values now and acts on them when it starts."""
    from palmish.apps import LazyApp, real_app

    installed = [a for a in apps if isinstance(a, LazyApp)]
    flags = [flag for flag, _ in given]
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
    for flag, value in given:
        try:
            taker.accept_option(flag, value)
        except ValueError as exc:
            return f"{flag}: {exc}"
    return chosen[0].id, taker


def _screenshot(device: Device, steps: list[Step], out: Path) -> int:
    from palmish.device.eventscript import run_script

    run_script(device, steps)
    image = device.screen.image.copy()
    device.shutdown()
    import io

    from prc_tools.atomic import write_atomic

    encoded = io.BytesIO()
    image.save(encoded, format="PNG")
    try:  # atomically, like every database: a full disk leaves the old picture whole
        write_atomic(out, encoded.getvalue())
    except OSError as exc:
        return fail(f"{out}: cannot write: {exc.strerror or exc}")
    return EXIT_OK


def _window(device: Device, skin: str | None, zoom: int, args: argparse.Namespace) -> int:
    try:
        from palmish.frontend.window import run
    except ImportError as exc:
        device.shutdown()
        return fail(f"the window cannot open: {exc}")
    offer_network(device, args)
    close_beam = offer_beam(device, args.network_listen)
    try:
        return run(device, skin=skin, zoom=zoom, cache_dir=device.storage.cache_dir)
    finally:
        close_beam()
        device.shutdown()


def offer_network(device: Device, args: argparse.Namespace) -> None:
    """The window's apps may host and join network games (docs/network.md), where
    --network-listen, --network-port and --no-discovery say; the network code is
    imported when a game first asks for it."""
    from palmish.device import services

    def network() -> object:
        from palmish.commands.host import table_name
        from palmish.network.service import WINDOW_LISTEN, WINDOW_PORT, WindowNetwork

        if not made:
            port = WINDOW_PORT if args.network_port is None else args.network_port
            made.append(WindowNetwork(device, device.storage.data_dir, table_name(),
                                      args.network_listen or WINDOW_LISTEN, port,
                                      not args.no_discovery))
        return made[0]

    made: list[object] = []
    services.network = network


def offer_beam(device: Device, listen: str | None) -> Callable[[], None]:
    """The window's apps may beam, and the device receives while the launcher's
    Beam Receive preference is on (docs/network.md, "Beam"). Returns what stops
    it all when the window closes."""
    from palmish.device import services

    def beam() -> object:
        if not made:
            from palmish.commands.host import table_name
            from palmish.network.beam.device_service import BeamWindowService
            from palmish.network.beam.window import WINDOW_LISTEN

            made.append(BeamWindowService(device, device.storage.data_dir, table_name(),
                                          listen or WINDOW_LISTEN))
        return made[0]

    made: list[object] = []
    services.beam = beam
    if device.storage.load_prefs(LAUNCHER_CREATOR).get("beam_receive") is True:
        from palmish.device.beaming import service

        beams = service()
        problem = beams.set_receiving(True) if beams is not None else None
        if problem:
            device.notify(f"Beam Receive is off: {problem}")

    def close() -> None:
        if not made:  # Beam never used: nothing to stop, and asyncio stays unimported
            return
        from palmish.network.beam.window import WindowBeam

        for made_beam in made:
            if isinstance(made_beam, WindowBeam):
                made_beam.close()

    return close


def _gremlins(args: argparse.Namespace) -> int:
    from palmish.apps import hard_buttons, installed_apps
    from palmish.device.gremlins import run_gremlins

    # Options given before the command word count too (`palmish --config wide gremlins ...`).
    config = args.gremlins_config or args.config or config_by_name("square")
    app = args.gremlins_app or args.app
    import tempfile

    with tempfile.TemporaryDirectory(prefix="palmish-gremlins-") as scratch:
        data_dir = args.gremlins_data_dir or args.data_dir or Path(scratch)
        problem = usable_dir(data_dir)
        if problem:
            return fail(problem)
        apps = installed_apps()
        unknown = _unknown_app(apps, app)
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


def _plugin_registry(args: argparse.Namespace) -> PluginRegistry | str:
    """The plugins of the chosen data folder, or a one-line problem with that folder."""
    data_dir = _data_dir(args.command_data_dir, args.data_dir)
    problem = usable_dir(data_dir)
    if problem:
        return problem
    storage = Storage(data_dir, report=report_to_stderr)
    return PluginRegistry(storage, bundled_plugins_dir(), storage.report)


def _install(args: argparse.Namespace) -> int:
    from palmish.apps import install_game_file

    registry = _plugin_registry(args)
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
        return fail(f"{args.file} is not a Palm database (.prc) or a Sigmar's Garden level"
                    f" (.dat): {exc}")
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


def _plugins(args: argparse.Namespace) -> int:
    registry = _plugin_registry(args)
    if isinstance(registry, str):
        return fail(registry)
    plugins = registry.all()
    if not plugins:
        print("no plugins")
        return EXIT_OK
    header = ("NAME", "GAME", "KIND", "CONFIGS", "VERSION", "AUTHOR", "WHERE")
    rows: list[tuple[str, ...]] = [header]
    rows += [
        tuple(printable(cell) for cell in (
            p.name, p.game, p.kind, ",".join(p.configs), str(p.version), p.author, p.source
        ))
        for p in plugins
    ]
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    for row in rows:
        print("  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)).rstrip())
    return EXIT_OK
