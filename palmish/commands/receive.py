"""`palmish receive` (docs/network.md, "Beam", "Headless commands"): a beam
receiver without a window, one line per item on standard output; and the list of
paired handhelds.

    palmish receive [--accept] [--data-dir DIR] [--listen ADDRESS] [--port N]
                    [--advertise] [--name NAME] [--count N]
                    [--internet [--rendezvous URL] [--relay URL] [--direct auto|off|ADDRS]
                                [--lan auto|off|ADDRS]]
    palmish receive --paired | --forget NAME | --forget-all [--data-dir DIR]

Every problem is one line on standard error and exit 1 (2 for bad options).
"""

from __future__ import annotations

import argparse
import asyncio
from collections.abc import Callable
from pathlib import Path

from palmish.apps import hard_buttons, installed_apps, real_app
from palmish.commands.args import (
    EXIT_OK,
    add_data_dir,
    data_dir,
    handheld_name,
    listen_port,
    number,
)
from palmish.commands.output import fail, logger, say
from palmish.commands.plugins import plugin_registry
from palmish.device.addresses import FREE_PORT, address_text
from palmish.device.beam.beaming import size_text
from palmish.device.disk.storage import disk_problem, usable_dir
from palmish.device.display import config_by_name
from palmish.device.exchange import BeamItem
from palmish.device.machine.system import Device
from palmish.network.beam import items, wire
from palmish.network.beam.pairing import paired_senders
from palmish.network.beam.receiver import (
    ACCEPTED,
    DECLINED,
    FAILED,
    Arrival,
    Desk,
    Ended,
)
from palmish.network.discovery import machine_name
from palmish.network.hosting import announce
from palmish.network.internet import settings as internet_settings
from palmish.network.internet.meeting import MeetError
from palmish.network.leftovers import clean_beam_folders, clean_kept_temporaries
from palmish.network.protocol import new_code
from palmish.network.session.identity import Identity, load_identity
from palmish.network.session.peers import KnownPeers


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--accept", action="store_true",
                        help="accept every item that passes the checks (default: decline)")
    parser.add_argument("--listen", default="127.0.0.1", metavar="ADDRESS",
                        help="the address to listen on (default 127.0.0.1)")
    parser.add_argument("--port", type=listen_port, default=FREE_PORT, metavar="N",
                        help="the TCP port (default 0: a free one, printed)")
    parser.add_argument("--internet", action="store_true",
                        help="take beams by code across the internet too (prints code CODE)")
    internet_settings.add_options(parser)
    parser.set_defaults(internet_parser=parser)
    parser.add_argument("--advertise", action="store_true",
                        help="announce the receiver on the local network (DNS-SD)")
    parser.add_argument("--name", type=handheld_name, metavar="NAME",
                        help="this handheld's name (default: the machine's)")
    parser.add_argument("--count", type=number, default=0, metavar="N",
                        help="stop after N items (default 0: until interrupted)")
    pairing = parser.add_mutually_exclusive_group()
    pairing.add_argument("--paired", action="store_true",
                         help="list the paired handhelds and stop")
    pairing.add_argument("--forget", type=handheld_name, metavar="NAME",
                         help="forget a paired handheld and stop")
    pairing.add_argument("--forget-all", action="store_true", dest="forget_all",
                         help="forget every paired handheld and stop")
    add_data_dir(parser)


def run(args: argparse.Namespace) -> int:
    folder = data_dir(args)
    log = logger("receive")
    clean_beam_folders(log)  # what a receiver killed during an install left
    clean_kept_temporaries(folder, log)
    try:
        senders = paired_senders(folder, log)  # a damaged file: one line, and none paired
        if args.paired or args.forget is not None or args.forget_all:
            return _pairing(args, senders)
        try:  # made now if new: a disk that refuses it is said so, not "cannot listen"
            identity = load_identity(folder, log)
        except OSError as err:
            return fail(f"{folder}: cannot keep this handheld's key: {disk_problem(err)}")
        internet = (internet_settings.from_args(args, args.internet_parser, folder)
                    if args.internet else None)
        return asyncio.run(_receive(args, folder, senders, identity, log, internet))
    except MeetError as err:
        return fail(str(err))
    except OSError as err:
        if err.filename is not None:
            return fail(f"{err.filename}: {err.strerror or err}")
        return fail(f"cannot listen on {args.listen}:{args.port}: {err.strerror or err}")


def _pairing(args: argparse.Namespace, senders: KnownPeers) -> int:
    """--paired: one line per paired sender (its name as it was last seen, and its
    key's fingerprint); --forget NAME, --forget-all."""
    if args.paired:
        for known in senders.known:
            say(f"{known.name!r} {known.fingerprint}")
        return EXIT_OK
    forgotten = senders.forget(None if args.forget_all else args.forget)
    if args.forget is not None and not forgotten:
        return fail(f"no handheld named {args.forget!r} is paired")
    say(f"forgot {forgotten} paired handheld{'s' if forgotten != 1 else ''}")
    return EXIT_OK


async def _receive(args: argparse.Namespace, folder: Path, senders: KnownPeers,
                   identity: Identity, log: Callable[[str], None],
                   internet: internet_settings.Settings | None = None) -> int:
    offers: list[Arrival] = []
    ended: list[Ended] = []
    news = asyncio.Event()

    def offered(arrival: Arrival) -> None:
        offers.append(arrival)
        news.set()

    def over(end: Ended) -> None:
        ended.append(end)
        news.set()

    def progress(ticket: int, received: int, size: int) -> None:
        if size > wire.SHOWN_BYTES:
            log(f"received {size_text(received)} of {size_text(size)}")

    desk = Desk(args.name or machine_name(), new_code(), identity, senders,
                offered, over, progress, log=log)
    host, port = await desk.start(args.listen, args.port)
    say(f"receiving on {address_text(host, port)} code {desk.code}")
    log(f"this handheld's key: {desk.fingerprint}")
    taking = None
    if internet is not None:
        from palmish.network.internet.serving import Taking
        taking = Taking(internet, wire.APP, desk.code, say, log)
        try:
            await taking.start(host, port)
        except MeetError:
            await taking.stop()
            await desk.close()
            raise
    advert = await announce(desk.name, args.listen, port, log, wire.APP) \
        if args.advertise else None
    done = 0
    try:
        while args.count == 0 or done < args.count:
            await news.wait()
            news.clear()
            while offers:
                arrival = offers.pop(0)
                if arrival.note:
                    log(f"{arrival.sender!r}: {arrival.note}")
                verdict, text = await _decide(args.accept, arrival, folder)
                desk.finish(arrival.ticket, verdict, text)
            while ended:
                say(_line(ended.pop(0)))
                done += 1
        return EXIT_OK
    finally:
        await desk.close()
        if taking is not None:
            await taking.stop()
        if advert is not None:
            await asyncio.to_thread(advert.close)


async def _decide(accept: bool, arrival: Arrival, folder: Path) -> tuple[str, str]:
    """Headless: --accept installs (or keeps) what passed the checks; else declines."""
    if not accept:
        return DECLINED, "declined (this receiver runs without --accept)"
    try:
        return ACCEPTED, await asyncio.to_thread(_take, arrival.item, folder)
    except ValueError as err:
        return FAILED, f"could not be installed: {err}"
    except OSError as err:  # the disk refused: this item fails, receiving goes on
        return FAILED, f"could not be kept: {disk_problem(err)}"


def _take(item: BeamItem, folder: Path) -> str:
    """Install a file item through `palmish install`'s path; keep a board or a deal
    in its game's saved state, so the game opens it at its next start."""
    if item.number is not None:
        problem = usable_dir(folder)
        if problem:
            raise ValueError(problem)
        return _keep_number(item, folder)
    registry = plugin_registry(folder)
    if isinstance(registry, str):
        raise ValueError(registry)
    return items.install(item, registry.storage, registry)


def _keep_number(item: BeamItem, folder: Path) -> str:
    found = items.game_for(item.kind, item.app)
    if found is None:
        raise ValueError(f"no game here takes a {item.kind}")
    game, beamable = found
    device = Device(config_by_name("square"), folder, installed_apps(), game.id,
                    exclusive=True, buttons=hard_buttons(), report=lambda message: None)
    try:
        beamable.open(real_app(device.running_app), item, ask=False)
    finally:
        device.shutdown()
    refused = device.storage.write_error
    if refused is not None:  # the game could not save it: it will not open there
        raise ValueError(f"cannot save it: {disk_problem(refused)}")
    return f"{game.name} opens {item.kind} {item.number} at its next start"


def _line(ended: Ended) -> str:
    """One line per item for standard output: what it was, and what came of it."""
    arrival = ended.arrival
    if arrival is not None and arrival.item.number is not None:
        what = f"{arrival.checked.what} {arrival.item.number}"
    elif arrival is not None:
        what = f"{arrival.checked.what} {arrival.checked.title!r} ({size_text(arrival.size)})"
    elif ended.kind:
        what = f"a {ended.kind} of {size_text(ended.size)}"
    else:
        what = "nothing"
    return f"{ended.verdict}: {what} from {ended.sender!r}: {ended.text}"
