"""Records between a host's app and joiners' apps in one process, as the
window's network thread hands them over (NetworkRecord events; no sockets):
what the host sends to a peer, and what a joiner sends with what its session
would have proved (its identity and seat key)."""

from __future__ import annotations

from collections.abc import Callable

from palmish.network.engine import Arrival, NetworkRecord, record_event
from palmish.network.fairdice import JoinerDice
from palmish.network.session.kinds import Join
from palmish.network.session.records import Record


def arrival(peer: int) -> Arrival:
    return Arrival(bytes([peer % 256]) * 32, bytes([(peer + 100) % 256]) * 32)


class Wire:
    """Events in flight: `to_host` (from every joiner) and `to[peer]` (from the host)."""

    def __init__(self) -> None:
        self.to_host: list[NetworkRecord] = []
        self.to: dict[int, list[NetworkRecord]] = {}

    def host_sends(self, peer: int, record: Record) -> None:
        self.to.setdefault(peer, []).append(record_event(0, record))

    def joiner(self, peer: int) -> Callable[[Record], None]:
        """What the joiner on connection `peer` sends through."""
        def send(record: Record) -> None:
            self.to_host.append(record_event(peer, record, arrival(peer)))
        return send

    def join(self, peer: int, name: str | None) -> JoinerDice:
        """The joiner's first record (sit as `name`, or watch); its dice part."""
        dice = JoinerDice(contribute=name is not None)
        self.joiner(peer)(Join(name, watch=name is None, dice=dice.commitment))
        return dice

    def pending(self) -> bool:
        return bool(self.to_host) or any(self.to.values())
