"""PalmIshido in the real window (a child process) driven by real X input (xdotool).

Issue 14, item 1: after the window sat idle, Game > Demo plays one move per
step from then on (no frozen window, no burst of replayed moves), and a key
stops it at once. The moves are read from the saved game, which the app
writes after every move.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from palmish.device.disk.storage import Storage
from palmish.ishido.app import DEMO_STEP_MS, IshidoApp

from .conftest import needs_display

pytestmark = [pytest.mark.window, needs_display]


def xdo(*args: str, timeout: float = 10) -> str:
    assert shutil.which("xdotool"), "this test needs xdotool (apt-get install xdotool)"
    done = subprocess.run(["xdotool", *args], capture_output=True, text=True, timeout=timeout)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


@pytest.fixture(scope="module")
def built_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The bundled plugins built once (a screenshot run), so each window starts quickly."""
    from palmish import cli

    base = tmp_path_factory.mktemp("built")
    assert cli.main(["--screenshot", str(base / "x.png"), "--data-dir", str(base)]) == 0
    return base / "cache"


def fresh_device(tmp_path: Path, cache: Path) -> Path:
    data = tmp_path / "device"
    shutil.copytree(cache, data / "cache")  # copy2 keeps the mtimes: nothing is rebuilt
    return data


def moves(data: Path) -> int:
    """How many tiles the saved game has placed (0 before the first save)."""
    raw = Storage(data, report=lambda message: None).load_state(IshidoApp.creator)
    if raw is None:
        return 0
    record = json.loads(raw)["record"]
    return len(record.split("moves=", 1)[1].split())


def test_demo_after_idle_neither_freezes_nor_bursts_and_a_key_stops_it(
    tmp_path: Path, built_cache: Path
) -> None:
    data = fresh_device(tmp_path, built_cache)
    env = dict(os.environ, PYGLET_AUDIO="silent")
    child = subprocess.Popen(
        [sys.executable, "-m", "palmish", "--data-dir", str(data), "--config", "square"],
        env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    try:
        wid = xdo("search", "--sync", "--onlyvisible", "--name", "^palmish - ",
                  timeout=60).splitlines()[0]
        xdo("windowfocus", "--sync", wid)
        time.sleep(6)  # idle: no timer moves the device clock meanwhile
        xdo("key", "--clearmodifiers", "m")  # Menu: the Game menu pulls down
        for _ in range(4):  # it opens on New Game; then Restart, Undo, Hint, Demo
            xdo("key", "--clearmodifiers", "Down")
        xdo("key", "--clearmodifiers", "Return")
        started = time.monotonic()
        time.sleep(2.5 * DEMO_STEP_MS / 1000)
        early = moves(data)
        # Two steps are due by now. The old window replayed the ten steps it had
        # "missed" while idle, all at once, and handled no input meanwhile.
        assert 1 <= early <= 3, f"{early} moves {time.monotonic() - started:.2f} s into the demo"
        time.sleep(3 * DEMO_STEP_MS / 1000)
        later = moves(data)
        assert later > early  # it goes on, a move per step
        xdo("key", "--clearmodifiers", "Up")  # any key stops the demo
        time.sleep(0.3)
        stopped = moves(data)
        time.sleep(3 * DEMO_STEP_MS / 1000)
        assert moves(data) == stopped
        assert stopped - later <= 2
        xdo("key", "--clearmodifiers", "ctrl+q")
        _, err = child.communicate(timeout=15)
    finally:
        if child.poll() is None:
            child.kill()
            child.communicate()
    assert child.returncode == 0, err


def saved_game(data: Path) -> tuple[str, int]:
    """The saved deal's seed and its number of moves."""
    raw = Storage(data, report=lambda message: None).load_state(IshidoApp.creator)
    assert raw is not None
    record = json.loads(raw)["record"]
    seed = record.split("seed=", 1)[1].split()[0]
    return seed, len(record.split("moves=", 1)[1].split())


def wait_for(check: Callable[[], bool], seconds: float = 5) -> bool:
    deadline = time.monotonic() + seconds
    while not check():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.1)
    return True


def test_ctrl_n_asks_first_escape_keeps_the_game_and_enter_confirms(
    tmp_path: Path, built_cache: Path
) -> None:
    """Items 6, 7 and 18 with real keys: Ctrl+N is New Game's shortcut; with a tile
    placed it asks first; Escape cancels the question; Ctrl+N then Enter deals anew."""
    data = fresh_device(tmp_path, built_cache)
    env = dict(os.environ, PYGLET_AUDIO="silent")
    child = subprocess.Popen(
        [sys.executable, "-m", "palmish", "--data-dir", str(data), "--config", "square"],
        env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    try:
        wid = xdo("search", "--sync", "--onlyvisible", "--name", "^palmish - ",
                  timeout=60).splitlines()[0]
        xdo("windowfocus", "--sync", wid)
        time.sleep(0.5)
        xdo("key", "--clearmodifiers", "Down")
        xdo("key", "--clearmodifiers", "Return")
        assert wait_for(lambda: moves(data) == 1)
        seed, _ = saved_game(data)
        xdo("key", "--clearmodifiers", "ctrl+n")  # "New Game? The game in progress..."
        xdo("key", "--clearmodifiers", "Escape")  # Cancel: the game stays (and no Home)
        xdo("key", "--clearmodifiers", "Down")
        xdo("key", "--clearmodifiers", "Return")
        assert wait_for(lambda: moves(data) == 2)
        xdo("key", "--clearmodifiers", "ctrl+n")
        xdo("key", "--clearmodifiers", "Return")  # the question's first button: New Game
        assert wait_for(lambda: saved_game(data)[1] == 0)
        assert saved_game(data)[0] != seed
        xdo("key", "--clearmodifiers", "ctrl+q")
        _, err = child.communicate(timeout=15)
    finally:
        if child.poll() is None:
            child.kill()
            child.communicate()
    assert child.returncode == 0, err
