"""Typed message records (docs/network-session.md, "Messages"): one frozen
dataclass per kind, its fields declared with their wire rules, one `encode`
and one `decode` for all of them.

A message on the wire is a JSON object whose `t` is its kind; its other fields
are exactly the record's. A field with a default may be left out (it then has
its default) and is left out when it has it. `Vocabulary.decode` bounds the
bytes, parses them once, checks every field by its rule and returns the record:
nothing downstream sees a dict or decodes again. A game declares its own kinds
the same way and adds its vocabulary to the session's (`session + game`).
"""

from __future__ import annotations

import base64
import binascii
import dataclasses
import json
import re
from collections.abc import Iterable
from typing import Any, ClassVar, TypeVar, get_type_hints

from palmish.device.disk.storage import parse_json


class MessageError(ValueError):
    """Bytes that are not a valid message (one line saying what and where)."""


class Spec:
    """A field's wire rule: `take` checks a received JSON value and gives the
    record's value; `give` turns the record's value into JSON."""

    def take(self, value: Any) -> Any:
        raise NotImplementedError

    def give(self, value: Any) -> Any:
        return value


@dataclasses.dataclass(frozen=True)
class Int(Spec):
    """A JSON integer (never a float, never a bool) from `low` to `high`."""

    low: int
    high: int

    def take(self, value: Any) -> Any:
        if type(value) is not int or not self.low <= value <= self.high:
            raise MessageError("bad")
        return value


@dataclasses.dataclass(frozen=True)
class Text(Spec):
    """A string the whole of which matches `pattern` (which bounds its length)."""

    pattern: str
    compiled: re.Pattern[str] = dataclasses.field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "compiled", re.compile(self.pattern))

    def take(self, value: Any) -> Any:
        if not isinstance(value, str) or self.compiled.fullmatch(value) is None:
            raise MessageError("bad")
        return value


@dataclasses.dataclass(frozen=True)
class Flag(Spec):
    """true or false."""

    def take(self, value: Any) -> Any:
        if type(value) is not bool:
            raise MessageError("bad")
        return value


@dataclasses.dataclass(frozen=True)
class Blob(Spec):
    """Bytes as base64 (RFC 4648, with padding), from `low` to `high` bytes decoded."""

    low: int
    high: int

    def take(self, value: Any) -> Any:
        if not isinstance(value, str) or len(value) > 4 * (self.high // 3 + 1):
            raise MessageError("bad")
        try:
            data = base64.b64decode(value, validate=True)
        except (binascii.Error, ValueError):
            raise MessageError("bad") from None
        if not self.low <= len(data) <= self.high:
            raise MessageError("bad")
        return data

    def give(self, value: Any) -> Any:
        return base64.b64encode(value).decode("ascii")


@dataclasses.dataclass(frozen=True)
class Hex(Spec):
    """Exactly `size` bytes as 2 * size lowercase hex digits."""

    size: int

    def take(self, value: Any) -> Any:
        if (not isinstance(value, str) or len(value) != 2 * self.size
                or value.strip("0123456789abcdef")):
            raise MessageError("bad")
        return bytes.fromhex(value)

    def give(self, value: Any) -> Any:
        return bytes(value).hex()


@dataclasses.dataclass(frozen=True)
class Maybe(Spec):
    """null, or a value by `inner`."""

    inner: Spec

    def take(self, value: Any) -> Any:
        return None if value is None else self.inner.take(value)

    def give(self, value: Any) -> Any:
        return None if value is None else self.inner.give(value)


@dataclasses.dataclass(frozen=True)
class ListOf(Spec):
    """A list of at most `most` values by `item` (a tuple in the record)."""

    item: Spec
    most: int

    def take(self, value: Any) -> Any:
        if not isinstance(value, list) or len(value) > self.most:
            raise MessageError("bad")
        return tuple(self.item.take(v) for v in value)

    def give(self, value: Any) -> Any:
        return [self.item.give(v) for v in value]


@dataclasses.dataclass(frozen=True)
class Nested(Spec):
    """An object with exactly the fields of record class `kind` (no `t`)."""

    kind: type[Record]

    def take(self, value: Any) -> Any:
        if not isinstance(value, dict):
            raise MessageError("bad")
        return _build(self.kind, value, "bad")

    def give(self, value: Any) -> Any:
        return _fields_of(value)


class Record:
    """The base of every message record: a frozen dataclass with `KIND`, its `t`."""

    KIND: ClassVar[str] = ""

    def encode(self) -> bytes:
        """The message as compact ASCII JSON (non-ASCII is \\u-escaped)."""
        message = {"t": self.KIND, **_fields_of(self)}
        return json.dumps(message, separators=(",", ":"), ensure_ascii=True).encode("ascii")


R = TypeVar("R", bound=Record)


@dataclasses.dataclass(frozen=True)
class _Field:
    name: str
    spec: Spec
    default: Any  # dataclasses.MISSING: required


_LAYOUTS: dict[type[Record], tuple[_Field, ...]] = {}


def _layout(kind: type[Record]) -> tuple[_Field, ...]:
    """The wire fields of a record class, read once from its annotations
    (`Annotated[type, Spec]`)."""
    found = _LAYOUTS.get(kind)
    if found is not None:
        return found
    if not dataclasses.is_dataclass(kind):
        raise TypeError(f"{kind.__name__} is not a dataclass")
    hints = get_type_hints(kind, include_extras=True)
    layout = []
    for f in dataclasses.fields(kind):
        specs = [m for m in getattr(hints[f.name], "__metadata__", ()) if isinstance(m, Spec)]
        if len(specs) != 1:
            raise TypeError(f"{kind.__name__}.{f.name}: declare it as Annotated[type, Spec]")
        if f.name == "t":
            raise TypeError(f"{kind.__name__}: no field may be called t")
        layout.append(_Field(f.name, specs[0], f.default))
    _LAYOUTS[kind] = result = tuple(layout)
    return result


def _fields_of(record: Record) -> dict[str, Any]:
    out = {}
    for f in _layout(type(record)):
        value = getattr(record, f.name)
        if f.default is dataclasses.MISSING or value != f.default:
            out[f.name] = f.spec.give(value)
    return out


def _build(kind: type[R], value: dict[str, Any], where: str) -> R:
    layout = _layout(kind)
    known = {f.name for f in layout}
    extra = set(value) - known - {"t"}
    if extra:
        raise MessageError(f"{where}: unknown field {sorted(extra)[0][:20]!r}")
    values = {}
    for f in layout:
        if f.name not in value:
            if f.default is dataclasses.MISSING:
                raise MessageError(f"{where}: missing {f.name}")
            continue
        try:
            values[f.name] = f.spec.take(value[f.name])
        except MessageError:
            raise MessageError(f"{where}: bad {f.name}") from None
    return kind(**values)


class Vocabulary:
    """The kinds one side may send: kind -> record class. Vocabularies add up
    (`a + b`); a kind named twice is an error when they are put together."""

    def __init__(self, *kinds: type[Record]) -> None:
        self._kinds: dict[str, type[Record]] = {}
        self._add(kinds)

    def _add(self, kinds: Iterable[type[Record]]) -> None:
        for kind in kinds:
            if not kind.KIND:
                raise TypeError(f"{kind.__name__} has no KIND")
            if kind.KIND in self._kinds and self._kinds[kind.KIND] is not kind:
                raise ValueError(f"two message kinds called {kind.KIND!r}")
            _layout(kind)  # checked now, not at the first message
            self._kinds[kind.KIND] = kind

    def __add__(self, other: Vocabulary) -> Vocabulary:
        joined = Vocabulary(*self._kinds.values())
        joined._add(other._kinds.values())
        return joined

    def __contains__(self, kind: str) -> bool:
        return kind in self._kinds

    def kinds(self) -> list[str]:
        return sorted(self._kinds)

    def decode(self, data: bytes, limit: int) -> Record:
        """The record in `data` (one JSON object); MessageError with one line."""
        if len(data) > limit:
            raise MessageError(f"a message of {len(data)} bytes, at most {limit}")
        try:  # bounded in size, nesting and digits before the parser sees it
            value = parse_json(data, limit)
        except ValueError as err:
            raise MessageError(str(err)[:80]) from None
        if not isinstance(value, dict):
            raise MessageError("not a JSON object")
        kind = value.get("t")
        if not isinstance(kind, str) or kind not in self._kinds:
            raise MessageError(f"unknown kind {str(kind)[:20]!r}")
        return _build(self._kinds[kind], value, kind)
