"""What a network game shows in every configuration (docs/network.md, "The
window"): the Host form fits without scrolling, the waiting room replaces the
board until the game starts (and a key does not clear it), an away seat's
state is a line of its own in its corner, and the Throw and Pass buttons are
live only on the device whose person is in turn."""

from __future__ import annotations

from pathlib import Path

import pytest

from palmish.boardgame.net_dialogs import host_form
from palmish.device.display import ConfigName
from palmish.device.events import (
    CharKey,
    Key,
    KeyDown,
    NetworkClosed,
    NetworkLine,
    PenDown,
    PenUp,
)
from palmish.device.ui.form import CheckBox, Form
from palmish.device.ui.name_entry import NameEntry
from palmish.frontend.input import text_event
from palmish.pachisi.app import PachisiApp
from palmish.pachisi.net.seats import HostSeat, JoinSeat
from palmish.pachisi.net.table import HostTable
from tests.game_devices import start_device
from tests.network.wire import Wire

BOB = 3


@pytest.mark.parametrize("config", list(ConfigName))
def test_the_host_form_fits_without_scrolling(built_plugins: Path, tmp_path: Path,
                                              config: ConfigName) -> None:
    app = PachisiApp()
    device = start_device(app, "pachisi", built_plugins, config, tmp_path / "d")
    app.open_form(host_form(), lambda result: None)
    form = device.modals[-1]
    assert isinstance(form, Form)
    assert form._scroll is None  # every field in view
    seat_rows = [form.control_rects(f"seat{i}") for i in range(4)]
    assert all(len(parts) == 1 for parts in seat_rows)  # one trigger each, nothing wraps
    tops = [parts[0].y for parts in seat_rows]
    assert tops == sorted(set(tops))  # a row each
    assert form.bounds.bottom <= device.config.app_bounds.bottom


@pytest.mark.parametrize("config", [ConfigName.SQUARE, ConfigName.WIDE])
def test_without_discovery_announcing_is_off_greyed_and_says_why(
        built_plugins: Path, tmp_path: Path, config: ConfigName) -> None:
    app = PachisiApp()
    device = start_device(app, "pachisi", built_plugins, config, tmp_path / "d")
    app.open_form(host_form(advertise=True, announces=False), lambda result: None)
    form = device.modals[-1]
    assert isinstance(form, Form) and form._scroll is None
    announce = form.fields[-1]
    assert isinstance(announce, CheckBox) and announce.greyed and not announce.checked
    assert announce.label == "Off: no discovery"
    box = form.control_rects("advertise")[0]
    assert box.right <= form.bounds.right  # the reason shows whole
    device.post(PenDown(box.x + 2, box.y + box.h // 2))  # the pen passes it by
    device.post(PenUp(box.x + 2, box.y + box.h // 2))
    seen = set()
    for _ in range(len(form.fields) + 1):  # and so does the focus, all the way round
        device.post(KeyDown(Key.DOWN))
        seen.add(form.focus)
    assert None in seen and len(form.fields) - 1 not in seen
    assert not announce.checked and form.values["advertise"] is False


def _pair(built: Path, tmp: Path, config: ConfigName) -> tuple[PachisiApp, PachisiApp, Wire]:
    host_app, bob_app = PachisiApp(), PachisiApp()
    start_device(host_app, "pachisi", built, config, tmp / "host")
    start_device(bob_app, "pachisi", built, config, tmp / "bob")
    wire = Wire()
    table = HostTable.create(["host", "remote", "remote"], "4821", "Kitchen", "Ann", seed=5)
    host_app.net = HostSeat(table, wire.host_sends)
    host_app._net_address = "10.0.0.2:40731"
    host_app._net_lobby()
    bob_app.net = JoinSeat(wire.joiner(BOB), dice_part=wire.join(BOB, "Bob"))
    return host_app, bob_app, wire


def _deliver(host_app: PachisiApp, bob_app: PachisiApp, wire: Wire) -> None:
    assert host_app.ctx is not None and bob_app.ctx is not None
    for _ in range(1000):
        if not wire.pending():
            return
        if wire.to_host:
            host_app.handle(wire.to_host.pop(0))
        if wire.to.get(BOB):
            bob_app.handle(wire.to[BOB].pop(0))


def test_the_waiting_room_shows_the_seats_and_whose_is_whose(built_plugins: Path,
                                                             tmp_path: Path) -> None:
    host_app, bob_app, wire = _pair(built_plugins, tmp_path, ConfigName("square-low"))
    _deliver(host_app, bob_app, wire)
    assert host_app.scene.lobby is not None and bob_app.scene.lobby is not None
    assert host_app.scene.lobby[:3] == ("Kitchen", "At 10.0.0.2:40731", "Join code: 4821")
    assert host_app.scene.lobby[3:6] == ("1 Ann (you)", "2 Bob", "3 open seat")
    assert bob_app.scene.lobby[:4] == ("Kitchen", "1 Ann", "2 Bob (you)", "3 open seat")
    assert "Join code: 4821" not in bob_app.scene.lobby  # only the host tells the code
    assert not bob_app.human_turn and not host_app.human_turn  # nobody plays yet
    bob_app.handle(KeyDown(Key.SELECT))  # a key neither clears the room nor sends a thing
    assert bob_app.scene.lobby is not None and wire.to_host == []
    assert host_app.net is not None
    host_app.net.start()  # the open seat goes to Silicon
    host_app._net_sync(0)
    _deliver(host_app, bob_app, wire)
    assert host_app.scene.lobby is None and bob_app.scene.lobby is None
    assert [p.name for p in bob_app.game.players] == ["Ann", "Bob", "Silicon"]


@pytest.mark.parametrize("config", list(ConfigName))
def test_an_away_seat_and_the_buttons_read_right_in_every_configuration(
        built_plugins: Path, tmp_path: Path, config: ConfigName) -> None:
    host_app, bob_app, wire = _pair(built_plugins, tmp_path, config)
    _deliver(host_app, bob_app, wire)
    assert host_app.net is not None
    host_app.net.start()
    host_app._net_sync(0)
    _deliver(host_app, bob_app, wire)
    assert host_app.scene.yours is True and bob_app.scene.yours is False  # Ann's turn
    host_app.handle(NetworkClosed(BOB))
    assert host_app.scene.away == {1: "away"}
    # The state is a line of its own: Bob's name line is drawn as without it, and
    # the line where his die goes on his turn says "away".
    assert host_app.ctx is not None and host_app.layout is not None
    seat = host_app.game.seats[1]
    name = host_app.layout.name_rect(seat)
    below = host_app.layout.die_rect(seat).union(host_app.layout.value_rect(seat))

    def corner() -> tuple[bytes, bytes]:
        host_app.paint()
        image = host_app.ctx.screen.image  # type: ignore[union-attr]
        return tuple(image.crop((r.x, r.y, r.right, r.bottom)).tobytes()
                     for r in (name, below))  # type: ignore[return-value]

    away = corner()
    host_app.scene.away = {}
    present = corner()
    assert away[0] == present[0] and away[1] != present[1]


def test_an_address_is_typed_with_its_dots() -> None:
    assert text_event(".", wants_text=True) == CharKey(".")
    assert text_event(".", wants_text=False) is None  # no app takes it
    entry = NameEntry("Host address", address=True)
    for ch in "192.168.100.200":
        entry._char(ch)
    assert entry.text == "192.168.100.200"
    name = NameEntry("Your name")
    for ch in "abcdefghijkl":
        name._char(ch)
    assert name.text == "Abcdefghij"  # a name: a capital first, at most 10


def test_an_installed_game_runs_behind_dialogs_when_its_app_does(tmp_path: Path) -> None:
    """The window's apps are LazyApp proxies: the device asks the proxy, which must
    ask the game (a menu on the host once stopped its Silicon seats)."""
    from palmish.apps import LazyApp, installed_apps, real_app

    lazy = next(a for a in installed_apps() if isinstance(a, LazyApp) and a.id == "pachisi")
    assert not lazy.runs_behind_dialogs()  # not even imported yet
    app = real_app(lazy)
    assert isinstance(app, PachisiApp) and not lazy.runs_behind_dialogs()
    app.net = JoinSeat(lambda message: None)
    assert lazy.runs_behind_dialogs()


@pytest.mark.parametrize("port", ["70000", "-1", "abc"])
def test_a_bad_network_port_is_one_usage_line(port: str,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    from palmish import cli

    with pytest.raises(SystemExit) as stopped:
        cli.main(["--network-port", port, "--screenshot", "never.png"])
    assert stopped.value.code == 2
    err = capsys.readouterr().err.splitlines()
    assert err[-1].startswith("palmish: error: argument --network-port: ")


@pytest.mark.parametrize("config", [ConfigName("square-low"), ConfigName("square")])
def test_a_long_name_in_turn_is_drawn_whole(built_plugins: Path, tmp_path: Path,
                                            config: ConfigName) -> None:
    """Ten letters do not fit a 160-pixel corner in bold: the name in turn is then
    drawn in the plain font, whole (the frame still says whose turn it is)."""
    from palmish.pachisi.game import Game, Player

    app = PachisiApp()
    device = start_device(app, "pachisi", built_plugins, config, tmp_path / "d")
    app.load_game(Game.new(seed=1, players=[Player("Christophe", False),
                                             Player("Alexandra", False)]))
    assert app.layout is not None and app.ctx is not None
    box = app.layout.name_rect(app.game.seats[0])
    std = app.ctx.screen.font("std")
    assert std.width("Christophe") <= box.w < app.ctx.screen.font("bold").width("Christophe")
    drawn: list[str] = []
    screen = app.ctx.screen
    text = screen.text

    def record(x: int, y: int, line: str, *args: object, **kwargs: object) -> int:
        drawn.append(line)
        return text(x, y, line, *args, **kwargs)  # type: ignore[arg-type]

    screen.text = record  # type: ignore[method-assign]
    app.paint()
    assert "Christophe" in drawn and "Alexandra" in drawn
    assert device.running_app is app


def test_a_refused_joiner_sees_why_and_how_to_leave(built_plugins: Path, tmp_path: Path) -> None:
    app = PachisiApp()
    device = start_device(app, "pachisi", built_plugins, ConfigName("square-low"), tmp_path)
    app.net = JoinSeat(lambda message: None)
    app._net_address = "10.0.0.2:40731"
    app._net_lobby()
    assert app.scene.lobby == ("Network Game", "Joining 10.0.0.2:40731...",
                               "Waiting for the host.")
    device.post(NetworkLine(0, '{"t":"refused","v":2,"reason":"wrong join code"}'))
    assert app.scene.lobby == ("Network Game", "Joining 10.0.0.2:40731...",
                               "Refused: wrong join code", "Game > Network Game... leaves.")
