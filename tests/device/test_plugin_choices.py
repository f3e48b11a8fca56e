"""Issue 14, items 2 and 5: a deleted or missing chosen plugin, and same-name plugins."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from palmish.device.disk.storage import Storage
from palmish.device.store.plugins import PluginRegistry

from .test_plugins import FIXTURES, plugin_file


@pytest.fixture
def reg(tmp_path: Path) -> tuple[PluginRegistry, list[str]]:
    root = tmp_path / "bundled"
    shutil.copytree(FIXTURES, root)
    messages: list[str] = []
    storage = Storage(tmp_path / "data", report=messages.append)
    return PluginRegistry(storage, root, messages.append), messages


def test_deleting_the_chosen_plugin_resets_the_choice(
    reg: tuple[PluginRegistry, list[str]], tmp_path: Path
) -> None:
    registry, messages = reg
    mine = registry.install(plugin_file(tmp_path, "test-board", name="My Board"))
    registry.choose("PIsh", "board", "square", "My Board")
    registry.choose("PIsh", "board", "tall", "My Board")
    registry.delete(mine)
    assert registry.choice("PIsh", "board", "square") is None
    assert registry.choice("PIsh", "board", "tall") is None
    loaded = registry.chosen("PIsh", "board", "square")
    assert loaded is not None and loaded.info.name == "Test Board"
    assert messages == []  # nothing to warn about: the choice went with the plugin


def test_a_choice_of_a_missing_plugin_is_told_once_then_cleared(
    reg: tuple[PluginRegistry, list[str]], tmp_path: Path
) -> None:
    registry, messages = reg
    mine = registry.install(plugin_file(tmp_path, "test-board", name="My Board"))
    registry.choose("PIsh", "board", "square", "My Board")
    mine.path.unlink()  # gone behind the device's back
    registry.refresh(bundled=False)
    for _ in range(3):  # three starts of the app
        loaded = registry.chosen("PIsh", "board", "square")
        assert loaded is not None and loaded.info.name == "Test Board"
    assert messages == ["board plugin 'My Board' is missing; using the bundled one"]
    assert registry.choice("PIsh", "board", "square") is None


def test_deleting_a_replacement_keeps_the_choice_of_the_bundled_name(
    reg: tuple[PluginRegistry, list[str]], tmp_path: Path
) -> None:
    registry, messages = reg
    mine = registry.install(plugin_file(tmp_path, "test-board", version=9))  # "Test Board"
    registry.choose("PIsh", "board", "square", "Test Board")
    registry.delete(mine)
    assert registry.choice("PIsh", "board", "square") == "Test Board"  # the bundled one
    loaded = registry.chosen("PIsh", "board", "square")
    assert loaded is not None and loaded.info.bundled and messages == []


def test_an_installed_plugin_replaces_the_bundled_one_of_its_name(
    reg: tuple[PluginRegistry, list[str]], tmp_path: Path
) -> None:
    registry, _ = reg
    registry.install(plugin_file(tmp_path, "test-board", version=9))  # a rebuilt "Test Board"
    rows = [p for p in registry.all() if p.name == "Test Board"]
    assert [(p.source, p.version) for p in rows] == [("installed", 9)]  # one row
    # With nothing chosen, the default is the name the list shows: the installed one.
    loaded = registry.chosen("PIsh", "board", "tall")
    assert loaded is not None and loaded.info.version == 9 and not loaded.info.bundled
