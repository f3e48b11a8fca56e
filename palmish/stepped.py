"""Stepped computations (pure: no device, no game): a generator that yields between
small steps and returns its answer, so a window can run it a slice at a time
(palmish.boardgame.sliced) and everyone else all at once (`finish`)."""

from __future__ import annotations

import time
from collections.abc import Callable, Generator
from typing import TypeVar

T = TypeVar("T")


class _Going:
    """A step's result while the computation goes on (its answer may be None)."""


_GOING = _Going()


def _step(steps: Generator[None, None, T]) -> T | _Going:
    """One step of a computation: its answer if that was the last, else _GOING."""
    try:
        next(steps)
    except StopIteration as done:
        answer: T = done.value
        return answer
    return _GOING


def finish(steps: Generator[None, None, T]) -> T:
    """Run a stepped computation to its end and return its answer."""
    while isinstance(answer := _step(steps), _Going):
        pass
    return answer


def in_slices(steps: Generator[None, None, T], slice_ms: float,
              clock: Callable[[], float] = time.perf_counter) -> Generator[None, None, T]:
    """The same computation, pausing only once it has run `slice_ms` since it last
    went on: for steps much shorter than a frame, whose answer does not depend on
    where they pause (the pauses then fall by the clock, the answer never does)."""
    try:
        end = clock() + slice_ms / 1000.0
        while isinstance(answer := _step(steps), _Going):
            if clock() >= end:
                yield
                end = clock() + slice_ms / 1000.0
        return answer
    finally:
        steps.close()
