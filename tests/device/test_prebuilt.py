"""The bundled plugins built at packaging time (issue 27): used as they are, never built
again on a first start; a stale or damaged one (a source tree being edited) falls back
to building into cache/, and the background build never builds a plugin twice."""

from __future__ import annotations

import json
import os
import shutil
import time
import zlib
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from palmish.device.disk import kept
from palmish.device.disk.storage import Storage
from palmish.device.store import loaded as loaded_module
from palmish.device.store import plugins as plugins_module
from palmish.device.store import prebuilt, shipped_pixels
from palmish.device.store.plugins import PluginRegistry
from prc_tools import Database
from prc_tools import plugin as packer


def registry(tmp_path: Path, bundled: Path, said: list[str]) -> PluginRegistry:
    return PluginRegistry(Storage(tmp_path / "data", report=said.append), bundled, said.append)


def no_building(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(packer, "build_folder", lambda *a, **k: pytest.fail("built"))


def test_prebuilt_plugins_are_used_and_nothing_is_built(
    tmp_path: Path, bundled: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    written = prebuilt.build_all(bundled)
    assert sorted(p.name for p in written) == ["test-board-wide.prc", "test-board.prc",
                                               "test-sounds.prc"]
    no_building(monkeypatch)
    said: list[str] = []
    reg = registry(tmp_path, bundled, said)
    board = reg.chosen("PIsh", "board", "square")
    assert board is not None and board.info.path == tmp_path / "prebuilt" / "test-board.prc"
    assert board.bitmap(2000, 144) is not None
    assert reg.prebuild() is None  # nothing left to build in the background
    assert not list(reg.bundled_cache.glob("*.prc")) and said == []


def test_a_prebuilt_plugin_older_than_a_source_file_is_built_as_before(
    tmp_path: Path, bundled: Path
) -> None:
    prebuilt.build_all(bundled)
    edited = bundled / "test-board" / "manifest.yaml"
    later = time.time() + 10
    os.utime(edited, (later, later))
    said: list[str] = []
    board = registry(tmp_path, bundled, said).chosen("PIsh", "board", "square")
    assert board is not None and board.info.path.parent.name == "bundled"
    assert board.info.path.is_file() and said == []


def flip_a_bit(path: Path) -> bytes:
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 4
    return bytes(data)


@pytest.mark.parametrize("damage", ["empty", "text", "zeros", "flipped bit", "no headers"])
def test_a_damaged_or_empty_prebuilt_plugin_is_built_without_a_word(
    tmp_path: Path, bundled: Path, damage: str
) -> None:
    folder = bundled.parent / "prebuilt"
    prebuilt.build_all(bundled, folder)
    board = folder / "test-board.prc"
    if damage == "no headers":
        (folder / prebuilt.HEADERS).unlink()
    else:
        board.write_bytes({"empty": b"", "text": b"not a database", "zeros": b"\0" * 100,
                           "flipped bit": flip_a_bit(board)}[damage])
    said: list[str] = []
    reg = registry(tmp_path, bundled, said)
    loaded = reg.chosen("PIsh", "board", "square")
    assert loaded is not None and loaded.info.path == reg.bundled_cache / "test-board.prc"
    assert Database.read(loaded.info.path.read_bytes()).name == "Test Board"
    assert loaded.bitmap(2000, 144) is not None
    assert [p.name for p in reg.all()] == ["Test Board", "Test Board Wide", "Test Sounds"]
    assert said == []


def test_listing_reads_only_the_prebuilt_headers(
    tmp_path: Path, bundled: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    prebuilt.build_all(bundled)
    reads: list[Path] = []
    real = plugins_module.kept.read_beside

    def counting(path: Path, limit: int) -> bytes | None:
        reads.append(path)
        return real(path, limit)

    monkeypatch.setattr(plugins_module.kept, "read_beside", counting)
    reg = registry(tmp_path, bundled, [])
    assert len(reg.all()) == 3 and reads == []
    assert reg.chosen("PIsh", "board", "square") is not None
    assert [p.name for p in reads] == ["test-board.prc"]


def test_inside_the_package_prebuilt_plugins_are_trusted_without_walking_the_sources(
    tmp_path: Path, bundled: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    prebuilt.build_all(bundled)
    later = time.time() + 10
    os.utime(bundled / "test-board" / "manifest.yaml", (later, later))  # as an install may
    monkeypatch.setattr(plugins_module, "packaged", lambda path: True)
    monkeypatch.setattr(plugins_module, "_newest_mtime", lambda f: pytest.fail("walked"))
    no_building(monkeypatch)
    board = registry(tmp_path, bundled, []).chosen("PIsh", "board", "square")
    assert board is not None and board.info.path.parent.name == "prebuilt"


@pytest.mark.process
def test_a_load_waits_for_the_background_build_instead_of_building_the_same_plugin(
    tmp_path: Path, bundled: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    reg = registry(tmp_path, bundled, [])
    assert reg.chosen("PIsh", "board", "square") is not None
    wide = reg.in_use_infos("PIsh", "wide")
    assert [p.name for p in wide] == ["Test Board Wide", "Test Sounds"]
    process = reg.prebuild(p.path for p in wide)
    assert process is not None
    no_building(monkeypatch)  # in this process: the bytes must come from the other one
    loaded = reg.chosen("PIsh", "board", "wide")
    assert loaded is not None and loaded.info.name == "Test Board Wide"
    process.wait(60)


def test_prebuilding_again_removes_the_builds_of_folders_that_are_gone(
    tmp_path: Path, bundled: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = tmp_path / "out"
    assert prebuilt.main([str(target), str(bundled)]) == 0
    assert "3 bundled plugins built" in capsys.readouterr().out
    (bundled / "test-sounds" / "manifest.yaml").unlink()
    assert prebuilt.main([str(target), str(bundled)]) == 0
    assert sorted(p.name for p in target.iterdir()) == [
        "headers.kept", "pixels", "test-board-wide.prc", "test-board-wide.prc.sum",
        "test-board.prc", "test-board.prc.sum"]
    assert sorted(p.name for p in (target / "pixels").iterdir()) == [
        "test-board-144.kept", "test-board-72.kept", "test-board-wide-144.kept",
        "test-board-wide-72.kept"]
    assert sorted(prebuilt.read_headers(target)) == ["test-board-wide.prc", "test-board.prc"]
    assert prebuilt.main([str(target), str(tmp_path / "missing")]) == 1
    assert capsys.readouterr().err == ("palmish: cannot prebuild the bundled plugins:"
                                       f" {tmp_path / 'missing'} is not a folder\n")


def test_several_games_folders_build_into_one_prebuilt_folder_by_unique_names(
    tmp_path: Path, bundled: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Each game's plugins/ is a folder of source folders; their builds share one folder,
    so two source folders of one name (which the games' naming rules out) are refused."""
    other = tmp_path / "other"
    other.mkdir()
    shutil.copytree(bundled / "test-board", other / "test-board-2")
    target = tmp_path / "out"
    assert prebuilt.main([str(target), str(bundled), str(other)]) == 0
    assert "4 bundled plugins built" in capsys.readouterr().out
    assert sorted(prebuilt.read_headers(target)) == [
        "test-board-2.prc", "test-board-wide.prc", "test-board.prc", "test-sounds.prc"]
    shutil.copytree(bundled / "test-sounds", other / "test-sounds")
    assert prebuilt.main([str(target), str(bundled), str(other)]) == 1
    assert capsys.readouterr().err == ("palmish: cannot prebuild the bundled plugins:"
                                       " two bundled plugin folders are called test-sounds\n")


def no_decoding(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(loaded_module, "decode_bitmap", lambda *a: pytest.fail("decoded"))


def test_a_fresh_install_reads_the_bitmaps_decoded_at_packaging_time(
    tmp_path: Path, bundled: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    prebuilt.build_all(bundled)
    said: list[str] = []
    decoded = {}
    for density in (72, 144):  # what decoding gives, in a data folder of its own
        board = registry(tmp_path / "decoding", bundled, said).chosen("PIsh", "board", "square")
        assert board is not None and board.pixels is not None
        board.pixels.shipped = None
        decoded[density] = {id_: board.bitmap(id_, density) for id_ in board.bitmap_ids()}
    no_decoding(monkeypatch)
    board = registry(tmp_path, bundled, said).chosen("PIsh", "board", "square")
    assert board is not None and board.pixels is not None
    for density, pictures in decoded.items():
        for id_, picture in pictures.items():
            shipped = board.bitmap(id_, density)
            assert picture is not None and shipped is not None
            assert (shipped.size, shipped.tobytes()) == (picture.size, picture.tobytes())
    assert board.pixels.hits == 2 * len(board.bitmap_ids()) and board.pixels.pending == 0
    assert not (tmp_path / "data" / "cache" / "pixels").exists() and said == []


@pytest.mark.parametrize("damage", ["flipped bit", "cut short", "other database", "folder"])
def test_damaged_or_foreign_shipped_pixels_are_decoded_instead(
    tmp_path: Path, bundled: Path, damage: str
) -> None:
    folder = bundled.parent / "prebuilt"
    prebuilt.build_all(bundled, folder)
    kept_file = shipped_pixels.file_path(folder, "test-board.prc", 144)
    if damage == "flipped bit":
        kept_file.write_bytes(flip_a_bit(kept_file))
    elif damage == "cut short":
        kept_file.write_bytes(kept_file.read_bytes()[:-10])
    elif damage == "other database":
        other = shipped_pixels.file_path(folder, "test-board-wide.prc", 144)
        kept_file.write_bytes(other.read_bytes())
    else:
        kept_file.unlink()
        kept_file.mkdir()
    said: list[str] = []
    board = registry(tmp_path, bundled, said).chosen("PIsh", "board", "square")
    assert board is not None and board.pixels is not None
    assert board.bitmap(2000, 144) is not None
    assert board.pixels.hits == 0 and board.pixels.pending == 1 and said == []


INDEXES = st.one_of(
    st.lists(st.one_of(st.integers(-3, 70000), st.text(max_size=3), st.none()), max_size=12)
    .map(lambda v: json.dumps(v).encode()),
    st.binary(max_size=40),
)


@settings(max_examples=200, deadline=None)
@given(INDEXES, st.binary(max_size=200), st.booleans())
def test_a_sealed_shipped_file_of_any_content_gives_pictures_of_its_sizes_or_nothing(
    tmp_path_factory: pytest.TempPathFactory, index: bytes, pixels: bytes, packed: bool
) -> None:
    # A file that passes the seal (the packaging step's own), its content anything.
    folder = tmp_path_factory.mktemp("prebuilt")
    data = b"a database"
    path = shipped_pixels.file_path(folder, "x.prc", 144)
    body = zlib.compress(pixels) if packed else pixels
    assert kept.write(path, index + b"\n" + body,
                      ["pixels", "x.prc", len(data), zlib.crc32(data), 144])
    shipped = shipped_pixels.ShippedPixels(folder, "x.prc", data)
    for id_ in (0, 1, 2, 7, 100):
        picture = shipped.get(id_, 144)
        assert picture is None or len(picture.tobytes()) == picture.width * picture.height * 4
