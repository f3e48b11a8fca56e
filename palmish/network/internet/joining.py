"""The joiner's side across the internet (docs/network.md, "Across the
internet"): meet the host by code once (its offer names the game and carries
the table's join code), then open a door on 127.0.0.1 for the session layer.
Each connection the joiner's session makes there meets the host by the same
code again (the first uses the meeting already made), so the joiner's own
"the host is gone, trying again" loop also replaces a relay that vanished.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from palmish.network.internet import reactor as threaded
from palmish.network.internet.meeting import MeetError, Met, meet
from palmish.network.internet.settings import Settings


@dataclass
class Door:
    port: int  # on 127.0.0.1
    table_code: str
    path: str
    listening: Any

    async def close(self) -> None:
        await threaded.call(self.listening.stopListening)


async def open_door(settings: Settings, code: str, app: str,
                    say: Callable[[str], None], log: Callable[[str], None]) -> Door:
    """MeetError with one line when the first meeting fails."""
    loop = asyncio.get_running_loop()
    first: Met = await threaded.call(meet, settings, threaded.reactor(), host=False, code=code,
                                     offer={"app": app})
    theirs = first.offer
    if theirs.get("app") != app:
        first.connection.close()
        raise MeetError(f"the host of {code} plays {theirs.get('app')!r}, not {app}")
    table = theirs.get("table")
    if not isinstance(table, str):
        first.connection.close()
        raise MeetError(f"the host of {code} sent no table to join")
    waiting: list[Met] = [first]

    def again() -> Any:
        if waiting:
            return waiting.pop()
        return meet(settings, threaded.reactor(), host=False, code=code, offer={"app": app})

    def said(line: str) -> None:
        loop.call_soon_threadsafe(say, line)

    def warn(line: str) -> None:
        loop.call_soon_threadsafe(log, line)

    def opening() -> Any:
        from palmish.network.internet.pump import open_door as listen
        return listen(threaded.reactor(), again, said, warn)

    listening = await threaded.call(opening)
    return Door(listening.getHost().port, table, first.path, listening)
