"""Sound, heard: the real window plays PalmIshido's placement sound into PulseAudio.

A private PulseAudio daemon with a null sink stands in for a sound card; `parec`
records the sink's monitor while a child process runs `palmish` in a real
window and the player places a tile with real X keys (xdotool). The recording
must hold the 'place' sound of the bundled Sound plugin: about its loudness and
its length. CI installs pulseaudio, pulseaudio-utils and xdotool (.ci/run);
the test is skipped only outside CI when those tools are missing.
"""

from __future__ import annotations

import array
import math
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from palmish.device.disk.resources import bundled_plugins
from palmish.ishido.schema import SCHEMA
from prc_tools.plugin import build_folder
from prc_tools.sound import mono_samples, read_wave_resource, resample

from .conftest import needs_display

RATE = 22050  # the recording's sample rate (mono, 16-bit)
SINK = "palmish_test"
TOOLS = ("pulseaudio", "pactl", "parec", "xdotool")
missing = [t for t in TOOLS if shutil.which(t) is None]

pytestmark = [
    pytest.mark.window,
    needs_display,
    pytest.mark.skipif(
        bool(missing) and not os.environ.get("CI"),
        reason=f"needs {', '.join(missing)} (apt-get install pulseaudio pulseaudio-utils xdotool)",
    ),
]


def _tool(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(list(args), capture_output=True, text=True, timeout=10, env=env)


@pytest.fixture
def pulse() -> Iterator[dict[str, str]]:
    """A PulseAudio daemon of our own with one null sink; yields the environment to use it."""
    assert not missing, f"this test needs {', '.join(missing)}"
    # A short folder of our own: the socket path must fit in a sockaddr_un.
    home = Path(tempfile.mkdtemp(prefix="palmish-pa-"))
    socket = home / "native"
    env = dict(os.environ, HOME=str(home), XDG_RUNTIME_DIR=str(home),
               PULSE_SERVER=f"unix:{socket}", PYGLET_AUDIO="pulse")
    daemon = subprocess.Popen(
        ["pulseaudio", "-n", "--daemonize=no", "--exit-idle-time=-1", "--disable-shm=yes",
         "--use-pid-file=no", "--log-target=stderr",
         "-L", f"module-null-sink sink_name={SINK} rate={RATE}",
         "-L", f"module-native-protocol-unix socket={socket} auth-anonymous=1"],
        env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
    )
    try:
        deadline = time.monotonic() + 10
        while _tool("pactl", "info", env=env).returncode != 0:
            assert daemon.poll() is None, daemon.communicate()[1]
            assert time.monotonic() < deadline, "the PulseAudio daemon did not come up"
            time.sleep(0.1)
        yield env
    finally:
        daemon.terminate()
        try:
            daemon.communicate(timeout=5)
        except subprocess.TimeoutExpired:
            daemon.kill()
            daemon.communicate()
        shutil.rmtree(home, ignore_errors=True)


def xdo(*args: str, timeout: float = 10) -> str:
    done = subprocess.run(["xdotool", *args], capture_output=True, text=True, timeout=timeout)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def place_sound() -> list[float]:
    """The bundled Sound plugin's 'place' sound as the device plays it, at RATE, +-1.0."""
    db = build_folder(bundled_plugins().folder("ishido-sounds"))
    wave_id = SCHEMA.sounds["place"]
    data = next(r.data for r in db.resources if r.type == "wave" and r.id == wave_id)
    sound = read_wave_resource(data)
    return resample(mono_samples(sound), sound.rate, RATE)


def loud_span(samples: list[float], level: float) -> tuple[int, int] | None:
    """First and last sample above `level` (absolute), or None if nothing is."""
    loud = [i for i, v in enumerate(samples) if abs(v) > level]
    return (loud[0], loud[-1]) if loud else None


def rms(samples: list[float]) -> float:
    return math.sqrt(sum(v * v for v in samples) / max(1, len(samples)))


def test_placing_a_tile_in_the_real_window_is_heard(pulse: dict[str, str]) -> None:
    from palmish import cli

    data = Path(tempfile.mkdtemp(prefix="palmish-heard-"))
    # The bundled plugins built first, so the window opens at once.
    assert cli.main(["--screenshot", str(data / "x.png"), "--data-dir", str(data / "device")]) == 0
    recording = data / "monitor.raw"
    recorder = subprocess.Popen(
        ["parec", f"--device={SINK}.monitor", "--format=s16le", f"--rate={RATE}",
         "--channels=1", "--raw", "--latency-msec=20", str(recording)],
        env=pulse, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
    )
    window = subprocess.Popen(
        [sys.executable, "-m", "palmish", "--data-dir", str(data / "device"), "--config", "square"],
        env=pulse, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    try:
        wid = xdo("search", "--sync", "--onlyvisible", "--name", "^palmish - ",
                  timeout=60).splitlines()[0]
        time.sleep(1.0)  # the first frame; anything heard so far would be a wrong sound
        xdo("windowfocus", "--sync", wid)
        xdo("key", "--clearmodifiers", "Down")  # mark the first legal cell
        xdo("key", "--clearmodifiers", "Return")  # place the tile there
        time.sleep(1.5)
        xdo("key", "--clearmodifiers", "ctrl+q")
        _, err = window.communicate(timeout=15)
        assert window.returncode == 0, err
        assert "sound is off" not in err, err
    finally:
        for child in (window, recorder):
            if child.poll() is None:
                child.send_signal(signal.SIGINT)  # parec writes what it holds on SIGINT
                try:
                    child.communicate(timeout=5)
                except subprocess.TimeoutExpired:
                    child.kill()
                    child.communicate()
    raw = array.array("h")
    raw.frombytes(recording.read_bytes())
    shutil.rmtree(data, ignore_errors=True)
    heard = [v / 32768 for v in raw]
    expected = place_sound()
    peak = max(abs(v) for v in expected)
    level = peak / 10
    want = loud_span(expected, level)
    got = loud_span(heard, level)
    assert want is not None
    assert got is not None, f"nothing was heard in {len(heard) / RATE:.2f} s of recording"
    want_s = (want[1] - want[0]) / RATE
    got_s = (got[1] - got[0]) / RATE
    # One placement sound: as long as the plugin's (not silence, not two sounds).
    assert abs(got_s - want_s) < 0.03, f"heard {got_s:.3f} s, the plugin's sound is {want_s:.3f} s"
    loudness = rms(heard[got[0]:got[1] + 1]) / rms(expected[want[0]:want[1] + 1])
    assert 0.5 < loudness < 2.0, f"heard at {loudness:.2f} of the plugin's energy"
