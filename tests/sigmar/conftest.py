"""Fixtures the Sigmar's Garden app tests share: a real Device with the bundled plugins."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from palmish.device.display import ConfigName
from palmish.device.machine.system import Device
from palmish.sigmar import solver
from palmish.sigmar.app import SigmarApp
from tests.game_devices import PLUGINS as PLUGINS
from tests.game_devices import build_plugins, centre, start_device, tap

Make = Callable[..., tuple[Device, SigmarApp]]


@pytest.fixture(scope="session")
def sigmar_plugins(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The bundled plugins built once; each test's storage starts from a copy."""
    return build_plugins(tmp_path_factory, "sigmar-built", SigmarApp())


@pytest.fixture
def make(tmp_path: Path, sigmar_plugins: Path) -> Make:
    def factory(config: ConfigName = ConfigName.SQUARE, data: Path | None = None,
                board: str | None = None) -> tuple[Device, SigmarApp]:
        app = SigmarApp()
        if board is not None:
            app.request_board(board)
        device = start_device(app, "sigmar", sigmar_plugins, config, data or tmp_path / "device")
        device.take_sounds()
        return device, app

    return factory


def tap_cell(device: Device, app: SigmarApp, cell: tuple[int, int]) -> None:
    assert app.layout is not None
    tap(device, *centre(app.layout.cell_rect(*cell)))


def play_solution(device: Device, app: SigmarApp, count: int | None = None) -> None:
    """Tap the solver's takes (the first `count`, else all), as a player would."""
    takes = solver.solve(app.game)
    assert takes is not None
    done = len(app.game.moves)
    for t in takes[:count]:
        tap_cell(device, app, t.a)
        if t.b is not None:
            tap_cell(device, app, t.b)
    assert len(app.game.moves) == done + len(takes[:count])


def press(device: Device, label: str) -> None:
    """Tap the button of that label in the top dialog."""
    modal = device.modals[-1]
    buttons = modal.row.buttons  # type: ignore[attr-defined]
    button = next(b for b in buttons if b.label == label)
    tap(device, *centre(button.rect))
