"""Two windows on one X server beam a plugin by xdotool (docs/network.md, "Beam"):
the receiver's Beam Receive is on (its launcher preference), both listen on
127.0.0.1 only (so neither advertises nor browses); the sender's person opens
PalmIshido's Plugin Manager, presses Beam, types the receiver's address, port
and code; the receiver's person presses Accept. The plugin is then installed
in the receiver's data folder, and nowhere before the Accept."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from palmish.device.disk.storage import Storage
from palmish.device.machine.system import LAUNCHER_CREATOR

from .conftest import needs_display
from .test_ishido_window import built_cache, fresh_device, xdo

pytestmark = [pytest.mark.window, needs_display]
__all__ = ["built_cache"]  # the fixture, shared with the PalmIshido window test

RECEIVING = re.compile(r"palmish beam: receiving on 127\.0\.0\.1:(\d+) code (\d{4})")


class Lines:
    """A child's standard error, read on a thread (bounded waits, no blocking reads)."""

    def __init__(self, child: subprocess.Popen[str]) -> None:
        self.lines: list[str] = []
        assert child.stderr is not None
        stream = child.stderr
        threading.Thread(target=lambda: self.lines.extend(stream), daemon=True).start()

    def wait_for(self, pattern: re.Pattern[str], timeout: float = 60) -> re.Match[str]:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for line in list(self.lines):
                found = pattern.search(line)
                if found:
                    return found
            time.sleep(0.1)
        raise AssertionError(f"no {pattern.pattern!r} in {self.lines}")


def window(data: Path, app: str) -> subprocess.Popen[str]:
    env = dict(os.environ, PYGLET_AUDIO="silent")
    return subprocess.Popen(
        [sys.executable, "-m", "palmish", "--data-dir", str(data), "--config", "square",
         "--app", app, "--listen", "127.0.0.1"],
        env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)


def new_window(known: set[str]) -> str:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:  # no PID on pyglet's windows: the one not seen before
        found = subprocess.run(["xdotool", "search", "--onlyvisible", "--name", "^palmish"],
                               capture_output=True, text=True, timeout=10)  # 1: none yet
        ids = set(found.stdout.split()) - known
        if ids:
            return ids.pop()
        time.sleep(0.2)
    raise AssertionError("the window did not open")


def keys(wid: str, *names: str) -> None:
    xdo("windowfocus", "--sync", wid)
    for name in names:
        xdo("key", "--clearmodifiers", name)
        time.sleep(0.25)  # the window takes each key on its next clock step


def typed(wid: str, text: str) -> None:
    xdo("windowfocus", "--sync", wid)
    xdo("type", "--delay", "120", text)
    time.sleep(0.3)


def installed(data: Path) -> list[str]:
    return sorted(p.name for p in (data / "databases").glob("*.prc"))


def test_a_plugin_beamed_from_one_window_to_another(tmp_path: Path, built_cache: Path) -> None:
    receiver_data = fresh_device(tmp_path / "receiver", built_cache)
    Storage(receiver_data).save_prefs(LAUNCHER_CREATOR, {"beam_receive": True})
    sender_data = fresh_device(tmp_path / "sender", built_cache)
    children = []
    try:
        receiver = window(receiver_data, "launcher")
        children.append(receiver)
        receiver_log = Lines(receiver)
        port, code = receiver_log.wait_for(RECEIVING).groups()
        receiver_id = new_window(set())
        sender = window(sender_data, "ishido")
        children.append(sender)
        sender_id = new_window({receiver_id})
        before = installed(receiver_data)

        # Options > Plugin Manager (a menu opens on its first item); Beam on the first
        # plugin; Other...: address, port.
        keys(sender_id, "m", "Right", "Down", "Return", "Down", "Right", "space",
             "Return")
        typed(sender_id, "127.0.0.1")
        keys(sender_id, "Return")
        typed(sender_id, port)
        keys(sender_id, "Return")
        # Not paired yet: the receiver wants its code (a note, then the keypad).
        time.sleep(2)
        keys(sender_id, "Return")
        typed(sender_id, code)
        keys(sender_id, "Return")

        time.sleep(3)  # the plugin crosses, passes the checks and is asked about
        assert installed(receiver_data) == before  # nothing is written before Accept
        keys(receiver_id, "Return")  # Accept has the focus
        deadline = time.monotonic() + 30
        while installed(receiver_data) == before and time.monotonic() < deadline:
            time.sleep(0.5)
        assert installed(receiver_data) != before, receiver_log.lines
        assert all(child.poll() is None for child in children)  # both windows still up
    finally:
        for child in children:
            child.kill()
            child.wait(timeout=10)
