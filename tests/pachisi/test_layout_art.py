"""Pachisi's geometry per configuration and its plain pictures (no plugin needed)."""

from __future__ import annotations

import pytest

from palmish.device.display import CONFIGS, ConfigName
from palmish.pachisi import Game, Player
from palmish.pachisi.art import load_art
from palmish.pachisi.layout import CORNER, layout_for
from palmish.pachisi.pictures import draw_board, small_triangle, start_directions, track_squares
from palmish.pachisi.rules import FACES, GRID, SAFE_SQUARES, START_SQUARE, TRACK
from palmish.pachisi.view import cowries_up, throws_line

STARTS = [xy for xy in START_SQUARE if xy is not None]
EXPECTED = {
    # config: (cell, board rect, panel below/beside or None)
    # the board centred where no panel takes the room (it sat at the top left)
    ConfigName.SQUARE_LOW: (8, (4, 4, 152, 152), None),
    ConfigName.SQUARE: (16, (8, 8, 304, 304), None),
    ConfigName.TALL: (16, (8, 0, 304, 304), (0, 304, 320, 156)),
    ConfigName.WIDE: (16, (0, 8, 304, 304), (304, 0, 156, 320)),
}


@pytest.mark.parametrize("name", list(ConfigName), ids=lambda n: n.value)
def test_the_board_and_the_panel_per_configuration(name: ConfigName) -> None:
    lay = layout_for(CONFIGS[name])
    cell, board, panel = EXPECTED[name]
    assert lay.cell == cell
    assert (lay.board.x, lay.board.y, lay.board.w, lay.board.h) == board
    if panel is None:
        assert lay.panel is None
    else:
        assert lay.panel is not None
        r = lay.panel.rect
        assert (r.x, r.y, r.w, r.h) == panel
        for part in (lay.panel.text, lay.panel.throw_button, lay.panel.pass_button):
            assert part.intersect(r) == part
        assert lay.panel.throw_button.intersect(lay.panel.pass_button) is None


@pytest.mark.parametrize("name", list(ConfigName), ids=lambda n: n.value)
def test_corners_hold_the_names_pieces_and_die_off_the_track(name: ConfigName) -> None:
    lay = layout_for(CONFIGS[name])
    track = [lay.square_rect(xy) for xy in track_squares()]
    for seat in range(4):
        corner = lay.corner(seat)
        assert corner.w == corner.h == CORNER * lay.cell
        parts = [lay.name_rect(seat), lay.die_rect(seat), lay.value_rect(seat),
                 *(lay.waiting_slot(seat, i) for i in range(4)),
                 *(lay.finished_slot(seat, i) for i in range(4))]
        for part in parts:
            assert corner.intersect(part) == part
            assert all(part.intersect(t) is None for t in track)
        # The seat's start square touches its corner (clockwise from the corner).
        start = lay.square_rect(STARTS[seat])
        grown = type(start)(start.x - 1, start.y - 1, start.w + 2, start.h + 2)
        assert grown.intersect(corner) is not None


def test_square_at_inverts_square_rect() -> None:
    lay = layout_for(CONFIGS[ConfigName.WIDE])
    for xy in ((0, 8), (9, 9), (18, 10)):
        r = lay.square_rect(xy)
        assert lay.square_at(r.x, r.y) == xy and lay.square_at(r.right - 1, r.bottom - 1) == xy
    assert lay.square_at(lay.board.right, 0) is None


def test_start_triangles_point_clockwise() -> None:
    dirs = dict(start_directions())
    assert dirs[STARTS[0]] == (0, -1)  # South goes up its arm, then west
    assert dirs[STARTS[1]] == (1, 0)
    assert dirs[STARTS[2]] == (0, 1)
    assert dirs[STARTS[3]] == (-1, 0)


def test_the_plain_board_colours_safe_squares_and_home_stretches() -> None:
    img = draw_board(8)
    assert img.size == (GRID * 8, GRID * 8)
    stretches = {xy for t in TRACK for xy in t[69:76] if xy is not None}
    safe = {xy for xy in SAFE_SQUARES if xy is not None} | stretches
    plain = track_squares() - safe - set(STARTS)

    def colour(xy: tuple[int, int]) -> object:
        return img.getpixel((xy[0] * 8 + 4, xy[1] * 8 + 4))

    greens = {colour(xy) for xy in safe}
    plains = {colour(xy) for xy in plain}
    assert len(greens) == 1 and len(plains) == 1 and greens != plains


def test_plain_art_without_plugins_has_every_picture() -> None:
    lay = layout_for(CONFIGS[ConfigName.SQUARE_LOW])
    art = load_art(lay, None, None)
    assert art.notes == []
    assert art.board.size == (lay.board.w, lay.board.h)
    assert set(art.dice) == set(FACES)
    assert all(img.size == (8, 8) for img in art.pieces.values())
    assert art.small_piece("pawn", "red").size == (4, 4)


def test_cowries_and_the_throws_line() -> None:
    assert [cowries_up(v) for v in (25, 10, 2, 3, 4, 5, 6)] == [0, 1, 2, 3, 4, 5, 6]
    game = Game.from_position((Player("Ann"), Player("Bob")), [[0] * 4, [0] * 4],
                              throws=[10, 3], first_turn=True)
    assert throws_line(game) == "-"
    game.throw()
    game.move(game.legal_moves()[0])
    game.throw()
    assert throws_line(game) == "10 3"


def test_small_start_triangles_are_arrowheads_not_pins() -> None:
    # At 8 px a polygon left a one-pixel spike two rows long under a 5-pixel head: a pin.
    for _, (dx, dy) in start_directions():
        boxes = small_triangle(0, 0, 8, dx, dy)
        spans = [(b[2] - b[0] if dx == 0 else b[3] - b[1]) + 1 for b in boxes]
        assert spans == [6, 4, 2]
        for x0, y0, x1, y1 in boxes:  # inside the square's line
            assert min(x0, y0) >= 1 and max(x1, y1) <= 6
