"""Screenshots of PalmIshido in every display configuration: the board's cells are
where the layout says, drawn from the chosen plugins' bitmaps (pixel checks)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from PIL import Image

from palmish.device.disk.resources import bundled_plugins
from palmish.device.display import CONFIGS, ConfigName
from palmish.device.machine.system import Device
from palmish.ishido.app import IshidoApp
from palmish.ishido.rules import COLS, ROWS

PLUGINS = bundled_plugins()
OPENING = [(0, 0), (0, 11), (7, 0), (7, 11), (3, 5), (4, 6)]


@pytest.fixture(scope="module")
def data_dir(tmp_path_factory: pytest.TempPathFactory, built_plugins: Path) -> Path:
    data = tmp_path_factory.mktemp("screens")
    shutil.copytree(built_plugins, data / "cache")  # copy2 keeps the mtimes
    return data


def expected_cell(app: IshidoApp, row: int, col: int) -> Image.Image:
    """The cell as the plugins say it must look: board picture, then the tile."""
    assert app.layout is not None and app.view is not None
    art = app.view.art
    cell = app.layout.cell_rect(row, col)
    assert art.board is not None
    bx, by = cell.x - app.layout.board.x, cell.y - app.layout.board.y
    picture = art.board.crop((bx, by, bx + cell.w, by + cell.h)).convert("RGBA")
    t = app.game.tile_at(row, col)
    if t is not None:
        tile = art.tile(t.color, t.shape)
        dx, dy = art.offset(t.color, t.shape)
        picture.alpha_composite(tile.crop((-dx, -dy, -dx + cell.w, -dy + cell.h)))
    return picture.convert("RGB")


@pytest.mark.parametrize("name", list(ConfigName), ids=lambda n: n.value)
def test_cells_are_where_the_layout_says(name: ConfigName, data_dir: Path) -> None:
    app = IshidoApp()
    # One storage folder for all: the plugins are built once, and each configuration
    # resumes the same game.
    device = Device(CONFIGS[name], data_dir, [app], start_app="PalmIshido",
                    bundled_plugins=PLUGINS, durable=False, alerts=False)
    assert app.layout is not None
    shot = device.screen.image
    assert shot.size == (CONFIGS[name].width, CONFIGS[name].height)
    cw, ch = (34, 40) if name is ConfigName.WIDE else (12, 20) if name is \
        ConfigName.SQUARE_LOW else (24, 40)
    assert (app.layout.cell_w, app.layout.cell_h) == (cw, ch)
    # Every cell of the board, occupied or empty, is exactly the expected picture.
    for row in range(ROWS):
        for col in range(COLS):
            cell = app.layout.cell_rect(row, col)
            got = shot.crop(cell.box())
            want = expected_cell(app, row, col)
            assert got.tobytes() == want.tobytes(), (name, row, col)
    # The opening tiles really are tiles (not board) on the screen.
    for row, col in OPENING:
        assert app.game.tile_at(row, col) is not None
    # The current tile is in the panel's well.
    t = app.game.current
    assert t is not None and app.view is not None
    well = app.layout.tile_well
    tile = app.view.art.tile(t.color, t.shape)
    mid = (tile.width // 2, tile.height // 2)
    z = app.layout.well_zoom
    assert z == (2 if name is ConfigName.TALL else 1)
    assert shot.getpixel((well.x + z * mid[0], well.y + z * mid[1])) == tile.getpixel(mid)[:3]  # type: ignore[index]
    device.shutdown()
