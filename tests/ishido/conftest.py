"""Fixtures the PalmIshido app tests share."""

from __future__ import annotations

from pathlib import Path

import pytest

from palmish.ishido.app import IshidoApp
from tests.game_devices import build_plugins


@pytest.fixture(scope="session")
def built_plugins(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The bundled plugins built once for all the tests here; each test's storage
    starts from a copy of this cache."""
    return build_plugins(tmp_path_factory, "built", IshidoApp())
