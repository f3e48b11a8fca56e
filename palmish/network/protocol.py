"""Version 1's line format, which Beam still speaks until it moves to the
session layer (docs/network.md, "Beam"): one JSON object per line, and the
limits and helpers both versions share (the join code, the rate limit).
Network games speak version 2 (palmish/network/session/, docs/network.md):
their kinds are typed records, the session's and each game's own.

Everything received goes through `decode`, which bounds the line's size,
nesting and numbers before parsing (storage.parse_json) and then checks the object against the
kind's field table: a message with a missing, extra or mistyped field is a
`ProtocolError`, and whoever reads it drops the peer. No pickle, no eval.
"""

from __future__ import annotations

import json
import re
import secrets
from collections.abc import Callable, Mapping
from typing import Any

from palmish.device.disk.storage import parse_json

VERSION = 1

# Line limits in bytes, newline included (docs/network.md, "Limits").
MAX_JOINER_LINE = 1024  # what a host reads from a joiner: intents are tiny
MAX_HOST_LINE = 1 << 20  # what a joiner reads from a host: a whole game's steps fit
# Rate: a joiner's BURST messages are read at once, then RATE a second; a
# faster sender is simply read more slowly (TCP holds the rest back).
RATE = 50.0
BURST = 50
HELLO_TIMEOUT_S = 5.0
PING_EVERY_S = 1.0
SILENCE_LIMIT_S = 5.0  # nothing at all for this long: the peer is dead

Message = dict[str, Any]
Check = Callable[[Any], bool]


def new_code() -> str:
    """A random four-digit code: a table's join code, a beam receiver's pairing code."""
    return f"{secrets.randbelow(10000):04d}"


class ProtocolError(ValueError):
    """A line that is not a valid message (one line saying why)."""


# The field checks of a message kind's table (here and in beam/wire.py): each is
# a Check, true when a field's value is one the kind allows.


def int_in(low: int, high: int) -> Check:
    return lambda v: type(v) is int and low <= v <= high


def matching(pattern: str) -> Check:
    compiled = re.compile(pattern)
    return lambda v: isinstance(v, str) and compiled.fullmatch(v) is not None


def boolean(v: Any) -> bool:
    return type(v) is bool


CODE = matching(r"[0-9]{4}")
LINE = matching(r"[^\x00-\x1f\x7f-\x9f]{1,200}")


def or_none(check: Check) -> Check:
    return lambda v: v is None or check(v)


FromJoiner = dict[str, tuple[dict[str, Check], dict[str, Check]]]  # kind -> (required, optional)


def encode(message: Mapping[str, Any]) -> bytes:
    """One line of compact JSON, ASCII only (non-ASCII is \\u-escaped)."""
    return json.dumps(message, separators=(",", ":"), ensure_ascii=True).encode("ascii") + b"\n"


def decode(line: bytes, kinds: FromJoiner, limit: int) -> Message:
    """A validated message from one received line (with or without its newline)."""
    if len(line) > limit:
        raise ProtocolError(f"line of {len(line)} bytes, at most {limit}")
    try:  # bounded in size, nesting and digits before the parser sees it
        value = parse_json(line, limit)
    except ValueError as exc:
        raise ProtocolError(str(exc)[:80]) from None
    if not isinstance(value, dict):
        raise ProtocolError("not a JSON object")
    kind = value.get("t")
    if not isinstance(kind, str) or kind not in kinds:
        raise ProtocolError(f"unknown kind {str(kind)[:20]!r}")
    required, optional = kinds[kind]
    fields = set(value) - {"t"}
    missing = set(required) - fields
    if missing:
        raise ProtocolError(f"{kind}: missing {', '.join(sorted(missing))}")
    extra = fields - set(required) - set(optional)
    if extra:
        raise ProtocolError(f"{kind}: unknown field {sorted(extra)[0][:20]!r}")
    for name in sorted(fields):
        check = required.get(name) or optional[name]
        if not check(value[name]):
            raise ProtocolError(f"{kind}: bad {name}")
    return value


class RateLimit:
    """A token bucket: `delay(now)` is how long to wait before reading the
    next message so that a peer gets BURST at once and then RATE a second."""

    def __init__(self, rate: float = RATE, burst: int = BURST) -> None:
        self.rate, self.burst = rate, burst
        self._tokens = float(burst)
        self._last: float | None = None

    def delay(self, now: float) -> float:
        if self._last is not None:
            self._tokens = min(self.burst, self._tokens + (now - self._last) * self.rate)
        self._last = now
        self._tokens -= 1.0
        return 0.0 if self._tokens >= 0.0 else -self._tokens / self.rate

    def take(self, now: float) -> bool:
        """A token if one is there now (True), else False and nothing owed."""
        if self._last is not None:
            self._tokens = min(self.burst, self._tokens + (now - self._last) * self.rate)
        self._last = now
        if self._tokens < 1.0:
            return False
        self._tokens -= 1.0
        return True
