"""A drag handed to PalmIshido as one burst (its last point) leaves the same screen
and game as the same drag posted point by point."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

import pytest
from PIL import ImageChops

from palmish.device.display import ConfigName
from palmish.device.events import PenDown, PenMove, coalesce_moves
from palmish.device.machine.system import Device
from palmish.device.scripting.eventscript import drag_events
from palmish.ishido.app import IshidoApp
from tests.game_devices import centre

Make = Callable[..., tuple[Device, IshidoApp]]


@pytest.mark.parametrize("drop", [True, False])
def test_burst_and_point_by_point_agree(make_ishido: Make, tmp_path: Path, drop: bool) -> None:
    first, _ = make_ishido(ConfigName.TALL, data=tmp_path / "each")
    first.shutdown()  # saves the new game: both runs resume the same one
    shutil.copytree(tmp_path / "each", tmp_path / "burst")
    shown = []
    for name, burst in (("each", False), ("burst", True)):
        device, app = make_ishido(ConfigName.TALL, data=tmp_path / name)
        assert app.layout is not None
        row, col = app.game.legal_moves()[0]
        start = centre(app.layout.tile_well)
        end = centre(app.layout.cell_rect(row, col))
        stroke = drag_events(*start, *end, 400)
        if not drop:
            stroke = stroke[:-1]  # still held: the lifted tile under the pen
        events = list(coalesce_moves(stroke)) if burst else stroke
        assert (len(events) < 5) == burst
        for event in events:
            device.post(event)
        assert isinstance(stroke[0], PenDown) and isinstance(stroke[-2], PenMove)
        shown.append((device.screen.image.copy(), app.game.tile_at(row, col), app.drag is None))
        device.shutdown()
    (each, each_tile, each_done), (burst_image, burst_tile, burst_done) = shown
    assert ImageChops.difference(each, burst_image).getbbox() is None
    assert (each_tile, each_done) == (burst_tile, burst_done)
    assert (each_tile is not None) == drop
