"""The hexagonal solver: answers that replay, proofs of no solution checked against the
reference's exhaustive search, the budget, slices, and every cut's soundness."""

from __future__ import annotations

import os
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from palmish.sigmar.atoms import Atom, Take
from palmish.sigmar.generator import STANDARD_COUNTS
from palmish.sigmar.hexagonal import solver
from palmish.sigmar.hexagonal.game import HexGame
from palmish.sigmar.hexagonal.level import bundled_levels
from palmish.sigmar.hexagonal.rules import CELLS, CENTRE, distance
from palmish.sigmar.solver import SearchBudget
from palmish.stepped import finish
from tests.sigmar import independent_hex as ref

SCALE = int(os.environ.get("SIGMAR_DIFF_SCALE", "1"))
BY_LETTER = {a.letter: a for a in Atom if a is not Atom.SLAG}


def replays(g: HexGame, takes: list[Take]) -> bool:
    """The takes, played on a copy by the reference's rules, clear the board."""
    r = ref.RefHexGame({cell: a.letter for cell in CELLS if (a := g.atom_at(*cell))})
    for t in takes:
        r.take(t.a, t.b)
    copy = HexGame.from_record(g.record())
    for t in takes:
        copy.take(t.a, t.b)
    return r.won and copy.won


def dense_deal(seed: int) -> HexGame:
    """The standard 55 dealt at random onto the 55 cells nearest the centre."""
    rng = random.Random(seed)
    atoms = [a for a, n in STANDARD_COUNTS.items() for _ in range(n)]
    rng.shuffle(atoms)
    cells = sorted(CELLS, key=lambda c: (distance(c, CENTRE), rng.random()))[:55]
    return HexGame(zip(cells, atoms, strict=True), name=f"Deal {seed}", level=f"deal{seed}")


def test_generated_boards_are_solved_in_28_takes() -> None:
    for seed in range(1, 31):
        g = HexGame.new(seed=seed)
        takes = solver.solve(g)
        assert takes is not None and len(takes) == 28 and replays(g, takes)


@pytest.mark.parametrize(("level_id", "level"), bundled_levels(), ids=lambda v: str(v)[:10])
def test_bundled_levels_are_solvable(level_id: str, level: object) -> None:
    g = HexGame.from_level(level, level=level_id)  # type: ignore[arg-type]
    takes = solver.solve(g)
    assert takes is not None and replays(g, takes)


def test_dense_deals_are_decided_and_answers_replay() -> None:
    solved = 0
    for seed in range(1, 41):
        g = dense_deal(seed)
        takes = solver.solve(g)
        if takes is not None:
            solved += 1
            assert replays(g, takes)
    assert 0 < solved < 40  # some deals have a solution, most have none


def test_the_game_is_unchanged_and_a_won_game_is_empty() -> None:
    g = HexGame.new(seed=3)
    g.take(*g.legal_takes()[0])
    before = (g.record(), g.occupancy, g.legal_takes())
    takes = solver.solve(g)
    assert (g.record(), g.occupancy, g.legal_takes()) == before
    assert takes is not None and replays(g, takes)
    for t in takes:
        g.take(*t)
    assert g.won and solver.solve(g) == [] and solver.hint(g) is None


def test_counting_refuses_at_once() -> None:
    # An odd Fire without Salt, a Vitae without Mors, a metal without quicksilver.
    for text in ("F", "FFF", "V", "l", "qq l"):
        cells = dict(zip(CELLS[::7], text.replace(" ", ""), strict=False))
        g = HexGame(((c, BY_LETTER[a]) for c, a in cells.items()), name="x", level="x")
        assert solver.solve_counted(g) == (None, 0)


def test_budget_and_hint() -> None:
    g = dense_deal(67)  # one of the deals with a solution, found after thousands of positions
    with pytest.raises(SearchBudget) as info:
        solver.solve(g, max_nodes=50)
    assert "\n" not in str(info.value)
    take = solver.hint(g)
    assert take is not None and take in g.legal_takes()
    g.take(*take)
    assert solver.solve(g) is not None  # the hint keeps the board solvable


def test_slices_pause_and_give_the_same_answer() -> None:
    g = dense_deal(34)  # no solution: proved after thousands of positions
    solver._memo = None
    steps = solver.solving(g, max_nodes=1_000_000, slice_nodes=100)
    pauses = 0
    try:
        while True:
            next(steps)
            pauses += 1
    except StopIteration as done:
        assert done.value is None
    solver._memo = None
    _answer, nodes = solver.solve_counted(g)
    assert pauses > 10 and abs(pauses - nodes // 100) <= 10  # about one pause per 100


def test_the_metal_chain_proves_what_the_reference_proves() -> None:
    # The quicksilver copper needs sits between copper and gold, which both stay
    # until copper goes: whatever is done with the Fire round it, it is never free in time.
    text = """Shut in
     . . . . . .
    . . . l . . .
   . . . . . . . .
  . . . c F . . . .
 . . . F q F . . . .
. . . . F g . . . . .
 . . . . . . . . . .
  . . . . . . . . .
   . . . . . . . .
    . . q . . . .
     . . . . . .
"""
    g = HexGame.from_level(text)
    assert solver.chain_dead(g.kinds, g.occupancy)
    _name, cells = ref.parse_level(text)
    assert ref.solutions_exist(ref.RefHexGame(cells)) is False
    assert solver.solve(g) is None


# ---------------------------------------------------------------- against exhaustive search
@st.composite
def small_boards(draw: st.DrawFn) -> dict[ref.Cell, str]:
    """Small boards near the centre, made mostly of reacting pairs, so many have solutions."""
    pairs = ["AA", "FF", "WW", "EE", "AS", "FS", "SS", "VM", "VM"]
    pieces = "".join(draw(st.lists(st.sampled_from(pairs), min_size=1, max_size=6)))
    metals = draw(st.sampled_from(["", "g", "lqg", "lq", "ltqq", "ltqqg", "tq"]))
    pieces += metals + draw(st.sampled_from(["", "", "F", "q", "V"]))
    near = [c for c in CELLS if distance(c, CENTRE) <= draw(st.integers(1, 3))]
    cells = draw(st.permutations(near))[:len(pieces)]
    return dict(zip(cells, pieces, strict=False))


@settings(max_examples=120 * SCALE, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(cells=small_boards(), play_seed=st.integers(0, 2**32))
def test_the_solver_agrees_with_exhaustive_search(cells: dict[ref.Cell, str],
                                                  play_seed: int) -> None:
    g = HexGame(((c, BY_LETTER[a]) for c, a in cells.items()), name="Small", level="small")
    r = ref.RefHexGame(cells)
    rng = random.Random(play_seed)
    for _ in range(rng.randrange(3)):
        legal = r.legal_takes()
        if not legal:
            break
        move = rng.choice(legal)
        g.take(*move)
        r.take(*move)
    truth = ref.solutions_exist(r)
    answer = solver.solve(g)
    if truth is not None:
        assert (answer is not None) == truth, cells
    if answer is not None:
        assert replays(g, answer)
    assert solver.chain_dead(g.kinds, g.occupancy) <= (truth is False)
    for budget in (1, 3, 10):  # under a tiny budget: an answer or SearchBudget, never a false no
        try:
            small = solver.solve(g, max_nodes=budget)
        except SearchBudget:
            continue
        assert (small is not None) == (truth is not False) or truth is None


@pytest.mark.slow
@settings(max_examples=40 * SCALE, deadline=None)
@given(seed=st.integers(0, 2**31 - 1), left=st.integers(10, 18), play_seed=st.integers(0, 2**32))
def test_late_positions_of_boards_agree_with_exhaustive_search(seed: int, left: int,
                                                             play_seed: int) -> None:
    g = HexGame.new(seed=seed)
    rng = random.Random(play_seed)
    for t in solver.solve(g) or []:  # follow a solution most of the way, then wander
        if g.remaining <= left + 6:
            break
        g.take(t.a, t.b)
    while g.remaining > left and g.legal_takes():
        g.take(*rng.choice(g.legal_takes()))
    r = ref.RefHexGame({cell: a.letter for cell in CELLS if (a := g.atom_at(*cell))})
    truth = ref.solutions_exist(r, limit=50_000)
    answer = solver.solve(g)
    if truth is not None:
        assert (answer is not None) == truth, g.record()
    if answer is not None:
        assert replays(g, answer)


@pytest.mark.slow
def test_hard_board_numbers_are_all_solved() -> None:
    from palmish.sigmar.hexagonal import generator

    numbers = random.Random(43)
    for _ in range(40):
        g = HexGame.new(seed=generator.deal("hard", lambda: numbers.randint(1, 999_999)))
        takes = finish(solver.solving(g, max_nodes=200_000))
        assert takes is not None and replays(g, takes)
