"""The window's network service without a window: a device hosts through its
network thread on 127.0.0.1 (events polled from the device's inbox, as the
window's clock does), a `palmish join --auto` process plays the open seat,
and both end with the same record."""

from __future__ import annotations

import re
import socket
import time
from pathlib import Path

import pytest

from palmish.device.display import ConfigName
from palmish.device.events import Key, KeyDown
from palmish.network.service import WindowNetwork
from palmish.pachisi.app import PachisiApp
from tests.game_devices import start_device
from tests.network.dialogs import answer_dialogs
from tests.network.processes import Process


@pytest.mark.process
def test_a_hosting_device_and_a_joiner_process_finish_alike(built_plugins: Path,
                                                           tmp_path: Path) -> None:
    app = PachisiApp()
    device = start_device(app, "pachisi", built_plugins, ConfigName("square"), tmp_path / "d")
    network = WindowNetwork(device, tmp_path / "d", "Test", listen="127.0.0.1", port=0)
    seat, where = network.host(["host", "remote", "computer"], "Ann", False, 60.0, None)
    app.net = seat
    port = re.fullmatch(r"127\.0\.0\.1:(\d+)", where)
    assert port and seat.code is not None, where
    bob = Process("join", where, "--code", seat.code, "--name",
                  "Bob", "--auto", "--data-dir", str(tmp_path / "bob"))
    try:
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline and not (app.game.over and bob.proc.poll() is not None):
            device.post_waiting()
            answer_dialogs(device)
            if app.human_turn:
                device.post(KeyDown(Key.SELECT))
            device.advance(device.now_ms + 100)
            time.sleep(0.01)
        assert bob.finish() == 0, bob.err_lines
        assert seat.table.game is not None and seat.table.game.over
        assert bob.record() == seat.table.record()
        assert device.polled
    finally:
        bob.kill()
        seat.close()


def wait_until_free(port: int) -> None:
    """The closed host's port is free again (its loop closes it a moment later)."""
    for _ in range(500):  # at most 5 s
        with socket.socket() as probe:
            try:
                probe.bind(("127.0.0.1", port))
                return
            except OSError:
                time.sleep(0.01)
    raise AssertionError(f"port {port} still taken")


def test_a_window_host_keeps_its_game_and_hosts_it_again(built_plugins: Path,
                                                        tmp_path: Path) -> None:
    app = PachisiApp()
    device = start_device(app, "pachisi", built_plugins, ConfigName("square"), tmp_path / "d")
    first = WindowNetwork(device, tmp_path / "d", "Test", listen="127.0.0.1", port=0)
    assert first.saved_game() is None
    seat, where = first.host(["host", "remote"], "Ann", False, 60.0, 30.0)
    seat.start()  # the open seat goes to Silicon
    assert seat.ask("throw") is None
    steps = list(seat.table.steps)
    seat.close()
    port = int(where.rsplit(":", 1)[1])
    wait_until_free(port)
    again = WindowNetwork(device, tmp_path / "d", "Test", listen="127.0.0.1", port=0)
    assert again.saved_game() == f"{len(steps)} steps played, code {seat.table.code}"
    resumed, where_again = again.host([], "", False, 60.0, None, resume=True)
    assert where_again == where  # --network-port 0, yet the same port: joiners retry it
    assert resumed.table.steps == steps and resumed.table.turn_s == 30.0
    assert resumed.table.record() == seat.table.record()
    resumed.close()


@pytest.mark.process
def test_a_spectator_device_watches_a_whole_game(built_plugins: Path, tmp_path: Path) -> None:
    from tests.network.processes import host, join

    server, port, code = host(tmp_path / "host", "--seats", "computer,remote")
    app = PachisiApp()
    device = start_device(app, "pachisi", built_plugins, ConfigName("square"), tmp_path / "d")
    network = WindowNetwork(device, tmp_path / "d", "Test", listen="127.0.0.1", port=0)
    app.net = watcher = network.join(f"127.0.0.1:{port}", code, None)
    ann = join(port, code, "Ann", tmp_path / "ann")
    try:
        deadline = time.monotonic() + 90
        while watcher.mirror.record is None and time.monotonic() < deadline:
            device.post_waiting()
            assert not app.human_turn  # a spectator never plays
            time.sleep(0.01)
        assert server.finish() == 0 and ann.finish() == 0
        assert watcher.mirror.seat is None
        assert watcher.mirror.record == server.record() == ann.record()
        assert watcher.mirror.verdict == "verified"  # a spectator checks the dice too
        assert app.game.over and app.game.record().split(" moves=")[1] == \
            server.record().split(" moves=")[1]
    finally:
        server.kill()
        ann.kill()
        watcher.close()
