"""PalmIshido on the Device, without a window: how long the app takes to start,
to follow a dragged tile, to place a tile and to re-lay out after a rotation.

    .venv/bin/python benchmarks/ishido_app.py

Prints medians in milliseconds. The first start builds the bundled plugins into
the data folder's cache; the second start reuses it.
"""

from __future__ import annotations

import statistics
import tempfile
import time
from pathlib import Path

from palmish.device.disk.resources import bundled_plugins
from palmish.device.display import CONFIGS, ConfigName
from palmish.device.events import Key, KeyDown, MenuCommand, PenDown, PenMove, PenUp, Rotate
from palmish.device.machine.system import Device
from palmish.ishido.app import IshidoApp

PLUGINS = bundled_plugins()


def start(data: Path, config: ConfigName) -> tuple[Device, IshidoApp, float]:
    app = IshidoApp()
    t0 = time.perf_counter()
    device = Device(CONFIGS[config], data, [app], start_app="PalmIshido",
                    bundled_plugins=PLUGINS, durable=False, alerts=False)
    return device, app, (time.perf_counter() - t0) * 1000


def median_ms(samples: list[float]) -> str:
    return f"{statistics.median(samples):7.2f} ms (n={len(samples)})"


def main() -> int:
    with tempfile.TemporaryDirectory() as tmp:
        data = Path(tmp)
        _, _, cold = start(data, ConfigName.SQUARE)
        print(f"start, building the bundled plugins: {cold:8.1f} ms")
        for config in (ConfigName.SQUARE_LOW, ConfigName.SQUARE, ConfigName.WIDE):
            device, app, warm = start(data, config)
            assert app.layout is not None
            device.post(MenuCommand("new"))  # not the finished game the last run saved
            if device.modals:  # "New Game? The game in progress will be lost."
                device.post(KeyDown(Key.SELECT))
            print(f"[{config.value}] start with the plugins cached: {warm:8.1f} ms")
            well = app.layout.tile_well
            device.post(PenDown(well.x + 2, well.y + 2))
            assert app.drag is not None, "the pen did not pick up the tile"
            board = app.layout.board
            moves = []
            for i in range(200):
                x = board.x + (i * 7) % board.w
                y = board.y + (i * 13) % board.h
                t0 = time.perf_counter()
                device.post(PenMove(x, y))
                assert device.take_damage()
                moves.append((time.perf_counter() - t0) * 1000)
            device.post(PenUp(well.x + 2, well.y + 2))
            print(f"[{config.value}] drag, one pen move:       {median_ms(moves)}")
            places = []
            for _ in range(30):
                device.post(KeyDown(Key.DOWN))
                t0 = time.perf_counter()
                device.post(KeyDown(Key.SELECT))
                device.take_damage()
                places.append((time.perf_counter() - t0) * 1000)
                if app.game.over:
                    break
            print(f"[{config.value}] place a tile (and save):  {median_ms(places)}")
            if config is not ConfigName.SQUARE_LOW:
                turns = []
                for _ in range(6):
                    t0 = time.perf_counter()
                    device.post(Rotate())
                    device.take_damage()
                    turns.append((time.perf_counter() - t0) * 1000)
                print(f"[{config.value}] rotate and redraw:        {median_ms(turns)}")
            device.shutdown()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
