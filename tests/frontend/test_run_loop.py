"""The real event loop (`window.run`) in a child process, driven by real X input (xdotool)."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from palmish.device.display import CONFIGS, ConfigName
from palmish.device.machine.statusbar import StatusButton, button_rects
from palmish.frontend.input import Layout
from palmish.frontend.skin import load_skin

from .conftest import needs_display

pytestmark = [pytest.mark.window, needs_display]

HERE = Path(__file__).resolve().parent


def xdo(*args: str) -> str:
    assert shutil.which("xdotool"), "this test needs xdotool (apt-get install xdotool)"
    done = subprocess.run(["xdotool", *args], capture_output=True, text=True, timeout=10)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def window_size(wid: str) -> tuple[int, int]:
    fields = dict(
        line.split("=", 1) for line in xdo("getwindowgeometry", "--shell", wid).splitlines()
    )
    return int(fields["WIDTH"]), int(fields["HEIGHT"])


def wait_for_size(wid: str, size: tuple[int, int]) -> None:
    deadline = time.monotonic() + 5
    while window_size(wid) != size and time.monotonic() < deadline:
        time.sleep(0.05)
    assert window_size(wid) == size


def lcd_to_window(lay: Layout, px: int, py: int) -> tuple[str, str]:
    """X window coordinates (origin top-left) of the centre of an LCD pixel."""
    lcd, k = lay.face.lcd, lay.lcd_scale
    return (str(int((lcd.x + (px + 0.5) * k) * lay.zoom)),
            str(int((lcd.y + (py + 0.5) * k) * lay.zoom)))


def test_run_rotates_on_a_real_click_and_delivers_a_real_drag(tmp_path: Path) -> None:
    child = subprocess.Popen(
        [sys.executable, str(HERE / "probe_window.py"), "square", "t3", "1", str(tmp_path)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    try:
        wid = xdo("search", "--sync", "--onlyvisible", "--name", "^palmish - ").splitlines()[0]
        skin = load_skin("t3")
        square, wide = CONFIGS[ConfigName.SQUARE], CONFIGS[ConfigName.WIDE]
        portrait = Layout(skin.face_for(square), 1, square.width, square.height)
        landscape = Layout(skin.face_for(wide), 1, wide.width, wide.height)
        wait_for_size(wid, portrait.window_size)
        time.sleep(0.2)  # let the first frame and the expose settle
        # A drag on the app's part of the LCD.
        xdo("mousemove", "--window", wid, *lcd_to_window(portrait, 40, 40))
        xdo("mousedown", "1")
        xdo("mousemove", "--window", wid, *lcd_to_window(portrait, 80, 60))
        xdo("mousemove", "--window", wid, *lcd_to_window(portrait, 120, 90))
        xdo("mouseup", "1")
        # The status bar's rotate button, inside the LCD.
        rotate = button_rects(square)[StatusButton.ROTATE]
        centre = (rotate.x + rotate.w // 2, rotate.y + rotate.h // 2)
        xdo("mousemove", "--window", wid, *lcd_to_window(portrait, *centre))
        xdo("click", "1")
        wait_for_size(wid, landscape.window_size)
        # The navigator's up button on the landscape skin, then quit with Ctrl+Q.
        up = next(b for b in landscape.face.buttons if b.action == "up").bounds()
        xdo("mousemove", "--window", wid, str(up.x + up.w // 2), str(up.y + up.h // 2))
        xdo("click", "1")
        xdo("windowfocus", "--sync", wid)
        xdo("key", "--clearmodifiers", "ctrl+q")
        out, err = child.communicate(timeout=10)
    finally:
        if child.poll() is None:
            child.kill()
            child.communicate()
    assert child.returncode == 0, err
    report = json.loads(out.strip().splitlines()[-1])
    assert report["status"] == 0
    assert report["config"] == "wide" and report["screen"] == [480, 320]
    events = report["events"]
    pen = [e for e in events if e.startswith("Pen")]
    assert pen[0] == 'PenDown{"x": 40, "y": 40}'
    assert pen[-1] == 'PenUp{"x": 120, "y": 90}'
    assert all(e.startswith("PenMove") for e in pen[1:-1]) and len(pen) >= 3
    changed = [i for i, e in enumerate(events) if e.startswith("DisplayChanged")]
    assert len(changed) == 1
    assert events[changed[0] + 1:] == ['KeyDown{"key": "up"}']
