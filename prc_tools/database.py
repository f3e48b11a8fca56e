"""Palm OS databases: PDB (records) and PRC (resources), read and written.

Layout (all integers big-endian): a 78-byte header, then one entry per item
(10 bytes for a resource: type, id, offset; 8 bytes for a record: offset,
attributes, 24-bit unique id), then by custom two zero bytes, then the
optional appInfo and sortInfo blocks and the item data. No sizes are stored:
every block ends where the next one starts, the last at the end of the file.
"""

from __future__ import annotations

import os
import struct
import time
from pathlib import Path

from prc_tools.errors import DatabaseError, PrcError
from prc_tools.files import FileProblem, read_regular
from prc_tools.frozen import Frozen, field

# Not `from typing import TYPE_CHECKING`: typing costs a quick command 3 ms to load.
# datetime (about 2 ms) too is imported only where a date is made: a read keeps
# the stored numbers until a date is asked for, which `verify` never does.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from datetime import datetime

HEADER_SIZE = 78
RESOURCE_ENTRY_SIZE = 10
RECORD_ENTRY_SIZE = 8
NAME_FIELD_SIZE = 32
MAX_NAME_BYTES = NAME_FIELD_SIZE - 1
GAP = b"\0\0"

# Database attribute bits (header offset 32).
ATTR_RESOURCE = 0x0001
ATTR_READ_ONLY = 0x0002
ATTR_APPINFO_DIRTY = 0x0004
ATTR_BACKUP = 0x0008
ATTR_OK_TO_INSTALL_NEWER = 0x0010
ATTR_RESET_AFTER_INSTALL = 0x0020
ATTR_COPY_PREVENTION = 0x0040
ATTR_STREAM = 0x0080
ATTR_HIDDEN = 0x0100
ATTR_LAUNCHABLE_DATA = 0x0200
ATTR_RECYCLABLE = 0x0400
ATTR_BUNDLE = 0x0800
ATTR_OPEN = 0x8000

# What `prc-tools info` calls each attribute bit.
ATTRIBUTE_NAMES = {
    ATTR_RESOURCE: "resource",
    ATTR_READ_ONLY: "read-only",
    ATTR_APPINFO_DIRTY: "appInfo dirty",
    ATTR_BACKUP: "backup",
    ATTR_OK_TO_INSTALL_NEWER: "OK to install newer",
    ATTR_RESET_AFTER_INSTALL: "reset after install",
    ATTR_COPY_PREVENTION: "copy prevention",
    ATTR_STREAM: "stream",
    ATTR_HIDDEN: "hidden",
    ATTR_LAUNCHABLE_DATA: "launchable data",
    ATTR_RECYCLABLE: "recyclable",
    ATTR_BUNDLE: "bundle",
    ATTR_OPEN: "open",
}

# Record attribute bits (the high nibble; the low nibble is the category).
RECORD_DELETE = 0x80
RECORD_DIRTY = 0x40
RECORD_BUSY = 0x20
RECORD_SECRET = 0x10

# Palm dates count seconds from 1904-01-01 local time; Unix from 1970-01-01.
UNIX_EPOCH_IN_PALM = 2_082_844_800  # 1970-01-01 counted from 1904
_TOP_BIT = 0x8000_0000
_U32_MAX = 0xFFFF_FFFF

_HEADER = struct.Struct(">32sHH6I4s4s2IH")
assert _HEADER.size == HEADER_SIZE
_RESOURCE_ENTRY = struct.Struct(">4sHI")
_RECORD_ENTRY = struct.Struct(">IB3s")


def is_unix_date(value: int) -> bool:
    """Whether a stored date counts from 1970 (Unix time), not from 1904.

    The format counts from 1904, but some writers store Unix time. Every 1904
    date after mid-1972 has the top bit set, so a value with the top bit clear
    is read as Unix time (which misreads 1904-epoch dates from 1904 to 1972:
    no Palm database was written then), except 1970-01-01 itself: converters
    (Perl's Palm::PDB among them) store an unset Unix date 0 as its 1904-epoch
    value, read as 1970, not 2036. 0 is neither: never set.
    """
    return value != 0 and not value & _TOP_BIT and value != UNIX_EPOCH_IN_PALM


def _unix_seconds(value: int) -> int:
    """A stored date other than 0 as seconds from 1970-01-01 (never negative)."""
    return value if is_unix_date(value) else value - UNIX_EPOCH_IN_PALM


def decode_date(value: int) -> datetime | None:
    """A stored date as a naive local datetime; None for 0 (never set)."""
    if value == 0:
        return None
    from datetime import datetime, timedelta

    return datetime(1970, 1, 1) + timedelta(seconds=_unix_seconds(value))


def date_text(value: int) -> str | None:
    """A stored date as `decode_date(value).isoformat(sep=" ")` writes it, without
    importing datetime (None for 0). Naive dates have no zone: UTC's calendar is theirs."""
    if value == 0:
        return None
    t = time.gmtime(_unix_seconds(value))
    return (f"{t.tm_year:04d}-{t.tm_mon:02d}-{t.tm_mday:02d}"
            f" {t.tm_hour:02d}:{t.tm_min:02d}:{t.tm_sec:02d}")


def encode_date(when: datetime | None) -> int:
    """A naive local datetime as seconds since 1904 (0 for None)."""
    if when is None:
        return 0
    from datetime import datetime

    seconds = int((when.replace(tzinfo=None) - datetime(1904, 1, 1)).total_seconds())
    if not 0 <= seconds <= _U32_MAX:
        raise PrcError(f"date {when.isoformat()} is outside what a Palm database can hold")
    return seconds


def decode_name(raw: bytes) -> str:
    """The database name: bytes up to the first NUL, in Palm's Windows-1252 charset."""
    name = raw.split(b"\0", 1)[0]
    try:
        return name.decode("cp1252")
    except UnicodeDecodeError:
        # cp1252 leaves five bytes undefined; latin-1 maps every byte.
        return name.decode("latin-1")


def encode_name(name: str) -> bytes:
    try:
        raw = name.encode("cp1252")
    except UnicodeEncodeError:
        try:
            raw = name.encode("latin-1")
        except UnicodeEncodeError:
            raise PrcError(f"database name {name!r} has characters Palm OS cannot show") from None
    if b"\0" in raw:
        raise PrcError(f"database name {name!r} contains a NUL character")
    if len(raw) > MAX_NAME_BYTES:
        raise PrcError(f"database name {name!r} is longer than {MAX_NAME_BYTES} bytes")
    return raw.ljust(NAME_FIELD_SIZE, b"\0")


def encode_code(code: str, what: str) -> bytes:
    """A four-character type or creator code (any byte values, as latin-1)."""
    try:
        raw = code.encode("latin-1")
    except UnicodeEncodeError:
        raise PrcError(f"{what} {code!r} must be 4 single-byte characters") from None
    if len(raw) != 4:
        raise PrcError(f"{what} {code!r} must be exactly 4 characters")
    return raw


def decode_code(raw: bytes) -> str:
    return raw.decode("latin-1")


class Resource(Frozen, frozen=False):
    """One resource of a PRC: a four-character type, a 16-bit id and its bytes."""

    type: str
    id: int
    data: bytes


class Record(Frozen, frozen=False):
    """One record of a PDB: its bytes, attribute byte (flags + category) and 24-bit unique id."""

    data: bytes
    attributes: int = 0
    unique_id: int = 0

    @property
    def category(self) -> int:
        return self.attributes & 0x0F


class _Stored(int):
    """A header date as the file holds it, kept by a read Database until the date is
    first asked for (then made a datetime) or written back unchanged."""

    __slots__ = ()


def _date_slot(which: str) -> str:
    """The slot that holds the header date `which` ("created", "modified", "backed_up")."""
    return "_" + which


class _Date:
    """A header date of a Database, kept in its _date_slot: a date still as read
    (_Stored) is made a datetime when first asked for."""

    def __set_name__(self, owner: type, name: str) -> None:
        self.slot = _date_slot(name)

    def __get__(self, db: Database | None, owner: type | None = None) -> datetime | None:
        if db is None:
            return None  # on the class: the default, never set
        when: datetime | _Stored | None = getattr(db, self.slot)
        if isinstance(when, _Stored):
            when = decode_date(when)
            setattr(db, self.slot, when)
        return when

    def __set__(self, db: Database, when: datetime | None) -> None:
        setattr(db, self.slot, when)


class Database(Frozen, frozen=False):
    """A whole PDB or PRC. Resources make it a resource database (attribute 0x0001)."""

    name: str
    type: str
    creator: str
    resources: list[Resource] = field(default_factory=list)
    records: list[Record] = field(default_factory=list)
    attributes: int = 0
    version: int = 0
    # Dates (datetime or None), each a _Date over a "_" slot below (see _Stored).
    created: _Date = _Date()
    modified: _Date = _Date()
    backed_up: _Date = _Date()
    modification_number: int = 0
    app_info: bytes | None = None
    sort_info: bytes | None = None
    unique_id_seed: int = 0
    next_record_list: int = 0
    # What a read keeps so that writing gives the same bytes back (see to_bytes):
    # the bytes between the entry list and the first block (customarily two
    # zeros), the whole name field when it is not the canonical NUL-padded
    # form, and stored dates that the datetime fields cannot say (Unix-epoch ones).
    gap: bytes = GAP
    name_field: bytes | None = None
    stored_dates: dict[str, int] = field(default_factory=dict)

    __slots__ = ("_backed_up", "_created", "_modified")

    def __post_init__(self) -> None:
        # None for a list or mapping still means an empty one, as it always has.
        for key, empty in (("resources", list), ("records", list), ("stored_dates", dict)):
            if getattr(self, key) is None:
                setattr(self, key, empty())
        if self.resources:
            self.attributes |= ATTR_RESOURCE
        if self.resources and self.records:
            raise PrcError("a database holds either resources or records, not both")
        if self.records and self.attributes & ATTR_RESOURCE:
            raise PrcError("a resource database (attribute 0x0001) cannot hold records")

    def date_text(self, which: str) -> str | None:
        """The date `which` ("created", "modified" or "backed_up") as
        `isoformat(sep=" ")` writes it, or None if unset; a date still as read
        is written without making a datetime (`info`, without importing datetime)."""
        when: datetime | _Stored | None = getattr(self, _date_slot(which))
        if isinstance(when, _Stored):
            return date_text(when)
        return None if when is None else when.isoformat(sep=" ")

    @property
    def is_resource(self) -> bool:
        return bool(self.attributes & ATTR_RESOURCE)

    def resource(self, type_: str, id_: int) -> Resource | None:
        """The first resource with this type and id, or None."""
        for res in self.resources:
            if res.type == type_ and res.id == id_:
                return res
        return None

    # ---------------------------------------------------------------- reading

    @classmethod
    def read(cls, source: bytes | bytearray | memoryview | str | os.PathLike[str]) -> Database:
        """Parse a PDB/PRC from bytes or a file path; DatabaseError for a malformed one.

        A path is read with `files.read_regular`: a FIFO, a device, a folder or a
        file over 64 MiB is a DatabaseError at once, never read whole first."""
        if isinstance(source, (bytes, bytearray, memoryview)):
            return _parse(bytes(source))
        try:  # bounded: a FIFO or a huge file is one line, at once
            data = read_regular(Path(source))
        except FileProblem as exc:
            raise DatabaseError(str(exc)) from None
        return _parse(data)

    # ---------------------------------------------------------------- writing

    def to_bytes(self) -> bytes:
        """The database in PDB/PRC layout, with the customary 2-byte gap."""
        is_resource = self.is_resource
        if self.records and is_resource:
            raise PrcError("a resource database (attribute 0x0001) cannot hold records")
        items: list[bytes] = (
            [r.data for r in self.resources] if is_resource else [r.data for r in self.records]
        )
        count = len(items)
        if count > 0xFFFF:
            raise PrcError(f"{count} entries: a database holds at most 65535")
        entry_size = RESOURCE_ENTRY_SIZE if is_resource else RECORD_ENTRY_SIZE
        offset = HEADER_SIZE + count * entry_size + len(self.gap)
        app_info_offset = sort_info_offset = 0
        if self.app_info is not None:
            app_info_offset = offset
            offset += len(self.app_info)
        if self.sort_info is not None:
            sort_info_offset = offset
            offset += len(self.sort_info)

        entries = bytearray()
        for index, data in enumerate(items):
            if offset > _U32_MAX:
                raise PrcError("database larger than 4 GB")
            if is_resource:
                res = self.resources[index]
                if not 0 <= res.id <= 0xFFFF:
                    raise PrcError(f"resource {res.type!r} id {res.id} is outside 0..65535")
                raw_type = encode_code(res.type, "resource type")
                entries += _RESOURCE_ENTRY.pack(raw_type, res.id, offset)
            else:
                rec = self.records[index]
                if not 0 <= rec.attributes <= 0xFF:
                    raise PrcError(f"record {index} attributes {rec.attributes} is not a byte")
                if not 0 <= rec.unique_id <= 0xFF_FFFF:
                    raise PrcError(f"record {index} unique id {rec.unique_id} exceeds 24 bits")
                entries += _RECORD_ENTRY.pack(
                    offset, rec.attributes, rec.unique_id.to_bytes(3, "big")
                )
            offset += len(data)

        for what, value, limit in (
            ("attributes", self.attributes, 0xFFFF),
            ("version", self.version, 0xFFFF),
            ("modification number", self.modification_number, _U32_MAX),
            ("unique id seed", self.unique_id_seed, _U32_MAX),
            ("next record list id", self.next_record_list, _U32_MAX),
        ):
            if not 0 <= value <= limit:
                raise PrcError(f"database {what} {value} is outside 0..{limit}")
        header = _HEADER.pack(
            self._name_field(),
            self.attributes,
            self.version,
            self._date_field("created"),
            self._date_field("modified"),
            self._date_field("backed_up"),
            self.modification_number,
            app_info_offset,
            sort_info_offset,
            encode_code(self.type, "database type"),
            encode_code(self.creator, "creator"),
            self.unique_id_seed,
            self.next_record_list,
            count,
        )
        parts = [header, bytes(entries), self.gap]
        if self.app_info is not None:
            parts.append(self.app_info)
        if self.sort_info is not None:
            parts.append(self.sort_info)
        parts.extend(items)
        return b"".join(parts)

    def _name_field(self) -> bytes:
        """The kept name field while it still says the name, else the canonical one."""
        kept = self.name_field
        if kept is not None and len(kept) == NAME_FIELD_SIZE and decode_name(kept) == self.name:
            return kept
        return encode_name(self.name)

    def _date_field(self, which: str) -> int:
        """A kept stored date while it still reads as the date, else the date counted from 1904."""
        stored: datetime | _Stored | None = getattr(self, _date_slot(which))
        kept = self.stored_dates.get(which)
        if isinstance(stored, _Stored) and (
            kept == stored or (kept is None and not is_unix_date(stored))
        ):
            return stored  # what the lines below give, without making a datetime
        when: datetime | None = getattr(self, which)
        if kept is not None and 0 <= kept <= _U32_MAX and decode_date(kept) == when:
            return kept
        return encode_date(when)

    def write(self, path: str | os.PathLike[str]) -> None:
        """Write atomically: a temporary file beside the target, fsync, then rename."""
        from prc_tools.atomic import write_atomic  # tempfile: only when writing

        write_atomic(Path(path), self.to_bytes())


def _parse(data: bytes) -> Database:
    size = len(data)
    if size < HEADER_SIZE:
        raise DatabaseError(f"truncated header: {size} bytes, a header needs {HEADER_SIZE}")
    (
        raw_name,
        attributes,
        version,
        created,
        modified,
        backed_up,
        modification_number,
        app_info_offset,
        sort_info_offset,
        raw_type,
        raw_creator,
        unique_id_seed,
        next_record_list,
        count,
    ) = _HEADER.unpack_from(data, 0)
    is_resource = bool(attributes & ATTR_RESOURCE)
    entry_size = RESOURCE_ENTRY_SIZE if is_resource else RECORD_ENTRY_SIZE
    kind = "resource" if is_resource else "record"
    entries_end = HEADER_SIZE + count * entry_size
    if entries_end > size:
        room = (size - HEADER_SIZE) // entry_size
        raise DatabaseError(
            f"header claims {count} {kind} entries but the file has room for {room}"
        )

    offsets: list[int] = []
    entries: list[tuple[bytes, int]] = []  # (type or unique id, id or attributes)
    for index in range(count):
        at = HEADER_SIZE + index * entry_size
        if is_resource:
            raw_type_, res_id, offset = _RESOURCE_ENTRY.unpack_from(data, at)
            entries.append((raw_type_, res_id))
        else:
            offset, rec_attrs, raw_uid = _RECORD_ENTRY.unpack_from(data, at)
            entries.append((raw_uid, rec_attrs))
        offsets.append(offset)

    previous = entries_end
    previous_what = "the entry list"
    for what, offset in (("appInfo", app_info_offset), ("sortInfo", sort_info_offset)):
        if offset == 0:
            continue
        _check_offset(what, offset, previous, previous_what, size)
        previous, previous_what = offset, what
    for index, offset in enumerate(offsets):
        what = f"{kind} {index}"
        _check_offset(what, offset, previous, previous_what, size)
        previous, previous_what = offset, what

    # Each block ends where the next one begins.
    starts = [o for o in (app_info_offset, sort_info_offset) if o] + offsets + [size]
    app_info = sort_info = None
    position = 0
    if app_info_offset:
        app_info = data[starts[position] : starts[position + 1]]
        position += 1
    if sort_info_offset:
        sort_info = data[starts[position] : starts[position + 1]]
        position += 1

    first_block = starts[0]
    dates = (("created", created), ("modified", modified), ("backed_up", backed_up))
    # Unix-epoch dates do not come back from their datetime: kept (see to_bytes).
    stored_dates = {which: value for which, value in dates if is_unix_date(value)}
    name = decode_name(raw_name)
    db = Database(
        name=name,
        type=decode_code(raw_type),
        creator=decode_code(raw_creator),
        attributes=attributes,
        version=version,
        modification_number=modification_number,
        app_info=app_info,
        sort_info=sort_info,
        unique_id_seed=unique_id_seed,
        next_record_list=next_record_list,
        gap=data[entries_end:first_block],
        name_field=None if _canonical_name(name, raw_name) else raw_name,
        stored_dates=stored_dates,
    )
    for which, value in dates:
        if value:  # made a datetime when first asked for
            setattr(db, _date_slot(which), _Stored(value))
    for index, (first, second) in enumerate(entries):
        chunk = data[starts[position + index] : starts[position + index + 1]]
        if is_resource:
            db.resources.append(Resource(type=decode_code(first), id=second, data=chunk))
        else:
            db.records.append(
                Record(data=chunk, attributes=second, unique_id=int.from_bytes(first, "big"))
            )
    return db


def _canonical_name(name: str, raw: bytes) -> bool:
    try:
        return encode_name(name) == raw
    except PrcError:
        return False


def _check_offset(what: str, offset: int, previous: int, previous_what: str, size: int) -> None:
    if offset > size:
        raise DatabaseError(f"{what} starts at offset {offset}, past the end of the file ({size})")
    if offset < previous:
        raise DatabaseError(
            f"{what} starts at offset {offset}, before the end of {previous_what} ({previous})"
            if previous_what == "the entry list"
            else f"{what} starts at offset {offset}, before {previous_what} ({previous}):"
            " offsets out of order or overlapping"
        )
