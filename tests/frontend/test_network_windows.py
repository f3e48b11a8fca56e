"""Two windows on one X server play a network game by xdotool (docs/network.md):
a headless host on loopback with two open seats, two `palmish join` windows,
Return pressed in each in turn (throw, then move the marked piece). The host's
saved game shows both people's throws and moves, and neither window left its
seat once it sat: when a window's check before it opened filled the last seat,
the window sat with that check's dice part (a new one is not in the round the
host opened at once, and the joiner then took the host for a cheat)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.network.processes import host

from .conftest import needs_display
from .test_ishido_window import built_cache, fresh_device, xdo

pytestmark = [pytest.mark.window, needs_display]
__all__ = ["built_cache"]  # the fixture, shared with the PalmIshido window test


def steps(data: Path) -> list[str]:
    try:
        kept = data / "network" / "keys" / "host-pachisi.json"
        return list(json.loads(kept.read_text())["steps"])
    except (OSError, ValueError, KeyError):
        return []


def test_two_windows_play_a_few_turns(tmp_path: Path, built_cache: Path) -> None:
    server, port, code = host(tmp_path / "host", "--seats", "remote,remote", "--seed", "3")
    env = dict(os.environ, PYGLET_AUDIO="silent")
    windows = []
    try:
        for name in ("Ann", "Bob"):
            data = fresh_device(tmp_path / name, built_cache)
            windows.append(subprocess.Popen(
                [sys.executable, "-m", "palmish", "join", f"127.0.0.1:{port}", "--code", code,
                 "--name", name, "--data-dir", str(data)],
                env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True))
        server.wait_for_log("the game starts", timeout=60)
        ids: list[str] = []
        deadline = time.monotonic() + 60
        while len(ids) < 2 and time.monotonic() < deadline:  # no PID on pyglet's windows
            ids = xdo("search", "--sync", "--onlyvisible", "--name", "^palmish").splitlines()
            time.sleep(0.2)
        assert len(ids) == 2, ids
        deadline = time.monotonic() + 60
        while len(steps(tmp_path / "host")) < 12 and time.monotonic() < deadline:
            for wid in ids:
                xdo("windowfocus", "--sync", wid)
                xdo("key", "--clearmodifiers", "space")
                time.sleep(0.3)
        played = steps(tmp_path / "host")
        assert len(played) >= 12, played
        assert any(s.startswith("M") for s in played)
        assert all(w.poll() is None for w in windows)  # both windows still up
        lines = list(server.err_lines)
        for name in ("Ann", "Bob"):  # each check before a window may leave; the window stays
            sat = max(i for i, line in enumerate(lines) if f"{name} sits in seat" in line)
            assert not [line for line in lines[sat:] if f"{name} is away" in line], lines
    finally:
        for w in windows:
            w.kill()
            _, said = w.communicate(timeout=10)
            assert "trusted" not in said, said
        server.kill()


def test_a_window_that_fills_the_last_seat_stays_seated(tmp_path: Path,
                                                        built_cache: Path) -> None:
    """`palmish join`'s check before the window fills the table, so the host opens
    the dice round with the check's commitment at once; the window then sits with
    that same dice part and stays (with a new part the window took the host's list
    for a cheat and left, and Silicon played its seat)."""
    server, port, code = host(tmp_path / "host", "--seats", "remote,computer", "--seed", "3")
    env = dict(os.environ, PYGLET_AUDIO="silent")
    data = fresh_device(tmp_path / "Bob", built_cache)
    window = subprocess.Popen(
        [sys.executable, "-m", "palmish", "join", f"127.0.0.1:{port}", "--code", code,
         "--name", "Bob", "--data-dir", str(data)],
        env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        server.wait_for_log("the game starts", timeout=90)
        time.sleep(2)  # a window that left would have said so by now
        lines = list(server.err_lines)
        sat = max(i for i, line in enumerate(lines) if "Bob sits in seat" in line)
        assert sum("Bob sits in seat" in line for line in lines) == 2, lines  # check, window
        assert not [line for line in lines[sat:] if "Bob is away" in line], lines
        assert window.poll() is None
    finally:
        window.kill()
        _, said = window.communicate(timeout=10)
        server.kill()
    assert "trusted" not in said, said
