"""Differential play: the engine against tests/sigmar/independent.py (docs/sigmar-rules.md).

Every step of random play compares legal_takes, is_free on every cell (and a
margin around the field, negative cells included), the current metal,
remaining, won/stuck/over and moves; illegal takes must raise IllegalMove
(one line) and change nothing; records round-trip at every step.
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from palmish.device.disk.resources import bundled_plugins
from palmish.sigmar import (
    Atom,
    Game,
    IllegalMove,
    LevelError,
    SearchBudget,
    parse_level,
    read_level,
    solver,
)
from tests.sigmar import independent as ref

LEVELS = sorted(bundled_plugins().folder("sigmar-levels").glob("*.dat"))
# SIGMAR_DIFF_SCALE=20 multiplies every example count, for a deep run by hand.
SCALE = int(os.environ.get("SIGMAR_DIFF_SCALE", "1"))
FEW = settings(max_examples=25 * SCALE, deadline=None,
               suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def snapshot(g: Game) -> tuple[object, ...]:
    """Everything observable about a game, for "nothing changed" checks."""
    atoms = tuple(g.atom_at(r, c) for r in range(12) for c in range(12))
    return (atoms, g.current_metal, g.remaining, g.won, g.stuck, tuple(g.moves),
            tuple(g.legal_takes()))


def as_moves(takes: list[object]) -> list[ref.Move]:
    return [(t.a, t.b) for t in takes]  # type: ignore[attr-defined]


def compare(g: Game, r: ref.RefGame) -> None:
    for row in range(12):
        for col in range(12):
            atom = g.atom_at(row, col)
            assert (None if atom is None else int(atom)) == r.atom(row, col), (row, col)
    for cell in ref.all_cells():
        assert g.is_free(*cell) == r.is_free(*cell), cell
    current = g.current_metal
    assert (None if current is None else int(current)) == r.current_metal()
    assert as_moves(g.legal_takes()) == r.legal_takes()
    assert g.remaining == r.remaining
    assert (g.won, g.stuck, g.over) == (r.won, r.stuck, r.won or r.stuck)
    assert as_moves(g.moves) == r.moves


def same_game(a: Game, b: Game) -> None:
    assert (a.name, a.rows, a.cols, a.seed, a.level) == (b.name, b.rows, b.cols, b.seed, b.level)
    assert snapshot(a) == snapshot(b)


def try_illegal(g: Game, r: ref.RefGame, rng: random.Random) -> None:
    """Attempt a random take; when the reference refuses it, the engine must too."""
    cells = list(r.cells) or [(0, 0)]
    pick = lambda: rng.choice(cells) if rng.random() < 0.8 else (  # noqa: E731
        rng.randrange(-1, 13), rng.randrange(-1, 13))
    a = pick()
    b = None if rng.random() < 0.25 else pick()
    try:
        r.check(a, b)
    except ref.RefIllegal:
        before = snapshot(g)
        with pytest.raises(IllegalMove) as info:
            g.take(a, b)
        assert "\n" not in str(info.value) and str(info.value)
        assert snapshot(g) == before
        return
    # A legal take found by chance: both must accept it, in either cell order.
    assert g.take(a, b) is not None
    r.take(a, b)


def play(g: Game, r: ref.RefGame, rng: random.Random, steps: int = 80,
         record_every: int = 1) -> None:
    """Random play with undo, restart and illegal attempts, comparing at every step.

    Records round-trip every `record_every` steps (a random board's replay
    regenerates the board, which is what makes it slow).
    """
    for step in range(steps):
        compare(g, r)
        if step % record_every == 0:
            same_game(Game.from_record(g.record()), g)
        roll = rng.random()
        if roll < 0.3:
            try_illegal(g, r, rng)
        elif roll < 0.4 and r.moves:
            g.undo()
            r.undo()
        elif roll < 0.42:
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
    same_game(Game.from_record(g.record()), g)


def from_text(text: str) -> tuple[Game, ref.RefGame]:
    name, cells, rows, cols = ref.parse_dat(text)
    g = Game.from_level(text, level="x")
    assert (g.rows, g.cols) == (rows, cols)
    if "\r" not in name:
        assert g.name == name
    return g, ref.RefGame(cells)


# ---------------------------------------------------------------- bundled levels
@pytest.mark.parametrize("path", LEVELS, ids=lambda p: p.name)
@settings(max_examples=8 * SCALE, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_bundled_levels_play_as_the_reference(path: Path, seed: int) -> None:
    g, r = from_text(path.read_text())
    play(g, r, random.Random(seed))


# ---------------------------------------------------------------- random boards
@pytest.mark.slow
@FEW
@given(seed=st.integers(0, 2**31 - 1),
       difficulty=st.sampled_from([None, None, "easy", "normal", "hard"]),
       play_seed=st.integers(0, 2**32))
def test_random_boards_play_as_the_reference(seed: int, difficulty: str | None,
                                             play_seed: int) -> None:
    g = Game.new(seed=seed, difficulty=difficulty)
    cells = {(row, col): int(a) for row in range(11) for col in range(11)
             if (a := g.atom_at(row, col)) is not None}
    play(g, ref.RefGame(cells), random.Random(play_seed), steps=40, record_every=8)


# ---------------------------------------------------------------- hand-made texts
SQUARE = st.sampled_from(
    list("0123456789abcdef") * 3 + list("  .5ABCDEF\tx7") + ["\u0663", "\uff11"])
ROW = st.text(SQUARE, max_size=14)  # past 12 columns: refused
NAME = st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\n\r"),
               max_size=10)


@st.composite
def dat_texts(draw: st.DrawFn) -> str:
    rows = draw(st.lists(ROW, min_size=1, max_size=14))
    text = "\n".join([draw(NAME), *rows])
    return text + draw(st.sampled_from(["", "\n", "\n\n"]))


@FEW
@given(text=dat_texts(), play_seed=st.integers(0, 2**32))
def test_hand_made_levels_play_as_the_reference(text: str, play_seed: int) -> None:
    try:
        ref.parse_dat(text)
    except ref.RefLevelError:
        with pytest.raises(LevelError):
            Game.from_level(text, level="x")
        return
    g, r = from_text(text)
    play(g, r, random.Random(play_seed))


@settings(max_examples=60 * SCALE, deadline=None)
@given(text=dat_texts())
def test_hand_made_levels_parse_as_the_reference(text: str) -> None:
    try:
        _name, cells, rows, cols = ref.parse_dat(text)
    except ref.RefLevelError:
        with pytest.raises(LevelError) as info:
            parse_level(text, "mine.dat")
        assert "\n" not in str(info.value) and "mine.dat" in str(info.value)
        return
    g = Game.from_level(text)
    assert (g.rows, g.cols) == (rows, cols)
    assert {(row, col): int(a) for row in range(12) for col in range(12)
            if (a := g.atom_at(row, col)) is not None} == cells




@FEW
@given(rows=st.lists(st.text(st.sampled_from("2c9164a  a7"), max_size=6), min_size=1, max_size=6),
       play_seed=st.integers(0, 2**32))
def test_metal_pointer_plays_as_the_reference(rows: list[str], play_seed: int) -> None:
    text = "\n".join(["Metals", *rows]) + "\n"
    try:
        ref.parse_dat(text)
    except ref.RefLevelError:
        return
    g, r = from_text(text)
    play(g, r, random.Random(play_seed))


# ---------------------------------------------------------------- generator
STANDARD = Counter({"3": 8, "e": 8, "b": 8, "d": 8, "8": 4, "0": 4, "f": 4, "a": 5,
                    "2": 1, "c": 1, "9": 1, "1": 1, "6": 1, "4": 1})


@pytest.mark.slow
@settings(max_examples=40 * SCALE, deadline=None)
@given(seed=st.integers(0, 2**31 - 1), difficulty=st.sampled_from([None, "easy", "normal", "hard"]))
def test_generated_boards_are_standard_symmetric_deterministic_solvable(
        seed: int, difficulty: str | None) -> None:
    g = Game.new(seed=seed, difficulty=difficulty)
    assert (g.rows, g.cols, g.seed, g.level) == (11, 11, seed, None)
    cells = {(row, col): int(a) for row in range(12) for col in range(12)
             if (a := g.atom_at(row, col)) is not None}
    assert all(row < 11 and col < 11 for row, col in cells)
    assert Counter(format(kind, "x") for kind in cells.values()) == STANDARD
    assert cells[(5, 5)] == ref.GOLD
    assert all((10 - row, 10 - col) in cells for row, col in cells)
    again = Game.new(seed=seed, difficulty=difficulty)
    assert snapshot(again) == snapshot(g)
    answer = solver.solve(g, max_nodes=1_000_000)
    assert answer is not None
    replay_wins(g, answer)


BOARD_DUMP = (
    "import sys; from palmish.sigmar import Game\n"
    "for spec in sys.argv[1:]:\n"
    "    seed, _, difficulty = spec.partition(':')\n"
    "    g = Game.new(seed=int(seed), difficulty=difficulty or None)\n"
    "    print(''.join('.' if (a := g.atom_at(r, c)) is None else format(int(a), 'x')\n"
    "                  for r in range(11) for c in range(11)))\n"
)


@pytest.mark.process
def test_generated_boards_are_the_same_in_every_process() -> None:
    # String hashing differs between processes; a board must not depend on it.
    specs = ["0", "1", "77:easy", "123456:normal", "2147483647:hard", "99"]
    outputs = set()
    for hash_seed in ("1", "2", "3"):
        done = subprocess.run([sys.executable, "-c", BOARD_DUMP, *specs], check=True,
                              capture_output=True, text=True,
                              env={**os.environ, "PYTHONHASHSEED": hash_seed})
        outputs.add(done.stdout)
    assert len(outputs) == 1
    here = [Game.new(seed=int(s.partition(":")[0]), difficulty=s.partition(":")[2] or None)
            for s in specs]
    assert outputs.pop().split() == [
        "".join("." if (a := g.atom_at(r, c)) is None else format(int(a), "x")
                for r in range(11) for c in range(11)) for g in here]


def replay_wins(g: Game, answer: list[object]) -> None:
    """Replay a solver answer on a copy of g and on the reference; both must be won."""
    copy = Game.from_record(g.record())
    r = ref.RefGame({(row, col): int(a) for row in range(12) for col in range(12)
                     if (a := copy.atom_at(row, col)) is not None})
    r.pointer = pointer_of(copy)
    for t in answer:
        copy.take(t.a, t.b)  # type: ignore[attr-defined]
        r.take(t.a, t.b)  # type: ignore[attr-defined]
    assert copy.won and r.won


def pointer_of(g: Game) -> int:
    """The reference pointer matching g's current metal (equivalent for all futures)."""
    current = g.current_metal
    return 0 if current is None else ref.METALS.index(int(current))


# ---------------------------------------------------------------- solver
@FEW
@given(seed=st.integers(0, 2**31 - 1), steps=st.integers(0, 30), play_seed=st.integers(0, 2**32))
def test_solver_answers_replay_after_random_moves(seed: int, steps: int, play_seed: int) -> None:
    g = Game.new(seed=seed)
    rng = random.Random(play_seed)
    for _ in range(steps):
        legal = g.legal_takes()
        if not legal:
            break
        g.take(*rng.choice(legal))
    before = (g.record(), snapshot(g))
    try:
        answer = solver.solve(g, max_nodes=1_000_000)
    except SearchBudget:
        return
    assert (g.record(), snapshot(g)) == before  # the solver never changes the game
    if answer is None:
        assert not g.won
    else:
        replay_wins(g, answer)
        assert (answer == []) == g.won


@st.composite
def small_positions(draw: st.DrawFn) -> str:
    """Small hand-made boards where the reference's exhaustive search is cheap."""
    rows = draw(st.lists(st.text(st.sampled_from("3eb8f0a2c9164  7"), max_size=5),
                         min_size=1, max_size=5))
    return "\n".join(["Small", *rows]) + "\n"


PAIRS = ["33", "ee", "bb", "dd", "38", "e8", "88", "0f", "a2", "ac", "a9", "a1", "a6", "4"]


@st.composite
def paired_positions(draw: st.DrawFn) -> str:
    """Small boards made of reacting pairs (and some Slag), so that many have solutions."""
    side = draw(st.integers(2, 5))
    pieces = "".join(draw(st.lists(st.sampled_from(PAIRS), min_size=1, max_size=7)))
    pieces += "7" * draw(st.integers(0, 2))
    slots = draw(st.permutations(range(side * side)))[: len(pieces)]
    grid = [[" "] * side for _ in range(side + len(pieces) // side + 1)]
    for piece, slot in zip(pieces, slots + list(range(side * side, 99)), strict=False):
        grid[slot // side][slot % side] = piece
    return "\n".join(["Pairs", *("".join(row) for row in grid)]) + "\n"


@settings(max_examples=150 * SCALE, deadline=None)
@given(text=st.one_of(small_positions(), paired_positions()), play_seed=st.integers(0, 2**32),
       steps=st.integers(0, 4))
def test_solver_agrees_with_exhaustive_search(text: str, play_seed: int, steps: int) -> None:
    try:
        _name, cells, _rows, _cols = ref.parse_dat(text)
    except ref.RefLevelError:
        return
    g = Game.from_level(text)
    r = ref.RefGame(cells)
    rng = random.Random(play_seed)
    for _ in range(steps):
        legal = r.legal_takes()
        if not legal:
            break
        move = rng.choice(legal)
        g.take(*move)
        r.take(*move)
    truth = ref.solutions_exist(r)
    answer = solver.solve(g, max_nodes=1_000_000)
    if truth is not None:
        assert (answer is not None) == truth, text
    if answer is not None:
        replay_wins(g, answer)
    # Under a tiny budget: an answer or SearchBudget, never a false "no solution".
    for budget in (1, 2, 5, 20):
        try:
            small = solver.solve(g, max_nodes=budget)
        except SearchBudget:
            continue
        if truth is True:
            assert small is not None, (text, budget)
        if small is not None:
            replay_wins(g, small)
    hint = solver.hint(g)
    if truth is True and not r.won:
        assert hint is not None
        after = r.copy()
        after.take(hint.a, hint.b)
        assert ref.solutions_exist(after) is not False
    elif truth is False:
        assert hint is None


@settings(max_examples=8 * SCALE, deadline=None)
@given(seed=st.integers(0, 2**31 - 1), left=st.integers(8, 16), play_seed=st.integers(0, 2**32))
def test_solver_agrees_with_exhaustive_search_late_in_random_boards(
        seed: int, left: int, play_seed: int) -> None:
    g = Game.new(seed=seed)
    rng = random.Random(play_seed)
    # Follow a solution most of the way (random play gets stuck early), then wander.
    for t in solver.solve(g, max_nodes=1_000_000) or []:
        if g.remaining <= left + 6:
            break
        g.take(t.a, t.b)
    while g.remaining > left and g.legal_takes():
        g.take(*rng.choice(g.legal_takes()))
    r = ref.RefGame({(row, col): int(a) for row in range(11) for col in range(11)
                     if (a := g.atom_at(row, col)) is not None})
    r.pointer = pointer_of(g)
    truth = ref.solutions_exist(r, limit=50_000)
    answer = solver.solve(g, max_nodes=1_000_000)
    if truth is not None:
        assert (answer is not None) == truth, g.record()
    if answer is not None:
        replay_wins(g, answer)


def test_solve_on_a_won_game_is_empty() -> None:
    g = Game.from_level("Pair\n33\n")
    g.take((0, 0), (0, 1))
    assert g.won and solver.solve(g) == []
    slag_only = Game.from_level("Slag\n7 7\n")
    assert slag_only.won and solver.solve(slag_only) == []


# ---------------------------------------------------------------- bad files and records
BAD_FILES = {
    "empty.dat": b"",
    "blank.dat": b"   \n\n  \n",
    "noname.dat": b"\n33\n",
    "noatoms.dat": b"Nothing\n5 5 .\nABCDEF\n",
    "toowide.dat": b"Wide\n333333333333e\n",
    "toodeep.dat": b"Deep\n" + b"\n" * 12 + b"33\n",
    "huge.dat": b"Huge\n" + b" " * 200_000 + b"\n33\n",
    "binary.dat": b"Bin\n\xff\xfe\x00\x01 33\n",
    "control.dat": b"Ctl\n33\x00\x07\n",
}


@pytest.mark.parametrize("name", sorted(BAD_FILES))
def test_bad_level_files_are_one_line_naming_the_file(tmp_path: Path, name: str) -> None:
    path = tmp_path / name
    path.write_bytes(BAD_FILES[name])
    with pytest.raises(LevelError) as info:
        read_level(path)
    message = str(info.value)
    assert "\n" not in message and name in message


def test_a_level_may_reach_row_and_column_eleven(tmp_path: Path) -> None:
    path = tmp_path / "edge.dat"
    path.write_text("Edge\n" + "\n" * 11 + "3" + " " * 10 + "3\n")
    g = Game.from_level(read_level(path), level="edge")
    assert (g.rows, g.cols, g.level) == (12, 12, "edge")
    # Two free Airs react however far apart they are.
    assert as_moves(g.legal_takes()) == [((11, 0), (11, 11))]


def test_odd_squares_are_empty() -> None:
    # Unicode digits, upper-case hex, 5, tabs and "\r" are all empty squares.
    g = Game.from_level("Odd\r\n3\u0663\uff13A5\t\r3\r\n")
    assert g.name == "Odd"
    cells = {(r, c) for r in range(12) for c in range(12) if g.atom_at(r, c) is not None}
    assert cells == {(0, 0), (0, 7)}
    # Only "\n" ends a line: other Unicode line breaks are empty squares in their row.
    g = Game.from_level("Breaks\n3\x0c\x0b\x85\u20283\n33\n")
    assert (g.atom_at(0, 5), g.atom_at(1, 0), g.rows, g.cols) == (Atom.AIR, Atom.AIR, 2, 6)


def test_takes_out_of_the_field_are_illegal_not_wrapped() -> None:
    g = Game.from_level("Wrap\n3  \n  3\n3\n")
    before = snapshot(g)
    for a, b in [((0, 0), (0, -1)), ((1, -1), (0, 0)), ((-1, 2), (0, 0)), ((0, 0), (0, 0)),
                 ((0, 12), (0, 0)), ((12, 0), (0, 0)), ((0, 0), None)]:
        with pytest.raises(IllegalMove):
            g.take(a, b)
        assert snapshot(g) == before


@settings(max_examples=60 * SCALE, deadline=None)
@given(cut=st.integers(0, 200), junk=st.text(max_size=6), seed=st.integers(0, 50))
def test_damaged_records_are_refused_with_one_line(cut: int, junk: str, seed: int) -> None:
    g = Game.from_level(LEVELS[seed % len(LEVELS)].read_text(), level="7")
    rng = random.Random(seed)
    for _ in range(rng.randrange(6)):
        if not g.legal_takes():
            break
        g.take(*rng.choice(g.legal_takes()))
    text = g.record()
    cut %= len(text) + 1
    damaged = text[:cut] + junk + text[cut + len(junk):]
    try:
        twin = Game.from_record(damaged)
    except ValueError as exc:  # IllegalMove and LevelError are ValueErrors
        assert "\n" not in str(exc) and str(exc)
        return
    assert isinstance(twin, Game)
