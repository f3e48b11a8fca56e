"""`palmish host` and `palmish join` (docs/network.md, "Headless commands").

    palmish host --app GAME [--port N] [--seats SPEC] [--code NNNN] [--advertise]
                 [--data-dir DIR] [--listen ADDRESS] [--wait SECONDS] [--seed N]
    palmish join HOST:PORT --code NNNN --name NAME [--auto] [--data-dir DIR] [--app GAME]

main.py adds these parsers and dispatches here. GAME is a game whose descriptor names a network
engine (palmish/network/engine.py); the seats and names are checked by it.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from palmish.device.addresses import address_text, parse_address
from palmish.device.storage import default_data_dir, usable_dir

if TYPE_CHECKING:
    from palmish.network.engine import NetworkEngine

EXIT_OK, EXIT_FAILED, EXIT_USAGE = 0, 1, 2


def _code(text: str) -> str:
    if not re.fullmatch(r"[0-9]{4}", text):
        raise argparse.ArgumentTypeError(f"{text!r} is not a four-digit join code")
    return text


def _port(text: str) -> int:
    if not text.isdigit() or not 0 <= int(text) <= 65535:
        raise argparse.ArgumentTypeError(f"{text!r} is not a port (0-65535)")
    return int(text)


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not 0 <= value <= 24 * 3600:
        raise argparse.ArgumentTypeError(f"{text} seconds is out of range (0-86400)")
    return value


def _address(text: str) -> tuple[str, int]:
    try:
        return parse_address(text)
    except ValueError as err:
        raise argparse.ArgumentTypeError(str(err)) from None


def _engine(parser: argparse.ArgumentParser, args: argparse.Namespace) -> NetworkEngine:
    """The chosen game's network engine; checks the options that depend on the game
    (--seats, --name) with it, a usage error of one line when they do not fit."""
    from palmish.network.engine import engine_for

    if args.net_app is None:
        parser.error("no game here plays over the network")
    engine = engine_for(args.net_app)
    if getattr(args, "seats", None) is not None:
        try:
            args.seats = engine.parse_seats(args.seats)
        except ValueError as err:
            parser.error(f"argument --seats: {err}")
    name = getattr(args, "name", None)
    problem = None if name is None else engine.name_problem(name)
    if problem is not None:
        parser.error(f"argument --name: {problem}")
    return engine


def add_commands(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    from palmish.games import network_games

    apps = [g.id for g in network_games()]
    host = commands.add_parser("host", help="host a network game without a window")
    host.add_argument("--app", required=True, choices=apps, dest="net_app")
    host.add_argument("--port", type=_port, default=0, metavar="N",
                      help="the TCP port (default 0: a free one, printed)")
    host.add_argument("--seats", default="remote,remote,remote,remote",
                      metavar="SPEC", help="seats in playing order: remote or computer, "
                      "comma-separated (default: four remote seats)")
    host.add_argument("--code", type=_code, metavar="NNNN",
                      help="the join code (default: a random one, printed)")
    host.add_argument("--advertise", action="store_true",
                      help="announce the game on the local network (DNS-SD)")
    host.add_argument("--listen", default="127.0.0.1", metavar="ADDRESS",
                      help="the address to listen on (default 127.0.0.1)")
    host.add_argument("--wait", type=_seconds, default=60.0, metavar="SECONDS",
                      help="how long an away seat waits before Silicon plays it (default 60)")
    host.add_argument("--turn-timer", type=_seconds, metavar="SECONDS", dest="turn_timer",
                      help="Silicon throws or moves for a player who takes longer (default: none)")
    host.add_argument("--seed", type=int, metavar="N", help="the game's seed (default: random)")
    host.add_argument("--data-dir", type=Path, metavar="DIR", dest="command_data_dir")
    host.set_defaults(network_parser=host)

    join = commands.add_parser("join", help="join a network game")
    join.add_argument("address", type=_address, metavar="HOST:PORT")
    join.add_argument("--code", type=_code, required=True, metavar="NNNN")
    join.add_argument("--name", required=True, metavar="NAME")
    join.add_argument("--auto", action="store_true",
                      help="no window: the strongest Silicon plays the seat at once")
    join.add_argument("--data-dir", type=Path, metavar="DIR", dest="command_data_dir")
    join.add_argument("--app", choices=apps, default=apps[0] if apps else None, dest="net_app",
                      help=f"the game (default {apps[0] if apps else 'none'})")
    join.set_defaults(network_parser=join)


def _log(prefix: str) -> Callable[[str], None]:
    from prc_tools.text import printable

    return lambda line: print(f"palmish {prefix}: {printable(line)}", file=sys.stderr, flush=True)


def _say(line: str) -> None:
    print(line, flush=True)


def _data_dir(args: argparse.Namespace) -> Path:
    return args.command_data_dir or args.data_dir or default_data_dir()


def run_host(args: argparse.Namespace) -> int:
    import asyncio
    import time

    from palmish.network import keep
    from palmish.network.hosting import host_table
    from palmish.network.protocol import new_code

    engine = _engine(args.network_parser, args)
    data_dir = _data_dir(args)
    log = _log("host")
    try:
        saved = keep.load_host_game(data_dir, args.net_app)
    except ValueError as err:
        saved = None
        log(f"{err}; starting a new game")
    table = None
    if saved is not None:
        try:
            table = engine.restore_table(saved, time.monotonic())
            if args.code is not None:
                table.code = args.code
            log(f"hosting the saved game again ({len(table.steps)} steps played)")
        except ValueError as err:
            log(f"{err}; starting a new game")
    if table is None:
        table = engine.new_table(
            args.seats, args.code or new_code(), table_name(),
            seed=args.seed, wait_s=args.wait)
    table.wait_s, table.turn_s = args.wait, args.turn_timer
    try:
        record = asyncio.run(host_table(table, args.listen, args.port, say=_say, log=log,
                                        data_dir=data_dir, advertise=args.advertise))
    except OSError as err:
        print(f"palmish: cannot listen on {args.listen}:{args.port}: {err.strerror or err}",
              file=sys.stderr)
        return EXIT_FAILED
    _say(f"record: {record}")
    return EXIT_OK


def _join_in_window(args: argparse.Namespace, data_dir: Path) -> int:
    """`palmish join` without --auto: the window opens on the game joining the host's."""
    from palmish.apps import LazyApp, hard_buttons, installed_apps
    from palmish.commands.main import _window, fail
    from palmish.device.display import config_by_name
    from palmish.device.system import Device

    problem = usable_dir(data_dir)
    if problem:
        return fail(problem)
    try:
        device = Device(args.config or config_by_name("square"), data_dir, installed_apps(),
                        args.net_app, exclusive=True, buttons=hard_buttons())
    except ValueError as err:
        return fail(str(err))
    from palmish.commands.main import offer_network
    from palmish.network.engine import JoinsNetwork

    offer_network(device, args)
    running = device.running_app
    app = running.app() if isinstance(running, LazyApp) else running
    if not isinstance(app, JoinsNetwork):
        device.shutdown()
        return fail(f"{running.name} cannot join a network game in the window")
    app.join_network(address_text(*args.address), args.code, args.name)
    return _window(device, args.device, args.zoom, args)


def table_name() -> str:
    """The game's name on the network: this machine's name, cut to fit."""
    import platform

    from prc_tools.text import printable

    return printable(platform.node() or "palmish")[:40] or "palmish"


def run_join(args: argparse.Namespace) -> int:
    import asyncio

    from palmish.network import keep
    from palmish.network.engine import HostError
    from palmish.network.joining import JoinRequest, Refused, first_answer, join_table

    engine = _engine(args.network_parser, args)
    host, port = args.address
    data_dir = _data_dir(args)
    try:
        token = keep.seat_token(data_dir, args.name)
    except OSError as err:
        print(f"palmish: {data_dir}: cannot keep the seat token: {err.strerror or err}",
              file=sys.stderr)
        return EXIT_FAILED
    request = JoinRequest(host, port, args.code, args.name, token, app=args.net_app,
                          level=engine.strongest_level if args.auto else None)
    try:
        if not args.auto:  # refused, unreachable: one line here, before any window
            asyncio.run(first_answer(request))
            return _join_in_window(args, data_dir)
        record = asyncio.run(join_table(request, _log("join")))
    except Refused as err:
        from prc_tools.text import printable

        print(f"palmish: refused by {address_text(host, port)}: {printable(str(err))}",
              file=sys.stderr)
        return EXIT_FAILED
    except (HostError, OSError) as err:
        print(f"palmish: {err}", file=sys.stderr)
        return EXIT_FAILED
    _say(f"record: {record}")
    return EXIT_OK
