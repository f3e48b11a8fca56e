"""`palmish beam` and `palmish receive` (docs/network.md, "Beam", "Headless").

    palmish beam (FILE | --board N | --deal N) --to HOST:PORT [--code NNNN]
                 [--name NAME] [--data-dir DIR]
    palmish receive [--accept] [--data-dir DIR] [--listen ADDRESS] [--port N]
                    [--advertise] [--name NAME] [--count N]
    palmish receive --paired | --forget NAME | --forget-all [--data-dir DIR]

Every problem is one line on standard error and exit 1 (2 for bad options).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the parser is built at every start: the rest is imported when it runs
    from palmish.device.exchange import BeamItem
    from palmish.network.beam.pairing import Pairings
    from palmish.network.beam.receiver import Arrival, Ended

EXIT_OK, EXIT_FAILED = 0, 1


def add_commands(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    from palmish.commands.host import _address, _code, _port

    beam = commands.add_parser("beam", help="beam a plugin, a level, a board or a deal to"
                                            " another handheld")
    what = beam.add_mutually_exclusive_group(required=True)
    what.add_argument("file", nargs="?", type=Path, metavar="FILE",
                      help="a plugin (.prc) or a Sigmar's Garden level (.dat)")
    what.add_argument("--board", type=_number, metavar="N", help="a Sigmar's Garden board")
    what.add_argument("--deal", type=_number, metavar="N", help="a PalmIshido deal")
    beam.add_argument("--to", type=_address, required=True, metavar="HOST:PORT")
    beam.add_argument("--code", type=_code, metavar="NNNN",
                      help="the receiver's code (needed until the two handhelds are paired)")
    beam.add_argument("--name", type=_device_name, metavar="NAME",
                      help="this handheld's name (default: the machine's)")
    beam.add_argument("--data-dir", type=Path, metavar="DIR", dest="command_data_dir")

    receive = commands.add_parser("receive", help="receive beams from other handhelds")
    receive.add_argument("--accept", action="store_true",
                         help="accept every item that passes the checks (default: decline)")
    receive.add_argument("--listen", default="127.0.0.1", metavar="ADDRESS",
                         help="the address to listen on (default 127.0.0.1)")
    receive.add_argument("--port", type=_port, default=0, metavar="N",
                         help="the TCP port (default 0: a free one, printed)")
    receive.add_argument("--advertise", action="store_true",
                         help="announce the receiver on the local network (DNS-SD)")
    receive.add_argument("--name", type=_device_name, metavar="NAME",
                         help="this handheld's name (default: the machine's)")
    receive.add_argument("--count", type=_number, default=0, metavar="N",
                         help="stop after N items (default 0: until interrupted)")
    pairing = receive.add_mutually_exclusive_group()
    pairing.add_argument("--paired", action="store_true",
                         help="list the paired handhelds and stop")
    pairing.add_argument("--forget", type=_device_name, metavar="NAME",
                         help="forget a paired handheld and stop")
    pairing.add_argument("--forget-all", action="store_true", dest="forget_all",
                         help="forget every paired handheld and stop")
    receive.add_argument("--data-dir", type=Path, metavar="DIR", dest="command_data_dir")


def _number(text: str) -> int:
    if not text.isdigit() or len(text) > 10 or int(text) >= 1 << 31:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number (0 to 2147483647)")
    return int(text)


def _device_name(text: str) -> str:
    from palmish.network.beam.wire import DEVICE_NAME

    if not DEVICE_NAME(text):
        raise argparse.ArgumentTypeError(
            f"{text!r} is not a handheld's name (1-40 characters, no control characters)")
    return text


def _fail(line: str) -> int:
    from prc_tools.text import printable

    print(f"palmish: {printable(line)}", file=sys.stderr, flush=True)
    return EXIT_FAILED


def _say(line: str) -> None:
    from prc_tools.text import printable

    print(printable(line), flush=True)


def _data_dir(args: argparse.Namespace) -> Path:
    from palmish.commands.host import _data_dir

    return _data_dir(args)


def _name(args: argparse.Namespace) -> str:
    from palmish.commands.host import table_name

    return str(args.name or table_name())


# ---------------------------------------------------------------------- beam


def run_beam(args: argparse.Namespace) -> int:
    import asyncio

    from palmish.device.addresses import address_text
    from palmish.device.beaming import size_text
    from palmish.network.beam import items, wire
    from palmish.network.beam.pairing import sender_key
    from palmish.network.beam.sender import send_item

    try:
        if args.file is not None:
            item = items.file_item(args.file)
        else:
            kind, number = ("board", args.board) if args.board is not None \
                else ("deal", args.deal)
            item = items.number_item(kind, number)
    except ValueError as err:
        return _fail(str(err))
    data_dir = _data_dir(args)
    try:
        key = sender_key(data_dir)
    except OSError as err:
        return _fail(f"{data_dir}: cannot keep this handheld's key: {err.strerror or err}")
    host, port = args.to
    where = address_text(host, port)
    total = len(item.data)

    def progress(done: int, size: int) -> None:
        if size > wire.SHOWN_BYTES:
            print(f"palmish beam: sent {size_text(done)} of {size_text(size)}",
                  file=sys.stderr, flush=True)

    def asking(title: str, what: str) -> None:
        from prc_tools.text import printable

        size = f", {size_text(total)}" if total else ""
        print(f"palmish beam: {where} is asking its person about {printable(title)!r}"
              f" ({printable(what)}{size})", file=sys.stderr, flush=True)

    outcome = asyncio.run(send_item(item, host, port, name=_name(args), key=key,
                                    code=args.code, on_progress=progress, on_asking=asking))
    receiver = repr(outcome.receiver) if outcome.receiver else where
    if outcome.status == "failed":
        return _fail(outcome.text)  # it names the receiver or the address itself
    if outcome.accepted:
        _say(f"accepted by {receiver}: {outcome.text}")
        return EXIT_OK
    if outcome.status == "code" and args.code is None:
        return _fail(f"{receiver}: {outcome.text}; give it with --code NNNN")
    return _fail(f"{receiver}: {outcome.text}")


# ---------------------------------------------------------------------- receive


def run_receive(args: argparse.Namespace) -> int:
    import asyncio

    from palmish.network.beam.pairing import Pairings

    data_dir = _data_dir(args)
    try:
        pairings = Pairings(data_dir)
    except ValueError as err:
        if not args.forget_all:
            return _fail(f"{err} (`palmish receive --forget-all` forgets every pairing)")
        pairings = Pairings(data_dir, damaged_ok=True)
    if args.paired or args.forget is not None or args.forget_all:
        return _pairing(args, pairings)
    try:
        return asyncio.run(_receive(args, data_dir, pairings))
    except OSError as err:
        return _fail(f"cannot listen on {args.listen}:{args.port}: {err.strerror or err}")


def _pairing(args: argparse.Namespace, pairings: Pairings) -> int:
    try:
        if args.paired:
            for name in pairings.names():
                _say(name)
            return EXIT_OK
        forgotten = pairings.forget(None if args.forget_all else args.forget)
    except OSError as err:
        return _fail(f"{pairings.path}: cannot write: {err.strerror or err}")
    if args.forget is not None and not forgotten:
        return _fail(f"no handheld named {args.forget!r} is paired")
    _say(f"forgot {forgotten} paired handheld{'s' if forgotten != 1 else ''}")
    return EXIT_OK


async def _receive(args: argparse.Namespace, data_dir: Path, pairings: Pairings) -> int:
    import asyncio

    from palmish.commands.host import _log
    from palmish.device.addresses import address_text
    from palmish.device.beaming import size_text
    from palmish.network.beam import wire
    from palmish.network.beam.receiver import Desk, serve
    from palmish.network.hosting import announce
    from palmish.network.protocol import new_code
    from palmish.network.transport import Server

    log = _log("receive")
    offers: list[Arrival] = []
    ended: list[Ended] = []
    def progress(ticket: int, received: int, size: int) -> None:
        if size > wire.SHOWN_BYTES:
            log(f"received {size_text(received)} of {size_text(size)}")

    desk = Desk(_name(args), new_code(), pairings, offers.append, ended.append, progress,
                log=log)
    server = Server(desk, log, kinds=wire.SENDER_KINDS, line_limit=wire.MAX_SENDER_LINE)
    host, port = await server.start(args.listen, args.port)
    _say(f"receiving on {address_text(host, port)} code {desk.code}")
    advert = await announce(desk.name, args.listen, port, log, wire.APP) \
        if args.advertise else None
    serving = asyncio.ensure_future(serve(desk, server))
    done = 0
    try:
        while args.count == 0 or done < args.count:
            await server.wait_activity(0.05)
            while offers:
                arrival = offers.pop(0)
                verdict, text = await _decide(args.accept, arrival, data_dir)
                desk.finish(arrival.ticket, verdict, text)
                server.flush()
            while ended:
                _say(_line(ended.pop(0)))
                done += 1
        await asyncio.sleep(0.1)  # the last result on its way
        return EXIT_OK
    finally:
        serving.cancel()
        await server.close()
        if advert is not None:
            await asyncio.to_thread(advert.close)


async def _decide(accept: bool, arrival: Arrival, data_dir: Path) -> tuple[str, str]:
    """Headless: --accept installs (or keeps) what passed the checks; else declines."""
    import asyncio

    from palmish.network.beam.receiver import ACCEPTED, DECLINED, FAILED

    if not accept:
        return DECLINED, "declined (this receiver runs without --accept)"
    try:
        return ACCEPTED, await asyncio.to_thread(_take, arrival, data_dir)
    except ValueError as err:
        return FAILED, f"could not be installed: {err}"


def _take(arrival: Arrival, data_dir: Path) -> str:
    """Install a file item through `palmish install`'s path; keep a board or a deal
    in its game's saved state, so the game opens it at its next start."""
    from palmish.device.storage import usable_dir
    from palmish.network.beam import items

    problem = usable_dir(data_dir)
    if problem:
        raise ValueError(problem)
    item = arrival.item
    if item.number is None:
        from palmish.device.plugins import PluginRegistry
        from palmish.device.resources import bundled_plugins_dir
        from palmish.device.storage import Storage, report_to_stderr

        storage = Storage(data_dir, report=report_to_stderr)
        registry = PluginRegistry(storage, bundled_plugins_dir(), storage.report)
        return items.install(item, storage, registry)
    return _keep_number(item, data_dir)


def _keep_number(item: BeamItem, data_dir: Path) -> str:
    from palmish.apps import hard_buttons, installed_apps, real_app
    from palmish.device.display import config_by_name
    from palmish.device.system import Device
    from palmish.network.beam import items

    found = items.game_for(item.kind, item.app)
    if found is None:
        raise ValueError(f"no game here takes a {item.kind}")
    game, beamable = found
    device = Device(config_by_name("square"), data_dir, installed_apps(), game.id,
                    exclusive=True, buttons=hard_buttons(), report=lambda message: None)
    try:
        beamable.open(real_app(device.running_app), item, ask=False)
    finally:
        device.shutdown()
    return f"{game.name} opens {item.kind} {item.number} at its next start"


def _line(ended: Ended) -> str:
    """One line per item for standard output: what it was, and what came of it."""
    from palmish.device.beaming import size_text

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

