"""Property tests over random levels and boards, against slow, obviously correct checks."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from palmish.sigmar import Atom, Game, Take, solver
from palmish.sigmar.generator import STANDARD_COUNTS
from palmish.sigmar.rules import CARDINALS, METAL_ORDER

# Random small levels: hex digits with plenty of empty squares.
CELL = st.sampled_from("0123456789abcdef" + "  ..5")
LEVEL = st.lists(st.text(CELL, min_size=0, max_size=7), min_size=1, max_size=7).map(
    lambda rows: "\n".join(["Random", *rows, "e e"]) + "\n"
)


def slow_free(g: Game, r: int, c: int) -> bool:
    if g.atom_at(r, c) is None:
        return False
    around = [(r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)]
    return sum(g.atom_at(rr, cc) is None for rr, cc in around) >= 2


def slow_legal(g: Game) -> list[Take]:
    """Try every pair of cells against the rules as docs/sigmar-rules.md words them."""
    metals = {a for a in g.counts() if a in METAL_ORDER}
    current = None
    pointer = slow_pointer(g)
    for step in range(6):
        if METAL_ORDER[(pointer + step) % 6] in metals:
            current = METAL_ORDER[(pointer + step) % 6]
            break
    cells = [(r, c) for r in range(12) for c in range(12) if slow_free(g, r, c)]
    out = []
    for x, a in enumerate(cells):
        p = g.atom_at(*a)
        if p == Atom.GOLD and current == Atom.GOLD:
            out.append(Take(a, None))
        for b in cells[x + 1:]:
            q = g.atom_at(*b)
            kinds = {p, q}
            ok = (
                (p in CARDINALS and (q == p or q == Atom.SALT))
                or (q in CARDINALS and p == Atom.SALT)
                or kinds == {Atom.SALT}
                or kinds == {Atom.VITAE, Atom.MORS}
                or (current not in (None, Atom.GOLD) and kinds == {Atom.QUICKSILVER, current})
            )
            if ok:
                out.append(Take(a, b))
    return out


def slow_pointer(g: Game) -> int:
    pointer = 0
    for t in g.moves:
        for cell in (t.a, t.b):
            if cell is not None:
                atom = g.start_atom_at(*cell)
                if atom is not None and atom in METAL_ORDER:
                    pointer = (METAL_ORDER.index(atom) + 1) % 6
    return pointer


def snapshot(g: Game) -> tuple[object, ...]:
    return (g.occupancy, g.current_metal, g.legal_takes(), g.moves, g.won, g.stuck,
            g.remaining, g.counts(), g.record())


@pytest.mark.slow
@settings(max_examples=150, deadline=None)
@given(LEVEL, st.randoms(use_true_random=False))
def test_legal_takes_match_the_slow_rules_during_play(text: str, rng: random.Random) -> None:
    g = Game.from_level(text, level="p")
    while True:
        legal = g.legal_takes()
        assert legal == slow_legal(g)
        atoms = [(r, c) for r in range(12) for c in range(12) if g.atom_at(r, c) is not None]
        for x, a in enumerate(atoms):  # why_not() agrees with legal_takes() on every take
            assert (g.why_not(a) is None) == (Take(a, None) in legal)
            for b in atoms[x + 1:]:
                assert (g.why_not(a, b) is None) == (Take(a, b) in legal)
                assert (g.why_not(b, a) is None) == (Take(a, b) in legal)
        for r in range(13):
            for c in range(13):
                assert g.is_free(r, c) == slow_free(g, r, c)
        takes = g.legal_takes()
        if not takes:
            break
        g.take(*takes[rng.randrange(len(takes))])
    assert g.over


@settings(max_examples=60, deadline=None)
@given(st.one_of(LEVEL, st.integers(0, 2**31 - 1)), st.randoms(use_true_random=False))
def test_freedom_only_grows_and_undo_restores_exactly(
    source: str | int, rng: random.Random
) -> None:
    g = Game.new(seed=source) if isinstance(source, int) else Game.from_level(source)
    free_before = g.free_mask()
    history = []
    while g.legal_takes():
        history.append(snapshot(g))
        g.take(*g.legal_takes()[rng.randrange(len(g.legal_takes()))])
        free_now = g.free_mask()
        assert free_before & g.occupancy & ~free_now == 0  # nothing that stays got locked
        free_before = free_now
    while history:
        g.undo()
        assert snapshot(g) == history.pop()


@settings(max_examples=60, deadline=None)
@given(st.one_of(LEVEL, st.integers(0, 2**31 - 1)), st.randoms(use_true_random=False),
       st.integers(0, 30))
def test_record_round_trips(source: str | int, rng: random.Random, steps: int) -> None:
    g = Game.new(seed=source) if isinstance(source, int) else Game.from_level(source, level="x")
    for _ in range(steps):
        takes = g.legal_takes()
        if not takes:
            break
        g.take(*takes[rng.randrange(len(takes))])
    text = g.record()
    assert "\n" not in text
    again = Game.from_record(text)
    assert snapshot(again) == snapshot(g)
    assert (again.name, again.level, again.seed, again.rows, again.cols) == (
        g.name, g.level, g.seed, g.rows, g.cols)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**31 - 1))
def test_generated_boards_have_the_standard_55_and_a_solution(seed: int) -> None:
    g = Game.new(seed=seed)
    assert g.counts() == Counter(STANDARD_COUNTS)
    cells = {(r, c) for r in range(11) for c in range(11) if g.atom_at(r, c) is not None}
    assert {(10 - r, 10 - c) for r, c in cells} == cells
    assert g.atom_at(5, 5) == Atom.GOLD
    takes = solver.solve(g)
    assert takes is not None
    for t in takes:
        g.take(*t)
    assert g.won


@pytest.mark.slow
@settings(max_examples=80, deadline=None)
@given(LEVEL)
def test_solver_agrees_with_exhaustive_search_on_small_levels(text: str) -> None:
    g = Game.from_level(text)

    def any_win(game: Game) -> bool:
        if game.won:
            return True
        for t in game.legal_takes():
            game.take(*t)
            found = any_win(game)
            game.undo()
            if found:
                return True
        return False

    small = g.remaining <= 14
    answer = solver.solve(g)
    if answer is not None:
        for t in answer:
            g.take(*t)
        assert g.won
    elif small:
        assert not any_win(g)
