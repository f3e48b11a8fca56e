"""Fixtures the Sigmar's Garden app tests share: a real Device with the bundled plugins."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from palmish.device.display import CONFIGS, ConfigName
from palmish.device.events import PenDown, PenUp
from palmish.device.geometry import Rect
from palmish.device.system import Device
from palmish.sigmar.app import SigmarApp

PLUGINS = Path(__file__).resolve().parents[2] / "skins" / "plugins"
Make = Callable[..., tuple[Device, SigmarApp]]


@pytest.fixture(scope="session")
def sigmar_plugins(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The bundled plugins built once; each test's storage starts from a copy."""
    data = tmp_path_factory.mktemp("sigmar-built")
    device = Device(CONFIGS[ConfigName.SQUARE], data, [SigmarApp()], bundled_plugins=PLUGINS,
                    durable=False, alerts=False)
    assert device.messages == []
    device.shutdown()
    return data / "cache"


@pytest.fixture
def make(tmp_path: Path, sigmar_plugins: Path) -> Make:
    def factory(config: ConfigName = ConfigName.SQUARE, data: Path | None = None,
                board: str | None = None) -> tuple[Device, SigmarApp]:
        data = data or tmp_path / "device"
        if not (data / "cache").exists():
            shutil.copytree(sigmar_plugins, data / "cache")  # copy2 keeps the mtimes
        app = SigmarApp()
        if board is not None:
            app.request_board(board)
        device = Device(CONFIGS[config], data, [app], start_app="sigmar",
                        bundled_plugins=PLUGINS, durable=False, alerts=False)
        device.take_sounds()
        return device, app

    return factory


def centre(r: Rect) -> tuple[int, int]:
    return (r.x + r.w // 2, r.y + r.h // 2)


def tap(device: Device, x: int, y: int) -> None:
    device.post(PenDown(x, y))
    device.post(PenUp(x, y))


def tap_cell(device: Device, app: SigmarApp, cell: tuple[int, int]) -> None:
    assert app.layout is not None
    tap(device, *centre(app.layout.cell_rect(*cell)))


def press(device: Device, label: str) -> None:
    """Tap the button of that label in the top dialog."""
    modal = device.modals[-1]
    buttons = modal.row.buttons  # type: ignore[attr-defined]
    button = next(b for b in buttons if b.label == label)
    tap(device, *centre(button.rect))
