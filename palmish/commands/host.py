"""`palmish host` (docs/network.md, "Headless commands"): a network game hosted
without a window, its computer seats played at once.

    palmish host --app GAME [--port N] [--seats SPEC] [--code NNNN] [--advertise]
                 [--data-dir DIR] [--listen ADDRESS] [--wait SECONDS] [--seed N]
                 [--internet [--rendezvous URL] [--relay URL] [--direct auto|off|ADDRESSES]
                             [--lan auto|off|ADDRESSES]]

GAME is a game whose descriptor names a network engine (palmish/network/engine.py);
the seats are checked by it.
"""

from __future__ import annotations

import argparse
import asyncio
import time

from palmish.commands import netgame
from palmish.commands.args import (
    EXIT_OK,
    add_data_dir,
    code,
    data_dir,
    listen_port,
    positive,
    seconds,
)
from palmish.commands.output import fail, logger, say
from palmish.device.addresses import FREE_PORT
from palmish.device.disk.storage import disk_problem
from palmish.network import keep
from palmish.network.discovery import machine_name
from palmish.network.engine import Table
from palmish.network.hosting import host_table
from palmish.network.internet import settings as internet_settings
from palmish.network.internet.meeting import MeetError
from palmish.network.leftovers import HostLock, clean_host_temporaries
from palmish.network.protocol import new_code
from palmish.network.session.identity import load_identity


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--app", required=True, choices=netgame.network_apps(), dest="net_app")
    parser.add_argument("--port", type=listen_port, default=FREE_PORT, metavar="N",
                        help="the TCP port (default 0: a free one, printed)")
    parser.add_argument("--seats", default="remote,remote,remote,remote",
                        metavar="SPEC", help="seats in playing order: remote or computer, "
                        "comma-separated (default: four remote seats)")
    parser.add_argument("--code", type=code, metavar="NNNN",
                        help="the join code (default: a random one, printed)")
    parser.add_argument("--advertise", action="store_true",
                        help="announce the game on the local network (DNS-SD)")
    parser.add_argument("--listen", default="127.0.0.1", metavar="ADDRESS",
                        help="the address to listen on (default 127.0.0.1)")
    parser.add_argument("--wait", type=seconds, default=60.0, metavar="SECONDS",
                        help="how long an away seat waits before Silicon plays it (default 60)")
    parser.add_argument("--turn-timer", type=seconds, metavar="SECONDS", dest="turn_timer",
                        help="Silicon throws or moves for a player who takes longer"
                             " (default: none)")
    parser.add_argument("--seed", type=int, metavar="N", help="the game's seed (default: random)")
    parser.add_argument("--games", type=positive, default=1, metavar="N",
                        help="games at this table: after each but the last the host proposes"
                             " a rematch (default 1)")
    parser.add_argument("--leavers", choices=("open", "silicon"), default="open",
                        help="what the seat of a person who leaves becomes between games"
                             " (default open)")
    parser.add_argument("--internet", action="store_true",
                        help="take joiners by code across the internet too (prints code CODE)")
    internet_settings.add_options(parser)
    add_data_dir(parser)
    parser.set_defaults(network_parser=parser)


def run(args: argparse.Namespace) -> int:
    parser: argparse.ArgumentParser = args.network_parser
    engine = netgame.engine(parser, args.net_app)
    try:
        seats = engine.parse_seats(args.seats)
    except ValueError as err:
        parser.error(f"argument --seats: {err}")
    folder = data_dir(args)
    log = logger("host")
    lock = HostLock(folder, args.net_app)
    if not lock.acquire():
        return fail(f"{folder}: another palmish host keeps a {args.net_app} game in this"
                    " data folder; give another --data-dir")
    clean_host_temporaries(folder, args.net_app, lock, log)
    try:  # made now if new, so that a disk that refuses it is not "cannot listen"
        load_identity(folder, log)
    except OSError as err:
        lock.release()
        return fail(f"{folder}: cannot keep this handheld's key: {disk_problem(err)}")
    try:
        saved = keep.load_host_game(folder, args.net_app)
    except ValueError as err:
        saved = None
        log(f"{err}; starting a new game")
    table: Table | None = None
    prefer = None  # a resumed game on --port 0 listens where it did when it can
    if saved is not None:
        try:
            table = engine.restore_table(saved, time.monotonic())
            prefer = keep.kept_port(saved) if args.port == 0 else None
            if args.code is not None:
                table.code = args.code
            log(f"hosting the saved game again ({len(table.steps)} steps played)")
        except ValueError as err:
            log(f"{err}; starting a new game")
    if table is None:
        table = engine.new_table(seats, args.code or new_code(), machine_name(),
                                 seed=args.seed, wait_s=args.wait)
    table.wait_s, table.turn_s = args.wait, args.turn_timer
    table.agrees, table.vacate = args.games - 1, args.leavers
    listening: list[tuple[str, int]] = []
    internet = (internet_settings.from_args(args, parser, folder)
                if args.internet else None)
    try:
        if internet is None:
            record = asyncio.run(host_table(table, args.listen, args.port, say=say, log=log,
                                            data_dir=folder, advertise=args.advertise,
                                            on_listening=lambda h, p: listening.append((h, p)),
                                            prefer=prefer))
        else:
            from palmish.network.internet.serving import host_over_internet
            record = asyncio.run(host_over_internet(
                internet, table, args.listen, args.port, say=say, log=log, data_dir=folder,
                advertise=args.advertise))
    except MeetError as err:
        return fail(str(err))
    except OSError as err:
        if listening:  # not the listening: something else the system refused
            return fail(f"hosting stopped: {disk_problem(err)}")
        return fail(f"cannot listen on {args.listen}:{args.port}: {err.strerror or err}")
    finally:
        lock.release()
    say(f"record: {record}")
    return EXIT_OK
