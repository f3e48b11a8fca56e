"""Fixtures the Pachisi app tests share: the bundled plugins built once, and a
device factory whose storage starts from that build."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from palmish.device.display import CONFIGS, ConfigName
from palmish.device.system import Device
from palmish.pachisi.app import PachisiApp

PLUGINS = Path(__file__).resolve().parents[2] / "skins" / "plugins"

MakeDevice = Callable[..., tuple[Device, PachisiApp]]


@pytest.fixture(scope="session")
def built_plugins(tmp_path_factory: pytest.TempPathFactory) -> Path:
    data = tmp_path_factory.mktemp("pachisi-built")
    device = Device(CONFIGS[ConfigName.SQUARE], data, [PachisiApp()], bundled_plugins=PLUGINS,
                    durable=False, alerts=False)
    assert device.messages == []
    device.shutdown()
    return data / "cache"


@pytest.fixture
def make_device(tmp_path: Path, built_plugins: Path) -> MakeDevice:
    """make_device(config="square", data=tmp_path/"device") -> (device, app); the same
    data folder again resumes what the last device saved."""

    def make(config: str = "square", data: Path | None = None) -> tuple[Device, PachisiApp]:
        folder = data if data is not None else tmp_path / "device"
        if not (folder / "cache").exists():
            shutil.copytree(built_plugins, folder / "cache")
        app = PachisiApp()
        device = Device(CONFIGS[ConfigName(config)], folder, [app], start_app="pachisi",
                        bundled_plugins=PLUGINS, durable=False, alerts=False)
        return device, app

    return make
