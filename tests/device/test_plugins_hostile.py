"""Installed plugins at scale and with clashing names (issue 15 items 5 and 8)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
import yaml

from palmish.device.disk.storage import Storage, installed_file_name
from palmish.device.store.info import PluginInfo
from palmish.device.store.plugins import PluginRegistry
from prc_tools.plugin import build_folder

FIXTURES = Path(__file__).parent / "fixtures" / "plugins"


def plugin_file(tmp_path: Path, folder: str, name: str, version: int = 1) -> Path:
    db = build_folder(FIXTURES / folder)
    pinf = db.resource("pINF", 0)
    assert pinf is not None
    fields = yaml.safe_load(pinf.data)
    fields["name"] = name
    fields["version"] = version
    pinf.data = yaml.safe_dump(fields).encode()
    db.name = name[:31]
    path = tmp_path / f"{folder}-{abs(hash((name, version)))}.prc"
    path.write_bytes(db.to_bytes())
    return path


@pytest.fixture
def registry(tmp_path: Path) -> tuple[PluginRegistry, list[str]]:
    messages: list[str] = []
    storage = Storage(tmp_path / "data", report=messages.append)
    return PluginRegistry(storage, None, messages.append), messages


def test_a_sound_named_like_a_board_does_not_replace_it(
    registry: tuple[PluginRegistry, list[str]], tmp_path: Path
) -> None:
    reg, _ = registry
    replaced: list[PluginInfo] = []
    board = reg.install(plugin_file(tmp_path, "test-board", "My Stuff"), replaced)
    sound = reg.install(plugin_file(tmp_path, "test-sounds", "My Stuff."), replaced)
    also = reg.install(plugin_file(tmp_path, "test-sounds", "My Stuff"), replaced)
    assert replaced == []
    assert len({board.path, sound.path, also.path}) == 3
    assert {(p.name, p.kind) for p in reg.all()} == {
        ("My Stuff", "board"), ("My Stuff.", "sound"), ("My Stuff", "sound")}


def test_reinstalling_the_same_plugin_replaces_it_and_says_so(
    registry: tuple[PluginRegistry, list[str]], tmp_path: Path
) -> None:
    reg, _ = registry
    first = reg.install(plugin_file(tmp_path, "test-board", "Jade", version=1))
    replaced: list[PluginInfo] = []
    second = reg.install(plugin_file(tmp_path, "test-board", "Jade", version=2), replaced)
    assert second.path == first.path
    assert [(p.name, p.version) for p in replaced] == [("Jade", 1)]
    assert [(p.name, p.version) for p in reg.all()] == [("Jade", 2)]


def test_a_file_of_the_old_naming_is_replaced_not_duplicated(
    registry: tuple[PluginRegistry, list[str]], tmp_path: Path
) -> None:
    reg, _ = registry
    old = reg.storage.databases_dir / "Jade.prc"  # how earlier versions named it
    old.parent.mkdir(parents=True)
    old.write_bytes(plugin_file(tmp_path, "test-board", "Jade").read_bytes())
    replaced: list[PluginInfo] = []
    info = reg.install(plugin_file(tmp_path, "test-board", "Jade", version=3), replaced)
    assert [p.path for p in replaced] == [old] and not old.exists()
    assert info.path.name == installed_file_name("Jade", "IsBd", "PIsh")
    assert [p.version for p in reg.all()] == [3]


def test_a_name_taken_by_another_file_gets_a_number(
    registry: tuple[PluginRegistry, list[str]], tmp_path: Path
) -> None:
    reg, _ = registry
    taken = reg.storage.databases_dir / installed_file_name("Jade", "IsBd", "PIsh")
    taken.parent.mkdir(parents=True)
    taken.write_bytes(plugin_file(tmp_path, "test-board", "Other").read_bytes())
    info = reg.install(plugin_file(tmp_path, "test-board", "Jade"))
    assert info.path != taken and info.path.name.endswith("-2.prc")
    assert sorted(p.name for p in reg.all()) == ["Jade", "Other"]


def test_installed_plugins_are_read_once_then_from_the_index(
    registry: tuple[PluginRegistry, list[str]], tmp_path: Path
) -> None:
    reg, messages = registry
    folder = reg.storage.databases_dir
    folder.mkdir(parents=True)
    source = plugin_file(tmp_path, "test-board", "Many").read_bytes()
    for n in range(40):
        (folder / f"p{n}.prc").write_bytes(source.replace(b"name: Many", f"name: M{n:03}".encode()))
    (folder / "junk.prc").write_bytes(b"\0" * 100)  # moved aside once
    (folder / "plain.prc").write_bytes(
        plugin_file(tmp_path, "test-board", "x").read_bytes().replace(b"pINF", b"pINX"))
    reg.refresh()
    assert len(reg.all()) == 40 and reg.index.reads == 42
    for _ in range(20):  # what opening Preferences used to cost every time
        reg.refresh(bundled=False)
    assert reg.index.reads == 42
    assert sum("plain.prc" in m for m in messages) == 1  # reported once, not per rescan
    touched = folder / "p7.prc"
    os.utime(touched, ns=(touched.stat().st_atime_ns, touched.stat().st_mtime_ns + 10**9))
    reg.index.expire()  # as after a second: files changed in place are seen then
    reg.refresh(bundled=False)
    assert reg.index.reads == 43
    (folder / "p8.prc").unlink()
    reg.refresh(bundled=False)
    assert len(reg.all()) == 39 and reg.index.reads == 43
    # A new session (a restart) is served from the saved index.
    again = PluginRegistry(Storage(reg.storage.data_dir, report=messages.append), None,
                           messages.append)
    assert len(again.all()) == 39 and again.index.reads == 0


def test_a_damaged_index_is_rebuilt(
    registry: tuple[PluginRegistry, list[str]], tmp_path: Path
) -> None:
    reg, _ = registry
    reg.install(plugin_file(tmp_path, "test-board", "Jade"))
    reg.refresh()
    for text in (b"{", b"[" * 100000, b'{"format": 1, "files": {"x/../y": {}}}', b"\xff"):
        reg.index.path.write_bytes(text)
        again = PluginRegistry(reg.storage, None, reg.report)
        assert [p.name for p in again.all()] == ["Jade"]
