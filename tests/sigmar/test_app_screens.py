"""Screenshots of Sigmar's Garden in every display configuration: square cells of 13 or
26 px, the board centred in its 11x11 field, every cell drawn from the plugins' bitmaps,
the panel inside the app area, and `palmish --screenshot --app sigmar` itself."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from PIL import Image

from palmish.cli import main
from palmish.device.display import CONFIGS, ConfigName
from palmish.device.machine.system import Device
from palmish.sigmar import Atom
from palmish.sigmar.app import SigmarApp
from tests.sigmar.conftest import PLUGINS


def expected_cell(app: SigmarApp, row: int, col: int) -> Image.Image:
    """The cell as the plugins say: the socket, then the atom (dimmed when locked or a
    metal not yet current)."""
    assert app.view is not None and app.layout is not None
    art, game = app.view.art, app.game
    assert art.socket is not None
    picture = art.socket.convert("RGBA")
    atom = game.atom_at(row, col)
    if atom is not None:
        locked = atom != Atom.SLAG and (not game.is_free(row, col)
                                        or (atom.is_metal and atom != game.current_metal))
        picture.alpha_composite(art.atom(atom, locked=locked))
    return picture.convert("RGB")


@pytest.mark.parametrize("name", list(ConfigName), ids=lambda n: n.value)
def test_cells_are_where_the_layout_says(name: ConfigName, tmp_path: Path,
                                          sigmar_plugins: Path) -> None:
    shutil.copytree(sigmar_plugins, tmp_path / "cache")
    app = SigmarApp()
    app.request_board("8")  # Diamond: 9x9, locked and free atoms
    device = Device(CONFIGS[name], tmp_path, [app], start_app="sigmar",
                    bundled_plugins=PLUGINS, durable=False, alerts=False)
    assert device.messages == []  # the bundled art is complete
    lay, view = app.layout, app.view
    assert lay is not None and view is not None
    shot = device.screen.image
    cell = 13 if name is ConfigName.SQUARE_LOW else 26
    assert lay.cell == cell
    assert (lay.field.w, lay.field.h) == (11 * cell, 11 * cell)
    for part in (lay.field, lay.panel, *lay.fillers):
        assert lay.bounds.intersect(part) == part
    # The 9x9 board sits one cell in from every side of its field.
    assert (lay.grid.x - lay.field.x, lay.grid.y - lay.field.y) == (cell, cell)
    assert lay.panel.intersect(lay.field) is None
    for row in range(app.game.rows):
        for col in range(app.game.cols):
            if app.game.start_atom_at(row, col) is None:
                continue
            got = shot.crop(lay.cell_rect(row, col).box())
            assert got.tobytes() == expected_cell(app, row, col).tobytes(), (name, row, col)
    if name is ConfigName.TALL:
        assert lay.stacked and lay.panel.y == lay.field.bottom
    elif name is ConfigName.WIDE:
        assert not lay.stacked and not lay.compact and lay.panel.x == lay.field.right
    else:
        assert lay.compact and lay.line is not None and lay.line.y == lay.field.bottom
    device.shutdown()


def test_a_twelve_column_level_gets_a_twelve_cell_field(tmp_path: Path,
                                                        sigmar_plugins: Path) -> None:
    shutil.copytree(sigmar_plugins, tmp_path / "cache")
    app = SigmarApp()
    app.request_board("12")  # Grand Garden: 7x12
    device = Device(CONFIGS[ConfigName.SQUARE_LOW], tmp_path, [app], start_app="sigmar",
                    bundled_plugins=PLUGINS, durable=False, alerts=False)
    lay = app.layout
    assert lay is not None
    assert (lay.field.w, lay.field.h) == (12 * 13, 11 * 13)
    assert lay.grid.x == lay.field.x and (lay.bounds.intersect(lay.grid.rect) == lay.grid.rect)
    device.shutdown()


def test_dimming_can_be_turned_off(tmp_path: Path, sigmar_plugins: Path) -> None:
    shutil.copytree(sigmar_plugins, tmp_path / "cache")
    app = SigmarApp()
    app.request_board("7")
    device = Device(CONFIGS[ConfigName.SQUARE], tmp_path, [app], start_app="sigmar",
                    bundled_plugins=PLUGINS, durable=False, alerts=False)
    assert app.layout is not None and app.view is not None
    locked = app.layout.cell_rect(2, 1)  # Caution's boxed-in Fire
    dim = device.screen.image.crop(locked.box()).tobytes()
    app.prefs["dim_locked"] = False
    app.lay_out()
    bright = device.screen.image.crop(locked.box())
    assert bright.tobytes() != dim
    want = app.view.art.socket.convert("RGBA")  # type: ignore[union-attr]
    want.alpha_composite(app.view.art.atom(Atom.FIRE))
    assert bright.tobytes() == want.convert("RGB").tobytes()
    device.shutdown()


@pytest.mark.parametrize("config", ["square-low", "square", "tall", "wide"])
def test_palmish_screenshot_of_sigmar(config: str, tmp_path: Path) -> None:
    out = tmp_path / f"{config}.png"
    assert main(["--screenshot", str(out), "--app", "sigmar", "--config", config,
                 "--board", "Caution", "--data-dir", str(tmp_path / "data")]) == 0
    size = CONFIGS[ConfigName(config)]
    image = Image.open(out)
    assert image.size == (size.width, size.height)
    assert len(image.convert("RGB").getcolors(1 << 16) or []) > 20  # atoms, board, panel
