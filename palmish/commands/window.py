"""`palmish` without a command word: the device in a window, with network games
and Beam offered to its apps (docs/network.md, "The window", "Beam").

Only this mode imports the frontend (and so pyglet), when the window opens: a
missing or broken pyglet is then one line. The network is imported only when an
app first asks for it (palmish.device.services): a start without network play
does not import asyncio.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import TYPE_CHECKING

from palmish.commands import start
from palmish.commands.args import data_dir
from palmish.commands.output import fail
from palmish.device import services
from palmish.device.addresses import GAME_PORT, WINDOW_LISTEN
from palmish.device.beam import beaming
from palmish.device.disk.storage import usable_dir
from palmish.device.machine.system import LAUNCHER_CREATOR, Device

if TYPE_CHECKING:
    from palmish.network.beam.device_service import BeamWindowService
    from palmish.network.service import WindowNetwork


def run(args: argparse.Namespace) -> int:
    folder = data_dir(args)
    problem = usable_dir(folder)
    if problem:
        return fail(problem)
    device = start.device(args, folder, durable=True)
    if isinstance(device, int):
        return device
    return open_window(device, args)


def open_window(device: Device, args: argparse.Namespace) -> int:
    """Show `device` in a window with the window's options (--device, --zoom and the
    network's) until it closes; its exit status."""
    try:
        from palmish.frontend.window import run as run_window
    except ImportError as exc:
        device.shutdown()
        return fail(f"the window cannot open: {exc}")
    offer_network(device, args)
    close_beam = offer_beam(device, args.network_listen)
    try:
        return run_window(device, skin=args.device, zoom=args.zoom,
                          cache_dir=device.storage.cache_dir)
    finally:
        close_beam()
        device.shutdown()


def offer_network(device: Device, args: argparse.Namespace) -> None:
    """The window's apps may host and join network games (docs/network.md), where
    --network-listen, --network-port and --no-discovery say."""
    made: list[WindowNetwork] = []

    def network() -> object:
        if not made:
            from palmish.network.discovery import machine_name
            from palmish.network.service import WindowNetwork

            port = GAME_PORT if args.network_port is None else args.network_port
            made.append(WindowNetwork(device, device.storage.data_dir, machine_name(),
                                      args.network_listen or WINDOW_LISTEN, port,
                                      not args.no_discovery))
        return made[0]

    services.network = network


def offer_beam(device: Device, listen: str | None) -> Callable[[], None]:
    """The window's apps may beam, and the device receives while the launcher's
    Beam Receive preference is on (docs/network.md, "Beam"). Returns what stops
    it all when the window closes."""
    made: list[BeamWindowService] = []

    def beam() -> object:
        if not made:
            from palmish.network.beam.device_service import BeamWindowService
            from palmish.network.discovery import machine_name

            made.append(BeamWindowService(device, device.storage.data_dir, machine_name(),
                                          listen or WINDOW_LISTEN))
        return made[0]

    services.beam = beam
    if device.storage.load_prefs(LAUNCHER_CREATOR).get("beam_receive") is True:
        beams = beaming.service()
        problem = beams.set_receiving(True) if beams is not None else None
        if problem:
            device.notify(f"Beam Receive is off: {problem}")

    def close() -> None:
        for made_beam in made:  # none when Beam was never used: asyncio stays unimported
            made_beam.close()

    return close
