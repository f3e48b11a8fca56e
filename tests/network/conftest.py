"""The Pachisi plugins built once for the network tests' devices."""

from __future__ import annotations

from pathlib import Path

import pytest

from palmish.pachisi.app import PachisiApp
from tests.game_devices import build_plugins


@pytest.fixture(scope="session")
def built_plugins(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_plugins(tmp_path_factory, "pachisi-net-built", PachisiApp())
