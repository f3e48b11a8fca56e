"""Pachisi's own message kinds (docs/network.md, "Pachisi's messages"): typed
records of the session layer (palmish/network/session/records.py), declared
here by the game and handed to the session through its network engine, so
the network knows no piece, throw or step. Each kind is encoded and decoded
once, by the session that carries it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated

from palmish.network.session import talk
from palmish.network.session.records import (
    Flag,
    Int,
    ListOf,
    Maybe,
    Nested,
    Record,
    Text,
    Vocabulary,
)

MAX_STEPS = 100_000
NAME = Text(r"[^\s,:\x00-\x1f\x7f-\x9f]{1,10}")  # a player name, as rules.valid_name checks it
STEP = Text(r"T(2|3|4|5|6|10|25)|M[0-3]|P")
PIECE = Int(0, 3)
SEAT = Int(0, 3)
COUNT = Int(0, MAX_STEPS)
RECORD = Text(r"[ -~]{1,200000}")


# ---------------------------------------------------------------- host to joiner


@dataclass(frozen=True)
class SeatState(Record):
    """One seat as everyone sees it: who, what kind, and whether they are there."""

    name: Annotated[str | None, Maybe(NAME)]
    kind: Annotated[str, Text(r"remote|computer|host")]
    state: Annotated[str, Text(r"open|here|away|silicon")]


@dataclass(frozen=True)
class Seats(Record):
    """Every seat in playing order, after each change."""

    KIND = "seats"
    seats: Annotated[tuple[SeatState, ...], ListOf(Nested(SeatState), 4)]


@dataclass(frozen=True)
class Player(Record):
    name: Annotated[str, NAME]
    computer: Annotated[bool, Flag()]


@dataclass(frozen=True)
class GameSoFar(Record):
    """The game so far: at the start, and to whoever joins later."""

    KIND = "game"
    dice: Annotated[str, Text(r"cowrie|die7")]
    players: Annotated[tuple[Player, ...], ListOf(Nested(Player), 4)]
    steps: Annotated[tuple[str, ...], ListOf(STEP, MAX_STEPS)]


@dataclass(frozen=True)
class Step(Record):
    """One more step: `T6` a throw of 6, `M2` piece 2 moved, `P` a pass."""

    KIND = "step"
    n: Annotated[int, COUNT]
    step: Annotated[str, STEP]


@dataclass(frozen=True)
class Turn(Record):
    """Whose turn it is after `n` steps and what they may do."""

    KIND = "turn"
    n: Annotated[int, COUNT]
    seat: Annotated[int, SEAT]
    phase: Annotated[str, Text(r"throw|move|over")]
    pieces: Annotated[tuple[int, ...], ListOf(PIECE, 4)]
    can_pass: Annotated[bool, Flag()]


@dataclass(frozen=True)
class Marker(Record):
    """The person of `seat` points at `piece`."""

    KIND = "marker"
    seat: Annotated[int, SEAT]
    piece: Annotated[int, PIECE]


@dataclass(frozen=True)
class End(Record):
    """The game is over: its record."""

    KIND = "end"
    record: Annotated[str, RECORD]


# ---------------------------------------------------------------- joiner to host


@dataclass(frozen=True)
class Throw(Record):
    KIND = "throw"


@dataclass(frozen=True)
class Choose(Record):
    """Show my marker on this piece (no change to the game)."""

    KIND = "choose"
    piece: Annotated[int, PIECE]


@dataclass(frozen=True)
class Move(Record):
    """Move this piece with the waiting throw."""

    KIND = "move"
    piece: Annotated[int, PIECE]


@dataclass(frozen=True)
class Pass(Record):
    KIND = "pass"


# with the table's kinds (messages, rematch, leaving: palmish/network/session/talk.py)
FROM_HOST = Vocabulary(Seats, GameSoFar, Step, Turn, Marker, End) + talk.FROM_HOST
FROM_JOINER = Vocabulary(Throw, Choose, Move, Pass) + talk.FROM_JOINER
Intent = Throw | Choose | Move | Pass


def intent(kind: str, piece: int | None = None) -> Intent:
    """The record of an intent by its kind (the app's `ask`); ValueError for another."""
    if kind == "throw":
        return Throw()
    if kind == "pass":
        return Pass()
    if kind in ("choose", "move") and piece is not None:
        return Choose(piece) if kind == "choose" else Move(piece)
    raise ValueError(f"no intent {kind!r}")
