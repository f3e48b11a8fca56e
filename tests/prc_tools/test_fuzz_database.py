"""Fuzzing Database.read with mutated and truncated real files: only DatabaseError, quickly."""

from __future__ import annotations

import time

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from prc_tools import Database, DatabaseError, Record, Resource

# Small real files of both kinds, with appInfo/sortInfo and empty items.
SAMPLES = [
    Database("Fuzz Resources", "IsPc", "PIsh", resources=[
        Resource("pINF", 0, b"game: ishido\n"), Resource("Tbmp", 1000, bytes(range(40))),
        Resource("code", 1, b""), Resource("wave", 3000, b"RIFF" + bytes(30)),
    ]).to_bytes(),
    Database("Fuzz Records", "DATA", "test", app_info=b"appinfo", sort_info=b"s", records=[
        Record(b"one", 0x40, 1), Record(b"", 0, 2), Record(b"three" * 5, 0x8F, 0xFFFFFF),
    ]).to_bytes(),
]

FUZZ = settings(max_examples=300, deadline=None,
                suppress_health_check=[HealthCheck.too_slow])


def _read_or_reject(data: bytes) -> None:
    start = time.monotonic()
    try:
        db = Database.read(data)
    except DatabaseError as exc:
        assert "\n" not in str(exc)
    else:
        items = db.resources if db.is_resource else db.records
        assert sum(len(i.data) for i in items) <= len(data)
    assert time.monotonic() - start < 1.0


@FUZZ
@given(st.sampled_from(SAMPLES), st.data())
def test_mutated_files(sample: bytes, data: st.DataObject) -> None:
    body = bytearray(sample)
    for _ in range(data.draw(st.integers(1, 8))):
        at = data.draw(st.integers(0, len(body) - 1))
        body[at] = data.draw(st.integers(0, 255))
    _read_or_reject(bytes(body))


@FUZZ
@given(st.sampled_from(SAMPLES), st.data())
def test_truncated_and_extended_files(sample: bytes, data: st.DataObject) -> None:
    cut = data.draw(st.integers(0, len(sample)))
    tail = data.draw(st.binary(max_size=16))
    _read_or_reject(sample[:cut] + tail)


@FUZZ
@given(st.binary(max_size=200))
def test_random_bytes(blob: bytes) -> None:
    _read_or_reject(blob)
