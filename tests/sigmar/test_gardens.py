"""One interface over both gardens: the geometries (cells, neighbours, the free test,
drawing positions, hit tests, reading order), the Garden functions an app calls, and
the layers (the engines import no device, frontend or pyglet)."""

from __future__ import annotations

import math
import random

import grimp
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from palmish.sigmar import garden
from palmish.sigmar.atoms import IllegalMove
from palmish.sigmar.game import Game
from palmish.sigmar.geometry import SquareGeometry
from palmish.sigmar.hexagonal.game import HexGame
from palmish.sigmar.hexagonal.geometry import HEXAGON, HexGeometry
from palmish.stepped import finish
from tests.sigmar import independent as square_ref
from tests.sigmar import independent_hex as hex_ref

GEOMETRIES = [HEXAGON, SquareGeometry(11, 11), SquareGeometry(7, 12)]


@pytest.mark.parametrize("geometry", GEOMETRIES, ids=lambda g: f"{g.name}{g.rows}x{g.cols}")
def test_cells_neighbours_and_names(geometry: HexGeometry | SquareGeometry) -> None:
    cells = geometry.cells()
    assert list(cells) == sorted(cells) and len(set(cells)) == len(cells)  # reading order
    for cell in cells:
        assert geometry.contains(cell)
        assert geometry.parse_cell(geometry.cell_name(cell)) == cell
        for n in geometry.neighbours(cell):
            if n is not None:  # neighbours are mutual
                assert cell in geometry.neighbours(n)
    sides = 6 if geometry.name == "hexagonal" else 4
    assert all(len(geometry.neighbours(c)) == sides for c in cells)


def test_the_hexagon_is_opus_magnums() -> None:
    assert len(HEXAGON.cells()) == 91 == len(hex_ref.CELLS)
    assert set(HEXAGON.cells()) == set(hex_ref.CELLS)
    assert [sum(1 for r, _ in HEXAGON.cells() if r == row) for row in range(11)] == \
        hex_ref.ROW_CELLS
    assert HEXAGON.cell_name((5, 5)) == "f6"
    for cell in HEXAGON.cells():  # the same ring as the reference's, turning the same way
        ours = list(HEXAGON.neighbours(cell))
        theirs = [n if n in hex_ref.ON_BOARD else None for n in hex_ref.ring(cell)]
        assert any(ours == theirs[k:] + theirs[:k] for k in range(6)), cell


@settings(max_examples=200, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_free_tests_agree_with_the_references(seed: int) -> None:
    rng = random.Random(seed)
    hex_cells = {c: "A" for c in hex_ref.CELLS if rng.random() < rng.random()}
    hex_game = hex_ref.RefHexGame(hex_cells)
    for cell in hex_cells:
        assert HEXAGON.is_free(cell, hex_cells.keys()) == hex_game.is_free(*cell)
    square = SquareGeometry(12, 12)
    sq_cells = {c: 3 for c in square.cells() if rng.random() < rng.random()}
    sq_game = square_ref.RefGame(sq_cells)
    for cell in sq_cells:
        assert square.is_free(cell, sq_cells.keys()) == sq_game.is_free(*cell)


@pytest.mark.parametrize("geometry", GEOMETRIES, ids=lambda g: f"{g.name}{g.rows}x{g.cols}")
def test_points_fall_in_the_cell_drawn_there(geometry: HexGeometry | SquareGeometry) -> None:
    width, height = geometry.size
    centres = {cell: geometry.centre(cell) for cell in geometry.cells()}
    for cell, (x, y) in centres.items():
        assert 0 < x < width and 0 < y < height
        assert geometry.cell_at(x, y) == cell
    rng = random.Random(1)
    for _ in range(3000):  # any point: the cell whose centre is nearest, or none off the board
        x, y = rng.uniform(-1, width + 1), rng.uniform(-1, height + 1)
        hit = geometry.cell_at(x, y)
        nearest = min(centres, key=lambda c: math.dist(centres[c], (x, y)))
        if hit is not None:
            assert math.dist(centres[hit], (x, y)) <= math.dist(centres[nearest], (x, y)) + 1e-9
        if geometry.name == "hexagonal":
            inside = math.dist(centres[nearest], (x, y)) < 0.5  # the hexagon's inner circle
            if inside:
                assert hit == nearest
            if hit is None:
                assert math.dist(centres[nearest], (x, y)) > 0.5 - 1e-9


def test_hexagons_touch_and_fit_the_field() -> None:
    (x0, y0), (x1, y1) = HEXAGON.centre((5, 5)), HEXAGON.centre((5, 6))
    assert math.isclose(math.dist((x0, y0), (x1, y1)), 1)
    assert math.isclose(math.dist(HEXAGON.centre((5, 5)), HEXAGON.centre((6, 5))), 1)
    assert HEXAGON.size[0] == 11 and 9.8 < HEXAGON.size[1] < 9.9


# ---------------------------------------------------------------- the Garden functions
@pytest.mark.parametrize("which", garden.GARDENS)
def test_either_garden_through_one_interface(which: str) -> None:
    game = garden.new_game(which, 42)
    assert garden.garden_of(game) == which and game.seed == 42
    assert isinstance(game, HexGame if which == garden.HEXAGONAL else Game)
    geometry = garden.geometry_of(game)
    assert geometry.name == which
    assert all(geometry.contains(c) for t in game.legal_takes() for c in t if c is not None)
    takes = finish(garden.solving(game, slice_nodes=5))
    assert takes is not None
    for t in takes[:3]:
        game.take(*t)
    again = garden.game_from_record(game.record())
    assert type(again) is type(game) and again.record() == game.record()
    assert garden.rating(which, 42) in ("easy", "normal", "hard")
    numbers = iter(range(1, 1000))
    assert finish(garden.dealing(which, None, lambda: next(numbers))) == 1
    assert garden.TITLES[which]


def test_the_gardens_have_numbers_of_their_own() -> None:
    square, hexagonal = garden.new_game("square", 9), garden.new_game("hexagonal", 9)
    assert square.record().startswith("sigmar 1 ") and hexagonal.record().startswith("sigmarhex 1 ")
    with pytest.raises(ValueError, match="garden"):
        garden.new_game("round", 1)
    with pytest.raises(IllegalMove):
        garden.game_from_record("sigmarhex 1 seed=x moves=")
    with pytest.raises(IllegalMove):
        garden.game_from_record("nonsense")


def test_locked_messages_follow_the_garden() -> None:
    hexagonal = HexGame.new(seed=1)
    locked = next(c for c in HEXAGON.cells() if hexagonal.atom_at(*c) and not hexagonal.is_free(*c))
    assert hexagonal.why_unselectable(locked).endswith(HEXAGON.locked_reason)  # type: ignore[union-attr]
    square = Game.new(seed=1)
    field = SquareGeometry(square.rows, square.cols)
    locked = next(c for c in field.cells() if square.atom_at(*c) and not square.is_free(*c))
    assert square.why_unselectable(locked).endswith(field.locked_reason)  # type: ignore[union-attr]


# ---------------------------------------------------------------- layers
ENGINE = ["palmish.sigmar.atoms", "palmish.sigmar.geometry", "palmish.sigmar.garden",
          "palmish.sigmar.hexagonal.rules", "palmish.sigmar.hexagonal.game",
          "palmish.sigmar.hexagonal.level", "palmish.sigmar.hexagonal.record",
          "palmish.sigmar.hexagonal.generator", "palmish.sigmar.hexagonal.solver"]


@pytest.fixture(scope="module")
def graph() -> grimp.ImportGraph:
    return grimp.build_graph("palmish", "prc_tools", include_external_packages=True)


@pytest.mark.parametrize("module", ENGINE)
def test_the_engines_are_pure(graph: grimp.ImportGraph, module: str) -> None:
    # The layer rule of docs/architecture.md for the new modules: no device, no
    # frontend, no pyglet, no app (the contracts' wildcards reach palmish.*.rules only).
    reached = graph.find_upstream_modules(module)
    for forbidden in ("palmish.device", "palmish.frontend", "pyglet", "palmish.sigmar.app",
                      "palmish.sigmar.view", "palmish.boardgame"):
        assert not {m for m in reached if m == forbidden or m.startswith(forbidden + ".")}, \
            (module, forbidden)
