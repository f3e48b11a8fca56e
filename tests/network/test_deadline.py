"""palmish/network/deadline.py: a cancel that lands in the same turn as the
awaited result is kept (Python 3.11's wait_for dropped it, and a cancelled beam
then waited for the receiver's person)."""

from __future__ import annotations

import asyncio

import pytest

from palmish.network.deadline import within


async def _cancel_as_the_result_lands() -> None:
    arriving: asyncio.Future[int] = asyncio.get_running_loop().create_future()
    waiting = asyncio.ensure_future(within(arriving, 10.0))
    for _ in range(3):  # the task is parked on the future
        await asyncio.sleep(0)
    arriving.set_result(1)
    waiting.cancel()
    await waiting


def test_a_cancel_racing_the_result_still_cancels() -> None:
    with pytest.raises(asyncio.CancelledError):
        asyncio.run(_cancel_as_the_result_lands())


def test_the_limit_still_times_out() -> None:
    async def forever() -> None:
        await within(asyncio.Event().wait(), 0.01)

    with pytest.raises(TimeoutError):
        asyncio.run(forever())
