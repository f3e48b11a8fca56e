"""Write docs/screenshots/network-<scene>-<config>.png: a network game of Pachisi.

    .venv/bin/python -m palmish.pachisi.net.make_screenshots [--out DIR]

Three devices in one process, each handing the others' records to its device
as the window's network thread does (NetworkRecord events; no sockets, the
same code the window runs): the host
(Ann, with Silicon in the third seat), a joiner, Bob, and a spectator. Scenes,
in every configuration: `host` the Host form (seats, away wait, timer,
announce), `lobby` the host's waiting room, `waiting` Bob's waiting room once
he sat down, `join` Bob's device on his turn mid-game, `watch` the
spectator's device then, `away` the host after Bob's device dropped; across
the internet (docs/network.md, "Across the internet", a stand-in for the
window's network service saying what it would): `internet-lobby` the host's
waiting room with the code to read out and Bob relayed, `internet-waiting`
Bob's saying how he is connected, `join-code` Join's choice with Code...
The pictures are the LCD, without a skin.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial
from pathlib import Path

from palmish.boardgame.net_dialogs import host_form
from palmish.boardgame.screenshots import every_config, screenshot_arguments, start
from palmish.boardgame.screenshots import save as save_lcd
from palmish.device.display import ConfigName
from palmish.device.events import Key, KeyDown, MenuCommand, NetworkClosed
from palmish.device.machine.services import Internet
from palmish.device.machine.system import Device, Services
from palmish.network.engine import Arrival, NetworkRecord, record_event
from palmish.network.fairdice import JoinerDice
from palmish.network.session.kinds import Join
from palmish.network.session.records import Record
from palmish.pachisi.app import PachisiApp
from palmish.pachisi.net.seats import HostSeat, JoinSeat
from palmish.pachisi.net.table import HostTable

SEED = 7
BOB = 5  # the host's number for Bob's connection
WATCHER = 6  # and for the spectator's
STEPS = 60  # well into the game


BOB_ARRIVAL = Arrival(b"\x0b" * 32, b"\xb0" * 32)  # what a session would prove of Bob


class Wire:
    """Records in flight between the host and the other two devices."""

    def __init__(self) -> None:
        self.to_host: list[NetworkRecord] = []
        self.to_host_from_watcher: list[NetworkRecord] = []
        self.to_bob: list[NetworkRecord] = []
        self.to_watcher: list[NetworkRecord] = []

    def host_sends(self, peer: int, record: Record) -> None:
        (self.to_watcher if peer == WATCHER else self.to_bob).append(record_event(0, record))

    def bob_sends(self, record: Record) -> None:
        self.to_host.append(record_event(BOB, record, BOB_ARRIVAL))

    def watcher_sends(self, record: Record) -> None:
        self.to_host_from_watcher.append(record_event(WATCHER, record, Arrival(b"w" * 32, None)))

    def deliver(self, host: Device, bob: Device, watcher: Device) -> None:
        for _ in range(10_000):
            if not (self.to_host or self.to_bob or self.to_watcher or self.to_host_from_watcher):
                return
            if self.to_host:
                host.post(self.to_host.pop(0))
            if self.to_host_from_watcher:
                host.post(self.to_host_from_watcher.pop(0))
            if self.to_bob:
                bob.post(self.to_bob.pop(0))
            if self.to_watcher:
                watcher.post(self.to_watcher.pop(0))


class StandInNetwork:
    """The window's network service as the waiting room asks it: `view` is what
    it would say across the internet (None: a game on this network only)."""

    announces = False

    def __init__(self) -> None:
        self.view: Internet | None = None

    def internet(self) -> Internet | None:
        return self.view

    def found_games(self) -> Sequence[tuple[str, str]]:
        return ()

    def saved_game(self) -> str | None:
        return None

    def kept_table(self) -> tuple[str, str, str, str | None] | None:
        return None

    def forget_table(self) -> None:
        pass

    def host(self, seats: Sequence[str], name: str, advertise: bool, wait_s: float,
             turn_s: float | None, resume: bool = False,
             internet: bool = False) -> tuple[object, str]:
        raise OSError("a picture hosts nothing")

    def join(self, address: str, code: str, name: str | None) -> object:
        raise OSError("a picture joins nothing")

    def join_by_code(self, code: str, name: str | None) -> object:
        raise OSError("a picture joins nothing")


def shoot(config: ConfigName, tmp: Path, out: Path) -> None:
    def save(device: Device, scene: str, config: ConfigName) -> None:
        save_lcd(device, f"network-{scene}", config, out=out)

    host_app, bob_app, watcher_app = PachisiApp(), PachisiApp(), PachisiApp()
    host = start(config, tmp / f"host-{config.value}", host_app, "pachisi")
    bob = start(config, tmp / f"bob-{config.value}", bob_app, "pachisi")
    hosting, joining = StandInNetwork(), StandInNetwork()
    host.services = Services(network=lambda _device: hosting)
    bob.services = Services(network=lambda _device: joining)
    watcher = start(config, tmp / f"watcher-{config.value}", watcher_app, "pachisi")
    host_app.open_form(host_form(), lambda result: None)
    save(host, "host", config)
    host.post(KeyDown(Key.CANCEL))
    host_app.open_form(host_form(announces=False), lambda result: None)  # --no-discovery
    save(host, "host-no-discovery", config)
    host.post(KeyDown(Key.CANCEL))
    wire = Wire()
    table = HostTable.create(["host", "remote", "remote", "computer"], "4821", "Kitchen",
                             "Ann", seed=SEED, level="easy")
    host_app.net = HostSeat(table, wire.host_sends)
    host_app._net_address = "192.168.1.20:40731"
    host_app._net_lobby()
    bob_dice = JoinerDice(contribute=False)  # the same pictures every time: SEED's throws
    bob_app.net = JoinSeat(wire.bob_sends, dice_part=bob_dice)
    wire.bob_sends(Join("Bob", dice=bob_dice.commitment))
    wire.deliver(host, bob, watcher)
    save(host, "lobby", config)
    save(bob, "waiting", config)
    hosting.view = Internet(code="7-cobra-lantern", paths=(("Bob", "relayed"),))
    joining.view = Internet(path="relayed")
    for app in (host_app, bob_app):
        app.net_news()  # as the service's NetworkNews would
    save(host, "internet-lobby", config)
    save(bob, "internet-waiting", config)
    hosting.view = joining.view = None
    for app in (host_app, bob_app):
        app.net_news()
    watcher_app.net = JoinSeat(wire.watcher_sends, dice_part=JoinerDice(contribute=False))
    wire.watcher_sends(Join(watch=True))
    wire.deliver(host, bob, watcher)
    host_app.net.start()  # the open seat goes to Silicon
    host_app._net_sync(0)
    for _ in range(2000):
        wire.deliver(host, bob, watcher)
        if len(table.steps) >= STEPS and bob_app.human_turn and bob_app.game.phase == "move":
            break
        for device in (host, bob, watcher):
            while device.modals:
                device.post(KeyDown(Key.SELECT))
        if host_app.human_turn:
            host.post(KeyDown(Key.SELECT))
        elif bob_app.human_turn:
            bob.post(KeyDown(Key.SELECT))
        else:
            host.advance(host.now_ms + 600)
    else:
        raise SystemExit("Bob's turn never came; choose another SEED")
    bob.post(KeyDown(Key.DOWN))  # Bob's marker on another piece
    wire.deliver(host, bob, watcher)
    save(bob, "join", config)
    save(watcher, "watch", config)
    host.post(NetworkClosed(BOB))
    save(host, "away", config)
    lone_app = PachisiApp()
    lone = start(config, tmp / f"lone-{config.value}", lone_app, "pachisi")
    lone.services = Services(network=lambda _device: StandInNetwork())
    lone.post(MenuCommand("network"))
    lone.post(KeyDown(Key.RIGHT))
    lone.post(KeyDown(Key.SELECT))  # Join: Other... and Code...
    lone.post(KeyDown(Key.RIGHT))  # Code...
    save(lone, "join-code", config)


def main(argv: Sequence[str] | None = None) -> int:
    return every_config(partial(shoot, out=screenshot_arguments(__doc__, argv)))


if __name__ == "__main__":
    raise SystemExit(main())
