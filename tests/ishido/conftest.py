"""Fixtures the PalmIshido app tests share."""

from __future__ import annotations

from pathlib import Path

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
