"""A window hosts over the internet, driven by xdotool through the menus a
person uses (docs/network.md, "In the window"): Game > Network Game... >
Host, the seats chosen in the form (Open, Silicon, You), its Internet button,
the name typed; the window asks the rendezvous for a code (said on its
standard error as "internet code CODE", shown in its waiting room) and a
`palmish join --code CODE --auto` joiner sits through the relay; the person
presses Select on their turns for a few turns. Magic Wormhole's real servers
on 127.0.0.1, direct hints and the LAN path off (every byte through the
relay, nothing to the machine's outside addresses), one X server,
`--no-discovery`, every wait bounded."""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest

from tests.network.processes import Process
from tests.network.wormhole_servers import Servers, servers

from .conftest import needs_display
from .test_ishido_window import built_cache, fresh_device, wait_for
from .test_network_host_window import hosted, keys, network_game, type_text, window

pytestmark = [pytest.mark.window, pytest.mark.process, needs_display]
__all__ = ["built_cache", "servers"]  # fixtures shared with other tests

CODE = re.compile(r"palmish network: internet code (\d+(?:-[a-z]+)+)")


def test_a_window_hosts_over_the_internet_and_a_joiner_sits_by_code(
        tmp_path: Path, built_cache: Path, servers: Servers,
        monkeypatch: pytest.MonkeyPatch) -> None:
    env = servers.env("off")
    for name in ("PALMISH_RENDEZVOUS", "PALMISH_RELAY", "PALMISH_DIRECT", "PALMISH_LAN"):
        monkeypatch.setenv(name, env[name])  # the window's settings: its environment
    a_data = fresh_device(tmp_path / "a", built_cache)
    a_err = tmp_path / "a.err"
    joiner: Process | None = None
    a, a_id = window(a_data, a_err, [])
    try:
        network_game(a_id)
        keys(a_id, "Return")  # Host
        # seat 1 You -> Open, seat 2 Open -> Silicon, seat 3 Open -> You; down past
        # Away and Timer (Announce is grey: --no-discovery) to the buttons; Internet.
        keys(a_id, "Right", "Down", "Right", "Down", "Left", "Down", "Down", "Down", "Down",
             "Right", "space")
        keys(a_id, *["BackSpace"] * 10)
        type_text(a_id, "ann")
        keys(a_id, "Return")
        assert wait_for(lambda: CODE.search(a_err.read_text()) is not None, 30), \
            a_err.read_text()
        found = CODE.search(a_err.read_text())
        assert found is not None
        keys(a_id, "Return")  # the "Hosting ... over the internet" alert read
        joiner = Process("join", "--code", found.group(1), "--name", "Bob", "--auto",
                         "--data-dir", str(tmp_path / "bob"), env=env)

        def started() -> bool:
            seats = hosted(a_data).get("seats")
            return isinstance(seats, list) and [s.get("name") for s in seats] == [
                "Bob", "Silicon", "Ann"]

        assert wait_for(started, 60), (hosted(a_data), a_err.read_text(), joiner.err_lines)
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline:
            steps = hosted(a_data).get("steps")
            if isinstance(steps, list) and len(steps) >= 12:
                break
            keys(a_id, "space")  # throw, then move the marked piece: on Ann's turn only
            time.sleep(0.2)
        steps = hosted(a_data).get("steps")
        assert isinstance(steps, list) and len(steps) >= 12, (steps, a_err.read_text())
        assert "palmish network: path: relayed" in a_err.read_text()
        assert "path: relayed" in joiner.out_lines
        assert a.poll() is None and joiner.proc.poll() is None  # both still playing
    finally:
        if joiner is not None:
            joiner.kill()
        a.kill()
        a.wait(timeout=10)
