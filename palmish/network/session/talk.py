"""What the people at a table say to it besides their moves (docs/network.md,
"At the table"): canned table messages, a rematch at the same table, leaving
it. Kinds of "table level 1": a joiner asks for them with `join`'s `table`
field and the host answers with `welcome`'s; a peer that did not ask hears
none of them, so a client of the plain protocol keeps working.

Pure: the records, the canned messages, a sender's rate limit and the rematch
vote, for whichever game's table holds them."""

from __future__ import annotations

from collections import deque
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Annotated

from palmish.network.session.kinds import DIGEST_BYTES, LINE
from palmish.network.session.records import Flag, Hex, Int, ListOf, Maybe, Record, Text, Vocabulary

TABLE_LEVEL = 1  # the table kinds this handheld speaks (join's and welcome's `table`)

# The canned table messages, by the id on the wire; nothing else is ever said.
MESSAGES: Mapping[str, str] = {
    "good-luck": "Good luck!",
    "your-turn": "Your turn",
    "back-soon": "Back in a minute",
    "well-played": "Well played",
}
MESSAGE_ID = Text("|".join(MESSAGES))  # what a host sends: a known id only
ASKED_ID = Text(r"[^\x00-\x1f\x7f-\x9f]{1,40}")  # what a joiner may ask (refused unless known)
SAY_BURST = 3  # a sender's table messages: at most 3 ...
SAY_WINDOW_S = 10.0  # ... in any 10 seconds; more get an `error`, nothing else changes
VACATE = ("open", "silicon")  # what a seat its person left becomes between games
ANSWER = Text(r"yes|no|wait|-")
SEAT = Int(0, 15)
SEAT_NAME = Text(r"[^\s,:\x00-\x1f\x7f-\x9f]{1,10}")  # a seated person's name, as games check it
TOO_MANY = (f"at most {SAY_BURST} table messages in {SAY_WINDOW_S:.0f} s;"
            " wait a moment")  # the rate limit's answer, on the host and the sender alike


def message_id(text: str) -> str | None:
    """The wire id of a canned message by its text (None: not one)."""
    return next((key for key, said in MESSAGES.items() if said == text), None)


# ---------------------------------------------------------------- joiner to host


@dataclass(frozen=True)
class Say(Record):
    """A canned table message of my seat (its id; anything else is refused)."""

    KIND = "say"
    msg: Annotated[str, ASKED_ID]


@dataclass(frozen=True)
class Again(Record):
    """Propose a rematch (none open) or answer the open one; `dice`: my dice
    commitment for the next game, with a yes."""

    KIND = "again"
    yes: Annotated[bool, Flag()]
    dice: Annotated[bytes | None, Maybe(Hex(DIGEST_BYTES))] = None


@dataclass(frozen=True)
class Leave(Record):
    """I leave the table for good (my seat key no longer holds the seat)."""

    KIND = "leave"


# ---------------------------------------------------------------- host to joiner


@dataclass(frozen=True)
class Said(Record):
    """The person of `seat` (`name`) said a canned message."""

    KIND = "said"
    seat: Annotated[int, SEAT]
    name: Annotated[str, SEAT_NAME]
    msg: Annotated[str, MESSAGE_ID]


@dataclass(frozen=True)
class Rematch(Record):
    """The rematch vote: `state` open (answers awaited, `left_s` more seconds),
    on (the next game's dice round follows; `dice` the host's new commitment)
    or off (`why`); `by` the proposer's seat (null: the host's device); `answers`
    one per seat: yes, no, wait (not yet) or - (no person to ask)."""

    KIND = "rematch"
    state: Annotated[str, Text(r"open|on|off")]
    by: Annotated[int | None, Maybe(SEAT)] = None
    answers: Annotated[tuple[str, ...], ListOf(ANSWER, 16)] = ()
    left_s: Annotated[int, Int(0, 3600)] = 0
    dice: Annotated[bytes | None, Maybe(Hex(DIGEST_BYTES))] = None
    why: Annotated[str | None, Maybe(LINE)] = None


@dataclass(frozen=True)
class Left(Record):
    """The person of `seat` left the table (`removed`: the host removed them);
    their seat is now `now` (open or silicon, the seats message says more)."""

    KIND = "left"
    seat: Annotated[int, SEAT]
    name: Annotated[str, SEAT_NAME]
    removed: Annotated[bool, Flag()] = False
    now: Annotated[str, Text(r"open|silicon")] = "open"


def said_line(said: Said) -> str:
    """A table message as every device's log shows it."""
    return f"{said.name}: {MESSAGES[said.msg]}"


def left_line(left: Left) -> str:
    """A leaver as every device's log shows it."""
    how = "was removed from" if left.removed else "left"
    return f"{left.name} {how} the table; the seat is " + (
        "Silicon" if left.now == "silicon" else "open")


FROM_JOINER = Vocabulary(Say, Again, Leave)
FROM_HOST = Vocabulary(Said, Rematch, Left)


# ---------------------------------------------------------------- the host's rules


@dataclass
class SayLimit:
    """At most SAY_BURST table messages in any SAY_WINDOW_S per sender."""

    times: dict[int, deque[float]] = field(default_factory=dict)

    def allow(self, sender: int, now: float) -> bool:
        sent = self.times.setdefault(sender, deque())
        while sent and now - sent[0] >= SAY_WINDOW_S:
            sent.popleft()
        if len(sent) >= SAY_BURST:
            return False
        sent.append(now)
        return True


@dataclass
class Vote:
    """One rematch proposal: the seats' answers (None: not yet), the host
    device's, until `deadline`."""

    by: int | None
    answers: dict[int, bool | None]  # a seat whose person is asked -> the answer
    host: bool | None
    deadline: float
    vacate: str = "open"

    def answer(self, seat: int, yes: bool) -> bool:
        """Take `seat`'s answer; False when it was not asked or answered already."""
        if seat not in self.answers or self.answers[seat] is not None:
            return False
        self.answers[seat] = yes
        return True

    def decided(self, now: float) -> bool:
        return (now >= self.deadline or self.host is False
                or (self.host is not None and None not in self.answers.values()))

    def state(self, seats: int, now: float) -> Rematch:
        words = {True: "yes", False: "no", None: "wait"}
        answers = tuple(words[self.answers[i]] if i in self.answers else "-"
                        for i in range(seats))
        return Rematch("open", self.by, answers, max(0, int(self.deadline - now + 0.999)))
