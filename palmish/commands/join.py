"""`palmish join` (docs/network.md, "Headless commands"): sit at a hosted network
game, played by the strongest Silicon at once (--auto) or by the person in the
window, which opens on the game joining it.

    palmish join HOST:PORT --code NNNN --name NAME [--auto] [--data-dir DIR] [--app GAME]
    palmish join --code CODE --name NAME [--auto] [--rendezvous URL] [--relay URL] ...

Without HOST:PORT the code is an internet code (7-cobra-lantern): the host is met
through the rendezvous (palmish/network/internet/).

The window's own options go before the word `join`.
"""

from __future__ import annotations

import argparse
import asyncio
from collections.abc import Callable
from pathlib import Path

from palmish.apps import hard_buttons, installed_apps, real_app
from palmish.commands import netgame
from palmish.commands.args import (
    EXIT_FAILED,
    EXIT_OK,
    add_data_dir,
    add_no_discovery,
    address,
    code,
    data_dir,
    positive,
)
from palmish.commands.output import fail, logger, say
from palmish.commands.window import open_window, window_services
from palmish.device.addresses import address_text
from palmish.device.disk.storage import usable_dir
from palmish.device.display import config_by_name
from palmish.device.machine.system import Device
from palmish.network.engine import HostError, JoinsNetwork
from palmish.network.fairdice import JoinerDice
from palmish.network.internet import settings as internet_settings
from palmish.network.internet.meeting import MeetError
from palmish.network.joining import JoinRequest, Refused, first_answer, join_table

MEETING_S = 240.0  # a meeting by code is bounded by its own tries; this bounds the wait


def add_arguments(parser: argparse.ArgumentParser) -> None:
    apps = netgame.network_apps()
    parser.add_argument("address", type=address, metavar="HOST:PORT", nargs="?",
                        help="the host on this network (without it: --code is an internet code)")
    parser.add_argument("--code", required=True, metavar="NNNN|CODE")
    parser.add_argument("--name", required=True, metavar="NAME")
    parser.add_argument("--auto", action="store_true",
                        help="no window: the strongest Silicon plays the seat at once")
    parser.add_argument("--games", type=positive, default=1, metavar="N",
                        help="with --auto: play N games at the table, saying yes to its"
                             " rematches, then leave it (default 1)")
    add_data_dir(parser)
    add_no_discovery(parser)
    parser.add_argument("--app", choices=apps, default=apps[0] if apps else None,
                        dest="net_app", help=f"the game (default {apps[0] if apps else 'none'})")
    internet_settings.add_options(parser)
    parser.set_defaults(network_parser=parser)


def run(args: argparse.Namespace) -> int:
    parser: argparse.ArgumentParser = args.network_parser
    engine = netgame.engine(parser, args.net_app)
    problem = engine.name_problem(args.name)
    if problem is not None:
        parser.error(f"argument --name: {problem}")
    log = logger("join")
    try:
        args.code = (code if args.address is not None else internet_settings.internet_code)(
            args.code)
    except argparse.ArgumentTypeError as err:
        parser.error(f"argument --code: {err}")
    if args.address is None:
        return _join_by_code(args, engine.strongest_level)
    host, port = args.address
    folder = data_dir(args)
    request = JoinRequest(host, port, args.code, args.name, app=args.net_app, data_dir=folder,
                          level=engine.strongest_level if args.auto else None)
    try:
        if not args.auto:  # refused, unreachable: one line here, before any window
            dice_part = asyncio.run(first_answer(request, log))
            return _join_in_window(args, folder, (request, dice_part))
        verdicts: list[str] = []
        asyncio.run(join_table(request, log, games=args.games,
                               ended=lambda record, verdict: _ended(record, verdict, verdicts)))
    except Refused as err:
        return fail(f"refused by {address_text(host, port)}: {err}")
    except (HostError, OSError) as err:
        return fail(str(err))
    # the host's throws are not the dice's in a game: 1
    return EXIT_OK if set(verdicts) == {"verified"} else EXIT_FAILED


def _ended(record: str, verdict: str, verdicts: list[str]) -> None:
    """A game at the table ended: its record and the dice's check, at once."""
    say(f"record: {record}")
    logger("join")(f"dice: {verdict}")
    verdicts.append(verdict)


def _join_by_code(args: argparse.Namespace, strongest: str) -> int:
    """Meet the host by its internet code, then join through the door it opens."""
    parser: argparse.ArgumentParser = args.network_parser
    settings = internet_settings.from_args(args, parser, data_dir(args))
    folder = data_dir(args)
    log = logger("join")
    if not args.auto:
        return _window_by_code(args, settings, folder, log)

    async def joined() -> tuple[str, str]:
        from palmish.network.internet.joining import open_door
        door = await open_door(settings, args.code, args.net_app, say, log)
        try:
            request = JoinRequest("127.0.0.1", door.port, door.table_code, args.name,
                                  app=args.net_app, data_dir=folder, level=strongest)
            return await join_table(request, log)
        finally:
            await door.close()

    async def joined_then_stop() -> tuple[str, str]:
        from palmish.network.internet.reactor import shutdown
        try:
            return await joined()
        finally:
            await asyncio.to_thread(shutdown)

    try:
        record, verdict = asyncio.run(joined_then_stop())
    except MeetError as err:
        return fail(str(err))
    except Refused as err:
        return fail(f"refused by the host of {args.code}: {err}")
    except (HostError, OSError) as err:
        return fail(str(err))
    say(f"record: {record}")
    log(f"dice: {verdict}")
    return EXIT_OK if verdict == "verified" else EXIT_FAILED


def _window_by_code(args: argparse.Namespace, settings: internet_settings.Settings,
                    folder: Path, log: Callable[[str], None]) -> int:
    """Without --auto: meet the host by code, then the window joins through the
    door (on 127.0.0.1) as it would join a host on the LAN."""
    from palmish.network.bridge import LoopThread
    from palmish.network.internet.joining import open_door
    from palmish.network.internet.reactor import shutdown

    loop = LoopThread()  # the door's lines are said on it, for the window's life
    try:
        door = loop.run(open_door(settings, args.code, args.net_app, say, log),
                        timeout=MEETING_S)
        request = JoinRequest("127.0.0.1", door.port, door.table_code, args.name,
                              app=args.net_app, data_dir=folder)
        dice_part = loop.run(first_answer(request, log), timeout=MEETING_S)
        args.address, args.code = ("127.0.0.1", door.port), door.table_code
        return _join_in_window(args, folder, (request, dice_part))
    except MeetError as err:
        return fail(str(err))
    except Refused as err:
        return fail(f"refused by the host of {args.code}: {err}")
    except (HostError, OSError, TimeoutError) as err:
        return fail(str(err) or "no answer from the host in time")
    finally:
        shutdown()


def _join_in_window(args: argparse.Namespace, folder: Path,
                    checked: tuple[JoinRequest, JoinerDice]) -> int:
    """Without --auto: the window opens on the game, joining the host's with the
    dice part its check sat with (`checked`)."""
    problem = usable_dir(folder)
    if problem:
        return fail(problem)
    services, close_services = window_services(args, checked)
    try:
        device = Device(args.config or config_by_name("square"), folder, installed_apps(),
                        args.net_app, exclusive=True, buttons=hard_buttons(), services=services)
    except ValueError as err:
        return fail(str(err))
    running = device.running_app
    app = real_app(running)
    if not isinstance(app, JoinsNetwork):
        device.shutdown()
        return fail(f"{running.name} cannot join a network game in the window")
    app.join_network(address_text(*args.address), args.code, args.name)
    return open_window(device, args, close_services)
