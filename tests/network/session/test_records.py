"""Typed records: one encode and one decode each, exact fields, a game's own
kinds, and no input that makes the decoder or the frame reader do anything
but return a record or say what is wrong in one line."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Annotated

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from palmish.network.session.dice import FROM_HOST, DiceCommits, DiceSecrets
from palmish.network.session.frames import Closed, FrameError, frame, read_frame
from palmish.network.session.kinds import (
    FROM_CLIENT,
    FROM_SERVER,
    VERSION,
    Join,
    Refused,
    SeatProof,
    Welcome,
)
from palmish.network.session.records import (
    Int,
    ListOf,
    MessageError,
    Record,
    Text,
    Vocabulary,
)


@dataclass(frozen=True)
class Step(Record):
    """A game's own kind, declared as the session's are (here Pachisi's `step`)."""

    KIND = "step"
    n: Annotated[int, Int(0, 100_000)]
    step: Annotated[str, Text(r"T(2|3|4|5|6|10|25)|M[0-3]|P")]


@dataclass(frozen=True)
class Seats(Record):
    KIND = "seats"
    names: Annotated[tuple[str, ...], ListOf(Text(r"[A-Za-z]{1,10}"), 4)]


GAME = Vocabulary(Step, Seats)
HEARS = FROM_SERVER + GAME + FROM_HOST


@pytest.mark.parametrize("record", [
    Welcome(VERSION, "pachisi", "Kitchen table", 2, bytes(32)),
    Welcome(VERSION, "beam", "Den"),
    Refused(VERSION, "the game is full", "full"),
    Step(12, "T25"),
    Seats(("Ann", "Bob")),
    DiceCommits(bytes(32), (bytes([1]) * 32, bytes([2]) * 32)),
    DiceSecrets((None, bytes(32))),
])
def test_every_record_round_trips_through_one_decode(record: Record) -> None:
    assert HEARS.decode(record.encode(), 1 << 20) == record


def test_a_field_at_its_default_is_left_out_and_a_join_round_trips() -> None:
    assert Join(name="Ann").encode() == b'{"t":"join","name":"Ann"}'
    proof = SeatProof(bytes(32), bytes(64))
    join = Join(name="Ann", seat=proof, dice=bytes(32))
    assert FROM_CLIENT.decode(join.encode(), 1024) == join
    assert Refused(VERSION, "x").encode() == b'{"t":"refused","v":2,"reason":"x"}'


@pytest.mark.parametrize("data, why", [
    (b"\xff", "not UTF-8"),
    (b"[1]", "not a JSON object"),
    (b'{"t":"dance"}', "unknown kind"),
    (b'{"t":"step","n":1}', "step: missing step"),
    (b'{"t":"step","n":1.0,"step":"P"}', "step: bad n"),
    (b'{"t":"step","n":true,"step":"P"}', "step: bad n"),
    (b'{"t":"step","n":1,"step":"T7"}', "step: bad step"),
    (b'{"t":"step","n":1,"step":"P","x":0}', "step: unknown field 'x'"),
    (b'{"t":"seats","names":["Ann","Bob","Cy","Di","Ed"]}', "seats: bad names"),
    (b'{"t":"welcome","v":2,"app":"pachisi","name":"\\u001b[2J"}', "welcome: bad name"),
    (b'{"t":"dice-commits","host":"00","joiners":[]}', "dice-commits: bad host"),
    (b'{"t":"step","n":1,"step":"P"}' + b" " * 2000, "at most"),
    (b"[" * 100 + b"]" * 100, "nested"),
])
def test_what_is_refused_says_what_and_where(data: bytes, why: str) -> None:
    with pytest.raises(MessageError, match=why.replace("[", r"\[")):
        HEARS.decode(data, 1024)


def test_a_kind_declared_twice_is_an_error_when_vocabularies_are_put_together() -> None:
    @dataclass(frozen=True)
    class OtherWelcome(Record):
        KIND = "welcome"

    with pytest.raises(ValueError, match="two message kinds called 'welcome'"):
        FROM_SERVER + Vocabulary(OtherWelcome)
    assert "step" in GAME and "step" not in FROM_SERVER


def test_a_record_whose_fields_have_no_rules_cannot_be_declared() -> None:
    @dataclass(frozen=True)
    class Loose(Record):
        KIND = "loose"
        n: int

    with pytest.raises(TypeError, match="Annotated"):
        Vocabulary(Loose)


@settings(max_examples=300, deadline=None)
@given(st.one_of(
    st.binary(max_size=300),
    st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=20),
                 lambda inner: st.lists(inner, max_size=4)
                 | st.dictionaries(st.sampled_from(["t", "n", "step", "v", "app", "name",
                                                    "seat", "dice", "host", "joiners"]),
                                   inner, max_size=5),
                 max_leaves=20).map(lambda v: __import__("json").dumps(v).encode()),
))
def test_the_decoder_returns_a_record_or_one_message_error(data: bytes) -> None:
    try:
        record = HEARS.decode(data, 1024)
    except MessageError as err:
        assert "\n" not in str(err)
    else:
        assert HEARS.decode(record.encode(), 1 << 20) == record


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=200), st.integers(1, 64))
def test_the_frame_reader_takes_any_bytes_in_any_pieces(data: bytes, piece: int) -> None:
    async def go() -> list[bytes]:
        reader = asyncio.StreamReader()
        for start in range(0, len(data), piece):
            reader.feed_data(data[start:start + piece])
        reader.feed_eof()
        payloads = []
        while True:
            try:
                _, payload = await read_frame(reader, 1.0, 100)
            except (Closed, FrameError):
                return payloads
            payloads.append(payload)

    payloads = asyncio.run(go())
    assert b"".join(frame(p) for p in payloads) == data[:sum(4 + len(p) for p in payloads)]
    assert all(0 < len(p) <= 100 for p in payloads)
