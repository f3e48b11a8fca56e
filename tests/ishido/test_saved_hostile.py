"""PalmIshido's saved game damaged by hand or from the future (issue 15 items 4 and 6).

The database is valid, the record inside is not: the app starts a new game
with one notice, and the record is kept as a `.corrupt-*` copy before the
next save replaces the state file.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from palmish.device.disk.resources import bundled_plugins
from palmish.device.disk.storage import Storage
from palmish.device.display import CONFIGS, ConfigName
from palmish.device.events import Key, KeyDown
from palmish.device.machine.system import Device
from palmish.ishido.app import IshidoApp

PLUGINS = bundled_plugins()


def start(data: Path, built_plugins: Path) -> tuple[Device, IshidoApp]:
    if not (data / "cache").exists():
        shutil.copytree(built_plugins, data / "cache")
    app = IshidoApp()
    device = Device(CONFIGS[ConfigName.SQUARE], data, [app], start_app="PalmIshido",
                    bundled_plugins=PLUGINS, durable=False, alerts=False)
    return device, app


def a_real_record(data: Path, built_plugins: Path) -> bytes:
    device, _ = start(data, built_plugins)
    device.shutdown()
    saved = Storage(data).load_state("PIsh")
    assert saved is not None and saved.startswith(b"{")
    return saved


@pytest.mark.parametrize(
    "damage",
    [
        lambda good: good[: len(good) // 2],                       # truncated past the header
        lambda good: good.replace(b'"record"', b'"rec'),           # bad JSON
        lambda good: good.replace(b'{"v":1', b'{"v":99', 1),      # a newer version
        lambda good: b'{"v":1,"record":' + b"[" * 200_000 + b"]" * 200_000 + b"}",
        lambda good: b'{"v":1,"record":"x","n":' + b"7" * 5000 + b"}",
        lambda good: b"\xff\xfe",                                  # not text
    ],
    ids=["truncated", "bad-json", "newer", "deep", "huge-int", "binary"],
)
def test_a_damaged_record_is_kept_aside_before_any_save(
    tmp_path: Path, built_plugins: Path, damage: object
) -> None:
    data = tmp_path / "device"
    good = a_real_record(data, built_plugins)
    bad = damage(good)  # type: ignore[operator]
    Storage(data).save_state("PIsh", bad)
    device, _ = start(data, built_plugins)
    notices = [m for m in device.messages if "saved game" in m]
    assert len(notices) == 1 and "\n" not in notices[0] and len(notices[0]) < 400
    device.post(KeyDown(Key.SELECT))  # play on: the app saves over the state file
    device.shutdown()
    kept = list((data / "databases").glob("PIsh-state.pdb.corrupt-*"))
    assert len(kept) == 1 and bad in kept[0].read_bytes()
    assert Storage(data).load_state("PIsh") != bad
