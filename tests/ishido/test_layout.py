"""PalmIshido layout: the board, cells and panel in every display configuration."""

from __future__ import annotations

import pytest

from palmish.device.display import CONFIGS, ConfigName
from palmish.device.geometry import Rect
from palmish.ishido.layout import layout_for
from palmish.ishido.rules import COLS, ROWS

EXPECTED_BOARD = {
    ConfigName.SQUARE_LOW: Rect(0, 0, 144, 160),
    ConfigName.SQUARE: Rect(0, 0, 288, 320),
    ConfigName.TALL: Rect(16, 0, 288, 320),
    ConfigName.WIDE: Rect(0, 0, 408, 320),
}


@pytest.mark.parametrize("name", list(ConfigName))
def test_board_has_the_seed_cell_sizes(name: ConfigName) -> None:
    lay = layout_for(CONFIGS[name])
    assert lay.board == EXPECTED_BOARD[name]
    assert (lay.board.w // COLS, lay.board.h // ROWS) == (lay.cell_w, lay.cell_h)


@pytest.mark.parametrize("name", list(ConfigName))
def test_parts_stay_inside_the_app_area_and_off_the_board(name: ConfigName) -> None:
    config = CONFIGS[name]
    lay = layout_for(config)
    area = config.app_bounds
    parts = [lay.panel, lay.tile_well, lay.tiles_left, lay.ancient, lay.modern, *lay.fillers]
    parts += [r for r in (lay.deal, lay.scoring) if r is not None]
    for part in parts:
        assert area.intersect(part) == part, part
        assert lay.board.intersect(part) is None, part
    for part in [lay.tile_well, lay.tiles_left, lay.ancient, lay.modern]:
        assert lay.panel.intersect(part) == part
    # Board, panel and fillers cover the app area exactly once.
    covered = lay.board.w * lay.board.h + sum(r.w * r.h for r in [lay.panel, *lay.fillers])
    assert covered == area.w * area.h


def test_tall_panel_is_larger_and_below_the_board() -> None:
    tall = layout_for(CONFIGS[ConfigName.TALL])
    square = layout_for(CONFIGS[ConfigName.SQUARE])
    assert tall.panel.y == tall.board.bottom
    assert tall.panel.w * tall.panel.h > square.panel.w * square.panel.h
    assert tall.deal is not None and not tall.vertical_text
    assert tall.well_zoom == 2 and tall.tile_well.h == 80


@pytest.mark.parametrize("name", list(ConfigName))
def test_cell_at_inverts_cell_rect(name: ConfigName) -> None:
    lay = layout_for(CONFIGS[name])
    for row in range(ROWS):
        for col in range(COLS):
            r = lay.cell_rect(row, col)
            assert lay.cell_at(r.x, r.y) == (row, col)
            assert lay.cell_at(r.right - 1, r.bottom - 1) == (row, col)
    assert lay.cell_at(lay.board.right, lay.board.y) is None
    assert lay.cell_at(lay.board.x - 1, lay.board.y) is None
    assert lay.cell_at(lay.board.x, lay.board.bottom) is None


def test_cell_rect_rejects_cells_off_the_board() -> None:
    lay = layout_for(CONFIGS[ConfigName.SQUARE])
    with pytest.raises(ValueError):
        lay.cell_rect(8, 0)
    with pytest.raises(ValueError):
        lay.cell_rect(0, -1)


def test_too_small_an_area_is_refused() -> None:
    with pytest.raises(ValueError, match="cannot hold"):
        layout_for(CONFIGS[ConfigName.SQUARE], Rect(0, 0, 200, 200))
