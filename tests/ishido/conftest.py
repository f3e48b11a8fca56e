"""Fixtures the PalmIshido app tests share."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from palmish.device.display import ConfigName
from palmish.device.machine.system import Device
from palmish.ishido.app import IshidoApp
from tests.game_devices import build_plugins, start_device


@pytest.fixture(scope="session")
def built_plugins(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The bundled plugins built once for all the tests here; each test's storage
    starts from a copy of this cache."""
    return build_plugins(tmp_path_factory, "built", IshidoApp())


@pytest.fixture
def make_ishido(tmp_path: Path, built_plugins: Path) -> Callable[..., tuple[Device, IshidoApp]]:
    """make_ishido(config=SQUARE, data=None, **device options) -> (Device, IshidoApp),
    the bundled plugins already built into the data folder's cache."""

    def factory(config: ConfigName = ConfigName.SQUARE, data: Path | None = None,
                **options: Any) -> tuple[Device, IshidoApp]:
        app = IshidoApp()
        device = start_device(app, "PalmIshido", built_plugins, config,
                              data or tmp_path / "device", **options)
        device.take_sounds()
        return device, app

    return factory
