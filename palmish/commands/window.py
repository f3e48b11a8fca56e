"""`palmish` without a command word: the device in a window, with network games
and Beam offered to its apps (docs/network.md, "The window", "Beam").

Only this mode imports the frontend (and so pyglet), when the window opens: a
missing or broken pyglet is then one line. The network is imported only when an
app first asks for it (palmish.device.machine.system.Services): a start without
network play does not import asyncio.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from palmish.commands import start
from palmish.commands.args import data_dir, no_discovery
from palmish.commands.output import fail
from palmish.device.addresses import BEAM_PORT, GAME_PORT, WINDOW_LISTEN
from palmish.device.disk.storage import usable_dir
from palmish.device.machine.installed_watch import InstalledWatch
from palmish.device.machine.system import LAUNCHER_CREATOR, Device, Services

if TYPE_CHECKING:
    from palmish.frontend.window import Watcher
    from palmish.network.beam.device_service import BeamWindowService
    from palmish.network.fairdice import JoinerDice
    from palmish.network.joining import JoinRequest
    from palmish.network.service import WindowNetwork


def run(args: argparse.Namespace) -> int:
    folder = data_dir(args)
    problem = usable_dir(folder)
    if problem:
        return fail(problem)
    services, close_services = window_services(args)
    device = start.device(args, folder, durable=True, services=services)
    if isinstance(device, int):
        return device
    return open_window(device, args, close_services, watchers=(InstalledWatch(device),))


def open_window(device: Device, args: argparse.Namespace,
                close_services: Callable[[], None], watchers: Sequence[Watcher] = ()) -> int:
    """Show `device` in a window with the window's options (--device, --zoom) until
    it closes, then close the services `window_services` made; its exit status.
    `watchers`: asked on the window's clock (palmish.frontend.window.Watcher)."""
    try:
        from palmish.frontend.window import run as run_window
    except ImportError as exc:
        device.shutdown()
        return fail(f"the window cannot open: {exc}")
    receive_beams(device)
    try:
        return run_window(device, skin=args.device, zoom=args.zoom,
                          cache_dir=device.storage.cache_dir, watchers=watchers)
    finally:
        close_services()
        device.shutdown()


def window_services(args: argparse.Namespace,
                    checked_join: tuple[JoinRequest, JoinerDice] | None = None,
                    ) -> tuple[Services, Callable[[], None]]:
    """What the window offers its apps (docs/network.md): network games where
    --network-listen, --network-port and --no-discovery say, and Beam ("Beam"),
    each made when an app first asks for it; and what closes them when the window
    closes (nothing when they were never used: asyncio stays unimported)."""
    made: list[BeamWindowService] = []

    def network(device: Device) -> WindowNetwork:
        from palmish.network.discovery import machine_name
        from palmish.network.service import WindowNetwork

        port = GAME_PORT if args.network_port is None else args.network_port
        return WindowNetwork(device, device.storage.data_dir, machine_name(),
                             args.network_listen or WINDOW_LISTEN, port, not no_discovery(args),
                             checked_join)

    def beam(device: Device) -> BeamWindowService:
        from palmish.network.beam.device_service import BeamWindowService
        from palmish.network.discovery import machine_name

        port = BEAM_PORT if args.beam_port is None else args.beam_port
        made.append(BeamWindowService(device, device.storage.data_dir, machine_name(),
                                      args.network_listen or WINDOW_LISTEN, port,
                                      discovery=not no_discovery(args)))
        return made[-1]

    def close() -> None:
        for made_beam in made:
            made_beam.close()
        internet = sys.modules.get("palmish.network.internet.reactor")
        if internet is not None:  # the internet was used: its reactor's threads stop
            internet.shutdown()

    return Services(network=network, beam=beam), close


def receive_beams(device: Device) -> None:
    """The device receives while the launcher's Beam Receive preference is on
    (docs/network.md, "Beam")."""
    if device.storage.load_prefs(LAUNCHER_CREATOR).get("beam_receive") is True:
        beams = device.beam_service()
        problem = beams.set_receiving(True) if beams is not None else None
        if problem:
            device.notify(f"Beam Receive is off: {problem}")
