"""What the device gives an app besides plugins: its bundled data databases (built from
a game's plugins/ like plugins, but without a pINF) and the files installed for it."""

from __future__ import annotations

import os
from pathlib import Path

from palmish.device.display import CONFIGS, ConfigName
from palmish.device.machine.app import App
from palmish.device.machine.context import MAX_USER_FILE
from palmish.device.machine.system import Device


class DataApp(App):
    id = "data"
    name = "Data"
    creator = "Dat1"


def data_folder(root: Path, name: str, creator: str, text: bytes) -> Path:
    folder = root / name
    folder.mkdir(parents=True)
    (folder / "1.txt").write_bytes(text)
    (folder / "manifest.yaml").write_text(
        f"name: {name}\ntype: Item\ncreator: {creator}\n"
        "resources:\n  - {file: 1.txt, type: Item, id: 1}\n", encoding="utf-8")
    return folder


def test_bundled_data_databases_reach_their_app_and_are_rebuilt_when_stale(
        tmp_path: Path) -> None:
    plugins = tmp_path / "plugins"
    mine = data_folder(plugins, "mine", "Dat1", b"one")
    data_folder(plugins, "other", "Oth1", b"other")
    device = Device(CONFIGS[ConfigName.SQUARE], tmp_path / "dev", [DataApp()], "data",
                    bundled_plugins=plugins, durable=False, alerts=False)
    assert device.messages == []  # data folders are not reported as broken plugins
    dbs = device.context.bundled_databases("Item")  # type: ignore[attr-defined]
    assert [db.resource("Item", 1).data for db in dbs] == [b"one"]
    assert device.context.bundled_databases("Nope") == []  # type: ignore[attr-defined]
    (mine / "1.txt").write_bytes(b"two")
    later = (mine / "1.txt").stat().st_mtime + 5
    os.utime(mine / "1.txt", (later, later))
    dbs = device.context.bundled_databases("Item")  # type: ignore[attr-defined]
    assert [db.resource("Item", 1).data for db in dbs] == [b"two"]
    device.shutdown()


def test_user_files_are_the_apps_own_regular_small_files(tmp_path: Path) -> None:
    device = Device(CONFIGS[ConfigName.SQUARE], tmp_path, [DataApp()], "data",
                    bundled_plugins=tmp_path / "none", durable=False, alerts=False)
    assert device.context.user_files() == []  # type: ignore[attr-defined]
    folder = device.storage.files_dir("Dat1")
    folder.mkdir(parents=True)
    (folder / "b.dat").write_bytes(b"B")
    (folder / "a.dat").write_bytes(b"A")
    (folder / "big.dat").write_bytes(b"x" * (MAX_USER_FILE + 1))
    (folder / "sub").mkdir()
    assert device.context.user_files() == [("a.dat", b"A"), ("b.dat", b"B")]  # type: ignore[attr-defined]
    assert device.storage.files_dir("Oth1") != folder
    device.shutdown()
