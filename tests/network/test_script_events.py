"""Network lines in event scripts: `net PEER LINE` and `net-closed PEER` reach the
running app as device events, so a script drives a network game without sockets."""

from __future__ import annotations

from pathlib import Path

import pytest

from palmish.device.display import ConfigName
from palmish.device.events import NetworkClosed, NetworkLine
from palmish.device.scripting.eventscript import ScriptError, parse_script, run_script
from palmish.network.session.records import Record
from palmish.pachisi.app import PachisiApp
from palmish.pachisi.net.seats import JoinSeat
from tests.game_devices import start_device

SCRIPT = """\
net 0 {"t":"welcome","v":2,"app":"pachisi","name":"Kitchen","seat":1,"dice":"%s"}
net 0 {"t":"game","dice":"cowrie","players":[{"name":"Ann","computer":false},\
{"name":"Bob","computer":false}],"steps":["T6","M0"]}
net 0 {"t":"step","n":2,"step":"T10"}   # Ann threw 10 (a grace throw)
net-closed 0
""".replace("\\\n", "") % ("ab" * 32)


def test_script_lines_become_network_events() -> None:
    steps = parse_script(SCRIPT)
    assert steps[0] == NetworkLine(0, SCRIPT.splitlines()[0].removeprefix("net 0 "))
    assert steps[-1] == NetworkClosed(0)


@pytest.mark.parametrize("line, problem", [
    ("net", "takes a peer number"), ("net x {}", "a network peer is a number"),
    ("net-closed", "takes a peer number"),
])
def test_bad_network_lines_are_script_errors(line: str, problem: str) -> None:
    with pytest.raises(ScriptError, match=problem):
        parse_script(line)


def test_a_script_plays_the_hosts_steps_into_a_joiners_app(built_plugins: Path,
                                                           tmp_path: Path) -> None:
    app = PachisiApp()
    device = start_device(app, "pachisi", built_plugins, ConfigName("square"), tmp_path)
    sent: list[Record] = []
    app.net = seat = JoinSeat(sent.append)
    run_script(device, parse_script(SCRIPT))
    assert [p.name for p in app.game.players] == ["Ann", "Bob"]
    assert app.game.last_throw == 10 and app.game.current == 0
    assert seat.status() == "The host is gone; waiting for it."
    assert "The host is gone; waiting for it." in app.network_lines()
    assert app.scene.notice == "The host is gone; waiting for it."  # Square has no log
    assert sent == []  # Bob's device sends nothing out of Bob's turn
    device.post(NetworkLine(0, SCRIPT.splitlines()[0].removeprefix("net 0 ")))  # back
    assert seat.status() is None and app.scene.notice is None
