"""Manifest fields that let `build` give back a database byte for byte.

`extract` writes them (docs/prc-tools.md, "Round trip"); an author may set
them too (docs/plugin-format.md): the header's dates and counters, the
resource order, odd layout bytes, and each bitmap member's encoding.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date, datetime, timezone
from typing import Any, TypeVar

import yaml

from prc_tools import safeyaml
from prc_tools.bitmap.encoding import MemberEncoding, compressions
from prc_tools.database import NAME_FIELD_SIZE, Database, decode_date
from prc_tools.frozen import Frozen
from prc_tools.plugin.field_checks import FieldChecker

HEADER_FIELDS = {
    "created", "modified", "backed_up", "modification_number", "unique_id_seed",
    "next_record_list", "order", "layout",
}
DATE_FIELDS = ("created", "modified", "backed_up")
_LAYOUT_FIELDS = {"gap", "name_field"}
_MEMBER_FIELDS = {"file", "version", "compression", "colour_table"}
_U32_MAX = 0xFFFF_FFFF
VERSIONS = (0, 1, 2, 3)

Date = datetime | int  # a date-time, or the stored number of seconds since 1904 as is
T = TypeVar("T")


class FlowPair(list[Any]):
    """A [type, id] pair of `order:`, which the manifest writer keeps on one line."""


for _dumper in {yaml.SafeDumper, safeyaml.libyaml_or_python("SafeDumper")}:
    # Both dumpers: prc_tools.safeyaml.dump uses libyaml's when PyYAML has it.
    _dumper.add_representer(
        FlowPair, lambda dumper, pair: dumper.represent_sequence(
            "tag:yaml.org,2002:seq", pair, flow_style=True)
    )


class HeaderSpec(Frozen):
    """The header fields a manifest may fix; None = not given."""

    created: Date | None = None  # not given: the build time
    modified: Date | None = None  # not given: the build time
    backed_up: Date | None = None  # not given: never (0)
    modification_number: int = 0
    unique_id_seed: int = 0
    next_record_list: int = 0
    order: tuple[tuple[str, int], ...] = ()
    gap: bytes | None = None
    name_field: bytes | None = None


def parse_header(check: FieldChecker, top: dict[str, Any]) -> HeaderSpec:
    dates = {key: _date(check, top[key], key) if key in top else None for key in DATE_FIELDS}
    counters = {
        key: check.integer(top.get(key, 0), key, 0, _U32_MAX)
        for key in ("modification_number", "unique_id_seed", "next_record_list")
    }
    order = tuple(
        _order_item(check, item, f"order[{index}]")
        for index, item in enumerate(_list(check, top.get("order", []), "order"))
    )
    layout = check.mapping(top.get("layout", {}), "layout", _LAYOUT_FIELDS)
    gap = _hex(check, layout["gap"], "layout.gap") if "gap" in layout else None
    name_field = None
    if "name_field" in layout:
        name_field = _hex(check, layout["name_field"], "layout.name_field")
        if len(name_field) != NAME_FIELD_SIZE:
            raise check.fail("layout.name_field", f"must be {NAME_FIELD_SIZE} bytes in hex")
    return HeaderSpec(
        created=dates["created"], modified=dates["modified"], backed_up=dates["backed_up"],
        modification_number=counters["modification_number"],
        unique_id_seed=counters["unique_id_seed"], next_record_list=counters["next_record_list"],
        order=order, gap=gap, name_field=name_field,
    )


def apply_header(db: Database, spec: HeaderSpec, now: datetime) -> None:
    """Set `db`'s header fields from `spec`; dates not given become `now` (never for backups)."""
    for which, value, default in (
        ("created", spec.created, now), ("modified", spec.modified, now),
        ("backed_up", spec.backed_up, None),
    ):
        when: datetime | None = default
        if isinstance(value, int):
            when = decode_date(value)
            db.stored_dates[which] = value  # kept as is, even a Unix-epoch count
        elif value is not None:
            when = value
        setattr(db, which, when)
    db.modification_number = spec.modification_number
    db.unique_id_seed = spec.unique_id_seed
    db.next_record_list = spec.next_record_list
    if spec.gap is not None:
        db.gap = spec.gap
    db.name_field = spec.name_field


def in_order(items: Sequence[T], keys: Sequence[tuple[str, int]],
             order: Sequence[tuple[str, int]]) -> list[T]:
    """`items` (whose (type, id) are `keys`) in the order `order` lists them; the rest after.

    A key listed twice takes the items with that key one after the other (a
    database may hold the same type and id more than once).
    """
    waiting: dict[tuple[str, int], list[int]] = {}
    for index, key in enumerate(keys):
        waiting.setdefault(key, []).append(index)
    positions = [waiting[key].pop(0) for key in order if waiting.get(key)]
    placed = set(positions)
    return [items[i] for i in positions] + [
        item for i, item in enumerate(items) if i not in placed
    ]


def date_value(db: Database, which: str) -> Date:
    """What `extract` writes for a header date: a date-time, or the stored count."""
    if which in db.stored_dates:
        return db.stored_dates[which]
    when: datetime | None = getattr(db, which)
    return 0 if when is None else when


def parse_member(
    check: FieldChecker, value: Any, where: str, family: MemberEncoding
) -> tuple[str | None, MemberEncoding]:
    """A `members` value: a file name, or a mapping of file and encoding."""
    if isinstance(value, str):
        return check.file(value, where), family
    entry = check.mapping(value, where, _MEMBER_FIELDS)
    file = check.file(entry["file"], f"{where}.file") if "file" in entry else None
    version = family.version
    if "version" in entry:
        version = check.choice(entry["version"], f"{where}.version", VERSIONS)
    compression = family.compression
    if "compression" in entry:
        compression = check.choice(entry["compression"], f"{where}.compression", compressions())
    colour_table = check.flag(entry.get("colour_table", False), f"{where}.colour_table")
    return file, MemberEncoding(version, compression, colour_table)


def _date(check: FieldChecker, value: Any, where: str) -> Date:
    if isinstance(value, datetime):
        when: datetime = value
        if when.tzinfo is not None:  # with an offset given: that moment in UTC
            when = when.astimezone(timezone.utc).replace(tzinfo=None)
        return when
    if isinstance(value, date):
        return datetime(value.year, value.month, value.day)
    if isinstance(value, int) and not isinstance(value, bool):
        seconds: int = check.integer(value, where, 0, _U32_MAX)
        return seconds
    raise check.fail(where, f"must be a date-time like 2003-05-01 12:00:00 or a number, not"
                     f" {value!r}")


def _list(check: FieldChecker, value: Any, where: str) -> list[Any]:
    if not isinstance(value, list):
        raise check.fail(where, "must be a list")
    return value


def _order_item(check: FieldChecker, value: Any, where: str) -> tuple[str, int]:
    if not isinstance(value, list) or len(value) != 2:
        raise check.fail(where, "must be a [type, id] pair, e.g. [Tbmp, 1000]")
    return check.code(value[0], where), check.integer(value[1], where, 0, 0xFFFF)


def _hex(check: FieldChecker, value: Any, where: str) -> bytes:
    if not isinstance(value, str):
        raise check.fail(where, "must be hexadecimal text")
    try:
        return bytes.fromhex(value)
    except ValueError:
        raise check.fail(where, f"{value!r} is not hexadecimal") from None
