"""The hexagonal garden's boards: the standard 55, gold in the centre, Opus Magnum's turns,
one board per Board Number everywhere, solvable by construction, and difficulty."""

from __future__ import annotations

import os
import subprocess
import sys
from collections import Counter

import pytest

from palmish.sigmar import generator as square_generator
from palmish.sigmar.atoms import Atom
from palmish.sigmar.generator import STANDARD_COUNTS
from palmish.sigmar.hexagonal import generator, solver
from palmish.sigmar.hexagonal.game import HexGame
from palmish.sigmar.hexagonal.rules import CELLS, CENTRE, STRIDE
from tests.sigmar import independent_hex as ref


def turned(cell: tuple[int, int], sixths: int) -> tuple[int, int]:
    """A cell turned round the centre, worked out from drawing positions (not the engine)."""
    import math

    x, y = ref.position(cell)
    cx, cy = ref.position(CENTRE)
    angle = sixths * math.pi / 3
    tx = cx + (x - cx) * math.cos(angle) - (y - cy) * math.sin(angle)
    ty = cy + (x - cx) * math.sin(angle) + (y - cy) * math.cos(angle)
    return next(c for c in ref.CELLS if math.dist(ref.position(c), (tx, ty)) < 1e-6)


@pytest.mark.parametrize("seed", range(1, 26))
def test_a_board_is_the_standard_55_turning_round_gold_and_solvable(seed: int) -> None:
    g = HexGame.new(seed=seed)
    assert (g.seed, g.level, g.name) == (seed, None, f"Random {seed}")
    assert g.counts() == Counter(STANDARD_COUNTS) and g.remaining == 55
    assert g.atom_at(*CENTRE) == Atom.GOLD and g.current_metal == Atom.LEAD
    occupied = {c for c in CELLS if g.atom_at(*c) is not None}
    assert {turned(c, 2) for c in occupied} == occupied  # a third of a turn, at least
    # A solution, played by the reference's rules, clears it in 28 takes.
    r = ref.RefHexGame({c: g.atom_at(*c).letter for c in occupied})  # type: ignore[union-attr]
    takes = solver.solve(g)
    assert takes is not None and len(takes) == 28
    for t in takes:
        r.take(t.a, t.b)
    assert r.won


def test_both_turns_of_the_original_occur() -> None:
    sixth = third_only = 0
    for seed in range(1, 61):
        g = HexGame.new(seed=seed)
        occupied = {c for c in CELLS if g.atom_at(*c) is not None}
        if {turned(c, 1) for c in occupied} == occupied:
            sixth += 1
        else:
            third_only += 1
    assert sixth >= 5 and third_only >= 20


def test_a_number_names_one_board_and_the_gardens_number_apart() -> None:
    assert generator.generate(123) == generator.generate(123)
    assert len({tuple(generator.generate(s).items()) for s in range(1, 21)}) == 20
    assert HexGame.new(seed=5).record() == "sigmarhex 1 seed=5 moves="
    assert square_generator.generate(5) != generator.generate(5)


def test_board_7_is_fixed_by_version_1() -> None:
    # Records depend on it: version 1 must keep making exactly this board.
    assert HexGame.new(seed=7).start_level().board_rows() == BOARD_7


BOARD_7 = [
    ".S.F..",
    "lqFq.iA",
    "E.WEES..",
    "...EAM..q",
    "q...WW...A",
    ".FFWqgMWMF.",
    "..cEsVEVWF",
    "SASV.AEV.",
    ".MA..W.F",
    "FW...E.",
    ".AA.t.",
]

BOARD_DUMP = (
    "import sys; from palmish.sigmar.hexagonal.game import HexGame\n"
    "for n in sys.argv[1:]:\n"
    "    print('/'.join(HexGame.new(seed=int(n)).start_level().board_rows()))\n"
)


@pytest.mark.process
def test_boards_are_the_same_in_every_process() -> None:
    numbers = ["1", "7", "99", "123456", "2147483647"]
    outputs = set()
    for hash_seed in ("1", "2", "3"):
        done = subprocess.run([sys.executable, "-c", BOARD_DUMP, *numbers], check=True,
                              capture_output=True, text=True,
                              env={**os.environ, "PYTHONHASHSEED": hash_seed})
        outputs.add(done.stdout)
    assert len(outputs) == 1
    assert outputs.pop().split() == ["/".join(HexGame.new(seed=int(n)).start_level()
                                              .board_rows()) for n in numbers]


def test_bad_numbers_are_refused() -> None:
    for bad in (-1, True, 1.5, "7"):
        with pytest.raises(ValueError):
            HexGame.new(seed=bad)  # type: ignore[arg-type]
    g = HexGame.new()
    assert g.seed is not None and 0 <= g.seed < 1 << 31


@pytest.mark.parametrize("difficulty", ["easy", "normal", "hard"])
def test_new_game_deals_numbers_of_the_difficulty(difficulty: str) -> None:
    numbers = iter(range(1, 10**6))
    seed = generator.deal(difficulty, lambda: next(numbers))
    assert generator.rating(seed) == difficulty
    assert generator.deal(None, lambda: 77) == 77
    with pytest.raises(ValueError, match="difficulty"):
        generator.deal("brutal", lambda: 1)


@pytest.mark.slow
def test_a_rating_is_a_property_of_the_number_and_bands_order_boards() -> None:
    import random

    ratings = {seed: generator.rating(seed) for seed in range(1, 60)}
    assert ratings == {seed: generator.rating(seed) for seed in ratings}
    assert set(ratings.values()) == {"easy", "normal", "hard"}
    for seed, rated in ratings.items():  # asking for a band answers the same
        for wanted in ("easy", "normal", "hard"):
            assert (generator.rating(seed, wanted) == wanted) == (rated == wanted)

    def rate(seed: int) -> float:
        g = HexGame.new(seed=seed)
        board = {r * STRIDE + c: a for r, c in CELLS if (a := g.atom_at(r, c)) is not None}
        return generator.clear_rate(board, random.Random(seed + 10**9), 200)

    easy = [rate(s) for s, r in ratings.items() if r == "easy"]
    hard = [rate(s) for s, r in ratings.items() if r == "hard"]
    assert min(easy) > max(hard)


# ---------------------------------------------------------------- off the frame path


def test_a_stepped_build_pauses_often_and_builds_the_same_board() -> None:
    import random

    for seed in (1, 101, 2313):  # 101 takes dozens of fills
        steps = generator.building(random.Random(seed))
        pauses = 0
        while True:
            try:
                next(steps)
            except StopIteration as done:
                board = done.value
                break
            pauses += 1
        assert board == generator.build(random.Random(seed))
        assert pauses >= 27 // generator.STEP_TAKES  # a pause every few of the 27 takes
    assert generator.STEP_TAKES < 27


@pytest.mark.parametrize("difficulty", [None, "hard"])
def test_the_board_of_a_number_dealt_is_kept_built(difficulty: str | None,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    import random

    draws = random.Random(4)
    seed = generator.deal(difficulty, lambda: draws.randint(1, 999_999))
    expected = generator.generate(seed)

    def no_build(rng: random.Random) -> dict[int, Atom]:
        raise AssertionError("built again on the frame path")

    monkeypatch.setattr(generator, "build", no_build)
    assert generator.generate(seed) == expected  # showing it builds nothing
    for n in range(generator.KEEP_DEALT + 5):  # and the kept boards stay few
        generator._keep(10**6 + n, {})
    assert len(generator._DEALT) == generator.KEEP_DEALT
