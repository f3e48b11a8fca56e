"""A probe app for the window tests: records events, draws a telling pattern."""

from __future__ import annotations

import io
import wave

from palmish.device.events import DisplayChanged, Event, KeyDown, PenDown, PenUp, Tick
from palmish.device.geometry import Rect
from palmish.device.machine.app import App, AppContext


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
    """Records every event; draws a pattern; a pen-down beeps and marks the spot (red),
    a pen-up marks its spot (blue);
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
        elif isinstance(event, PenUp):
            self.ctx.screen.fill(Rect(event.x - 1, event.y - 1, 3, 3), (0, 0, 255))
        elif isinstance(event, KeyDown) and event.key.value == "select":
            self.ctx.set_timer(30)
        elif isinstance(event, Tick):
            self.ctx.screen.fill(Rect(10, 10, 6, 6), (0, 200, 0))
