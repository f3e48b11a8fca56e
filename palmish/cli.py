"""`palmish ...`: the command line of the emulator.

    palmish [--device NAME] [--config C] [--zoom N] [--app NAME] [--board ID] [--data-dir DIR]
    palmish --screenshot OUT.png [--config C] [--app NAME] [--events FILE] [--data-dir DIR]
    palmish gremlins --events N --seed S [--config C] [--data-dir DIR]
    palmish install FILE.prc|LEVEL.dat [--data-dir DIR]
    palmish plugins [--data-dir DIR]
    palmish host --app pachisi [--port N] [--seats SPEC] [--code NNNN] ...  (docs/network.md)
    palmish join HOST:PORT --code NNNN --name NAME [--auto] [--data-dir DIR]

Usage errors exit 2 (argparse, and a bad --events script: a line it cannot read,
an app or menu command the device does not have); bad files and names print one
line and exit 1.
Only the window mode imports the frontend (and so pyglet); what only the other
modes need (event scripts, temporary folders) is imported by them.
"""

from __future__ import annotations

import argparse
import gc
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from palmish import __version__
from palmish.device.app import App
from palmish.device.display import ConfigName, DisplayConfig, config_by_name
from palmish.device.plugins import InvalidPlugin, PluginInfo, PluginRegistry
from palmish.device.resources import bundled_plugins_dir
from palmish.device.storage import Storage, default_data_dir
from palmish.device.system import LAUNCHER_CREATOR, Device, app_list, find_app

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


def _add_data_dir(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--data-dir",
        type=Path,
        metavar="DIR",
        help=f"the device's storage folder (default: {default_data_dir()})",
    )


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="palmish",
        description="A Palm OS-style handheld running retro games.",
        epilog="Without a command, the device opens in a window.",
    )
    parser.add_argument("--version", action="version", version=f"palmish {__version__}")
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
        help="the app to start, by id or name in any case (default: ishido, PalmIshido)",
    )
    parser.add_argument(
        "--board", metavar="ID",
        help="open this board (Sigmar's Garden: a level number or name, or ? for a random one)",
    )
    _add_data_dir(parser)
    parser.add_argument(
        "--screenshot", type=Path, metavar="OUT.png", help="no window: write the screen as a PNG"
    )
    parser.add_argument(
        "--events", type=Path, metavar="FILE", help="with --screenshot: events to feed first"
    )
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
        "install", help="validate a plugin (or a Sigmar's Garden level) and copy it onto the device"
    )
    install.add_argument("file", type=Path, metavar="FILE")
    install.add_argument("--data-dir", type=Path, metavar="DIR", dest="command_data_dir")

    plugins = commands.add_parser("plugins", help="list the bundled and installed plugins")
    plugins.add_argument("--data-dir", type=Path, metavar="DIR", dest="command_data_dir")

    from palmish.network.commands import add_commands

    add_commands(commands)  # host, join
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    handlers: dict[str | None, Callable[[argparse.Namespace], int]] = {
        None: _screenshot_or_window,
        "gremlins": _gremlins,
        "install": _install,
        "plugins": _plugins,
        "host": _network("run_host"),
        "join": _network("run_join"),
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


def _network(name: str) -> Callable[[argparse.Namespace], int]:
    """A network command's handler, imported only when it runs."""
    def handler(args: argparse.Namespace) -> int:
        from palmish.network import commands

        run: Callable[[argparse.Namespace], int] = getattr(commands, name)
        return run(args)

    return handler


def fail(message: str, status: int = EXIT_FAILED) -> int:
    print(f"palmish: {message}", file=sys.stderr)
    return status


def _data_dir(*candidates: Path | None) -> Path:
    return next((c for c in candidates if c is not None), default_data_dir())


def _usable_dir(path: Path) -> str | None:
    """Why `path` cannot be the storage folder, or None if it can."""
    if path.exists() and not path.is_dir():
        return f"{path}: not a folder"
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        return f"{path}: cannot create the data folder: {exc.strerror or exc}"
    return None


def _unknown_app(apps: list[App], name: str | None) -> int | None:
    """Exit 2 with one line listing the apps when `--app` names none of them."""
    if name is None or find_app(apps, name) is not None:
        return None
    print(f"palmish: no app named {name!r} (installed: {app_list(apps)})", file=sys.stderr)
    return EXIT_USAGE


def _default_start_app(apps: list[App]) -> str | None:
    """PalmIshido (the first game) when installed, else the launcher."""
    games = [a for a in apps if a.creator != LAUNCHER_CREATOR]
    return games[0].name if games else None


def _screenshot_or_window(args: argparse.Namespace) -> int:
    from palmish.apps import HARD_BUTTONS, installed_apps

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
    problem = _usable_dir(data_dir)
    if problem:
        return fail(problem)
    from palmish.device.eventscript import ScriptError, ScriptFileError, read_numbered

    numbered: list[tuple[int, Step]] = []
    if args.events is not None:
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
    if args.board is not None:
        start, problem = _board_app(apps, args.app, args.board)
        if problem is not None:
            return fail(problem)
    try:
        device = Device(config, data_dir, apps, start, durable=args.screenshot is None,
                        exclusive=True, buttons=HARD_BUTTONS)
    except ValueError as exc:
        return fail(str(exc))
    # The app --board went to says, once started, whether it found the board.
    board_problem = (getattr(device.running_app, "board_problem", None)
                     if args.board is not None else None)
    if board_problem:
        device.shutdown()
        return fail(f"--board: {board_problem}")
    if args.screenshot is not None:
        try:  # checked before anything runs
            from palmish.device.eventscript import check_script

            check_script(numbered, str(args.events), device.running_app, device.find_app,
                         device.apps)
        except ScriptError as exc:
            device.shutdown()
            return fail(str(exc), EXIT_USAGE)
        return _screenshot(device, [step for _, step in numbered], args.screenshot)
    return _window(device, args.device, args.zoom)


def _board_app(apps: list[App], name: str | None, board: str) -> tuple[str | None, str | None]:
    """The app `--board` opens a board in (the named one, else the first with boards),
    and a one-line problem or None. The app checks the id and opens it when it starts."""
    if name is not None:
        app = find_app(apps, name)
        candidates = [app] if app is not None else []
    else:
        candidates = [a for a in apps if hasattr(a, "request_board")]
    opener = getattr(candidates[0], "request_board", None) if candidates else None
    if opener is None:
        return None, f"--board: {name or 'no app'} has no boards to open"
    try:
        opener(board)
    except ValueError as exc:
        return None, f"--board: {exc}"
    return candidates[0].id, None


def _screenshot(device: Device, steps: list[Step], out: Path) -> int:
    from palmish.device.eventscript import run_script

    run_script(device, steps)
    image = device.screen.image.copy()
    device.shutdown()
    try:
        image.save(out, format="PNG")
    except OSError as exc:
        return fail(f"{out}: cannot write: {exc.strerror or exc}")
    return EXIT_OK


def _window(device: Device, skin: str | None, zoom: int) -> int:
    try:
        from palmish.frontend.window import run
    except ImportError as exc:
        device.shutdown()
        return fail(f"the window cannot open: {exc}")
    offer_network(device)
    try:
        return run(device, skin=skin, zoom=zoom, cache_dir=device.storage.cache_dir)
    finally:
        device.shutdown()


def offer_network(device: Device) -> None:
    """The window's apps may host and join network games (docs/network.md); the
    network code is imported when a game first asks for it."""
    from palmish.device import services

    def network() -> object:
        from palmish.network.commands import table_name
        from palmish.network.service import WindowNetwork

        if not made:
            made.append(WindowNetwork(device, device.storage.data_dir, table_name()))
        return made[0]

    made: list[object] = []
    services.network = network


def _gremlins(args: argparse.Namespace) -> int:
    from palmish.apps import HARD_BUTTONS, installed_apps
    from palmish.device.gremlins import run_gremlins

    # Options given before the command word count too (`palmish --config wide gremlins ...`).
    config = args.gremlins_config or args.config or config_by_name("square")
    app = args.gremlins_app or args.app
    import tempfile

    with tempfile.TemporaryDirectory(prefix="palmish-gremlins-") as scratch:
        data_dir = args.gremlins_data_dir or args.data_dir or Path(scratch)
        problem = _usable_dir(data_dir)
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
                buttons=HARD_BUTTONS,
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
    problem = _usable_dir(data_dir)
    if problem:
        return problem
    storage = Storage(data_dir, report=lambda m: print(f"palmish: {m}", file=sys.stderr))
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
        print(done)
        return EXIT_OK
    try:
        info = registry.install(args.file, replaced)
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


def printable(text: str) -> str:
    """Text from a plugin, safe for a terminal: control characters (newlines, ANSI
    escapes, bidi overrides) become visible escapes such as \\n or \\x1b."""
    return "".join(
        ch if ch.isprintable() else ch.encode("unicode_escape").decode("ascii") for ch in text
    )


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
