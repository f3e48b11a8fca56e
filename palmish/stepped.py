"""Stepped computations (pure: no device, no game): a generator that yields between
small steps and returns its answer, so a window can run it a slice at a time
(palmish.boardgame.sliced) and everyone else all at once (`finish`)."""

from __future__ import annotations

from collections.abc import Generator
from typing import TypeVar

T = TypeVar("T")


def finish(steps: Generator[None, None, T]) -> T:
    """Run a stepped computation to its end and return its answer."""
    while True:
        try:
            next(steps)
        except StopIteration as done:
            answer: T = done.value
            return answer
