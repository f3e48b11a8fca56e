"""What a start keeps for the next one (issue 17, start): plugin descriptions and
schema documents, checked plugin files and decoded bitmaps. Each is served only
while what it came from is unchanged; a damaged cache is ignored and rebuilt."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from palmish.device.disk import kept as kept_file
from palmish.device.disk.storage import Storage
from palmish.device.store import pixel_cache
from palmish.device.store import plugins as plugins_module
from palmish.device.store.pixel_cache import FOLDER as PIXELS
from palmish.device.store.plugin_descriptions import FILE_NAME, SOURCE
from palmish.device.store.plugins import PluginRegistry
from prc_tools import bitmap, schema


def session(tmp_path: Path, bundled: Path, messages: list[str] | None = None) -> PluginRegistry:
    """A registry as a new run of the device makes it (nothing in memory)."""
    said = messages if messages is not None else []
    return PluginRegistry(Storage(tmp_path / "data", report=said.append), bundled, said.append)


def read_kept_json(path: Path) -> Any:
    found = kept_file.read(path, SOURCE, 1 << 24)
    assert found is not None
    return json.loads(found[0])


def write_kept_json(path: Path, data: object) -> None:
    """Edit the kept descriptions as a newer run would have written them (sealed anew)."""
    assert kept_file.write(path, json.dumps(data).encode(), SOURCE)


def no_registry(monkeypatch: pytest.MonkeyPatch) -> None:
    """Fail the test if the schema registry (entry points, YAML) is consulted."""
    monkeypatch.setattr(plugins_module, "registry",
                        lambda: pytest.fail("the schema registry was loaded"))


def described(reg: PluginRegistry) -> list[tuple[Any, ...]]:
    return [(p.name, p.game, p.kind, p.configs, p.version, p.author, p.creator, p.db_type,
             p.path, p.bundled, p.default, dict(p.fields)) for p in reg.all()]


def test_a_new_session_describes_unchanged_plugins_from_the_kept_copy(
    tmp_path: Path, bundled: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = session(tmp_path, bundled)
    fresh = described(first)
    assert len(fresh) == 3 and first.descriptions.hits == 0
    assert (tmp_path / "data" / "cache" / FILE_NAME).is_file()
    no_registry(monkeypatch)
    again = session(tmp_path, bundled)
    assert described(again) == fresh
    assert again.descriptions.hits == 3
    loaded = again.chosen("PIsh", "board", "square")  # loading describes it too
    assert loaded is not None and loaded.info.name == "Test Board"


def test_a_changed_header_is_described_again(tmp_path: Path, bundled: Path) -> None:
    described(session(tmp_path, bundled))
    manifest = bundled / "test-board" / "manifest.yaml"
    manifest.write_text(manifest.read_text().replace("version: 2", "version: 7"))
    future = os.stat(manifest).st_mtime + 10  # newer than the builds kept
    os.utime(manifest, (future, future))
    again = session(tmp_path, bundled)
    versions = {p.name: p.version for p in again.all()}
    assert versions["Test Board"] == 7
    assert again.descriptions.hits == 2  # the two others are unchanged


def test_a_changed_schema_file_makes_its_descriptions_stale(
    tmp_path: Path, bundled: Path
) -> None:
    fresh = described(session(tmp_path, bundled))
    kept = tmp_path / "data" / "cache" / FILE_NAME
    data = read_kept_json(kept)
    for entry in data["headers"].values():
        entry["schema"][2] -= 1  # as if the schema file had been edited since
    write_kept_json(kept, data)
    again = session(tmp_path, bundled)
    assert described(again) == fresh
    assert again.descriptions.hits == 0
    last = session(tmp_path, bundled)  # described anew and kept with the schema's stamp
    described(last)
    assert last.descriptions.hits == 3


@pytest.mark.parametrize("damage", [
    b"", b"{not json", b"[]", b'{"format": 1}', b'{"format": 99, "headers": {}}',
    b"\xff\xfe binary", "\u00e9".encode("latin-1"),
])
def test_a_damaged_descriptions_file_is_ignored_and_rewritten(
    tmp_path: Path, bundled: Path, damage: bytes
) -> None:
    fresh = described(session(tmp_path, bundled))
    kept = tmp_path / "data" / "cache" / FILE_NAME
    kept.write_bytes(damage)
    messages: list[str] = []
    again = session(tmp_path, bundled, messages)
    assert described(again) == fresh and messages == []
    last = session(tmp_path, bundled)
    described(last)
    assert last.descriptions.hits == 3  # written whole again


def test_kept_entries_of_the_wrong_shape_are_described_again(
    tmp_path: Path, bundled: Path
) -> None:
    fresh = described(session(tmp_path, bundled))
    kept = tmp_path / "data" / "cache" / FILE_NAME
    data = read_kept_json(kept)
    for n, entry in enumerate(data["headers"].values()):
        entry["info"][["version", "configs", "name"][n % 3]] = {"not": "right"}
    write_kept_json(kept, data)
    again = session(tmp_path, bundled)
    assert described(again) == fresh and again.descriptions.hits == 0


def test_the_kept_schema_documents_are_given_to_prc_tools(
    tmp_path: Path, bundled: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    described(session(tmp_path, bundled))
    given: dict[str, object] = {}
    monkeypatch.setattr(schema, "preload", lambda path, document: given.update({path: document}))
    session(tmp_path, bundled)
    ishido = [p for p in given if p.endswith(os.path.join("ishido", "plugin-schema.yaml"))]
    assert len(ishido) == 1
    assert schema.parse(given[ishido[0]], ishido[0]) == schema.find("ishido")


def test_an_unchanged_plugin_file_is_not_checked_again(
    tmp_path: Path, bundled: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    checks: list[int] = []
    real = plugins_module.check_structure

    def counting(db: Any) -> Any:
        checks.append(1)
        return real(db)

    monkeypatch.setattr(plugins_module, "check_structure", counting)
    assert session(tmp_path, bundled).chosen("PIsh", "board", "square") is not None
    assert len(checks) == 1
    loaded = session(tmp_path, bundled).chosen("PIsh", "board", "square")
    assert loaded is not None and len(checks) == 1
    assert loaded.bitmap_ids() == [2000, 2001]  # read from the database, not the check
    built = loaded.info.path
    os.utime(built, ns=(built.stat().st_atime_ns, built.stat().st_mtime_ns + 1000))
    assert session(tmp_path, bundled).chosen("PIsh", "board", "square") is not None
    assert len(checks) == 2  # the file changed: checked again


def test_decoded_bitmaps_are_kept_and_served_while_the_plugin_is_unchanged(
    tmp_path: Path, bundled: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = session(tmp_path, bundled).chosen("PIsh", "board", "square")
    assert first is not None
    pictures = {(i, d): first.bitmap(i, d) for i in (2000, 2001) for d in (72, 144)}
    assert all(p is not None for p in pictures.values())
    assert not (tmp_path / "data" / "cache" / PIXELS).exists()  # written in idle time
    assert first.pixels is not None and first.pixels.pending == 4
    assert first.pixels.write_pending(1) == 1 and first.pixels.write_pending() == 3
    monkeypatch.setattr(bitmap, "decode_member", lambda *a: pytest.fail("decoded again"))
    again = session(tmp_path, bundled).chosen("PIsh", "board", "square")
    assert again is not None and again.pixels is not None
    for (i, d), picture in pictures.items():
        kept = again.bitmap(i, d)
        assert picture is not None and kept is not None
        assert (kept.mode, kept.size, kept.tobytes()) == ("RGBA", picture.size, picture.tobytes())
    assert again.pixels.hits == 4


def test_decoded_bitmaps_of_a_changed_plugin_or_a_damaged_copy_are_decoded_again(
    tmp_path: Path, bundled: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = session(tmp_path, bundled).chosen("PIsh", "board", "square")
    assert first is not None
    picture = first.bitmap(2000, 144)
    mark = first.bitmap(2001, 144)
    assert picture is not None and mark is not None
    assert first.pixels is not None and first.pixels.write_pending() == 2
    kept = sorted((tmp_path / "data" / "cache" / PIXELS).iterdir())
    assert len(kept) == 2
    real = bitmap.decode_member
    decoded: list[int] = []

    def counting(data: bytes, pos: int) -> bitmap.Member:
        decoded.append(pos)
        return real(data, pos)

    monkeypatch.setattr(bitmap, "decode_member", counting)
    for path in kept:  # one cut short, one with another header
        data = path.read_bytes()
        path.write_bytes(data[:-3] if "2000" in path.name else data.replace(b"2001", b"2002", 1))
    messages: list[str] = []
    again = session(tmp_path, bundled, messages).chosen("PIsh", "board", "square")
    assert again is not None
    redone = again.bitmap(2000, 144)
    assert redone is not None and redone.tobytes() == picture.tobytes()
    mark_again = again.bitmap(2001, 144)
    assert mark_again is not None and mark_again.tobytes() == mark.tobytes()
    assert len(decoded) == 2 and messages == []
    decoded.clear()
    built = again.info.path
    os.utime(built, ns=(built.stat().st_atime_ns, built.stat().st_mtime_ns + 1000))
    changed = session(tmp_path, bundled).chosen("PIsh", "board", "square")
    assert changed is not None and changed.bitmap(2000, 144) is not None
    assert len(decoded) == 1  # the plugin file changed: its pictures are decoded again


def test_a_kept_picture_replaced_by_a_fifo_or_an_oversized_file_is_not_read(
    tmp_path: Path, bundled: Path
) -> None:
    first = session(tmp_path, bundled).chosen("PIsh", "board", "square")
    assert first is not None
    picture, mark = first.bitmap(2000, 144), first.bitmap(2001, 144)
    assert picture is not None and mark is not None
    assert first.pixels is not None and first.pixels.write_pending() == 2
    fifo, big = sorted((tmp_path / "data" / "cache" / PIXELS).iterdir())
    fifo.unlink()
    os.mkfifo(fifo)  # reading it would wait for a writer for ever
    with big.open("r+b") as f:
        f.truncate(pixel_cache.MAX_KEPT_BYTES + 1)  # sparse: costs nothing on disk
    again = session(tmp_path, bundled).chosen("PIsh", "board", "square")
    assert again is not None and again.pixels is not None
    redone = [again.bitmap(2000, 144), again.bitmap(2001, 144)]
    assert [p.tobytes() if p else None for p in redone] == [picture.tobytes(), mark.tobytes()]
    assert again.pixels.hits == 0
