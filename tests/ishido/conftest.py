"""Fixtures the PalmIshido app tests share."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from palmish.device.display import CONFIGS, ConfigName
from palmish.device.system import Device
from palmish.ishido.app import IshidoApp

PLUGINS = Path(__file__).resolve().parents[2] / "skins" / "plugins"


@pytest.fixture(scope="session")
def built_plugins(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The bundled plugins built once for all the tests here; each test's storage
    starts from a copy of this cache (shutil.copytree keeps the mtimes)."""
    data = tmp_path_factory.mktemp("built")
    device = Device(CONFIGS[ConfigName.SQUARE], data, [IshidoApp()], bundled_plugins=PLUGINS,
                    durable=False, alerts=False)
    assert device.messages == []
    device.shutdown()
    return data / "cache"


@pytest.fixture
def make_ishido(tmp_path: Path, built_plugins: Path) -> Callable[..., tuple[Device, IshidoApp]]:
    """make_ishido(config=SQUARE, data=None, **device options) -> (Device, IshidoApp),
    the bundled plugins already built into the data folder's cache."""

    def factory(config: ConfigName = ConfigName.SQUARE, data: Path | None = None,
                **options: Any) -> tuple[Device, IshidoApp]:
        data = data or tmp_path / "device"
        if not (data / "cache").exists():
            shutil.copytree(built_plugins, data / "cache")  # copy2 keeps the mtimes
        app = IshidoApp()
        options.setdefault("alerts", False)
        device = Device(CONFIGS[config], data, [app], start_app="PalmIshido",
                        bundled_plugins=PLUGINS, durable=False, **options)
        device.take_sounds()
        return device, app

    return factory
