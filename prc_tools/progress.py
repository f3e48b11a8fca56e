"""A one-line progress bar on a terminal, shown only when the work takes a moment."""

from __future__ import annotations

import time
from typing import TextIO

WIDTH = 30


class ProgressBar:
    """Call `update(done, total)` as work proceeds and `close()` at the end.

    Nothing is drawn unless `stream` is a terminal and `delay` seconds have
    passed, so quick runs and redirected output stay clean.
    """

    def __init__(self, stream: TextIO, label: str, delay: float = 0.3) -> None:
        self.stream = stream
        self.label = label
        self.delay = delay
        self.start = time.monotonic()
        self.enabled = _is_terminal(stream)
        self.drawn = False

    def update(self, done: int, total: int) -> None:
        if not self.enabled or time.monotonic() - self.start < self.delay:
            return
        fraction = done / total if total else 1.0
        filled = int(WIDTH * fraction)
        bar = "#" * filled + "-" * (WIDTH - filled)
        self.stream.write(f"\r{self.label} [{bar}] {done}/{total}")
        self.stream.flush()
        self.drawn = True

    def close(self) -> None:
        if self.drawn:
            self.stream.write("\r\x1b[K")  # back to column 0 and clear the line
            self.stream.flush()
            self.drawn = False


def _is_terminal(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False
