"""The host's side across the internet (docs/network.md, "Across the internet"):
one code for every joiner. The host claims a code at the rendezvous, waits for
a joiner to claim it too, glues the transit connection they make to the
table's own listener (the session layer's handshake with the table's code
runs through it as on the LAN) and says the path; then it claims the same
code again for the next joiner, or for one coming back after its link broke.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from typing import Any

from palmish.network.deadline import within
from palmish.network.internet import reactor as threaded
from palmish.network.internet.meeting import SLOTS, MeetError, Met, Unanswered, meet, slot_code
from palmish.network.internet.settings import Settings

RETRY_S = 1.0  # after a meeting that failed (a wrong code, a relay gone)
MAX_FAILURES = 60  # meetings failed in a row before the host stops taking joiners by code
FIRST_BYTES_S = 10.0  # the joiner's first bytes (its wormhole closed): the code is free again


class InternetHost:
    """Takes joiners by code for a table listening at (host, port)."""

    def __init__(self, settings: Settings, app: str, table_code: str, local: tuple[str, int],
                 say: Callable[[str], None], log: Callable[[str], None]) -> None:
        self.settings, self.app, self.table_code = settings, app, table_code
        self.lan = settings.lan_hints(local[0], local[1])  # the LAN path, offered
        self.local = ("127.0.0.1" if local[0] in ("0.0.0.0", "") else
                      "::1" if local[0] == "::" else local[0], local[1])
        self.say, self.log = say, log
        self.code: str | None = None
        # How each joiner by code came: the local port its pump connects to the table
        # from (the table sees it as the peer's address) -> direct or relayed.
        self.paths: dict[int, str] = {}

    async def run(self) -> None:
        """Until cancelled; MeetError when the rendezvous cannot be reached at first.
        The first place allocates the code; then every place of it waits for joiners."""
        loop = asyncio.get_running_loop()

        def told(code: str) -> None:
            def here() -> None:
                if self.code is None:
                    self.code = code
                    self.say(f"code {code}")
            loop.call_soon_threadsafe(here)

        first = asyncio.ensure_future(self._place(0, told))
        while self.code is None and not first.done():
            await asyncio.wait([first], timeout=0.1)
        if self.code is None:
            await first  # its MeetError
            return
        places = [first, *(asyncio.ensure_future(self._place(slot, told))
                           for slot in range(1, SLOTS))]
        try:
            await asyncio.gather(*places)
        finally:
            for place in places:
                place.cancel()

    async def _place(self, slot: int, told: Callable[[str], None]) -> None:
        """One meeting place of the code: a joiner at a time, for as long as the game."""
        loop = asyncio.get_running_loop()

        def warn(line: str) -> None:
            loop.call_soon_threadsafe(self.log, line)

        failures = 0
        offer = {"app": self.app, "table": self.table_code, "lan": self.lan}
        while True:
            code = None if self.code is None else slot_code(self.code, slot)
            try:
                met: Met = await threaded.call(
                    meet, self.settings, threaded.reactor(), host=True, code=code,
                    offer=offer, on_code=told)
            except Unanswered:
                continue  # nobody came: the place claimed afresh
            except MeetError as err:
                if self.code is None:
                    raise
                failures += 1
                self.log(f"a joiner by code: {err}")
                if failures >= MAX_FAILURES:
                    self.log("too many failed meetings: no more joiners by code here")
                    return
                await asyncio.sleep(RETRY_S)
                continue
            failures = 0
            if met.connection is None:  # the LAN path: the joiner goes to the table itself
                self.say(f"path: {met.path}")
                continue
            try:
                pump = await threaded.call(_pump_to, self.local, met.connection, warn)
            except OSError as err:
                self.log(f"a joiner by code: cannot reach the table: {err}")
                continue
            self.paths[await threaded.call(_local_port, pump)] = met.path
            # Said once the joiner's first bytes came through (a joiner whose LAN
            # path won a moment before has closed this one); the place is free again.
            with contextlib.suppress(asyncio.TimeoutError, TimeoutError):
                if await within(threaded.call(_first_data, pump), FIRST_BYTES_S):
                    self.say(f"path: {met.path}")


def _pump_to(local: tuple[str, int], link: Any, warn: Callable[[str], None]) -> Any:
    from palmish.network.internet.pump import pump_to
    return pump_to(threaded.reactor(), local[0], local[1], link, warn)


def _local_port(pump: Any) -> int:
    return int(pump.transport.getHost().port)


def _first_data(pump: Any) -> Any:
    return pump.first_data
