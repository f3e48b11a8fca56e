"""`palmish beam` (docs/network.md, "Beam", "Headless commands"): send one item
to a receiver and wait for its answer.

    palmish beam (FILE | --board N | --deal N) --to HOST:PORT [--code NNNN]
                 [--name NAME] [--data-dir DIR]
    palmish beam (FILE | --board N | --deal N) --code CODE [--rendezvous URL] [--relay URL]
                 [--direct auto|off|ADDRS] [--lan auto|off|ADDRS] [--name NAME]
                 [--data-dir DIR]

Without --to, --code is the receiver's internet code (`palmish receive --internet`).

The number options (`--board`, `--deal`) and what FILE may be come from the
games' Beamables (their descriptors' `beam`): `--KIND N` for every kind a game
beams by its number. Every problem is one line on standard error and exit 1
(2 for bad options).
"""

from __future__ import annotations

import argparse
import asyncio
from collections.abc import Callable
from pathlib import Path

from palmish.commands.args import (
    EXIT_OK,
    add_data_dir,
    address,
    code,
    data_dir,
    handheld_name,
    number,
)
from palmish.commands.output import fail, logger, say
from palmish.device.addresses import address_text
from palmish.device.beam.beaming import size_text
from palmish.device.exchange import BeamItem
from palmish.games import RegistryError
from palmish.network.beam import items, wire
from palmish.network.beam.pairing import paired_receivers
from palmish.network.beam.sender import send_item
from palmish.network.discovery import machine_name
from palmish.network.internet import settings as internet_settings
from palmish.network.internet.meeting import MeetError
from palmish.network.leftovers import clean_kept_temporaries
from palmish.network.session.identity import load_identity
from prc_tools.text import printable


def number_kinds() -> dict[str, list[str]]:
    """The kinds the games beam by their number, each with the names of its games."""
    found: dict[str, list[str]] = {}
    for game, beamable in items.beamables():
        for kind in beamable.number_kinds():
            found.setdefault(kind, []).append(game.name)
    return found


def _dest(kind: str) -> str:
    return f"number_{kind}"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    try:
        _add_arguments(parser)
    except argparse.ArgumentError as err:  # a kind a game beams clashes with an option
        raise RegistryError(f"a kind a game beams is an option of palmish beam's own ({err})"
                            ) from None


def _add_arguments(parser: argparse.ArgumentParser) -> None:
    files = "".join(f" or a {game.name} {kind}" for game, beamable in items.beamables()
                    for kind in beamable.kinds() if kind not in beamable.number_kinds())
    what = parser.add_mutually_exclusive_group(required=True)
    what.add_argument("file", nargs="?", type=Path, metavar="FILE",
                      help=f"a plugin (.prc){files}")
    for kind, names in number_kinds().items():
        what.add_argument(f"--{kind}", type=number, metavar="N", dest=_dest(kind),
                          help=" or ".join(f"a {name} {kind}" for name in names))
    parser.add_argument("--to", type=address, metavar="HOST:PORT",
                        help="the receiver on this network (without it: --code CODE, an "
                             "internet code)")
    parser.add_argument("--code", metavar="NNNN|CODE",
                        help="the receiver's code (needed until the two handhelds are paired)")
    internet_settings.add_options(parser)
    parser.set_defaults(internet_parser=parser)
    parser.add_argument("--name", type=handheld_name, metavar="NAME",
                        help="this handheld's name (default: the machine's)")
    add_data_dir(parser)


def _item(args: argparse.Namespace) -> BeamItem:
    """What the command line names; ValueError (one line) for a file no one beams."""
    if args.file is not None:
        return items.file_item(args.file)
    kind, chosen = next((kind, value) for kind in number_kinds()
                        if (value := getattr(args, _dest(kind))) is not None)
    return items.number_item(kind, chosen)


def run(args: argparse.Namespace) -> int:
    parser: argparse.ArgumentParser = args.internet_parser
    if args.to is None and args.code is None:
        parser.error("the following arguments are required: --to")
    try:
        if args.code is not None:
            args.code = (code if args.to is not None else internet_settings.internet_code)(
                args.code)
    except argparse.ArgumentTypeError as err:
        parser.error(f"argument --code: {err}")
    internet = (internet_settings.from_args(args, parser, data_dir(args))
                if args.to is None else None)
    try:
        item = _item(args)
    except ValueError as err:
        return fail(str(err))
    log = logger("beam")
    if internet is not None:
        try:
            return asyncio.run(_by_code(args, internet, item, log))
        except MeetError as err:
            return fail(str(err))
    host, port = args.to
    return _send(args, item, host, port, args.code, address_text(host, port), log)


async def _by_code(args: argparse.Namespace, internet: internet_settings.Settings,
                   item: BeamItem, log: Callable[[str], None]) -> int:
    """Meet the receiver by its internet code, then beam through the door it opens."""
    from palmish.network.internet.joining import open_door
    from palmish.network.internet.reactor import shutdown
    try:
        door = await open_door(internet, args.code, wire.APP, say, log)
        try:
            return await asyncio.to_thread(_send, args, item, "127.0.0.1", door.port,
                                           door.table_code, f"the receiver of {args.code}",
                                           log)
        finally:
            await door.close()
    finally:
        await asyncio.to_thread(shutdown)


def _send(args: argparse.Namespace, item: BeamItem, host: str, port: int,
          pairing_code: str | None, where: str, log: Callable[[str], None]) -> int:
    folder = data_dir(args)
    clean_kept_temporaries(folder, log)  # what a killed save of its keys left
    try:
        identity = load_identity(folder, log)
        receivers = paired_receivers(folder, log)
    except OSError as err:
        return fail(f"{folder}: cannot keep this handheld's key: {err.strerror or err}")
    total = len(item.data)

    def progress(done: int, size: int) -> None:
        if size > wire.SHOWN_BYTES:
            log(f"sent {size_text(done)} of {size_text(size)}")

    def asking(title: str, what: str) -> None:
        size = f", {size_text(total)}" if total else ""
        log(f"{where} is asking its person about {printable(title)!r} ({what}{size})")

    outcome = asyncio.run(send_item(item, host, port, name=args.name or machine_name(),
                                    identity=identity, receivers=receivers, code=pairing_code,
                                    on_progress=progress, on_asking=asking))
    if outcome.note:
        log(outcome.note)
    receiver = repr(outcome.receiver) if outcome.receiver else where
    if outcome.status in ("failed", "unknown"):
        return fail(outcome.text)  # it names the receiver or the address itself
    if outcome.accepted:
        say(f"accepted by {receiver}: {outcome.text}")
        return EXIT_OK
    if outcome.status == "code" and pairing_code is None:
        return fail(f"{receiver}: {outcome.text}; give it with --code NNNN")
    return fail(f"{receiver}: {outcome.text}")
