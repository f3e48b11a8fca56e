"""Twisted's reactor in one background thread for the life of the process,
and calls into it from asyncio (docs/network.md, "Across the internet").

Magic Wormhole is written for Twisted; the rest of palmish is asyncio. The
reactor runs once, in a daemon thread started on first use; `call` runs a
function there and hands its Deferred's result to an asyncio future.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import Callable
from typing import Any

_lock = threading.Lock()
_thread: threading.Thread | None = None


def reactor() -> Any:
    """The reactor, running in its thread."""
    global _thread
    from twisted.internet import reactor as typed_reactor
    the_reactor: Any = typed_reactor
    with _lock:
        if _thread is None:
            _thread = threading.Thread(target=the_reactor.run, name="twisted",
                                       kwargs={"installSignalHandlers": False}, daemon=True)
            _thread.start()
    return the_reactor


def call(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> asyncio.Future[Any]:
    """fn(*args, **kwargs) on the reactor's thread; its result (or its Deferred's) here.
    Cancelling the future cancels the Deferred."""
    from twisted.internet import defer
    from twisted.python.failure import Failure
    loop = asyncio.get_running_loop()
    future: asyncio.Future[Any] = loop.create_future()
    running: list[Any] = []

    def settle(result: object) -> None:
        if future.done():
            return
        if isinstance(result, Failure):
            error = result.value
            future.set_exception(error if isinstance(error, BaseException)
                                 else RuntimeError(str(error)))
        else:
            future.set_result(result)

    def finished(result: object) -> None:
        with contextlib.suppress(RuntimeError):  # that loop is closed: nobody waits
            loop.call_soon_threadsafe(settle, result)
        return None  # the Failure handled here, never "unhandled" at collection

    def start() -> None:
        d = defer.maybeDeferred(fn, *args, **kwargs)
        running.append(d)
        d.addBoth(finished)

    def cancelled(f: asyncio.Future[Any]) -> None:
        if f.cancelled():
            the_reactor.callFromThread(lambda: [d.cancel() for d in running])

    the_reactor = reactor()
    future.add_done_callback(cancelled)
    the_reactor.callFromThread(start)
    return future


STOP_S = 5.0


def shutdown() -> None:
    """Stop the reactor (its thread pool, which is not daemonic, with it): once,
    when the process is done with the internet."""
    global _thread
    with _lock:
        thread, _thread = _thread, None
    if thread is None:
        return
    from twisted.internet import reactor as typed_reactor
    the_reactor: Any = typed_reactor
    the_reactor.callFromThread(the_reactor.stop)
    thread.join(STOP_S)
