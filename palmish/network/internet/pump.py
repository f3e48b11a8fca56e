"""The bytes between a transit connection and a local TCP connection, on the
reactor's thread (docs/network.md, "Across the internet").

On the host a `Pump` connects to the table's own listener, so the table
serves a joiner by code exactly as one on the LAN; on the joiner the session
layer connects to a `Door` on 127.0.0.1, which meets the host by code for
each connection it takes (the first meeting made beforehand), so a joiner
that lost its link (the relay gone) meets the host again on its own. Closing
either side closes the other; transit's records are sealed (a changed byte
ends the link), and what they carry is the session layer's sealed frames.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from twisted.internet import defer, protocol
from twisted.internet import endpoints as _endpoints

endpoints: Any = _endpoints  # typed only in part

FOREVER = 1 << 62  # connectConsumer's `expected`: its Deferred then fires only on loss


class Pump(protocol.Protocol):
    """A local TCP connection glued to a transit connection."""

    def __init__(self, link: Any | None = None,
                 warn: Callable[[str], None] | None = None) -> None:
        self.link, self.warn = link, warn
        self.first_data: defer.Deferred[None] = defer.Deferred()

    def connectionMade(self) -> None:
        if self.link is not None:
            self.glue(self.link)

    def glue(self, link: Any) -> None:
        self.link = link
        lost = link.connectConsumer(self.transport, expected=FOREVER)
        lost.addBoth(self._link_lost)

    def _link_lost(self, _: object) -> None:
        # transit keeps why it hung up; a record that does not open (a changed
        # byte, a record dropped or replayed) is said, the rest is a link gone.
        error = getattr(self.link, "_error", None)
        if self.warn is not None and type(error).__name__ in ("CryptoError", "BadNonce"):
            self.warn("the link was altered on its way (a record that does not open): "
                      "closed, to be made again")
        transport: Any = self.transport
        transport.loseConnection()
        self._first(None)

    def _first(self, _: object) -> None:
        if not self.first_data.called:
            self.first_data.callback(None)

    def dataReceived(self, data: bytes) -> None:
        if self.link is not None:
            self.link.send_record(data)
            self._first(None)

    def connectionLost(self, reason: object = None) -> None:
        if self.link is not None:
            self.link.close()
        self._first(None)


def pump_to(reactor: Any, host: str, port: int, link: Any,
            warn: Callable[[str], None]) -> defer.Deferred[Pump]:
    """Connect to host:port and glue it to `link` (the host's side)."""
    endpoint = endpoints.HostnameEndpoint(reactor, host, port)
    connected: defer.Deferred[Pump] = endpoints.connectProtocol(endpoint, Pump(link, warn))
    return connected


class Door(Pump):
    """A local connection of the joiner's session layer: met by code, then glued."""

    def __init__(self, meet: Callable[[], Any], said: Callable[[str], None],
                 warn: Callable[[str], None]) -> None:
        super().__init__(None, warn)
        self.meet, self.said = meet, said

    def connectionMade(self) -> None:
        assert self.transport is not None
        self.transport.pauseProducing()  # nothing read before the link is there
        d = defer.maybeDeferred(self.meet)
        d.addCallbacks(self._met, self._not_met)

    def _met(self, met: Any) -> None:
        assert self.transport is not None
        if not self.transport.connected:
            met.connection.close()
            return
        self.said(f"path: {met.path}")
        self.glue(met.connection)
        self.transport.resumeProducing()

    def _not_met(self, failure: Any) -> None:
        if self.warn is not None:
            self.warn(str(failure.value))
        transport: Any = self.transport
        transport.loseConnection()


class DoorFactory(protocol.Factory):
    def __init__(self, meet: Callable[[], Any], said: Callable[[str], None],
                 warn: Callable[[str], None]) -> None:
        self.meet, self.said, self.warn = meet, said, warn

    def buildProtocol(self, addr: object) -> Door:
        return Door(self.meet, self.said, self.warn)


def open_door(reactor: Any, meet: Callable[[], Any], said: Callable[[str], None],
              warn: Callable[[str], None]) -> Any:
    """A Deferred of the listening port on 127.0.0.1 (a free port)."""
    endpoint = endpoints.TCP4ServerEndpoint(reactor, 0, interface="127.0.0.1")
    return endpoint.listen(DoorFactory(meet, said, warn))
