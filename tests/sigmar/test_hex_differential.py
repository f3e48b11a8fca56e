"""Differential play: the hexagonal engine against tests/sigmar/independent_hex.py.

At every step of random play (takes, undo, Try Again, illegal attempts) the
engine and the reference must agree on every cell's atom and freedom (cells
off the hexagon and a margin round the field included), the current metal,
the legal takes, the atoms left, won/stuck and the moves; an illegal take must
raise IllegalMove (one line) and change nothing; records round-trip.
"""

from __future__ import annotations

import os
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from palmish.sigmar.atoms import Atom, IllegalMove
from palmish.sigmar.hexagonal.game import HexGame
from palmish.sigmar.hexagonal.level import bundled_levels
from tests.sigmar import independent_hex as ref

SCALE = int(os.environ.get("SIGMAR_DIFF_SCALE", "1"))
FEW = settings(max_examples=20 * SCALE, deadline=None,
               suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
COUNTED = {"positions": 0}


def cells_of(g: HexGame) -> dict[ref.Cell, str]:
    return {(r, c): a.letter for r, c in ref.CELLS if (a := g.atom_at(r, c)) is not None}


def snapshot(g: HexGame) -> tuple[object, ...]:
    return (tuple(g.atom_at(r, c) for r, c in ref.CELLS), g.current_metal, g.remaining,
            g.won, g.stuck, tuple(g.moves), tuple(g.legal_takes()))


def compare(g: HexGame, r: ref.RefHexGame) -> None:
    COUNTED["positions"] += 1
    for cell in ref.around():
        atom = g.atom_at(*cell)
        assert (None if atom is None else atom.letter) == r.atom(*cell), cell
        assert g.is_free(*cell) == r.is_free(*cell), cell
    current = g.current_metal
    assert (None if current is None else current.letter) == r.current_metal()
    legal = r.legal_takes()
    assert [(t.a, t.b) for t in g.legal_takes()] == legal
    assert g.remaining == r.remaining
    assert (g.won, g.stuck, g.over) == (r.won, r.stuck, r.won or r.stuck)
    assert [(t.a, t.b) for t in g.moves] == r.moves
    selectable = {cell for move in legal for cell in move if cell is not None}
    for cell in r.cells:
        assert g.is_selectable(*cell) == (cell in selectable), cell
        assert (g.why_unselectable(cell) is None) == (cell in selectable), cell


def try_illegal(g: HexGame, r: ref.RefHexGame, rng: random.Random) -> None:
    """A random take; when the reference refuses it the engine must too, changing nothing."""
    cells = list(r.cells) or [(5, 5)]

    def pick() -> ref.Cell:
        return rng.choice(cells) if rng.random() < 0.8 else (rng.randrange(-1, 12),
                                                            rng.randrange(-1, 12))

    a = pick()
    b = None if rng.random() < 0.25 else pick()
    try:
        r.check(a, b)
    except ref.RefIllegal:
        before = snapshot(g)
        assert g.why_not(a, b) is not None
        with pytest.raises(IllegalMove) as info:
            g.take(a, b)
        assert "\n" not in str(info.value) and str(info.value)
        assert snapshot(g) == before
        return
    assert g.why_not(a, b) is None
    done = g.take(a, b)
    assert (done.a, done.b) == r.take(a, b)


def play(g: HexGame, r: ref.RefHexGame, rng: random.Random, steps: int = 60,
         record_every: int = 1) -> None:
    for step in range(steps):
        compare(g, r)
        if step % record_every == 0:
            twin = HexGame.from_record(g.record())
            assert snapshot(twin) == snapshot(g) and twin.record() == g.record()
        roll = rng.random()
        if roll < 0.25:
            try_illegal(g, r, rng)
        elif roll < 0.35 and r.moves:
            assert g.undo() == tuple(r.moves[-1])
            r.undo()
        elif roll < 0.37:
            g.restart()
            r.restart()
        else:
            legal = r.legal_takes()
            if not legal:
                if r.moves and rng.random() < 0.5:
                    g.undo()
                    r.undo()
                    continue
                break
            a, b = rng.choice(legal)
            if b is not None and rng.random() < 0.5:
                a, b = b, a  # the cell order of a pair must not matter
            done = g.take(a, b)
            assert (done.a, done.b) == r.take(a, b)
    compare(g, r)


# ---------------------------------------------------------------- random boards
@FEW
@given(seed=st.integers(0, 2**31 - 1), play_seed=st.integers(0, 2**32))
def test_board_numbers_play_as_the_reference(seed: int, play_seed: int) -> None:
    g = HexGame.new(seed=seed)
    play(g, ref.RefHexGame(cells_of(g)), random.Random(play_seed), record_every=10)


def test_thousands_of_positions_reached_in_play_agree() -> None:
    # Deterministic, so the count is sure: 40 boards played to their end, often twice.
    before = COUNTED["positions"]
    for seed in range(1, 41):
        g = HexGame.new(seed=seed)
        play(g, ref.RefHexGame(cells_of(g)), random.Random(seed), steps=70, record_every=35)
    assert COUNTED["positions"] - before >= 2000


@pytest.mark.slow
@settings(max_examples=200 * SCALE, deadline=None)
@given(seed=st.integers(0, 2**31 - 1), play_seed=st.integers(0, 2**32))
def test_many_more_board_numbers_play_as_the_reference(seed: int, play_seed: int) -> None:
    g = HexGame.new(seed=seed)
    play(g, ref.RefHexGame(cells_of(g)), random.Random(play_seed), steps=90, record_every=30)


# ---------------------------------------------------------------- any board
LETTERS = "AFWESVMq"
METALS = "ltics" + "g"


@st.composite
def boards(draw: st.DrawFn) -> dict[ref.Cell, str]:
    """Any board the hexagonal garden may hold: atoms anywhere, any counts, a metal once."""
    cells = draw(st.lists(st.sampled_from(ref.CELLS), min_size=1, max_size=91, unique=True))
    metals = draw(st.lists(st.sampled_from(METALS), unique=True, max_size=min(6, len(cells))))
    atoms = metals + [draw(st.sampled_from(LETTERS)) for _ in cells[len(metals):]]
    return dict(zip(cells, atoms, strict=False))


def game_of(cells: dict[ref.Cell, str]) -> HexGame:
    by_letter = {a.letter: a for a in Atom if a is not Atom.SLAG}
    return HexGame(((cell, by_letter[a]) for cell, a in cells.items()), name="Any", level="any")


@FEW
@given(cells=boards(), play_seed=st.integers(0, 2**32))
def test_any_board_plays_as_the_reference(cells: dict[ref.Cell, str], play_seed: int) -> None:
    g = game_of(cells)
    play(g, ref.RefHexGame(cells), random.Random(play_seed), steps=40, record_every=8)


@pytest.mark.parametrize(("level_id", "level"), bundled_levels(), ids=lambda v: str(v)[:8])
def test_bundled_levels_play_as_the_reference(level_id: str, level: object) -> None:
    g = HexGame.from_level(level.text(), level=level_id)  # type: ignore[attr-defined]
    _name, cells = ref.parse_level(level.text())  # type: ignore[attr-defined]
    play(g, ref.RefHexGame(cells), random.Random(int(level_id)), steps=60, record_every=20)
