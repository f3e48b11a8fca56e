"""PDB/PRC containers: layout, round trips, dates and every malformation we reject."""

from __future__ import annotations

import struct
from datetime import datetime
from pathlib import Path

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from prc_tools import Database, DatabaseError, PrcError, Record, Resource
from prc_tools.database import (
    HEADER_SIZE,
    UNIX_EPOCH_IN_PALM,
    date_text,
    decode_date,
    encode_date,
)


def test_prc_layout_matches_the_format(prc: Database) -> None:
    data = prc.to_bytes()
    assert data[:32] == b"Sample Resources".ljust(32, b"\0")
    attributes, version = struct.unpack_from(">HH", data, 32)
    assert (attributes, version) == (0x0001, 3)
    created, _modified, backed_up, mod_number, app, sort = struct.unpack_from(">6I", data, 36)
    assert created == encode_date(datetime(2024, 5, 6, 7, 8, 9))
    assert created & 0x8000_0000  # 1904 epoch
    assert backed_up == 0 and mod_number == 12 and app == 0 and sort == 0
    assert data[60:68] == b"IsPcPIsh"
    seed, next_list, count = struct.unpack_from(">IIH", data, 68)
    assert (seed, next_list, count) == (0x1234, 0, 4)
    # 10-byte entries, then the 2-byte gap, then the data in order.
    entries_end = HEADER_SIZE + 4 * 10
    assert data[entries_end : entries_end + 2] == b"\0\0"
    offsets = []
    for i in range(4):
        type_, id_, offset = struct.unpack_from(">4sHI", data, HEADER_SIZE + 10 * i)
        assert type_.decode() == prc.resources[i].type and id_ == prc.resources[i].id
        offsets.append(offset)
    assert offsets[0] == entries_end + 2
    for i, res in enumerate(prc.resources):
        end = offsets[i + 1] if i + 1 < 4 else len(data)
        assert data[offsets[i] : end] == res.data


def test_pdb_layout_has_8_byte_entries_and_info_blocks(pdb: Database) -> None:
    data = pdb.to_bytes()
    app, sort = struct.unpack_from(">II", data, 52)
    entries_end = HEADER_SIZE + 3 * 8
    assert app == entries_end + 2
    assert data[app:sort] == b"app info block"
    offset, attrs, uid = struct.unpack_from(">IB3s", data, HEADER_SIZE)
    assert offset == sort + 4 and attrs == 0x40 and uid == b"\x80\x00\x01"


@pytest.mark.parametrize("which", ["prc", "pdb"])
def test_round_trip_keeps_everything(which: str, request: pytest.FixtureRequest) -> None:
    db: Database = request.getfixturevalue(which)
    again = Database.read(db.to_bytes())
    assert again == db
    assert again.to_bytes() == db.to_bytes()


def test_write_is_atomic_and_replaces(tmp_path: Path, prc: Database) -> None:
    target = tmp_path / "out.prc"
    target.write_bytes(b"old contents")
    prc.write(target)
    assert Database.read(target) == prc
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.prc"]  # no temp file left


def test_failed_write_keeps_the_old_file(tmp_path: Path, prc: Database) -> None:
    target = tmp_path / "out.prc"
    target.write_bytes(b"old contents")
    prc.name = "x" * 40  # cannot be written
    with pytest.raises(PrcError, match="longer than 31"):
        prc.write(target)
    assert target.read_bytes() == b"old contents"


def test_reads_any_gap_including_none(prc: Database) -> None:
    data = prc.to_bytes()
    count = len(prc.resources)
    entries_end = HEADER_SIZE + count * 10
    for gap in (b"", b"\0\0\0\0\0\0\0", b"junk"):
        shift = len(gap) - 2
        body = bytearray(data[:entries_end] + gap + data[entries_end + 2 :])
        for i in range(count):
            at = HEADER_SIZE + 10 * i + 6
            (offset,) = struct.unpack_from(">I", body, at)
            struct.pack_into(">I", body, at, offset + shift)
        assert Database.read(bytes(body)).resources == prc.resources


def test_name_stops_at_first_nul_and_ignores_junk(prc: Database) -> None:
    data = bytearray(prc.to_bytes())
    data[0:32] = b"Short\0garbage after the nul....."
    assert Database.read(bytes(data)).name == "Short"


def test_name_charset_is_windows_1252() -> None:
    db = Database(name="Caf\u00e9 \u2014 Pieces", type="DATA", creator="test")
    data = db.to_bytes()
    assert data[:13] == "Caf\u00e9 \u2014 Pieces".encode("cp1252")
    assert Database.read(data).name == db.name


def test_dates_1904_unix_and_unset() -> None:
    when = datetime(2020, 2, 29, 12, 0, 0)
    palm = encode_date(when)
    assert palm == int((when - datetime(1904, 1, 1)).total_seconds())
    assert decode_date(palm) == when
    unix = int((when - datetime(1970, 1, 1)).total_seconds())
    assert decode_date(unix) == when  # top bit clear: a writer stored Unix time
    assert decode_date(0) is None and encode_date(None) == 0
    assert decode_date(UNIX_EPOCH_IN_PALM) == datetime(1970, 1, 1)


STORED_DATE = st.integers(0, 2**32 - 1)
EDGES = (0, 1, UNIX_EPOCH_IN_PALM, 2**31 - 1, 2**31, 2**32 - 1)


@given(STORED_DATE)
@example(0).via("unset")
@example(1).via("the first Unix second")
@example(UNIX_EPOCH_IN_PALM).via("1970 counted from 1904")
@example(2**31 - 1).via("the last Unix date")
@example(2**31).via("the first date read from 1904")
@example(2**32 - 1).via("the last date")
def test_date_text_writes_what_the_datetime_writes(value: int) -> None:
    """`info` writes the stored number without datetime: the same text."""
    when = decode_date(value)
    assert date_text(value) == (None if when is None else when.isoformat(sep=" "))


def _with_dates(created: int, modified: int, backed_up: int) -> bytes:
    data = bytearray(Database("Dates", "DATA", "test").to_bytes())
    struct.pack_into(">3I", data, 36, created, modified, backed_up)
    return bytes(data)


@given(STORED_DATE, st.sampled_from(EDGES), STORED_DATE)
def test_dates_as_read_come_back_the_same_read_or_not(
    created: int, modified: int, backed_up: int
) -> None:
    """A read database keeps its stored dates until one is asked for: written back
    untouched, asked for, or set again to what it read as, the bytes are the same."""
    data = _with_dates(created, modified, backed_up)
    untouched = Database.read(data)
    assert untouched.to_bytes() == data
    assert [untouched.date_text(w) for w in ("created", "modified", "backed_up")] == [
        date_text(created), date_text(modified), date_text(backed_up)]
    asked = Database.read(data)
    assert (asked.created, asked.modified, asked.backed_up) == (
        decode_date(created), decode_date(modified), decode_date(backed_up))
    assert asked.to_bytes() == data and asked == untouched
    assert asked.date_text("created") == date_text(created)
    set_again = Database.read(data)
    set_again.created, set_again.backed_up = decode_date(created), decode_date(backed_up)
    assert set_again.to_bytes() == data


def test_a_read_date_set_anew_is_written_anew() -> None:
    data = _with_dates(UNIX_EPOCH_IN_PALM + 86_400, 5, 0)  # a 1904 date, a Unix one, unset
    db = Database.read(data)
    db.created, db.modified = datetime(2001, 2, 3, 4, 5, 6), None
    db.backed_up = datetime(1999, 12, 31)
    assert struct.unpack_from(">3I", db.to_bytes(), 36) == (
        encode_date(datetime(2001, 2, 3, 4, 5, 6)), 0, encode_date(datetime(1999, 12, 31)))
    assert db.date_text("created") == "2001-02-03 04:05:06" and db.date_text("modified") is None


def test_record_fields() -> None:
    rec = Record(b"x", attributes=0x4B, unique_id=5)
    assert rec.category == 0x0B


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"name": "n" * 32}, "longer than 31"),
        ({"name": "bad\0name"}, "NUL"),
        ({"name": "\u4e2d\u6587"}, "cannot show"),
        ({"type": "TOOLONG"}, "exactly 4"),
        ({"creator": "\u4e2d\u6587\u4e2d\u6587"}, "single-byte"),
        ({"version": 70000}, "version"),
    ],
)
def test_invalid_header_values_are_refused(kwargs: dict[str, object], message: str) -> None:
    fields: dict[str, object] = {"name": "ok", "type": "DATA", "creator": "test"}
    fields.update(kwargs)
    db = Database(**fields)  # type: ignore[arg-type]
    with pytest.raises(PrcError, match=message):
        db.to_bytes()


def test_invalid_items_are_refused() -> None:
    with pytest.raises(PrcError, match=r"0\.\.65535"):
        Database("n", "DATA", "test", resources=[Resource("Tbmp", 70000, b"")]).to_bytes()
    with pytest.raises(PrcError, match="24 bits"):
        Database("n", "DATA", "test", records=[Record(b"", unique_id=1 << 24)]).to_bytes()
    with pytest.raises(PrcError, match="not both"):
        Database("n", "DATA", "test", resources=[Resource("a   ", 1, b"")],
                 records=[Record(b"")])


def test_unique_ids_and_attributes_survive_reading(pdb: Database) -> None:
    again = Database.read(pdb.to_bytes())
    assert [(r.attributes, r.unique_id) for r in again.records] == [
        (0x40, 0x800001), (0x03, 2), (0x90, 0xFFFFFF),
    ]


def test_resource_lookup(prc: Database) -> None:
    assert prc.resource("tSTR", 1000) is not None
    assert prc.resource("tSTR", 1001) is None


# ---------------------------------------------------------------- malformed files


def _set_offset(data: bytes, index: int, offset: int) -> bytes:
    body = bytearray(data)
    struct.pack_into(">I", body, HEADER_SIZE + 10 * index + 6, offset)
    return bytes(body)


def _read_error(data: bytes) -> str:
    with pytest.raises(DatabaseError) as caught:
        Database.read(data)
    message = str(caught.value)
    assert "\n" not in message
    return message


def test_truncated_header(prc: Database) -> None:
    assert "truncated header" in _read_error(prc.to_bytes()[:50])
    assert "truncated header" in _read_error(b"")


def test_entry_list_longer_than_the_file(prc: Database) -> None:
    message = _read_error(prc.to_bytes()[: HEADER_SIZE + 25])
    assert "claims 4 resource entries" in message and "room for 2" in message


def test_huge_count_in_a_tiny_file_fails_fast() -> None:
    header = bytearray(HEADER_SIZE)
    struct.pack_into(">H", header, 76, 0xFFFF)
    assert "claims 65535 record entries" in _read_error(bytes(header) + b"\0" * 22)


def test_offset_past_the_end(prc: Database) -> None:
    data = prc.to_bytes()
    assert "past the end" in _read_error(_set_offset(data, 3, len(data) + 1))


def test_offsets_out_of_order(prc: Database) -> None:
    data = prc.to_bytes()
    (second,) = struct.unpack_from(">I", data, HEADER_SIZE + 10 + 6)
    message = _read_error(_set_offset(data, 2, second - 1))
    assert "out of order" in message and "resource 2" in message


def test_offset_inside_the_entry_list(prc: Database) -> None:
    assert "before the end of the entry list" in _read_error(_set_offset(prc.to_bytes(), 0, 80))


def test_app_info_after_the_records(pdb: Database) -> None:
    data = bytearray(pdb.to_bytes())
    struct.pack_into(">I", data, 52, len(data) - 1)
    assert "out of order" in _read_error(bytes(data))


def test_missing_file_is_a_database_error(tmp_path: Path) -> None:
    with pytest.raises(DatabaseError, match="cannot read"):
        Database.read(tmp_path / "nope")


def test_empty_items_at_equal_offsets_are_fine(prc: Database) -> None:
    db = Database("empties", "DATA", "test", resources=[Resource("a   ", 1, b""),
                                                         Resource("b   ", 2, b"")])
    assert Database.read(db.to_bytes()).resources == db.resources


def test_memory_is_bounded_by_the_input(prc: Database) -> None:
    data = prc.to_bytes()
    db = Database.read(data)
    assert sum(len(r.data) for r in db.resources) <= len(data)
