"""Keys pressed on a joiner's device during another seat's turn: that turn is the
host's to play, so the device's copy of the game never moves on by itself (a
key during a computer's turn at one device finishes it at once; over the
network it must not)."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from palmish.device.display import ConfigName
from palmish.device.events import Key, KeyDown
from palmish.network.service import WindowNetwork
from palmish.pachisi.app import PachisiApp
from palmish.pachisi.net.seats import JoinSeat
from tests.game_devices import start_device
from tests.network.processes import host

pytestmark = pytest.mark.process  # every test here starts another program


def host_steps(data: Path) -> list[str]:
    try:
        kept = data / "network" / "keys" / "host-pachisi.json"
        return list(json.loads(kept.read_text())["steps"])
    except (OSError, ValueError, KeyError):
        return []


def test_keys_on_every_device_never_play_another_seats_turn(built_plugins: Path,
                                                           tmp_path: Path) -> None:
    server, port, code = host(tmp_path / "host", "--seats", "remote,remote", "--seed", "3")
    seats: list[tuple[object, PachisiApp, JoinSeat]] = []
    try:
        for name in ("Ann", "Bob"):
            app = PachisiApp()
            device = start_device(app, "pachisi", built_plugins, ConfigName("square"),
                                  tmp_path / name)
            network = WindowNetwork(device, tmp_path / name, "Test", listen="127.0.0.1", port=0)
            seat = network.join(f"127.0.0.1:{port}", code, name)
            app.net = seat
            seats.append((device, app, seat))
        deadline = time.monotonic() + 60
        while len(host_steps(tmp_path / "host")) < 12 and time.monotonic() < deadline:
            for device, _app, seat in seats:
                device.post_waiting()  # type: ignore[attr-defined]
                device.post(KeyDown(Key.SELECT))  # type: ignore[attr-defined]
                device.advance(device.now_ms + 100)  # type: ignore[attr-defined]
                assert seat.trouble is None, seat.trouble
            time.sleep(0.02)
        assert len(host_steps(tmp_path / "host")) >= 12
    finally:
        for _device, _app, seat in seats:
            seat.close()
        server.kill()
