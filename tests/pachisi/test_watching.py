"""A spectator on Square, which has no log, sees that it watches and which table:
in a corner nobody sits in, or in the die's place of a corner not throwing."""

from __future__ import annotations

from pathlib import Path

import pytest
from PIL import ImageChops

from palmish.device.display import CONFIGS, ConfigName
from palmish.device.machine.system import Device
from palmish.network.engine import Arrival, NetworkRecord, record_event
from palmish.network.fairdice import JoinerDice
from palmish.network.session.kinds import Join
from palmish.network.session.records import Record
from palmish.pachisi import Game, Player
from palmish.pachisi.app import PachisiApp
from palmish.pachisi.layout import layout_for
from palmish.pachisi.net.seats import HostSeat, JoinSeat
from palmish.pachisi.net.table import HostTable
from palmish.pachisi.view import Scene, watch_corner
from tests.game_devices import start_device

WATCHER = 6  # the host's number for the spectator's connection


class Watched:
    """A host (Ann and Silicon) and a spectator's device, records handed over in-process."""

    def __init__(self, built: Path, tmp: Path, config: str, seats: list[str]) -> None:
        self.host_app, self.watch_app = PachisiApp(), PachisiApp()
        self.host = start_device(self.host_app, "pachisi", built, ConfigName(config),
                                 tmp / "host")
        self.watcher = start_device(self.watch_app, "pachisi", built, ConfigName(config),
                                    tmp / "watch")
        self.to_watcher: list[NetworkRecord] = []
        self.to_host: list[NetworkRecord] = []
        table = HostTable.create(seats, "1234", "Kitchen", "Ann", seed=3, level="easy")
        self.host_app.net = HostSeat(table, self._host_sends)
        self.watch_app.net = JoinSeat(self._watcher_sends, dice_part=JoinerDice(contribute=False))
        self._watcher_sends(Join(watch=True))
        self.deliver()
        self.host_app.net.start()
        self.host_app._net_sync(0)
        self.deliver()

    def _host_sends(self, peer: int, record: Record) -> None:
        assert peer == WATCHER
        self.to_watcher.append(record_event(0, record))

    def _watcher_sends(self, record: Record) -> None:
        self.to_host.append(record_event(WATCHER, record, Arrival(b"w" * 32, None)))

    def deliver(self) -> None:
        for _ in range(100):
            if not (self.to_host or self.to_watcher):
                return
            if self.to_host:
                self.host.post(self.to_host.pop(0))
            if self.to_watcher:
                self.watcher.post(self.to_watcher.pop(0))


def corner_differs(a: Device, b: Device, config: str, seat: int) -> bool:
    box = layout_for(CONFIGS[ConfigName(config)]).corner(seat)
    crop = (box.x, box.y, box.right, box.bottom)
    diff = ImageChops.difference(a.screen.image.convert("RGB").crop(crop),
                                 b.screen.image.convert("RGB").crop(crop))
    return diff.getbbox() is not None


@pytest.mark.parametrize("config", ["square-low", "square"])
def test_a_spectator_on_square_sees_it_watches_in_the_empty_corner(
        built_plugins: Path, tmp_path: Path, config: str) -> None:
    watched = Watched(built_plugins, tmp_path, config, ["host", "computer", "computer"])
    app = watched.watch_app
    assert app.net is not None and app.game is app.net.game
    assert [p.name for p in app.game.players] == ["Ann", "Silicon", "Silicon1"]
    app.paint()
    assert app.scene.watching == "Kitchen"
    watched.host_app.paint()
    assert watched.host_app.scene.watching is None  # the host has a seat: it plays
    seat, empty = watch_corner(app.game, app.scene)
    assert (seat, empty) == (3, True)  # three players sit South, West, North
    # the same game on both devices: only the spectator's empty corner has writing
    assert corner_differs(watched.host, watched.watcher, config, 3)
    for taken in (0, 1, 2):
        assert not corner_differs(watched.host, watched.watcher, config, taken)


def test_on_tall_the_log_says_it_and_no_corner_does(built_plugins: Path,
                                                    tmp_path: Path) -> None:
    watched = Watched(built_plugins, tmp_path, "tall", ["host", "computer", "computer"])
    app = watched.watch_app
    app.paint()
    watched.host_app.paint()
    assert "You are watching." in app.scene.log
    assert not corner_differs(watched.host, watched.watcher, "tall", 3)


def test_at_four_players_the_corner_across_from_the_thrower_unless_away() -> None:
    game = Game.from_position([Player(n) for n in ("Ann", "Bob", "Cy", "Di")],
                              [[10, 0, 0, 0]] * 4)
    assert game.current == 0 and game.seats == (0, 1, 2, 3)
    scene = Scene(game, watching="Kitchen")
    assert watch_corner(game, scene) == (2, False)  # never the thrower's, where the die is
    scene.away = {2: "away"}
    assert watch_corner(game, scene) == (1, False)  # the away line keeps its place
    scene.away = {1: "away", 2: "Silicon", 3: "away"}
    assert watch_corner(game, scene) == (2, False)  # nothing free: across, over the state
    scene.away = {}
    scene.shown_throw = (1, 4)  # Bob's lost throw still shown in his corner
    assert watch_corner(game, scene) == (3, False)


def test_two_players_use_the_first_empty_corner() -> None:
    game = Game.from_position([Player("Ann"), Player("Bob")], [[10, 0, 0, 0]] * 2)
    assert game.seats == (0, 2)
    assert watch_corner(game, Scene(game, watching="Kitchen")) == (1, True)
