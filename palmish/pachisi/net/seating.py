"""A hosted table's seats and peers (palmish/pachisi/net/table.py): who sits
where, with which keys, and who is connected."""

from __future__ import annotations

from dataclasses import dataclass

SEAT_KINDS = ("remote", "computer", "host")


@dataclass
class Seat:
    kind: str  # remote, computer or host
    name: str | None = None
    seat_key: bytes | None = None  # remote: the key the sitter proved (its seat proof)
    identity: bytes | None = None  # remote: the sitter's identity (it may rejoin by keys)
    pledge: bytes | None = None  # remote: the sitter's dice commitment, from its join
    peer: int | None = None  # remote: the connection sitting here, None when away
    away_since: float | None = None
    silicon_told: bool = False  # everyone heard that Silicon plays this away seat
    next_pledge: bytes | None = None  # remote: its dice commitment for a rematch
    vacated: bool = False  # computer: its person left (Silicon plays on for them)

    def state(self, now: float, wait_s: float) -> str:
        if self.kind != "remote":
            return "here"
        if self.name is None:
            return "open"
        if self.peer is not None:
            return "here"
        assert self.away_since is not None
        return "silicon" if now - self.away_since >= wait_s else "away"


@dataclass
class Peer:
    seat: int | None = None  # None: a spectator
    name: str | None = None
    talks: bool = False  # it speaks the table's kinds (session/talk.py)
