"""A window hosts a network game and another window joins it, both driven by
xdotool through the menus and dialogs a person uses (docs/network.md, "The
window"): window A, Game > Network Game... > Host, its seats chosen in the
form (Open, Silicon, You; "Announce game" unticked), its name typed; window
B, Game > Network Game... > Join > Other..., the address 127.0.0.1 and port
typed, the join code, Sit, its name. Bob plays first while A's Game menu is
open: Silicon, on A, still plays its turn behind the menu. Then each person
presses Select in turn (throw, move the marked piece) for a few turns. One X
server, loopback only (`--network-listen 127.0.0.1 --network-port 0
--no-discovery`: no Zeroconf in the test), every wait bounded."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

from palmish.pachisi.game import Game

from .conftest import needs_display
from .test_ishido_window import built_cache, fresh_device, wait_for, xdo

pytestmark = [pytest.mark.window, needs_display]
__all__ = ["built_cache"]  # the fixture, shared with the PalmIshido window test

NETWORK = ("--network-listen", "127.0.0.1", "--network-port", "0", "--no-discovery")
HOSTING = re.compile(r"palmish network: hosting on 127\.0\.0\.1:(\d+) code (\d{4})")


def hosted(data: Path) -> dict[str, object]:
    """The host window's saved network game (written after every change)."""
    try:
        saved = json.loads((data / "network" / "keys" / "host-pachisi.json").read_text())
    except (OSError, ValueError):
        return {}
    return saved if isinstance(saved, dict) else {}


def window(data: Path, err: Path, known: list[str]) -> tuple[subprocess.Popen[bytes], str]:
    """A Square Pachisi window on loopback; its X window id (the one not in `known`)."""
    env = dict(os.environ, PYGLET_AUDIO="silent")
    with err.open("wb") as log:
        child = subprocess.Popen(
            [sys.executable, "-m", "palmish", "--data-dir", str(data), "--config", "square",
             "--app", "pachisi", *NETWORK], env=env, stdout=subprocess.DEVNULL, stderr=log)
    ids: list[str] = []
    deadline = time.monotonic() + 60
    while not ids and time.monotonic() < deadline:  # no PID on pyglet's windows
        found = subprocess.run(["xdotool", "search", "--onlyvisible", "--name", "^palmish"],
                               capture_output=True, text=True, timeout=20).stdout.split()
        ids = [wid for wid in found if wid not in known]
        time.sleep(0.2)
    assert ids, err.read_text()
    time.sleep(1.0)  # the first frame drawn, the app started
    return child, ids[0]


def keys(wid: str, *names: str) -> None:
    xdo("windowfocus", "--sync", wid)
    for name in names:
        xdo("key", "--clearmodifiers", name)
        time.sleep(0.15)


def type_text(wid: str, text: str) -> None:
    """Letters, digits, dots and colons as the desktop keyboard types them."""
    keys(wid, *({".": "period", ":": "colon"}.get(ch, ch) for ch in text))


def network_game(wid: str) -> None:
    """Game > Network Game... (the seventh item of the Game menu; the first is lit at first)."""
    keys(wid, "m", *["Down"] * 6, "Return")


def join_by_typing(wid: str, host: str, port: str, code: str, name: str) -> None:
    """Game > Network Game... > Join > Other...: the host, its port and the join code
    typed, Sit, and the name typed over the last one (a capital first)."""
    network_game(wid)
    keys(wid, "Right", "Return")  # Join
    keys(wid, "Return")  # the list holds only Other...: OK
    type_text(wid, host)
    keys(wid, "Return")
    type_text(wid, port)  # replaces the port shown (40731)
    keys(wid, "Return")
    type_text(wid, code)
    keys(wid, "Return", "Return")  # the code; Sit
    keys(wid, *["BackSpace"] * 10)
    type_text(wid, name)
    keys(wid, "Return")


def test_a_window_hosts_and_another_joins_by_address(tmp_path: Path, built_cache: Path) -> None:
    a_data = fresh_device(tmp_path / "a", built_cache)
    b_data = fresh_device(tmp_path / "b", built_cache)
    a_err, b_err = tmp_path / "a.err", tmp_path / "b.err"
    children: list[subprocess.Popen[bytes]] = []
    try:
        a, a_id = window(a_data, a_err, [])
        children.append(a)
        network_game(a_id)
        keys(a_id, "Return")  # Host
        # The form: seat 1 You -> Open, seat 2 Open -> Silicon, seat 3 Open -> You, seat 4
        # None; down past Away and Timer to "Announce game", ticked off; Enter: Host.
        keys(a_id, "Right", "Down", "Right", "Down", "Left", "Down", "Down", "Down", "Down",
             "Left", "Return")
        keys(a_id, *["BackSpace"] * 10)
        type_text(a_id, "ann")  # a name starts with a capital: Ann
        keys(a_id, "Return")
        assert wait_for(lambda: HOSTING.search(a_err.read_text()) is not None, 20), \
            a_err.read_text()
        found = HOSTING.search(a_err.read_text())
        assert found is not None
        port, code = found.groups()
        keys(a_id, "Return")  # the "Hosting ..." alert read

        b, b_id = window(b_data, b_err, [a_id])
        children.append(b)
        join_by_typing(b_id, "127.0.0.1", port, code, "bob")

        def started() -> bool:
            seats = hosted(a_data).get("seats")
            return isinstance(seats, list) and [s.get("name") for s in seats] == [
                "Bob", "Silicon", "Ann"]

        def in_turn() -> int | None:
            record = hosted(a_data).get("record")
            return Game.from_record(record).current if isinstance(record, str) else None

        assert wait_for(started, 30), (hosted(a_data), b_err.read_text())
        keys(a_id, "m")  # A's Game menu stays open while Bob and Silicon play
        deadline = time.monotonic() + 60
        while in_turn() != 2 and time.monotonic() < deadline:
            keys(b_id, "space")
            time.sleep(0.2)
        assert in_turn() == 2, hosted(a_data)  # Silicon played behind A's menu: Ann's turn
        keys(a_id, "Escape")
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline:
            steps = hosted(a_data).get("steps")
            if isinstance(steps, list) and len(steps) >= 12:
                break
            for wid in (a_id, b_id):
                keys(wid, "space")  # throw, then move the marked piece: on your turn only
                time.sleep(0.2)
        steps = hosted(a_data).get("steps")
        assert isinstance(steps, list) and len(steps) >= 12, (steps, a_err.read_text())
        assert sum(s.startswith("M") for s in steps) >= 2  # pieces moved, not only throws
        assert "is away" not in a_err.read_text() + b_err.read_text()
        assert a.poll() is None and b.poll() is None  # both windows still up
    finally:
        for child in children:
            child.kill()
            child.wait(timeout=10)
