"""extract -> build gives back the same bytes (issue 16), on a generated varied corpus.

The project may not ship other people's databases, so the corpus is made
here: bitmap members of versions 0-3 at every depth and codec, colour tables,
transparency, families of mixed versions, odd padding and gaps, record
databases with appInfo/sortInfo, unknown resource types, odd header fields.
"""

from __future__ import annotations

import io
import json
import shutil
import subprocess
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest
import yaml
from PIL import Image, ImageDraw

from prc_tools import bitmap, sound
from prc_tools.bitmap.encoding import MemberEncoding
from prc_tools.bitmap.header import read_header, write_header
from prc_tools.bitmap.splice import member_spans
from prc_tools.database import Database, Record, Resource
from prc_tools.errors import PluginError
from prc_tools.plugin import build_folder
from prc_tools.plugin.extract import extract

from .conftest import MakeFolder, wav_file


def picture(size: tuple[int, int] = (13, 9), holes: bool = True) -> Image.Image:
    """A colour gradient, with transparent pixels when `holes`."""
    w, h = size
    image = Image.new("RGBA", size)
    image.putdata([
        ((x * 255) // max(1, w - 1), (y * 255) // max(1, h - 1), (x * y * 7) % 256, 255)
        for y in range(h) for x in range(w)
    ])
    if holes:
        draw = ImageDraw.Draw(image)
        draw.rectangle((0, 0, 2, 1), fill=(0, 0, 0, 0))
    return image


def padded_family() -> bytes:
    """A v1/v2 + v3 family with junk between members and after the last one."""
    family = bitmap.encode_family(picture(), densities=(144, 72), depths=(8, 2),
                                  compression="scanline")
    first = read_header(family, 0)
    junk = b"\xde\xad\xbe\xef" * 2
    relinked = write_header(first.replace(next_offset=first.next_offset + 8))
    return (relinked + family[len(relinked) : first.next_offset] + junk
            + family[first.next_offset :] + b"\x00\x01\x02")


def little_endian_565() -> bytes:
    """A version 3 16-bit member stored with pixel format 2 (little-endian RGB565)."""
    data = bytearray(bitmap.encode(picture(holes=False), 16, 144, "none"))
    data[11] = 2
    body = data[24:]
    body[0::2], body[1::2] = body[1::2], body[0::2]
    return bytes(data[:24] + body)


def bitmaps() -> list[Resource]:
    img = picture()
    opaque = picture(holes=False)
    items = [
        bitmap.encode(opaque, 1, 72, "none"),  # version 0
        bitmap.encode(opaque, 2, 72, "scanline"),  # version 1
        bitmap.encode(opaque, 4, 72, "none", colour_table=True),  # version 1 + table
        bitmap.encode(img, 8, 72, "rle"),  # version 2, transparent
        bitmap.encode(img, 16, 72, "packbits"),  # version 2, 16-bit key
        bitmap.encode(img, 8, 72, "scanline", colour_table=True),
        bitmap.encode(img, 16, 144, "packbits"),  # version 3
        bitmap.encode(img, 8, 108, "rle"),
        bitmap.encode(opaque, 4, 72, "packbits", version=3),  # version 3 at low density
        bitmap.encode(opaque, 1, 288, "none"),
        bitmap.encode(img, 2, 216, "scanline"),
        bitmap.encode_family(opaque, densities=(144, 72), depths=(16, 8, 4, 1),
                             encodings={(72, 1): MemberEncoding(1, "none"),
                                        (72, 8): MemberEncoding(2, "scanline", True),
                                        (72, 4): MemberEncoding(2, "rle"),
                                        (144, 16): MemberEncoding(3, "none")}),
        bitmap.encode_family(opaque, densities=(288, 144, 72), depths=(16, 1)),
        padded_family(),
        little_endian_565(),
    ]
    return [Resource("Tbmp", 1000 + index, data) for index, data in enumerate(items)]


def with_extra_chunk(wav: bytes) -> bytes:
    """A WAV with a LIST chunk before its data: plays the same, not our layout."""
    extra = b"LIST" + (4).to_bytes(4, "little") + b"INFO"
    body = wav[12:]
    return b"RIFF" + (len(body) + 4 + len(extra)).to_bytes(4, "little") + b"WAVE" + extra + body


def corpus() -> dict[str, Database]:
    plain_wave = sound.convert(wav_file(bits=8, rate=11025, frames=300), 11025, 8)
    resources = [
        *bitmaps(),
        Resource("tAIB", 1000, bitmap.encode(picture((22, 22)), 8, 72, "none")),
        Resource("wave", 3000, plain_wave),
        Resource("wave", 3001, with_extra_chunk(plain_wave)),
        Resource("Tbmp", 4000, b"\x00\x05\x00\x05 not a bitmap"),
        Resource("zz\xfe\x01", 7, bytes(range(40))),
        Resource("code", 0, b""),
        Resource("tSTR", 1000, "Grüße".encode("cp1252")),
    ]
    shuffled = resources[::2] + resources[1::2]
    dbs = {
        "resources": Database(
            name="Round Trip", type="appl", creator="RtRp", resources=shuffled,
            attributes=0x0009, version=7, created=datetime(2003, 5, 1, 12, 0, 0),
            modified=datetime(2004, 2, 29, 23, 59, 59), backed_up=datetime(2005, 1, 1),
            modification_number=42, unique_id_seed=0x123456,
        ),
        "records": Database(
            name="Records Trip", type="DATA", creator="RtRp", version=1,
            created=datetime(1999, 12, 31, 23, 59, 59),
            app_info=b"application info", sort_info=b"\x00\x01sort",
            records=[Record(b"first", 0x40, 0x800001), Record(b"", 0x03, 2),
                     Record(b"third" * 20, 0x90, 0xFFFFFF), Record(b"\xff" * 3, 0x1F, 0)],
            unique_id_seed=9, modification_number=3,
        ),
        "empty-appinfo": Database(name="Empty Blocks", type="DATA", creator="RtRp",
                                  app_info=b"", records=[Record(b"x", 0, 1)]),
        "no-records": Database(name="Nothing", type="DATA", creator="RtRp"),
        "no-resources": Database(name="Nothing Either", type="rsrc", creator="RtRp",
                                 attributes=0x0001),
    }
    # Header oddities readers must see unchanged: no gap, a long gap, junk after
    # the name's NUL, Unix-epoch dates, a next-record-list id.
    odd = Database.read(dbs["resources"].to_bytes())
    odd.gap = b""
    dbs["no-gap"] = odd
    odd = Database.read(dbs["records"].to_bytes())
    odd.gap = b"\x00\x00\x12\x34"
    odd.name_field = b"Records Trip\x00" + bytes(range(1, 20))
    odd.stored_dates = {"created": 1_000_000_000, "backed_up": 28800}
    odd.created, odd.backed_up = datetime(2001, 9, 9, 1, 46, 40), datetime(1970, 1, 1, 8)
    odd.next_record_list = 5
    dbs["odd-header"] = odd
    # Rarer still: a type and id twice, no name, a name filling all 32 bytes,
    # a resource database with appInfo and sortInfo blocks.
    dbs["duplicates-no-name"] = Database(
        name="", type="rsrc", creator="RtRp",
        resources=[Resource("abcd", 1, b"x"), Resource("Tbmp", 9, bitmaps()[3].data),
                   Resource("abcd", 1, b"second"), Resource("Tbmp", 9, b"")],
    )
    odd = Database(name="A" * 31, type="rsrc", creator="RtRp", app_info=b"app",
                   sort_info=b"", resources=[Resource("tSTR", 1, b"s")])
    odd.name_field = b"A" * 32
    odd.name = "A" * 32
    dbs["full-name-appinfo"] = odd
    return dbs


CORPUS = corpus()


def round_trip(db: Database, tmp_path: Path) -> tuple[bytes, Path]:
    folder = extract(Database.read(db.to_bytes()), tmp_path / "folder")
    return build_folder(folder).to_bytes(), folder


@pytest.mark.parametrize("name", sorted(CORPUS))
def test_extract_then_build_gives_the_same_bytes(name: str, tmp_path: Path) -> None:
    original = CORPUS[name].to_bytes()
    rebuilt, _ = round_trip(CORPUS[name], tmp_path)
    assert rebuilt == original


def test_the_corpus_is_as_varied_as_it_claims() -> None:
    # So that the round trip above cannot pass by missing cases.
    members = [m for res in bitmaps() for m in bitmap.decode(res.data)]
    assert {m.version for m in members} == {0, 1, 2, 3}
    assert {m.depth for m in members} == {1, 2, 4, 8, 16}
    assert {m.compression for m in members} == {"none", "scanline", "rle", "packbits"}
    assert {m.density for m in members} == {72, 108, 144, 216, 288}
    assert any(m.has_colour_table for m in members) and any(m.transparent for m in members)
    mixed = bitmap.decode(bitmaps()[11].data)
    assert {m.version for m in mixed} == {1, 2, 3}


def test_a_plugin_round_trips_too(pieces_folder: MakeFolder, tmp_path: Path) -> None:
    built = build_folder(pieces_folder())
    rebuilt, folder = round_trip(built, tmp_path)
    assert rebuilt == built.to_bytes()
    manifest = yaml.safe_load((folder / "manifest.yaml").read_text(encoding="utf-8"))
    assert manifest["game"] == "ishido" and manifest["kind"] == "pieces"


def test_a_plugin_info_build_would_not_rewrite_the_same_stays_raw(
    pieces_folder: MakeFolder, tmp_path: Path
) -> None:
    built = build_folder(pieces_folder())
    info = built.resource("pINF", 0)
    assert info is not None
    parsed = yaml.safe_load(info.data.decode("utf-8"))
    # The same fields in another order, and a plugin that breaks a game rule.
    info.data = yaml.safe_dump(dict(reversed(list(parsed.items())))).encode("utf-8")
    built.resources = [r for r in built.resources if (r.type, r.id) != ("Tbmp", 1003)]
    rebuilt, folder = round_trip(built, tmp_path)
    assert rebuilt == built.to_bytes()
    manifest = yaml.safe_load((folder / "manifest.yaml").read_text(encoding="utf-8"))
    assert "game" not in manifest
    assert {"file": "resources/pINF-0.bin", "type": "pINF", "id": 0} in manifest["resources"]


def test_the_manifest_records_each_member(tmp_path: Path) -> None:
    _, folder = round_trip(CORPUS["resources"], tmp_path)
    manifest = yaml.safe_load((folder / "manifest.yaml").read_text(encoding="utf-8"))
    entry = next(e for e in manifest["bitmaps"] if e["id"] == 1011)
    assert entry["members"]["72x1"] == {
        "file": "bitmaps/Tbmp-1011@72x1.png", "version": 1, "compression": "none"}
    assert entry["members"]["72x8"]["colour_table"] is True
    assert entry["members"]["144x16"] == {"version": 3, "compression": "none"}
    assert manifest["created"] == datetime(2003, 5, 1, 12, 0, 0)
    assert (manifest["modification_number"], manifest["unique_id_seed"]) == (42, 0x123456)
    assert manifest["order"][:2] == [["Tbmp", 1000], ["Tbmp", 1002]]
    raw = {(e["type"], e["id"]) for e in manifest["resources"]}
    assert {("Tbmp", 4000), ("zz\xfe\x01", 7), ("wave", 3001)} <= raw


def edit(path: Path, colour: tuple[int, int, int, int]) -> None:
    with Image.open(path) as image:
        changed = image.convert("RGBA")
    changed.putpixel((3, 2), colour)
    changed.save(path)


def test_an_edited_picture_re_encodes_only_its_member(tmp_path: Path) -> None:
    original = CORPUS["resources"].to_bytes()
    folder = extract(Database.read(original), tmp_path / "folder")
    edit(folder / "bitmaps" / "Tbmp-1011@72x8.png", (255, 255, 255, 255))
    rebuilt = Database.read(build_folder(folder).to_bytes())
    before = Database.read(original)
    for res in before.resources:
        if (res.type, res.id) != ("Tbmp", 1011):
            assert rebuilt.resource(res.type, res.id) == res
    old = before.resource("Tbmp", 1011)
    new = rebuilt.resource("Tbmp", 1011)
    assert old is not None and new is not None
    old_members, new_members = bitmap.decode(old.data), bitmap.decode(new.data)
    assert [(m.density, m.depth, m.version, m.compression, m.has_colour_table)
            for m in new_members] == [
        (m.density, m.depth, m.version, m.compression, m.has_colour_table) for m in old_members
    ]
    old_spans = member_spans(old.data, [m.offset for m in old_members])
    new_spans = member_spans(new.data, [m.offset for m in new_members])
    for m_old, m_new, (a, b), (c, d) in zip(old_members, new_members, old_spans, new_spans,
                                           strict=True):
        if (m_old.density, m_old.depth) == (72, 8):
            assert m_new.image.getpixel((3, 2)) == (255, 255, 255, 255)
            assert old.data[a:b] != new.data[c:d]
        else:
            assert old.data[a:b] == new.data[c:d]  # untouched, byte for byte


def test_an_edit_the_recorded_version_cannot_hold_is_an_error(tmp_path: Path) -> None:
    folder = extract(Database.read(CORPUS["resources"].to_bytes()), tmp_path / "folder")
    # Tbmp 1001 is a version 1, 2-bit member. Transparency came with version 2,
    # but real databases have transparent version 1 members: asked for, it is kept.
    edit(folder / "bitmaps" / "Tbmp-1001.png", (0, 0, 0, 0))
    res = build_folder(folder).resource("Tbmp", 1001)
    assert res is not None
    (member,) = bitmap.decode(res.data)
    assert (member.version, member.transparent) == (1, True)
    # Version 0 cannot hold 2 bits per pixel: one line naming the picture.
    manifest = (folder / "manifest.yaml").read_text(encoding="utf-8")
    document = yaml.safe_load(manifest)
    entry = next(e for e in document["bitmaps"] if e["id"] == 1001)
    entry["members"]["72x2"]["version"] = 0
    (folder / "manifest.yaml").write_text(yaml.safe_dump(document), encoding="utf-8")
    with pytest.raises(PluginError, match=r"Tbmp-1001\.png: version 0 cannot hold a 2-bit"):
        build_folder(folder)


def test_builds_are_reproducible(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = tmp_path / "plain"
    folder.mkdir()
    picture().save(folder / "a.png")
    manifest: dict[str, Any] = {
        "name": "Repro", "type": "test", "creator": "Rprd",
        "bitmaps": [{"file": "a.png", "id": 1}],
    }
    (folder / "manifest.yaml").write_text(yaml.safe_dump(manifest))
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1000000000")
    first = build_folder(folder)
    assert first.created == first.modified == datetime(2001, 9, 9, 1, 46, 40)
    assert first.to_bytes() == build_folder(folder).to_bytes()
    # Dates in the manifest win over SOURCE_DATE_EPOCH; a number is stored as is.
    manifest.update(created=datetime(2010, 1, 2, 3, 4, 5), modified=7, backed_up=0)
    (folder / "manifest.yaml").write_text(yaml.safe_dump(manifest))
    dated = build_folder(folder)
    assert dated.created == datetime(2010, 1, 2, 3, 4, 5) and dated.backed_up is None
    assert dated.to_bytes()[40:44] == (7).to_bytes(4, "big")
    monkeypatch.delenv("SOURCE_DATE_EPOCH")
    assert build_folder(folder).to_bytes() == dated.to_bytes()


def test_member_version_and_compression_from_the_manifest(tmp_path: Path) -> None:
    folder = tmp_path / "author"
    folder.mkdir()
    picture((24, 16), holes=False).save(folder / "big.png")
    manifest = {
        "name": "Old Devices", "type": "test", "creator": "OldD",
        "defaults": {"compression": "scanline"},
        "bitmaps": [{
            "file": "big.png", "id": 1, "densities": [144, 72], "depths": [8, 2],
            "members": {"72x2": {"version": 1, "compression": "none"},
                        "72x8": {"version": 3, "compression": "rle", "colour_table": True}},
        }],
    }
    (folder / "manifest.yaml").write_text(yaml.safe_dump(manifest))
    res = build_folder(folder).resources[0]
    got = {(m.density, m.depth): (m.version, m.compression, m.has_colour_table)
           for m in bitmap.decode(res.data)}
    assert got == {(72, 2): (1, "none", False), (72, 8): (3, "rle", True),
                   (144, 2): (3, "scanline", False), (144, 8): (3, "scanline", False)}
    manifest["bitmaps"][0]["members"] = {"72x2": {"version": 0}}  # type: ignore[index]
    (folder / "manifest.yaml").write_text(yaml.safe_dump(manifest))
    with pytest.raises(PluginError, match=r"big\.png: version 0 cannot hold"):
        build_folder(folder)
    manifest["bitmaps"][0]["members"] = {"72x2": {"version": 4}}  # type: ignore[index]
    (folder / "manifest.yaml").write_text(yaml.safe_dump(manifest))
    with pytest.raises(PluginError, match=r"members.72x2.version: 4 is not one of"):
        build_folder(folder)


# ---------------------------------------------------------------- other readers


def run_json(command: list[str]) -> Any:
    result = subprocess.run(command, capture_output=True, timeout=60, check=False)
    assert result.returncode == 0, result.stderr.decode(errors="replace")
    return json.loads(result.stdout.decode("latin-1"))  # type codes may hold any byte


def rebuilt_files(tmp_path: Path) -> list[tuple[Path, Path]]:
    """(original, rebuilt) files for the corpus, the rebuilt ones with an edited member."""
    pairs = []
    for name, db in CORPUS.items():
        original = tmp_path / f"{name}.orig"
        original.write_bytes(db.to_bytes())
        folder = extract(Database.read(original), tmp_path / name)
        edited = folder / "bitmaps" / "Tbmp-1011@72x8.png"
        if edited.exists():
            edit(edited, (255, 255, 255, 255))
        rebuilt = tmp_path / f"{name}.rebuilt"
        build_folder(folder).write(rebuilt)
        pairs.append((original, rebuilt))
    return pairs


def without(dump: Any, resource: tuple[str, int]) -> Any:
    """A tool's dump with one resource's data left out (the edited one)."""
    items = dump.get("resources") or dump.get("items") or []
    for item in items:
        if (item.get("type"), item.get("id")) == resource:
            item["data"] = None
    return dump


@pytest.mark.process
def test_palm_pdb_perl_reads_rebuilt_files_the_same(perl_pdb: Path, tmp_path: Path) -> None:
    for original, rebuilt in rebuilt_files(tmp_path):
        if original.stem == "full-name-appinfo":
            continue  # Palm::PDB refuses a name field without a NUL ("bogus database name")
        dumps = [run_json(["perl", str(perl_pdb / "dump_pdb.pl"), str(p)])
                 for p in (original, rebuilt)]
        assert without(dumps[0], ("Tbmp", 1011)) == without(dumps[1], ("Tbmp", 1011))


@pytest.mark.process
def test_npm_palm_pdb_reads_rebuilt_files_the_same(palm_pdb_npm: Path, tmp_path: Path) -> None:
    for original, rebuilt in rebuilt_files(tmp_path):
        dumps = [run_json(["node", str(palm_pdb_npm / "dump.js"), str(p)])
                 for p in (original, rebuilt)]
        assert without(dumps[0], ("Tbmp", 1011)) == without(dumps[1], ("Tbmp", 1011))


@pytest.mark.process
def test_netpbm_reads_every_rebuilt_member_as_we_do(
    netpbm: Callable[[list[str], bytes], bytes], tmp_path: Path
) -> None:
    palmtopnm = shutil.which("palmtopnm")
    assert palmtopnm is not None
    (_, rebuilt), *_ = [p for p in rebuilt_files(tmp_path) if p[0].stem == "resources"]
    db = Database.read(rebuilt)
    checked = 0
    for res in db.resources:
        if res.type != "Tbmp" or res.id == 4000 or res.id == 1014:
            continue  # 4000 is not a bitmap; netpbm cannot read little-endian RGB565 (1014)
        for rendition, member in enumerate(bitmap.decode(res.data), start=1):
            out = netpbm([palmtopnm, "-quiet", "-rendition", str(rendition)], res.data)
            theirs = Image.open(io.BytesIO(out)).convert("RGB")
            # Transparent pixels' colours are not part of the picture: compare the rest.
            shown = member.image.getchannel("A").point(lambda a: 255 if a >= 128 else 0)
            black = Image.new("RGB", member.image.size)
            ours = member.image.convert("RGB")
            assert Image.composite(theirs, black, shown).tobytes() == Image.composite(
                ours, black, shown
            ).tobytes(), f"Tbmp {res.id} member {rendition}"
            checked += 1
    assert checked > 20


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"created": "yesterday"}, "created: must be a date-time"),
        ({"modified": 1 << 32}, "modified: 4294967296 is outside"),
        ({"unique_id_seed": -1}, "unique_id_seed: -1 is outside"),
        ({"order": [["Tbmp"]]}, r"order\[0\]: must be a \[type, id\] pair"),
        ({"order": "Tbmp 1"}, "order: must be a list"),
        ({"layout": {"gap": "xyz"}}, "layout.gap: 'xyz' is not hexadecimal"),
        ({"layout": {"name_field": "00"}}, "layout.name_field: must be 32 bytes"),
        ({"layout": {"junk": "00"}}, "layout: unknown field 'junk'"),
        ({"name": ""}, "name: must be a non-empty text"),
        ({"attributes": 1, "records": []}, "attribute 0x0001 makes a resource database"),
    ],
)
def test_bad_exact_fields_are_one_line(fields: dict[str, Any], message: str,
                                       tmp_path: Path) -> None:
    manifest = {"name": "Fields", "type": "test", "creator": "Flds", **fields}
    (tmp_path / "manifest.yaml").write_text(yaml.safe_dump(manifest))
    with pytest.raises(PluginError, match=message):
        build_folder(tmp_path)


def test_a_type_and_id_twice_is_still_an_error_unless_order_says_so(tmp_path: Path) -> None:
    (tmp_path / "a.bin").write_bytes(b"a")
    manifest: dict[str, Any] = {
        "name": "Twice", "type": "test", "creator": "Twce",
        "resources": [{"file": "a.bin", "type": "abcd", "id": 1},
                      {"file": "a.bin", "type": "abcd", "id": 1}],
    }
    (tmp_path / "manifest.yaml").write_text(yaml.safe_dump(manifest))
    with pytest.raises(PluginError, match="are both resource abcd 1"):
        build_folder(tmp_path)
    manifest["order"] = [["abcd", 1], ["abcd", 1]]
    (tmp_path / "manifest.yaml").write_text(yaml.safe_dump(manifest))
    assert [r.id for r in build_folder(tmp_path).resources] == [1, 1]


def test_extract_falls_back_to_raw_resources_rather_than_lose_bytes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Should a bitmap ever not rebuild the same, extract keeps every resource raw.
    from prc_tools.bitmap import splice

    def broken(original: bytes, *_: object) -> bytes:
        return original + b"\0"

    monkeypatch.setattr(splice, "rebuild", broken)
    db = CORPUS["resources"]
    rebuilt, folder = round_trip(db, tmp_path)
    assert rebuilt == db.to_bytes()
    manifest = yaml.safe_load((folder / "manifest.yaml").read_text(encoding="utf-8"))
    assert "bitmaps" not in manifest and "sounds" not in manifest
    assert len(manifest["resources"]) == len(db.resources)
