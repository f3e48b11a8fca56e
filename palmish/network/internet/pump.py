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

from palmish.device.addresses import address_text

endpoints: Any = _endpoints  # typed only in part

FOREVER = 1 << 62  # connectConsumer's `expected`: its Deferred then fires only on loss


class Pump(protocol.Protocol):
    """A local TCP connection glued to a transit connection."""

    def __init__(self, link: Any | None = None,
                 warn: Callable[[str], None] | None = None) -> None:
        self.link, self.warn = link, warn
        # True at the link's first bytes (the other side is there), False if it went first
        self.first_data: defer.Deferred[bool] = defer.Deferred()

    def connectionMade(self) -> None:
        if self.link is not None:
            self.glue(self.link)

    def glue(self, link: Any) -> None:
        self.link = link
        lost = link.connectConsumer(_Watching(self.transport, self._first), expected=FOREVER)
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
        self._first(False)

    def _first(self, came: bool) -> None:
        if not self.first_data.called:
            self.first_data.callback(came)

    def dataReceived(self, data: bytes) -> None:
        if self.link is not None:
            self.link.send_record(data)

    def connectionLost(self, reason: object = None) -> None:
        if self.link is not None:
            self.link.close()
        self._first(False)


class _Watching:
    """The local transport as the link's consumer, noting the link's first bytes."""

    def __init__(self, transport: Any, first: Callable[[bool], None]) -> None:
        self.transport, self.first = transport, first

    def write(self, data: bytes) -> None:
        self.first(True)
        self.transport.write(data)

    def registerProducer(self, producer: Any, streaming: bool) -> None:
        self.transport.registerProducer(producer, streaming)

    def unregisterProducer(self) -> None:
        self.transport.unregisterProducer()


class LanLink(protocol.Protocol):
    """The LAN path: a plain TCP connection to the host's table, offering what a
    Pump needs of a transit connection (its bytes are the session layer's own
    sealed frames, as through transit)."""

    def __init__(self, where: str) -> None:
        self.where = where
        self.consumer: Any = None
        self.held: list[bytes] = []
        self.lost: defer.Deferred[None] = defer.Deferred()

    def dataReceived(self, data: bytes) -> None:
        if self.consumer is None:
            self.held.append(data)
        else:
            self.consumer.write(data)

    def connectConsumer(self, consumer: Any, expected: int = 0) -> defer.Deferred[None]:
        self.consumer = consumer
        for data in self.held:
            consumer.write(data)
        self.held.clear()
        return self.lost

    def send_record(self, data: bytes) -> None:
        transport: Any = self.transport
        transport.write(data)

    def close(self) -> None:
        transport: Any = self.transport
        if transport is not None:
            transport.loseConnection()

    def describe(self) -> str:
        return f"->lan:tcp:{self.where}"

    def connectionLost(self, reason: object = None) -> None:
        if not self.lost.called:
            self.lost.callback(None)


def lan_connect(reactor: Any, hints: list[tuple[str, int]],
                timeout_s: float) -> defer.Deferred[LanLink]:
    """The first of `hints` that takes a TCP connection within `timeout_s` (the
    others cancelled or closed); the last failure when none does."""
    from palmish.network.internet.race import first_of

    tries = []
    for host, port in hints:
        endpoint = endpoints.HostnameEndpoint(reactor, host, port, timeout=timeout_s)
        tries.append(endpoints.connectProtocol(endpoint, LanLink(address_text(host, port))))
    first: defer.Deferred[LanLink] = first_of(tries).addCallback(lambda won: won[1])
    return first


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
