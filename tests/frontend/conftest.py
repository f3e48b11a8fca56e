"""Window-test helpers: a real Device with a probe app, shown in a real pyglet window.

Sound is forced silent before pyglet is imported, so the tests never depend on
a sound card. Window tests need an X server (Xvfb in CI: `make test` wraps
pytest in xvfb-run); they skip only when there is no DISPLAY at all.
"""

from __future__ import annotations

import io
import os
import wave
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

os.environ["PYGLET_AUDIO"] = "silent"

from palmish.device.app import App, AppContext
from palmish.device.display import CONFIGS, ConfigName
from palmish.device.events import DisplayChanged, Event, KeyDown, PenDown, Tick
from palmish.device.geometry import Rect

if TYPE_CHECKING:
    from palmish.frontend.window import DeviceWindow

needs_display = pytest.mark.skipif(
    not os.environ.get("DISPLAY"), reason="no X server (run under xvfb-run, as `make test` does)"
)


def tone(ms: int = 40) -> bytes:
    """A short 8-bit mono WAV, like a Palm 'wave' resource."""
    rate = 11025
    frames = bytes(128 + (40 if (i // 12) % 2 else -40) for i in range(rate * ms // 1000))
    out = io.BytesIO()
    with wave.open(out, "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(1)
        w.setframerate(rate)
        w.writeframes(frames)
    return out.getvalue()


class ProbeApp(App):
    """Records every event; draws a pattern; a pen-down beeps and marks the spot;
    SELECT starts a 30 ms timer whose tick paints a square."""

    name = "Probe"
    creator = "prob"

    def __init__(self) -> None:
        self.events: list[Event] = []
        self.ctx: AppContext | None = None

    def start(self, ctx: AppContext) -> None:
        self.ctx = ctx
        self.draw_all()

    def draw_all(self) -> None:
        assert self.ctx is not None
        fb, b = self.ctx.screen, self.ctx.bounds
        fb.fill(b, (255, 255, 255))
        # Stripes of distinct colours make any offset, flip or scaling error visible.
        for i in range(0, b.w, 8):
            fb.fill(Rect(b.x + i, b.y, 4, b.h // 2), ((i * 7) % 256, 80, 255 - (i * 3) % 256))
        for j in range(b.h // 2, b.h, 6):
            fb.fill(Rect(b.x, b.y + j, b.w, 3), (20, (j * 5) % 256, 120))
        fb.text(b.x + 4, b.y + 4, "probe", (0, 0, 0))

    def handle(self, event: Event) -> None:
        self.events.append(event)
        assert self.ctx is not None
        if isinstance(event, DisplayChanged):
            self.draw_all()
        elif isinstance(event, PenDown):
            self.ctx.play_sound(tone())
            self.ctx.screen.fill(Rect(event.x - 1, event.y - 1, 3, 3), (255, 0, 0))
        elif isinstance(event, KeyDown) and event.key.value == "select":
            self.ctx.set_timer(30)
        elif isinstance(event, Tick):
            self.ctx.screen.fill(Rect(10, 10, 6, 6), (0, 200, 0))


WindowFactory = Callable[..., "tuple[DeviceWindow, ProbeApp]"]


@pytest.fixture
def open_window(tmp_path: Path) -> Iterator[WindowFactory]:
    """open_window(config="square", skin=None, zoom=1) -> (DeviceWindow, ProbeApp)."""
    import pyglet

    from palmish.device.system import Device
    from palmish.frontend.skin import default_skin_name, load_skin
    from palmish.frontend.window import DeviceWindow

    windows: list[DeviceWindow] = []

    def factory(
        config: str = "square", skin: str | None = None, zoom: int = 1
    ) -> tuple[DeviceWindow, ProbeApp]:
        cfg = CONFIGS[ConfigName(config)]
        app = ProbeApp()
        empty = tmp_path / "no-plugins"
        empty.mkdir(exist_ok=True)
        device = Device(
            cfg, tmp_path / "data", [app], durable=False, bundled_plugins=empty, alerts=False
        )
        window = DeviceWindow(device, load_skin(skin or default_skin_name(cfg)), zoom)
        # Pitfall 1 of the pyglet notes: deliver dispatched events at once.
        pyglet.window.Window._enable_event_queue = False
        windows.append(window)
        window.frame()
        return window, app

    yield factory
    for window in windows:
        window.close()
