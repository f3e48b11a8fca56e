"""The beam service the window's device and apps see (palmish.device.beam.beaming.
BeamService): the window's beam (window.WindowBeam) plus what the dialogs
need besides: Beam Receive turned on and off with the address it shows, and
a beam started with the device's dialogs. A window listening on a loopback
address, or started with --no-discovery, neither advertises nor browses (tests
and one-machine trials never multicast); its "To:" list then offers the
receivers beamed to lately."""

from __future__ import annotations

import ipaddress
from collections.abc import Sequence
from typing import TYPE_CHECKING

from palmish.device.addresses import BEAM_PORT, WINDOW_LISTEN, address_text
from palmish.device.beam.beaming import Receiving, Sending
from palmish.network.beam.window import WindowBeam, log
from palmish.network.discovery import lan_addresses

if TYPE_CHECKING:
    from pathlib import Path

    from palmish.device.machine.system import Device


class BeamWindowService(WindowBeam):
    def __init__(self, device: Device, data_dir: Path, name: str,
                 listen: str = WINDOW_LISTEN, port: int = BEAM_PORT,
                 discovery: bool = True) -> None:
        super().__init__(device, data_dir, name)
        self.listen, self.port = listen, port  # port 0: a free one (tests)
        self.discovery = discovery  # False (--no-discovery): never announce nor browse
        self._here: Receiving | None = None
        device.beams.service = self

    @property
    def local_only(self) -> bool:
        """Listening on loopback, or --no-discovery: no advertising, no browsing."""
        if not self.discovery:
            return True
        try:
            return ipaddress.ip_address(self.listen).is_loopback
        except ValueError:
            return self.listen == "localhost"

    def set_receiving(self, on: bool) -> str | None:
        if not on:
            self.stop_receiving()
            self._here = None
            return None
        try:
            host, port, code = self.start_receiving(self.listen, self.port,
                                                    advertise=not self.local_only)
        except (OSError, ValueError) as err:
            return str(err) or type(err).__name__
        shown = (lan_addresses(self.listen) or ["127.0.0.1"])[0] if host in ("0.0.0.0", "::") \
            else host
        address = address_text(shown, port)
        self._here = Receiving(self.name, address, code, self.identity().fingerprint)
        log(f"receiving on {address} code {code}")
        return None

    def receiving(self) -> Receiving | None:
        here = self._here
        if here is not None and self.internet_code:
            return here.replace(internet=self.internet_code)
        return here

    def nearby(self) -> Sequence[tuple[str, str]]:
        """The receivers found on the local network, then those beamed to lately
        (paired or not) at addresses not found again: what "To:" lists."""
        found = [] if self.local_only else self.found_receivers()
        addresses = {address for _name, address in found}
        return [*found, *((name, address) for name, address in self.recent_receivers()
                          if address not in addresses)]

    def start(self, sending: Sending) -> None:
        self.device.beams.send(self, sending)

