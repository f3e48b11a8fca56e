"""Property: extract writes only inside its folder, and building that folder gives an
equivalent database, whatever types, ids and bytes the resources have."""

from __future__ import annotations

import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from PIL import Image

from prc_tools import Database, Record, Resource, bitmap, plugin, sound
from prc_tools.plugin.extract import equivalent, extract

SMALL_BITMAP = bitmap.encode_family(Image.new("RGBA", (4, 6), (10, 200, 30, 255)),
                                    densities=(144, 72), depths=(16, 8))
SMALL_WAVE = sound.wav_bytes(bytes(range(0, 200, 2)), 11025, 8)

codes = st.text(st.characters(min_codepoint=0, max_codepoint=255), min_size=4, max_size=4)
payloads = st.one_of(st.binary(max_size=40), st.just(SMALL_BITMAP), st.just(SMALL_WAVE))
resources = st.builds(Resource, st.one_of(codes, st.sampled_from(["Tbmp", "wave", "pINF"])),
                      st.integers(0, 0xFFFF), payloads)
records = st.builds(Record, st.binary(max_size=30), st.integers(0, 255),
                    st.integers(0, 0xFFFFFF))
names = st.text(st.characters(min_codepoint=32, max_codepoint=126), min_size=1, max_size=31)


@st.composite
def databases(draw: st.DrawFn) -> Database:
    name, type_, creator = draw(names), draw(codes), draw(codes)
    if draw(st.booleans()):
        items = draw(st.lists(resources, max_size=6, unique_by=lambda r: (r.type, r.id)))
        return Database(name, type_, creator, resources=items,
                        attributes=draw(st.integers(0, 0xFFFF)) | 1)
    return Database(name, type_, creator, records=draw(st.lists(records, max_size=5)),
                    attributes=draw(st.integers(0, 0xFFFF)) & ~1,
                    app_info=draw(st.one_of(st.none(), st.binary(max_size=10))),
                    sort_info=draw(st.one_of(st.none(), st.binary(max_size=10))))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(databases())
def test_extract_stays_inside_and_builds_back(db: Database) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        out = extract(db, root / "out")
        assert [p.name for p in root.iterdir()] == ["out"]
        for path in out.rglob("*"):
            assert out in path.resolve().parents
        rebuilt = plugin.build_folder(out)
        assert equivalent(db, rebuilt) == []
