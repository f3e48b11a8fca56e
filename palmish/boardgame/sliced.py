"""Long computations off the frame path: a generator run a slice at a time on the device timer.

A job is a generator that does its work in small units, yields after each one
and returns its answer. `SlicedJob` runs `units` of them per Tick, GAP_MS of
device time apart, so the window draws and takes input between slices; the
first slice runs at once, so a quick answer costs no wait. Slices are counted
in units, never measured in time, so event scripts and tests (which drive
device time) get the same answers on every run. Past `slow_ms` of device time
the job calls `on_slow` once (the app says "Thinking..."); once `cap_ms` has
passed it closes the generator and calls `on_late` instead of running another
slice. In the window device time is real time, so the cap is a real deadline.
"""

from __future__ import annotations

from collections.abc import Callable, Generator
from typing import Generic, TypeVar

from palmish import stepped
from palmish.boardgame.turns import Turns

T = TypeVar("T")

GAP_MS = 10  # device time between two slices: the window draws and reads input there
# A job that pauses by the clock (stepped.in_slices, PalmIshido's search) runs at
# most this long at a time: less than the gap, which counts device time from the
# slice's start (the window sets it then), or the next slice would already be due
# and the window get no time between.
TIMED_SLICE_MS = GAP_MS * 0.8
SLOW_MS = 150  # past this the player is told the app is working


class SlicedJob(Generic[T]):
    def __init__(
        self,
        turns: Turns,
        name: str,
        work: Generator[None, None, T],
        *,
        units: int,
        on_done: Callable[[T], None],
        on_slow: Callable[[], None] | None = None,
        slow_ms: int = SLOW_MS,
        cap_ms: int | None = None,
        on_late: Callable[[], None] | None = None,
    ) -> None:
        self.turns = turns
        self.name = name
        self.units = units
        self.on_done = on_done
        self.on_slow = on_slow
        self.slow_ms = slow_ms
        self.cap_ms = cap_ms
        self.on_late = on_late
        self._work: Generator[None, None, T] | None = work
        self._started = turns.now_ms or 0
        self._told_slow = False

    @property
    def running(self) -> bool:
        return self._work is not None

    def start(self, at_once: bool = True) -> None:
        """Run the first slice now (or, not `at_once`, a gap from now: the screen
        just painted goes up first); the rest follow on the timer."""
        if at_once:
            self._slice()
        else:
            self.turns.after(self.name, GAP_MS, self._slice)

    def cancel(self) -> bool:
        """Stop the job without an answer; True if it was still running."""
        work, self._work = self._work, None
        if work is None:
            return False
        self.turns.cancel(self.name)
        work.close()
        return True

    def finish(self) -> None:
        """Run the rest of the work now, in one piece (its answer is wanted at once)."""
        work, self._work = self._work, None
        if work is not None:
            self.turns.cancel(self.name)
            self.on_done(stepped.finish(work))

    def _slice(self) -> None:
        work = self._work
        if work is None:
            return
        elapsed = (self.turns.now_ms or 0) - self._started
        if self.cap_ms is not None and elapsed >= self.cap_ms:
            self.cancel()
            if self.on_late is not None:
                self.on_late()
            return
        if elapsed >= self.slow_ms and not self._told_slow:
            self._told_slow = True
            if self.on_slow is not None:
                self.on_slow()
        try:
            for _ in range(self.units):
                next(work)
        except StopIteration as done:
            self._work = None
            self.on_done(done.value)
            return
        except BaseException:
            self._work = None
            raise
        self.turns.after(self.name, GAP_MS, self._slice)
