"""Write docs/screenshots/beam-<scene>-<config>.png: Beam in the window.

    .venv/bin/python docs/screenshots/make_beam_screenshots.py

One device per configuration, with a stand-in for the window's beam service
(no sockets: the beam events are posted as the network thread would post
them). Scenes: `receive` the launcher's Beam Receive screen (name, address,
code, key, paired handhelds), `pick` PalmIshido's Beam Deal asking for a handheld
(one found nearby, and Other...), `sending` the sender's bar while the
receiver's person decides, `accept` the receiver asked over Sigmar's Garden,
`progress` a large plugin arriving; across the internet (docs/network.md,
"Across the internet"): `receive-code` the Beam Receive screen once its Code
button got an internet code, `pick-code` the handheld picked By code... The
pictures are the LCD, without a skin.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial
from pathlib import Path

from palmish.apps import installed_apps
from palmish.boardgame.screenshots import every_config, screenshot_arguments
from palmish.boardgame.screenshots import save as save_lcd
from palmish.device.beam.beaming import Receiving, Sending
from palmish.device.display import CONFIGS, ConfigName
from palmish.device.events import BeamOffered, BeamProgress, CharKey, Key, KeyDown, MenuCommand
from palmish.device.exchange import PLUGIN, BeamItem, Checked
from palmish.device.machine.system import Device, Services


class StandIn:
    """The beam service as the dialogs see it, with fixed answers."""

    def __init__(self, device: Device) -> None:
        self.device = device
        self.internet = ""  # the internet code, once asked for

    def receiving(self) -> Receiving | None:
        return Receiving("Kitchen", "192.168.1.23:40732", "4821", "5F0C-9A12-77B3-0E41",
                         self.internet)

    def receive_by_code(self) -> str | None:
        self.internet = "7-cobra-lantern"
        return None

    def set_receiving(self, on: bool) -> str | None:
        return None

    def answer(self, ticket: int, accept: bool) -> str:
        return "Declined."

    def nearby(self) -> Sequence[tuple[str, str]]:
        return [("Lounge", "192.168.1.40:40732")]

    def paired(self) -> list[str]:
        return ["Lounge", "Study"]

    def forget(self, name: str | None) -> int:
        return 0

    def send(self, item: BeamItem, address: str, code: str | None = None,
             by_code: bool = False) -> int:
        return 1

    def cancel(self, ticket: int) -> None:
        pass

    def start(self, sending: Sending) -> None:
        self.device.beams.send(self, sending)


def close_all(device: Device) -> None:
    for _ in range(8):
        if not device.modals:
            return
        device.post(KeyDown(Key.CANCEL))


def type_number(device: Device, command: str, digits: str) -> None:
    """Game > Deal number... or Board Number..., typed into its keypad."""
    device.post(MenuCommand(command))
    for char in digits + "\n":
        device.post(CharKey(char))
    close_all(device)


def shoot(config: ConfigName, tmp: Path, out: Path) -> None:
    def save(device: Device, scene: str, config: ConfigName) -> None:
        save_lcd(device, f"beam-{scene}", config, out=out)

    device = Device(CONFIGS[config], tmp / config.value, installed_apps(), "launcher",
                    durable=False, alerts=False, services=Services(beam=StandIn))
    device.storage.save_prefs("lnch", {"beam_receive": True})
    device.post(MenuCommand("beam"))
    save(device, "receive", config)
    close_all(device)
    stand_in = device.beam_service()
    assert isinstance(stand_in, StandIn)
    stand_in.receive_by_code()  # its Code button pressed
    device.post(MenuCommand("beam"))
    save(device, "receive-code", config)
    close_all(device)

    device.switch_to("PalmIshido")
    type_number(device, "deal", "77")  # the same pictures every run
    device.post(MenuCommand("beam"))
    save(device, "pick", config)
    for _ in range(2):
        device.post(KeyDown(Key.RIGHT))  # past Other... to By code...
    save(device, "pick-code", config)
    close_all(device)
    device.post(MenuCommand("beam"))
    device.post(CharKey("\n"))  # Beam, to Lounge
    save(device, "sending", config)
    close_all(device)

    device.switch_to("Sigmar's Garden")
    type_number(device, "board", "1234")
    device.post(BeamOffered(2, "Lounge", BeamItem(PLUGIN, data=b""),
                            Checked("Jade Board", "Board plugin for PalmIshido"), 46080,
                            note="new here, key 1A2B-3C4D-5E6F-7A8B"))
    save(device, "accept", config)
    close_all(device)
    device.post(BeamProgress(3, False, 393216, 655360))
    save(device, "progress", config)
    close_all(device)
    device.shutdown()


def main(argv: Sequence[str] | None = None) -> int:
    return every_config(partial(shoot, out=screenshot_arguments(__doc__, argv)))


if __name__ == "__main__":
    raise SystemExit(main())
