"""Fixtures the Pachisi app tests share: the bundled plugins built once, and a
device factory whose storage starts from that build."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from palmish.device.display import ConfigName
from palmish.device.machine.system import Device
from palmish.pachisi.app import PachisiApp
from tests.game_devices import PLUGINS as PLUGINS
from tests.game_devices import build_plugins, start_device

MakeDevice = Callable[..., tuple[Device, PachisiApp]]


@pytest.fixture(scope="session")
def built_plugins(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_plugins(tmp_path_factory, "pachisi-built", PachisiApp())


@pytest.fixture
def make_device(tmp_path: Path, built_plugins: Path) -> MakeDevice:
    """make_device(config="square", data=tmp_path/"device") -> (device, app); the same
    data folder again resumes what the last device saved."""

    def make(config: str = "square", data: Path | None = None) -> tuple[Device, PachisiApp]:
        folder = data if data is not None else tmp_path / "device"
        app = PachisiApp()
        device = start_device(app, "pachisi", built_plugins, ConfigName(config), folder)
        return device, app

    return make
