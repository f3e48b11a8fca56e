"""The Pachisi plugins built once for the network tests' devices."""

from __future__ import annotations

from pathlib import Path

import pytest

from palmish.pachisi.app import PachisiApp
from tests.game_devices import build_plugins
from tests.network.wormhole_servers import servers


@pytest.fixture(scope="session")
def built_plugins(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_plugins(tmp_path_factory, "pachisi-net-built", PachisiApp())


__all__ = ["servers"]  # the loopback rendezvous and relay of the internet tests
