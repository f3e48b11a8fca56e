"""The solver: answers that replay, proofs of no solution, the budget, hints."""

from __future__ import annotations

import random

import pytest

from palmish.sigmar import Game, SearchBudget, Take, solver

CAUTION = "Caution\naa\ne e\n9ec\n 2e\n7a\n 7\n"


def replay(g: Game, takes: list[Take]) -> bool:
    copy = Game.from_record(g.record())
    for t in takes:
        copy.take(*t)
    return copy.won


def test_solution_replays_and_the_game_is_unchanged() -> None:
    g = Game.new(seed=3)
    g.take(*g.legal_takes()[0])
    before = (g.record(), g.occupancy, g.current_metal, g.legal_takes())
    takes = solver.solve(g)
    assert (g.record(), g.occupancy, g.current_metal, g.legal_takes()) == before
    assert takes is not None and replay(g, takes)


def test_won_game_gives_empty_list_and_no_solution_gives_none() -> None:
    g = Game.from_level("W\ne e\n")
    g.take((0, 0), (0, 2))
    assert solver.solve(g) == []
    assert solver.solve(Game.from_level("S\ne b\n")) is None  # stuck
    # Not stuck, but Salt parity already rules a win out.
    assert solver.solve(Game.from_level("P\ne e e\n")) is None
    # Counting is fine, but the only Vitae and Mors lock each other behind slag.
    locked = Game.from_level("L\n 7\n707\n7f7\n 7\n")
    assert not locked.stuck or solver.solve(locked) is None
    assert solver.solve(locked) is None


def test_budget_runs_out_with_search_budget() -> None:
    g = Game.new(seed=1)
    with pytest.raises(SearchBudget) as info:
        solver.solve(g, max_nodes=3)
    assert info.value.nodes == 3 and "\n" not in str(info.value)


def test_hint_is_the_first_take_of_a_solution() -> None:
    g = Game.from_level(CAUTION, level="7")
    h = solver.hint(g)
    assert h in g.legal_takes() and h != Take((1, 0), (1, 2))
    g.take((1, 0), (1, 2))  # the dead end
    assert solver.hint(g) is None


def test_positions_after_random_takes_are_decided_and_answers_replay() -> None:
    rng = random.Random(5)
    for seed in range(25):
        g = Game.new(seed=seed)
        for _ in range(rng.randrange(2, 18)):
            takes = g.legal_takes()
            if not takes:
                break
            g.take(*takes[rng.randrange(len(takes))])
        answer = solver.solve(g)
        if answer is None:
            # No solution: then no single take leads to one either.
            for t in g.legal_takes():
                g.take(*t)
                assert solver.solve(g) is None
                g.undo()
        else:
            assert replay(g, answer)


@pytest.mark.parametrize(("seed", "difficulty"), [(208, None), (390, None), (6, "hard")])
def test_boards_where_plain_depth_first_search_got_lost_are_solved(
    seed: int, difficulty: str | None
) -> None:
    # Found by differential checking: without restarts these fresh boards spent a
    # million positions (about a minute) in a dead subtree under an early wrong take.
    g = Game.new(seed=seed, difficulty=difficulty)
    answer = solver.solve(g, max_nodes=200_000)
    assert answer is not None and replay(g, answer)
