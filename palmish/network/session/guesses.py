"""How many wrong codes a host or a receiver hears (docs/network-session.md,
"Guessing limits").

Every connection that asks for the code is counted as a wrong code the moment
it is let in to the key exchange, and uncounted only when its key confirmation
proves the right code: a guess that fails at the exchange, closes, goes silent
or sends anything malformed stays counted. At most IN_ALL are counted in any
WINDOW_S, and at most PER_SOURCE of them from one source (an IPv4 address, or an
IPv6 /64, which one machine can fill with addresses), so that one stranger
guessing without pause still leaves IN_ALL - PER_SOURCE tries a minute to
everyone else. A connection refused for the limits gets no key exchange, so
it learns nothing about the code. Sessions authenticated by paired keys never
ask for the code and are never counted nor refused here.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Callable
from dataclasses import dataclass, field

IN_ALL = 5
PER_SOURCE = 2
WINDOW_S = 60.0


def source_of(host: str) -> str:
    """What the limits count by: an IPv4 address (also one mapped into IPv6), or
    the /64 network of an IPv6 address; any other text as it is."""
    try:
        address = ipaddress.ip_address(host.split("%", 1)[0])
    except ValueError:
        return host
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return str(ipaddress.IPv6Network((address, 64), strict=False))
    return str(address)


@dataclass
class Ticket:
    """One admitted try; `right()` uncounts it once its code proved right."""

    source: str
    at: float
    _uncount: Callable[[Ticket], None] = field(repr=False)
    settled: bool = False

    def right(self) -> None:
        if not self.settled:
            self.settled = True
            self._uncount(self)


class Guesses:
    """The counted tries of one host or receiver."""

    def __init__(self, in_all: int = IN_ALL, per_source: int = PER_SOURCE,
                 window_s: float = WINDOW_S) -> None:
        self.in_all, self.per_source, self.window_s = in_all, per_source, window_s
        self._counted: list[Ticket] = []  # oldest first; never more than in_all

    def _forget_old(self, now: float) -> None:
        self._counted = [t for t in self._counted if now - t.at < self.window_s]

    def try_code(self, source: str, now: float) -> Ticket | float:
        """A counted try for `source`, or the seconds until one is open."""
        self._forget_old(now)
        mine = [t for t in self._counted if t.source == source]
        waits = []
        if len(mine) >= self.per_source:
            waits.append(mine[len(mine) - self.per_source].at + self.window_s - now)
        if len(self._counted) >= self.in_all:
            waits.append(self._counted[len(self._counted) - self.in_all].at
                         + self.window_s - now)
        if waits:
            return max(0.001, max(waits))
        ticket = Ticket(source, now, self._uncount)
        self._counted.append(ticket)
        return ticket

    def _uncount(self, ticket: Ticket) -> None:
        self._counted = [t for t in self._counted if t is not ticket]

    def counted(self, now: float) -> int:
        """How many wrong codes count now (the tries still open among them)."""
        self._forget_old(now)
        return len(self._counted)
