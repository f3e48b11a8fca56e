"""The wire format: what decode accepts and refuses, and that nothing else escapes it."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from palmish.network.protocol import (
    HOST_KINDS,
    JOINER_KINDS,
    MAX_JOINER_LINE,
    ProtocolError,
    RateLimit,
    decode,
    encode,
)

HELLO = {"t": "hello", "v": 1, "app": "pachisi", "code": "1234", "name": "Ann",
         "token": "0" * 32}


def joiner(line: bytes) -> dict[str, object]:
    return decode(line, JOINER_KINDS, MAX_JOINER_LINE)


def test_a_hello_round_trips() -> None:
    assert joiner(encode(HELLO)) == HELLO
    assert encode(HELLO).endswith(b"\n") and encode(HELLO).count(b"\n") == 1


@pytest.mark.parametrize("line, why", [
    (b"\xff\xfe\n", "not UTF-8"),
    (b"{not json}\n", "not JSON"),
    (b"[1, 2]\n", "not a JSON object"),
    (b'{"t": "dance"}\n', "unknown kind"),
    (b'{"t": "move"}\n', "missing piece"),
    (b'{"t": "move", "piece": 4}\n', "bad piece"),
    (b'{"t": "move", "piece": true}\n', "bad piece"),
    (b'{"t": "move", "piece": 1.0}\n', "bad piece"),
    (b'{"t": "move", "piece": 1, "x": 1}\n', "unknown field"),
    (b'{"t": "throw", "v": NaN}\n', "unknown field"),
    (b'{"t": "pass", "a": [[[[[1]]]]]}\n', "unknown field"),
    (b'{"t": "hello", "v": 1, "app": "pachisi", "code": "12345"}\n', "bad code"),
    (b'{"t": "hello", "v": 1, "app": "pachisi", "code": "1234", "name": "a b"}\n', "bad name"),
    (b'{"t": "hello", "v": 1, "app": "pachisi", "code": "1234", "name": "\\u001b[2J"}\n',
     "bad name"),
    (b'{"t": "end", "record": "x"}\n', "unknown kind"),  # a host's kind from a joiner
])
def test_bad_lines_are_refused_with_a_reason(line: bytes, why: str) -> None:
    with pytest.raises(ProtocolError, match=why):
        joiner(line)


def test_size_and_nesting_are_bounded_before_parsing() -> None:
    with pytest.raises(ProtocolError, match="at most"):
        joiner(b'{"t":"ping"}' + b" " * MAX_JOINER_LINE + b"\n")
    deep = b"[" * 100_000 + b"]" * 100_000
    with pytest.raises(ProtocolError, match="nested"):
        decode(deep, JOINER_KINDS, 1 << 20)
    with pytest.raises(ProtocolError, match="digits"):
        joiner(b'{"t": "move", "piece": 1' + b"0" * 500 + b"}\n")


def test_host_messages_validate_too() -> None:
    step = {"t": "step", "n": 3, "step": "T25"}
    assert decode(encode(step), HOST_KINDS, 1 << 20) == step
    with pytest.raises(ProtocolError):
        decode(encode({"t": "step", "n": 3, "step": "T7"}), HOST_KINDS, 1 << 20)
    seats = {"t": "seats", "seats": [{"name": None, "kind": "remote", "state": "open"}]}
    assert decode(encode(seats), HOST_KINDS, 1 << 20) == seats


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=2000))
def test_random_bytes_are_a_protocol_error_or_a_valid_message(data: bytes) -> None:
    try:
        msg = joiner(data)
    except ProtocolError:
        return
    assert msg["t"] in JOINER_KINDS


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner,
                                                                  max_size=4),
    max_leaves=20,
)


@settings(max_examples=300, deadline=None)
@given(st.dictionaries(st.sampled_from(["t", "v", "app", "code", "name", "token", "piece", "x"]),
                       json_values | st.sampled_from(list(JOINER_KINDS)), max_size=6))
def test_json_with_wrong_fields_never_gets_through(value: dict[str, object]) -> None:
    line = json.dumps(value).encode() + b"\n"
    try:
        msg = joiner(line)
    except ProtocolError:
        return
    required, optional = JOINER_KINDS[str(msg["t"])]
    assert set(msg) - {"t"} <= set(required) | set(optional)


def test_the_rate_limit_reads_a_burst_then_slows_down() -> None:
    limit = RateLimit(rate=10.0, burst=3)
    assert [limit.delay(0.0) for _ in range(3)] == [0.0, 0.0, 0.0]
    assert limit.delay(0.0) == pytest.approx(0.1)
    assert limit.delay(10.0) == 0.0
