"""The first of several attempts to succeed, on the reactor's thread (the path
ladder of docs/network.md, "Across the internet": transit and the LAN path
tried together; the LAN path's addresses tried together)."""

from __future__ import annotations

import contextlib
from typing import Any


def first_of(tries: list[Any], cancel: bool = True) -> Any:
    """A Deferred of (index, result) of the first of `tries` (Deferreds) to succeed,
    the others cancelled (`cancel`; a late winner's connection closed); the last
    failure when all fail."""
    from twisted.internet import defer

    def cancelled(_: object) -> None:
        for attempt in tries:
            attempt.cancel()

    result: Any = defer.Deferred(cancelled)
    failed: list[Any] = []

    def won(value: Any, index: int) -> Any:
        if result.called:
            if cancel:  # nobody takes it
                with contextlib.suppress(Exception):
                    value.close()
            return value  # for whoever awaits this try itself (cancel False)
        result.callback((index, value))
        for other in tries if cancel else ():
            if not other.called:
                other.cancel()
        return value

    def lost(failure: Any) -> None:
        failed.append(failure)
        if len(failed) == len(tries) and not result.called:
            result.errback(failure)

    for index, attempt in enumerate(tries):
        attempt.addCallbacks(won, lost, callbackArgs=(index,))
    return result
