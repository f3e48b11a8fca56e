"""Awaiting with a time limit, without losing a cancellation.

Python 3.11's `asyncio.wait_for` returns the result when a cancel arrives in the
same turn as the awaited result (a ping landing as the person presses Cancel),
so the cancel is lost and the task runs on. `asyncio.timeout` keeps it."""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Awaitable
from typing import TypeVar

T = TypeVar("T")


async def within(awaitable: Awaitable[T], seconds: float) -> T:
    """`awaitable`'s result; TimeoutError after `seconds`."""
    if sys.version_info >= (3, 11):
        async with asyncio.timeout(seconds):
            return await awaitable
    return await asyncio.wait_for(awaitable, seconds)  # 3.10: no asyncio.timeout
