"""Across the internet in the window (docs/network.md, "Across the internet"):
two window devices in one process, each with the window's real network or
beam service, driven by keys and taps as a person would: Game > Network
Game... > Host > Internet shows the code to read out, Join > Code... takes it
(no address, no port), each waiting room says how the joiner is connected,
and the game is played to its end alike on both; a dead rendezvous is said in
words; Beam by code. Magic Wormhole's real servers on 127.0.0.1 (its direct
hints restricted to loopback, or none: the relay forced), so nothing leaves
this machine. The reactor of the internet runs once per process: these tests
share one worker and stop it at the end."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from palmish.device.display import ConfigName
from palmish.device.events import CharKey, Key, KeyDown, MenuCommand, PenDown, PenUp
from palmish.device.machine.services import Internet
from palmish.device.machine.system import Device, Services
from palmish.device.ui.alert import Alert
from palmish.device.ui.form import Form
from palmish.device.ui.name_entry import NameEntry
from palmish.network.service import WindowNetwork
from palmish.pachisi.app import PachisiApp
from tests.game_devices import start_device
from tests.network.dialogs import answer_dialogs
from tests.network.processes import free_port
from tests.network.wormhole_servers import Servers

pytestmark = [pytest.mark.process, pytest.mark.xdist_group("internet-window")]

DEADLINE_S = 120.0  # generous: a loaded 2-core machine
GAME_S = 400.0
SHOTS = Path("/tmp/internetui-shots")


@pytest.fixture(scope="module", autouse=True)
def reactor_stopped_at_the_end() -> Iterator[None]:
    yield
    from palmish.network.internet.reactor import shutdown
    shutdown()


@pytest.fixture(scope="module")
def beam_built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from palmish.ishido.app import IshidoApp
    from tests.game_devices import build_plugins

    return build_plugins(tmp_path_factory, "beam-built", IshidoApp())


def use(monkeypatch: pytest.MonkeyPatch, env: dict[str, str]) -> None:
    for name in ("PALMISH_RENDEZVOUS", "PALMISH_RELAY", "PALMISH_DIRECT", "PALMISH_LAN"):
        monkeypatch.setenv(name, env[name])


SERVICES: dict[int, WindowNetwork] = {}  # each device's, by id


def window_device(built: Path, data: Path, name: str,
                  config: ConfigName = ConfigName.SQUARE) -> tuple[PachisiApp, Device]:
    """A device with the window's network service (loopback, no discovery)."""
    def made(device: Device) -> WindowNetwork:
        SERVICES[id(device)] = WindowNetwork(device, data, name, listen="127.0.0.1", port=0,
                                             discovery=False)
        return SERVICES[id(device)]

    app = PachisiApp()
    device = start_device(app, "pachisi", built, config, data,
                          services=Services(network=made))
    return app, device


def service(device: Device) -> WindowNetwork:
    return SERVICES[id(device)]


def pump(devices: tuple[Device, ...], until: Callable[[], bool],
         seconds: float = DEADLINE_S, step_ms: int = 20) -> None:
    """What the network put in each inbox, posted, until `until` holds (bounded)."""
    deadline = time.monotonic() + seconds
    while not until():
        assert time.monotonic() < deadline, f"not in time: {until.__doc__}"
        for device in devices:
            device.post_waiting()
            device.advance(device.now_ms + step_ms)
        time.sleep(0.01)


def tap(device: Device, x: int, y: int) -> None:
    device.post(PenDown(x, y))
    device.post(PenUp(x, y))


def type_text(device: Device, text: str) -> None:
    for char in text:
        device.post(CharKey(char))


def host_over_internet(device: Device, two: bool = False) -> Alert:
    """Game > Network Game... > Host, the form's Internet button, the name kept;
    `two`: seat 3 None (You and one open seat)."""
    device.post(MenuCommand("network"))
    device.post(KeyDown(Key.SELECT))  # Host
    form = device.modals[-1]
    assert isinstance(form, Form) and form.row.labels() == ("Host", "Internet", "Cancel")
    if two:
        for key in (Key.DOWN, Key.DOWN, Key.RIGHT, Key.RIGHT):
            device.post(KeyDown(key))
        assert form.values["seat2"] == 3
    internet = form.row.rects()[1]
    tap(device, internet.x + internet.w // 2, internet.y + internet.h // 2)
    assert isinstance(device.modals[-1], NameEntry)
    device.post(CharKey("\n"))  # the name shown
    said = device.modals[-1]
    assert isinstance(said, Alert)
    return said


def join_by_code(device: Device, code: str, name: str | None) -> None:
    """Join > Code..., the code typed, Sit and the name typed (or Watch)."""
    device.post(MenuCommand("network"))
    device.post(KeyDown(Key.RIGHT))
    device.post(KeyDown(Key.SELECT))  # Join
    form = device.modals[-1]
    assert isinstance(form, Form)
    choice = form.control_rects("game")[-1]  # Code..., after Other...
    tap(device, choice.x + choice.w // 2, choice.y + choice.h // 2)
    device.post(CharKey("\n"))  # OK
    entry = device.modals[-1]
    assert isinstance(entry, NameEntry) and entry.title == "Internet code"
    type_text(device, code + "\n")
    if name is None:
        device.post(KeyDown(Key.RIGHT))
        device.post(KeyDown(Key.SELECT))  # Watch
        return
    device.post(KeyDown(Key.SELECT))  # Sit
    for _ in range(12):
        device.post(CharKey("\b"))
    type_text(device, name + "\n")


def lobby(app: PachisiApp) -> tuple[str, ...]:
    return app.scene.lobby or ()


def shot(device: Device, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    device.screen.image.save(SHOTS / f"{name}.png")


def code_in(app: PachisiApp) -> str:
    line = next(line for line in lobby(app) if line.startswith("Internet code: "))
    return line.removeprefix("Internet code: ")


def has_code(app: PachisiApp) -> Callable[[], bool]:
    return lambda: any(line.startswith("Internet code: ") for line in lobby(app))


@pytest.mark.parametrize("direct,lan,path", [("off", "off", "relayed"),
                                             ("127.0.0.1", "off", "direct"),
                                             ("off", "127.0.0.1", "lan")])
def test_a_window_hosts_by_code_and_another_joins_by_code_to_the_end(
        built_plugins: Path, tmp_path: Path, servers: Servers,
        monkeypatch: pytest.MonkeyPatch, direct: str, lan: str, path: str) -> None:
    use(monkeypatch, servers.env(direct, lan=lan))
    host_app, host = window_device(built_plugins, tmp_path / "host", "Kitchen")
    bob_app, bob = window_device(built_plugins, tmp_path / "bob", "Den")
    try:
        said = host_over_internet(host, two=True)
        assert "over the internet" in said.message and "code to read out" in said.message
        host.post(KeyDown(Key.SELECT))
        pump((host,), has_code(host_app))
        code = code_in(host_app)
        join_by_code(bob, code, "bob")
        assert lobby(bob_app)[1] == f"Joining {code}..."
        hosting, joining = service(host), service(bob)
        pump((host, bob), lambda: bob_app.scene.lobby is None and host_app.scene.lobby is None)
        assert [p.name for p in bob_app.game.players] == ["You", "Bob"]  # every seat taken
        seen = hosting.internet()
        # the host names the path of a joiner that came to its table itself "LAN"
        shown = {"lan": "LAN"}.get(path, path)
        assert seen is not None and seen.code == code and seen.paths == (("Bob", shown),)
        assert joining.internet() == Internet(path=path)
        assert bob_app.network_lines()[0] == f"Connected: {path}"  # under the log, mid-game
        assert host_app.network_lines()[0] == f"Internet code: {code}"

        table = host_app.net.table  # type: ignore[union-attr]
        mirror = bob_app.net.mirror  # type: ignore[union-attr]

        def over() -> bool:
            """the game over on both (the host's table, the joiner's copy of its end)"""
            for device, app, done in ((host, host_app, table.over),
                                      (bob, bob_app, mirror.record is not None)):
                if done:  # nothing pressed any more: no new game starts
                    continue
                answer_dialogs(device)
                if app.human_turn:
                    device.post(KeyDown(Key.SELECT))
            return table.over and mirror.record is not None

        pump((host, bob), over, GAME_S, 1000)
        assert mirror.record == table.record()
        assert mirror.verdict == "verified"  # the dice were fair, through the relay too
    finally:
        for app in (host_app, bob_app):
            app.leave_network()
        for device in (host, bob):
            device.shutdown()


def test_each_waiting_room_says_how_the_joiner_is_connected(
        built_plugins: Path, tmp_path: Path, servers: Servers,
        monkeypatch: pytest.MonkeyPatch) -> None:
    use(monkeypatch, servers.env("off"))
    host_app, host = window_device(built_plugins, tmp_path / "host", "Kitchen")
    bob_app, bob = window_device(built_plugins, tmp_path / "bob", "Den")
    try:
        host_over_internet(host)
        host.post(KeyDown(Key.SELECT))
        pump((host,), has_code(host_app))
        code = code_in(host_app)
        assert lobby(host_app)[:3] == ("Kitchen", f"Internet code: {code}",
                                       lobby(host_app)[2])
        assert lobby(host_app)[2].startswith("LAN: 127.0.0.1:")  # and its join code
        shot(host, "host-code")
        join_by_code(bob, code, "bob")
        pump((host, bob), lambda: "2 Bob (relayed)" in lobby(host_app)
             and "2 Bob (you)" in lobby(bob_app))
        assert lobby(host_app)[3:6] == ("1 You (you)", "2 Bob (relayed)", "3 open seat")
        assert lobby(bob_app)[:5] == ("Kitchen", "Connected: relayed", "1 You", "2 Bob (you)",
                                      "3 open seat")
        shot(host, "host-seats")
        shot(bob, "joiner-connected")
    finally:
        for app in (host_app, bob_app):
            app.leave_network()
        for device in (host, bob):
            device.shutdown()


def test_a_dead_rendezvous_is_said_in_words_on_both_sides(
        built_plugins: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    dead = f"ws://127.0.0.1:{free_port()}/v1"  # nothing listens there
    monkeypatch.setenv("PALMISH_RENDEZVOUS", dead)
    monkeypatch.setenv("PALMISH_RELAY", f"tcp:127.0.0.1:{free_port()}")
    monkeypatch.setenv("PALMISH_DIRECT", "off")
    monkeypatch.setenv("PALMISH_LAN", "off")
    host_app, host = window_device(built_plugins, tmp_path / "host", "Kitchen")
    bob_app, bob = window_device(built_plugins, tmp_path / "bob", "Den")
    words = f"Cannot reach the rendezvous server at {dead}: check the internet connection"
    try:
        host_over_internet(host)
        host.post(KeyDown(Key.SELECT))
        join_by_code(bob, "7-cobra-lantern", "bob")
        pump((host, bob), lambda: f"Internet: {words}" in lobby(host_app)
             and words in lobby(bob_app))
        assert lobby(host_app)[2].startswith("LAN: 127.0.0.1:")  # the LAN still joins
        shot(host, "host-dead-rendezvous")
        shot(bob, "joiner-dead-rendezvous")
    finally:
        for app in (host_app, bob_app):
            app.leave_network()
        for device in (host, bob):
            device.shutdown()


def test_something_that_is_not_a_code_is_refused_at_once(
        built_plugins: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PALMISH_RENDEZVOUS", f"ws://127.0.0.1:{free_port()}/v1")
    bob_app, bob = window_device(built_plugins, tmp_path / "bob", "Den")
    try:
        join_by_code(bob, "192.168.1.4", "bob")
        refused = bob.modals[-1]
        assert isinstance(refused, Alert) and refused.icon == "error"
        assert refused.message == ("Cannot join: '192.168.1.4' is not an internet code "
                                   "(a number and words, like 7-cobra-lantern)")
        assert bob_app.net is None
    finally:
        bob.shutdown()


def test_a_beam_by_code_from_the_pick_a_handheld_dialog(
        tmp_path: Path, beam_built: Path, servers: Servers,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Beam Receive's Code button gets a code; the sender picks By code... and types it;
    no receiver's own code is asked (it comes with the meeting)."""
    from palmish.boardgame.beam_send import beam
    from palmish.device.exchange import BeamItem
    from palmish.network.beam.device_service import BeamWindowService
    from tests.network.test_beam_window_dialogs import handheld, message

    use(monkeypatch, servers.env("off"))
    sender = handheld(tmp_path / "sender", beam_built, "PalmIshido")
    receiver = handheld(tmp_path / "receiver", beam_built, "Applications")
    out = BeamWindowService(sender, tmp_path / "sender", "Kitchen", listen="127.0.0.1", port=0)
    into = BeamWindowService(receiver, tmp_path / "receiver", "Lounge", listen="127.0.0.1",
                             port=0)
    receiver.services = Services(beam=lambda _device: into)  # as the window hands it over
    try:
        receiver.post(MenuCommand("beam"))  # Options > Beam Receive
        receiver.post(KeyDown(Key.RIGHT))
        receiver.post(KeyDown(Key.SELECT))  # On: the screen again, listening
        screen = receiver.modals[-1]
        assert isinstance(screen, Alert) and screen.row.labels()[-1] == "Code"
        for _ in range(3):
            receiver.post(KeyDown(Key.RIGHT))
        receiver.post(KeyDown(Key.SELECT))  # Code
        pump((receiver,), lambda: message(receiver).startswith("Internet code: "))
        code = message(receiver).split()[2].rstrip(".")
        assert message(receiver) == (f"Internet code: {code}. Your friend picks By code... "
                                     "in Beam and types it.")
        receiver.post(KeyDown(Key.SELECT))
        receiver.post(MenuCommand("beam"))
        assert f"Internet code: {code}" in message(receiver)
        shot(receiver, "beam-receive-code")
        receiver.post(KeyDown(Key.SELECT))  # Done

        beam(BeamItem("deal", "ishido", number=77), "Deal 77", sender.open_modal, out)
        pick = sender.modals[-1]
        assert isinstance(pick, Form)
        sender.post(KeyDown(Key.RIGHT))  # Other... -> By code...
        assert pick.values["to"] == 1
        shot(sender, "beam-by-code")
        sender.post(CharKey("\n"))  # Beam
        entry = sender.modals[-1]
        assert isinstance(entry, NameEntry) and entry.title == "Internet code"
        type_text(sender, code + "\n")
        pump((sender, receiver), lambda: message(receiver).startswith("Accept Deal 77"))
        receiver.post(KeyDown(Key.SELECT))  # Accept: the deal opens
        pump((sender,), lambda: message(sender).startswith("Deal 77: accepted by Lounge."))
    finally:
        into.set_receiving(False)
        for device in (sender, receiver):
            device.shutdown()
