"""Pachisi's messages as records of the session (palmish/pachisi/net/messages.py):
what each vocabulary decodes and refuses, and that nothing else escapes it."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from palmish.network.protocol import RateLimit
from palmish.network.session import dice
from palmish.network.session.handshake import MAX_CLIENT_MESSAGE
from palmish.network.session.kinds import FROM_CLIENT, FROM_SERVER, Join
from palmish.network.session.records import MessageError, Record
from palmish.pachisi.net import messages

JOINER_SAYS = FROM_CLIENT + dice.FROM_JOINER + messages.FROM_JOINER
HOST_SAYS = FROM_SERVER + dice.FROM_HOST + messages.FROM_HOST


def joiner(data: bytes) -> Record:
    return JOINER_SAYS.decode(data, MAX_CLIENT_MESSAGE)


def test_a_join_and_the_intents_round_trip() -> None:
    for record in (Join("Ann"), Join(watch=True), messages.Move(2), messages.Throw(),
                   messages.Choose(0), messages.Pass(), dice.DiceReveal(b"s" * 32)):
        assert joiner(record.encode()) == record
    assert messages.Move(2).encode() == b'{"t":"move","piece":2}'


@pytest.mark.parametrize("data, why", [
    (b"\xff\xfe", "UTF-8"),
    (b"{not json}", "JSON"),
    (b"[1, 2]", "not a JSON object"),
    (b'{"t": "dance"}', "unknown kind"),
    (b'{"t": "move"}', "missing piece"),
    (b'{"t": "move", "piece": 4}', "bad piece"),
    (b'{"t": "move", "piece": true}', "bad piece"),
    (b'{"t": "move", "piece": 1.0}', "bad piece"),
    (b'{"t": "move", "piece": 1, "x": 1}', "unknown field"),
    (b'{"t": "pass", "a": [[[[[1]]]]]}', "unknown field"),
    (b'{"t": "join", "name": "\\u001b[2J"}', "bad name"),
    (b'{"t": "end", "record": "x"}', "unknown kind"),  # a host's kind from a joiner
    (b'{"t": "hello", "v": 1, "app": "pachisi", "code": "1234"}', "unknown kind"),
])
def test_bad_messages_are_refused_with_a_reason(data: bytes, why: str) -> None:
    with pytest.raises(MessageError, match=why):
        joiner(data)


def test_size_and_nesting_are_bounded_before_parsing() -> None:
    with pytest.raises(MessageError, match="at most"):
        joiner(b'{"t":"ping"}' + b" " * MAX_CLIENT_MESSAGE)
    deep = b"[" * 100_000 + b"]" * 100_000
    with pytest.raises(MessageError, match="nested"):
        JOINER_SAYS.decode(deep, 1 << 20)
    with pytest.raises(MessageError, match="digits"):
        joiner(b'{"t": "move", "piece": 1' + b"0" * 500 + b"}")


def test_host_messages_validate_too() -> None:
    step = messages.Step(3, "T25")
    assert HOST_SAYS.decode(step.encode(), 1 << 20) == step
    with pytest.raises(MessageError, match="bad step"):
        HOST_SAYS.decode(b'{"t":"step","n":3,"step":"T7"}', 1 << 20)
    seats = messages.Seats((messages.SeatState(None, "remote", "open"),))
    assert seats.encode() == b'{"t":"seats","seats":[{"name":null,"kind":"remote","state":"open"}]}'
    assert HOST_SAYS.decode(seats.encode(), 1 << 20) == seats


def test_the_game_declares_its_kinds_apart_from_the_sessions() -> None:
    assert set(messages.FROM_HOST.kinds()) == {"seats", "game", "step", "turn", "marker", "end",
                                               "said", "rematch", "left"}  # (the table's)
    assert set(messages.FROM_JOINER.kinds()) == {"throw", "choose", "move", "pass",
                                                 "say", "again", "leave"}
    assert not set(messages.FROM_HOST.kinds()) & set(FROM_SERVER.kinds() + dice.FROM_HOST.kinds())


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=2000))
def test_random_bytes_are_an_error_or_a_valid_message(data: bytes) -> None:
    try:
        record = joiner(data)
    except MessageError:
        return
    assert record.KIND in JOINER_SAYS


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner,
                                                                  max_size=4),
    max_leaves=20,
)


@settings(max_examples=300, deadline=None)
@given(st.dictionaries(st.sampled_from(["t", "name", "watch", "seat", "dice", "piece", "x"]),
                       json_values | st.sampled_from(JOINER_SAYS.kinds()), max_size=6))
def test_json_with_wrong_fields_never_gets_through(value: dict[str, object]) -> None:
    data = json.dumps(value).encode()
    try:
        record = joiner(data)
    except MessageError:
        return
    assert json.loads(record.encode()).keys() <= value.keys()


def test_the_rate_limit_reads_a_burst_then_slows_down() -> None:
    limit = RateLimit(rate=10.0, burst=3)
    assert [limit.delay(0.0) for _ in range(3)] == [0.0, 0.0, 0.0]
    assert limit.delay(0.0) == pytest.approx(0.1)
    assert limit.delay(10.0) == 0.0
