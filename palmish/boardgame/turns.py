"""Timed computer turns (a demo, computer players, notices) on the device clock.

The device gives an app one timer; `Turns` shares it between named actions.
Each due action runs once per Tick, however late the Tick is: an action that
wants to repeat schedules itself again from the time it ran, so missed periods
are dropped rather than replayed in a burst. One action is one computer move,
so the device handles the player's pen and keys between moves: input never
waits behind a queue of computer turns.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol


class Clock(Protocol):
    """The part of the AppContext the turns use."""

    @property
    def now_ms(self) -> int: ...

    def set_timer(self, delay_ms: int) -> None: ...

    def cancel_timer(self) -> None: ...


class Turns:
    def __init__(self) -> None:
        self._clock: Clock | None = None
        self._due: dict[str, tuple[int, Callable[[], None]]] = {}

    def attach(self, clock: Clock | None) -> None:
        """Run on this clock (None: detached; nothing is scheduled then)."""
        self._clock = clock
        if clock is None:
            self._due.clear()

    def after(self, name: str, delay_ms: int, action: Callable[[], None]) -> None:
        """Run `action` once after `delay_ms` (replaces a pending action of that name)."""
        if self._clock is None:
            return
        self._due[name] = (self._clock.now_ms + max(0, int(delay_ms)), action)
        self._arm()

    def cancel(self, name: str) -> None:
        if self._due.pop(name, None) is not None:
            self._arm()

    def cancel_all(self) -> None:
        self._due.clear()
        self._arm()

    def pending(self, name: str) -> bool:
        return name in self._due

    @property
    def now_ms(self) -> int | None:
        """The clock's time, None when detached (the app is not running)."""
        return None if self._clock is None else self._clock.now_ms

    def tick(self, now_ms: int) -> None:
        """The device's Tick: run every due action once, earliest first, then re-arm."""
        due = sorted((when, name) for name, (when, _) in self._due.items() if when <= now_ms)
        for when, name in due:
            entry = self._due.get(name)
            if entry is None or entry[0] != when:
                continue  # cancelled or rescheduled by an earlier action
            del self._due[name]
            entry[1]()
        self._arm()

    def _arm(self) -> None:
        if self._clock is None:
            return
        if not self._due:
            self._clock.cancel_timer()
            return
        first = min(when for when, _ in self._due.values())
        self._clock.set_timer(max(0, first - self._clock.now_ms))
