"""At the table through the window's network service over loopback (no window):
a spectator device follows a headless table's rematch, a seated device leaves
the table (its kept table forgotten), and a hosting device removes a
`palmish join --auto` process, which is told in one line."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from palmish.device.display import ConfigName
from palmish.network import keep
from palmish.network.service import WindowNetwork
from palmish.pachisi.app import PachisiApp
from palmish.pachisi.net.seats import HostSeat, JoinSeat
from tests.game_devices import start_device
from tests.network.processes import Process, host, join

pytestmark = pytest.mark.process  # every test here starts another program


def device_and_network(built: Path, folder: Path) -> tuple[object, PachisiApp, WindowNetwork]:
    app = PachisiApp()
    device = start_device(app, "pachisi", built, ConfigName("square"), folder)
    return device, app, WindowNetwork(device, folder, "Test", listen="127.0.0.1", port=0)


def test_a_spectator_device_follows_the_rematch(built_plugins: Path, tmp_path: Path) -> None:
    server, port, code = host(tmp_path / "host", "--seats", "remote,remote", "--games", "2",
                              "--wait", "20")
    device, app, network = device_and_network(built_plugins, tmp_path / "d")
    app.net = watcher = network.join(f"127.0.0.1:{port}", code, None)
    assert isinstance(watcher, JoinSeat)
    ann = join(port, code, "Ann", tmp_path / "ann", "--games", "2")
    bob = join(port, code, "Bob", tmp_path / "bob", "--games", "2")
    try:
        deadline = time.monotonic() + 120
        while watcher.mirror.games < 2 and time.monotonic() < deadline:
            device.post_waiting()  # type: ignore[attr-defined]
            time.sleep(0.01)
        assert server.finish() == 0 and ann.finish() == 0 and bob.finish() == 0
        games = [line.removeprefix("record: ") for line in server.out_lines
                 if line.startswith("record: ")]
        assert len(games) == 2
        assert watcher.mirror.record == games[1] and watcher.mirror.verdict == "verified"
        assert "The rematch is on" in watcher.table_lines()
        assert app.game.over and app.net is watcher
    finally:
        for p in (server, ann, bob):
            p.kill()
        watcher.close()


def test_a_device_that_leaves_the_table_is_forgotten_there_and_here(
        built_plugins: Path, tmp_path: Path) -> None:
    server, port, code = host(tmp_path / "host", "--seats", "remote,computer", "--wait", "30")
    device, app, network = device_and_network(built_plugins, tmp_path / "d")
    app.net = seat = network.join(f"127.0.0.1:{port}", code, "Cy")
    assert isinstance(seat, JoinSeat)
    try:
        deadline = time.monotonic() + 60
        while app.net is not None and app.net.game is None and time.monotonic() < deadline:
            device.post_waiting()  # type: ignore[attr-defined]
            time.sleep(0.01)
        assert keep.load_joined(tmp_path / "d", "pachisi") is not None  # kept while there
        app.leave_table_now()
        assert app.net is None
        assert keep.load_joined(tmp_path / "d", "pachisi") is None  # no "Rejoin" offer
        assert server.finish() == 0, server.err_lines  # Silicon played Cy's seat to the end
        assert "palmish host: Cy left the table; the seat is Silicon" in server.err_lines
    finally:
        server.kill()
        seat.close()


def test_a_hosting_device_removes_a_joiner_process(built_plugins: Path,
                                                   tmp_path: Path) -> None:
    device, app, network = device_and_network(built_plugins, tmp_path / "d")
    seat, where = network.host(["host", "remote"], "Ann", False, 60.0, None)
    assert isinstance(seat, HostSeat) and seat.code is not None
    app.net = seat
    bob = Process("join", where, "--code", seat.code, "--name", "Bob", "--auto",
                  "--data-dir", str(tmp_path / "bob"))
    try:
        deadline = time.monotonic() + 60
        while seat.table.seats[1].peer is None and time.monotonic() < deadline:
            device.post_waiting()  # type: ignore[attr-defined]
            time.sleep(0.01)
        assert seat.removable() == [(1, "Bob")]
        assert seat.remove(1, "silicon") is None
        assert bob.finish() == 1
        assert bob.err_lines[-1] == (f"palmish: refused by {where}: Test's host removed you"
                                     " from the table")
        assert seat.table.seats[1].kind == "computer"
    finally:
        bob.kill()
        seat.close()
