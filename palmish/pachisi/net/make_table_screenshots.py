"""Write docs/screenshots/network-<scene>-<config>.png: at a Pachisi table
(and, first, make_screenshots.py's pictures: the script Pachisi's descriptor
names for docs/network.md).

    .venv/bin/python -m palmish.pachisi.net.make_table_screenshots [--out DIR]

As make_screenshots.py does (devices in one process, the window's records
between them, no sockets): the host Ann, Bob at a joiner's device and
Silicon. Scenes, in every configuration: `say` Ann's Game > Table Message...
form, `said` Bob's board after Ann's
"Good luck!" (in her corner, and in the log where there is one), `leave`
Bob's Game > Leave Table question, `remove` the host's Remove Player... form,
`removed` Bob's device told it was removed, and after a game played to its
end `rematch` Bob's device asked about the host's rematch and `rematch-host`
the host's own rematch form. The pictures are the LCD, without a skin.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial
from pathlib import Path

from palmish.boardgame.screenshots import every_config, screenshot_arguments, start
from palmish.boardgame.screenshots import save as save_lcd
from palmish.device.display import ConfigName
from palmish.device.events import CharKey, Key, KeyDown, MenuCommand
from palmish.device.machine.system import Device
from palmish.network.fairdice import JoinerDice
from palmish.network.session.kinds import Join
from palmish.network.session.talk import TABLE_LEVEL
from palmish.pachisi.app import PachisiApp
from palmish.pachisi.net import make_screenshots
from palmish.pachisi.net.make_screenshots import Wire
from palmish.pachisi.net.seats import HostSeat, JoinSeat
from palmish.pachisi.net.table import HostTable

SEED = 7


def _table(config: ConfigName, tmp: Path, name: str) -> tuple[
        Device, PachisiApp, Device, PachisiApp, Device, Wire]:
    """Ann hosting, Bob sitting, a spectator nobody shows: the game started."""
    host_app, bob_app, watcher_app = PachisiApp(), PachisiApp(), PachisiApp()
    host = start(config, tmp / f"{name}-host-{config.value}", host_app, "pachisi")
    bob = start(config, tmp / f"{name}-bob-{config.value}", bob_app, "pachisi")
    watcher = start(config, tmp / f"{name}-watcher-{config.value}", watcher_app, "pachisi")
    wire = Wire()
    table = HostTable.create(["host", "remote", "computer"], "4821", "Kitchen", "Ann",
                             seed=SEED, level="easy")
    host_app.net = HostSeat(table, wire.host_sends)
    host_app._net_address = "192.168.1.20:40731"
    host_app._net_lobby()
    dice = JoinerDice(contribute=False)  # the same pictures every time: SEED's throws
    bob_app.net = JoinSeat(wire.bob_sends, dice_part=dice)
    wire.bob_sends(Join("Bob", dice=dice.commitment, table=TABLE_LEVEL))
    wire.deliver(host, bob, watcher)
    host_app._net_sync(0)
    wire.deliver(host, bob, watcher)
    return host, host_app, bob, bob_app, watcher, wire


def _play(host: Device, host_app: PachisiApp, bob: Device, bob_app: PachisiApp,
          watcher: Device, wire: Wire, until_over: bool, steps: int = 0) -> None:
    table = host_app.net.table if isinstance(host_app.net, HostSeat) else None
    assert table is not None
    for _ in range(20_000):
        wire.deliver(host, bob, watcher)
        game = host_app.game
        if (game.over if until_over else len(table.steps) >= steps and bob_app.human_turn):
            return
        for device in (host, bob):
            for _ in range(3):  # a "can't move" alert; a caution means Move (M)
                if device.modals:
                    caution = getattr(device.modals[-1], "title", "") == "Caution"
                    device.post(CharKey("m") if caution else KeyDown(Key.SELECT))
        if host_app.human_turn:
            host.post(KeyDown(Key.SELECT))
        elif bob_app.human_turn:
            bob.post(KeyDown(Key.SELECT))
        else:
            host.advance(host.now_ms + 600)
    raise SystemExit("the game did not get there; choose another SEED")


def shoot(config: ConfigName, tmp: Path, out: Path) -> None:
    def save(device: Device, scene: str) -> None:
        save_lcd(device, f"network-{scene}", config, out=out)

    host, host_app, bob, bob_app, watcher, wire = _table(config, tmp, "talk")
    _play(host, host_app, bob, bob_app, watcher, wire, until_over=False, steps=12)
    host.post(MenuCommand("say"))  # Ann's message, on Bob's turn
    save(host, "say")
    host.post(CharKey("\n"))  # Good luck!
    wire.deliver(host, bob, watcher)
    save(bob, "said")
    bob.post(MenuCommand("leave"))
    save(bob, "leave")
    bob.post(KeyDown(Key.CANCEL))
    host.post(MenuCommand("remove"))
    save(host, "remove")
    host.post(KeyDown(Key.CANCEL))
    host_app.net.remove(1, "silicon") if host_app.net is not None else None
    wire.deliver(host, bob, watcher)
    save(bob, "removed")

    host, host_app, bob, bob_app, watcher, wire = _table(config, tmp, "again")
    _play(host, host_app, bob, bob_app, watcher, wire, until_over=True)
    for device in (host, bob):  # Game Over: "Play again?" No, for now
        while device.modals:
            device.post(KeyDown(Key.CANCEL))
    host.post(MenuCommand("again"))  # Ann proposes a rematch: her form first
    save(host, "rematch-host")
    host.post(CharKey("\n"))  # Propose
    wire.deliver(host, bob, watcher)
    save(bob, "rematch")


def main(argv: Sequence[str] | None = None) -> int:
    out = screenshot_arguments(__doc__, argv)
    return (every_config(partial(make_screenshots.shoot, out=out))
            or every_config(partial(shoot, out=out)))


if __name__ == "__main__":
    raise SystemExit(main())
