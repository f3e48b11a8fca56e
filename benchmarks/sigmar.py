"""How fast the Sigmar's Garden engine, generator and solver are (docs/sigmar-rules.md).

    .venv/bin/python benchmarks/sigmar.py [--seeds N] [--positions N] [--seconds S]
    .venv/bin/python benchmarks/sigmar.py --bands [--boards 500]
    .venv/bin/python benchmarks/sigmar.py --frames [--deals 20] [--repeats 3]
    .venv/bin/python benchmarks/sigmar.py --hard N [--against OLD_SOLVER.py]
    .venv/bin/python benchmarks/sigmar.py --gardens [--boards 300]
    .venv/bin/python benchmarks/sigmar.py --bands --garden hexagonal [--boards 500]
    .venv/bin/python benchmarks/sigmar.py --frames --garden hexagonal [--deals 20]
    .venv/bin/python benchmarks/sigmar.py --deal-slices 200 [--garden hexagonal]

Measures, in one run: legal-take generation per second and random playouts
per second for palmish.sigmar and for a plain cell-by-cell engine written here
only for comparison (median and range over alternating 0.1 s slices of CPU
time, and of the ratios of a slice of each); generator time over N seeds (median, max); solver time
on the fresh boards and on positions reached by random takes from them
(median, p99, max); for each difficulty (Easy, Normal, Hard), New Game's deal
and the solver on the boards it deals; and the Hint on 20 hard positions, as
`--hard 20` times it (not only the easy positions above). A progress bar goes
to stderr.
Targets: generator median <= 50 ms and max <= 500 ms; legal takes >= 10x the
plain engine; solver p99 <= 100 ms on positions after random takes.

With --bands it measures the difficulties instead: for each of Easy, Normal and
Hard, the clear rate of random play (CHECK_PLAYOUTS fresh playouts per board,
from a stream of its own) on --boards boards dealt as New Game deals them now
(generator.deal: a number rated by its own board) and as saved games made
before dealt them (Game.new(seed, difficulty), the boards of a `difficulty=`
record). Targets (docs/sigmar-rules.md): Easy >= 30 %, Normal 10-30 %, Hard < 10 %.
With --garden hexagonal it measures the hexagonal garden's difficulties the same
way (its boards have no "before").

With --gardens it sets the two gardens side by side: for each, --boards Board
Numbers (1, 2, ...) built and solved, and --boards random deals (the standard 55
shuffled onto the 55 cells nearest the centre of the hexagon, or onto a dense 7x8
block of squares) decided: solved, proved unsolvable, or not decided within the
node budget. Times are CPU time of this process (a busy machine's other work does
not count), median, p99 and max. Goals (docs/sigmar-rules.md): boards p99 <= 100 ms
and max <= 1 s; random deals decided, p99 <= 1 s.

With --frames it measures what the player feels in the app (docs/sigmar-app.md,
"Thinking"): a real Device run on the real clock as the window runs it (each
due timer fired by catch_up, the screen drawn between), with Game > Hint on
hard positions (the standard 55 shuffled onto a dense 7x8 block, as a user
level may be, and positions deep into boards dealt Hard) and New Game on Hard.
It prints the longest gap between two frames (the longest the device held the
thread for one event or Tick; for New Game the next number dealt ahead in idle
time counts too), the time until the new board shows (the first New Game of a
round deals in the foreground, the others find their number dealt ahead) and
how many hints had their answer within 300 ms,
beside the same work done in one piece as before (solver.hint, generator.deal)
in the same rounds. Ranges are over --repeats rounds. With --garden hexagonal
the app plays the hexagonal garden: the Hint on dense hexagonal deals (as
--gardens deals them) and positions deep into boards dealt Hard, and New Game
on Hard, sliced as in the app (no "before" column).

`--deal-slices N` times New Game's dealing as the app runs it, without the
clock: N deals on each difficulty (and N without one) from fixed number
streams, each cut into the app's slices (DEAL_PLAYOUTS_PER_SLICE steps) and
followed by building the board dealt to show it (garden.new_game), and prints
the longest and the 99th percentile of those pieces in CPU time: the longest
the window can be held by a deal (a frame gap), whatever the machine's load.

`--hard N` times only the Hint (`solver.hint`, its node budget) on N hard
positions: the same hard positions as --frames (dense deals and deep positions of
Hard boards), and prints the share answered within 300 ms (a take or
"no solution", not "budget spent"), with the times and positions searched.
`--against FILE` loads another solver module (a previous solver.py, e.g.
`git show main:palmish/sigmar/solver.py > /tmp/old_solver.py`) and runs it on
the same positions in the same rounds, the two alternating.
"""

from __future__ import annotations

import argparse
import importlib.util
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import _shared
from _shared import percentile

from palmish.device.display import CONFIGS, ConfigName
from palmish.device.events import MenuCommand
from palmish.device.machine.system import Device
from palmish.sigmar import Atom, Game, SearchBudget, generator, solver
from palmish.sigmar.app import NO_SOLUTION, SigmarApp
from palmish.sigmar.hexagonal import generator as hex_generator
from palmish.sigmar.hexagonal import rules as hex_rules
from palmish.sigmar.hexagonal import solver as hex_solver
from palmish.sigmar.hexagonal.game import HexGame
from palmish.sigmar.rules import CARDINALS, METAL_ORDER, STRIDE


class CellByCellGame:
    """The rules as a beginner would code them: a 2-D list, one cell at a time."""

    def __init__(self, game: Game) -> None:
        self.rows, self.cols = game.rows, game.cols
        self.board: list[list[Atom | None]] = [
            [game.atom_at(r, c) for c in range(self.cols)] for r in range(self.rows)
        ]
        self.pointer = 0

    def atom(self, r: int, c: int) -> Atom | None:
        if 0 <= r < self.rows and 0 <= c < self.cols:
            return self.board[r][c]
        return None

    def free(self, r: int, c: int) -> bool:
        if self.board[r][c] is None:
            return False
        empty = 0
        for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
            if self.atom(rr, cc) is None:
                empty += 1
        return empty >= 2

    def current_metal(self) -> Atom | None:
        present = {a for row in self.board for a in row if a is not None and a.is_metal}
        for step in range(6):
            metal = METAL_ORDER[(self.pointer + step) % 6]
            if metal in present:
                return metal
        return None

    def reacts(self, x: Atom, y: Atom, current: Atom | None) -> bool:
        if x in CARDINALS:
            return y == x or y == Atom.SALT
        if y in CARDINALS:
            return x == Atom.SALT
        if x == Atom.SALT:
            return y == Atom.SALT
        if {x, y} == {Atom.VITAE, Atom.MORS}:
            return True
        if current in (None, Atom.GOLD):
            return False
        return {x, y} == {Atom.QUICKSILVER, current}

    def legal_takes(self) -> list[tuple[tuple[int, int], tuple[int, int] | None]]:
        current = self.current_metal()
        free = [(r, c) for r in range(self.rows) for c in range(self.cols) if self.free(r, c)]
        out: list[tuple[tuple[int, int], tuple[int, int] | None]] = []
        for k, a in enumerate(free):
            x = self.board[a[0]][a[1]]
            assert x is not None
            if x == Atom.GOLD and current == Atom.GOLD:
                out.append((a, None))
            for b in free[k + 1:]:
                y = self.board[b[0]][b[1]]
                assert y is not None
                if self.reacts(x, y, current):
                    out.append((a, b))
        return out

    def take(self, a: tuple[int, int], b: tuple[int, int] | None) -> None:
        for r, c in (a, b) if b is not None else (a,):
            atom = self.board[r][c]
            assert atom is not None
            if atom.is_metal:
                self.pointer = (METAL_ORDER.index(atom) + 1) % 6
            self.board[r][c] = None

    def won(self) -> bool:
        return all(a in (None, Atom.SLAG) for row in self.board for a in row)


def progress(name: str, done: int, total: int) -> None:
    _shared.progress(name, done, total, name_width=10)


def side_by_side(
    first: Callable[[], int], second: Callable[[], int], seconds: float
) -> tuple[list[float], list[float]]:
    """Units per second of two jobs in each of their alternating 0.1 s slices of CPU
    time (about `seconds` each): alternating keeps a busy shared machine from
    favouring one of them; a slice of one and the next of the other make a round."""
    rates: tuple[list[float], list[float]] = ([], [])
    spent = [0.0, 0.0]
    while min(spent) < seconds:
        for n, work in enumerate((first, second)):
            done = 0
            start = time.process_time()  # CPU time: other processes do not count
            while (elapsed := time.process_time() - start) < 0.1:
                done += work()
            spent[n] += elapsed
            rates[n].append(done / elapsed)
    return rates


def rates_row(label: str, ours: list[float], theirs: list[float]) -> str:
    """Median and range of both jobs' rates, and the median and range of the rounds' ratios."""
    ratios = [a / b for a, b in zip(ours, theirs, strict=True)]

    def cell(rates: list[float]) -> str:
        return f"{statistics.median(rates):.0f} ({min(rates):.0f}-{max(rates):.0f})"

    return (f"{label:<34} {cell(ours):>22} {cell(theirs):>22} {statistics.median(ratios):7.1f}"
            f" ({min(ratios):.1f}-{max(ratios):.1f})")


def ms(value: float) -> str:
    return f"{value * 1000:8.2f}"


CHECK_PLAYOUTS = 200


def measured_rate(game: Game, stream: int) -> float:
    """Random play's clear rate on the board, from playouts of a stream of its own."""
    board = {r * STRIDE + c: a for r in range(game.rows) for c in range(game.cols)
             if (a := game.atom_at(r, c)) is not None}
    return generator.clear_rate(board, random.Random(10**9 + stream), CHECK_PLAYOUTS)


def bands(boards: int) -> int:
    """The clear rate of each difficulty, as dealt now and as dealt before."""
    print(f"{'difficulty':<10} {'deal':<7} {'mean %':>7} {'median %':>9} {'> 10 %':>7} "
          f"{'deal ms':>8}  ({boards} boards, {CHECK_PLAYOUTS} playouts each)")
    for difficulty in generator.DIFFICULTIES:
        numbers = random.Random(difficulty)

        def draw(numbers: random.Random = numbers) -> int:
            return numbers.randint(1, 999_999)

        for how in ("now", "before"):
            rates: list[float] = []
            spent = 0.0
            for n in range(1, boards + 1):
                start = time.perf_counter()
                if how == "now":
                    game = Game.new(seed=generator.deal(difficulty, draw))
                else:
                    game = Game.new(seed=n, difficulty=difficulty)
                spent += time.perf_counter() - start
                rates.append(measured_rate(game, n))
                progress(f"{difficulty[:4]} {how}", n, boards)
            over = sum(r > 0.10 for r in rates)
            print(f"{difficulty:<10} {how:<7} {100 * statistics.mean(rates):7.1f} "
                  f"{100 * statistics.median(rates):9.1f} {over:7d} "
                  f"{1000 * spent / boards:8.1f}", flush=True)
    return 0


def hex_bands(boards: int) -> int:
    """The clear rate of each difficulty of the hexagonal garden, as New Game deals them,
    and the solver on every board dealt."""
    print(f"{'difficulty':<10} {'mean %':>7} {'median %':>9} {'> 10 %':>7} {'< 30 %':>7} "
          f"{'deal ms':>8} {'solved':>7} {'solve max ms':>12}  "
          f"(hexagonal, {boards} boards, {CHECK_PLAYOUTS} playouts each)")
    for difficulty in hex_generator.DIFFICULTIES:
        numbers = random.Random(f"hexagonal {difficulty}")

        def draw(numbers: random.Random = numbers) -> int:
            return numbers.randint(1, 999_999)

        rates: list[float] = []
        spent = 0.0
        solved = 0
        slowest = 0.0
        for n in range(1, boards + 1):
            start = time.perf_counter()
            seed = hex_generator.deal(difficulty, draw)
            board = hex_generator.build(random.Random(seed))
            spent += time.perf_counter() - start
            rates.append(hex_generator.clear_rate(board, random.Random(10**9 + n),
                                                  CHECK_PLAYOUTS))
            took, outcome, _ = decide(HexGame.new(seed=seed), hex_solver.DEFAULT_MAX_NODES)
            solved += outcome == "solved"
            slowest = max(slowest, took)
            progress(f"hex {difficulty[:4]}", n, boards)
        print(f"{difficulty:<10} {100 * statistics.mean(rates):7.1f} "
              f"{100 * statistics.median(rates):9.1f} {sum(r > 0.10 for r in rates):7d} "
              f"{sum(r < 0.30 for r in rates):7d} {1000 * spent / boards:8.1f} "
              f"{solved:7d} {1000 * slowest:12.1f}", flush=True)
    return 0


def hex_dense_deal(seed: int) -> HexGame:
    """The standard 55 shuffled onto the 55 cells nearest the centre of the hexagon
    (ties broken at random): mostly unsolvable, and hard to prove so."""
    rng = random.Random(seed)
    atoms = [a for a, n in generator.STANDARD_COUNTS.items() for _ in range(n)]
    rng.shuffle(atoms)
    cells = sorted(hex_rules.CELLS,
                   key=lambda c: (hex_rules.distance(c, hex_rules.CENTRE), rng.random()))
    return HexGame(zip(cells[:len(atoms)], atoms, strict=True), name=f"Deal {seed}",
                   level=f"deal{seed}")


def decide(game: Game | HexGame, max_nodes: int) -> tuple[float, str, int]:
    """CPU seconds of one search, its outcome ("solved", "none", "budget") and positions."""
    start = time.process_time()
    try:
        if isinstance(game, HexGame):
            answer, nodes = hex_solver.solve_counted(game, max_nodes)
        else:
            answer, nodes = solver.solve_counted(game, max_nodes)
        outcome = "none" if answer is None else "solved"
    except SearchBudget as exc:
        outcome, nodes = "budget", exc.nodes
    return time.process_time() - start, outcome, nodes


def gardens(boards: int, max_nodes: int) -> int:
    """The square and the hexagonal garden side by side: boards built and solved,
    random deals decided."""
    rows: list[str] = []
    for name in ("square", "hexagonal"):
        builds: list[float] = []
        searches: list[tuple[float, str, int]] = []
        for n in range(1, boards + 1):
            start = time.process_time()
            board: Game | HexGame = Game.new(seed=n) if name == "square" else HexGame.new(seed=n)
            builds.append(time.process_time() - start)
            searches.append(decide(board, max_nodes))
            progress(f"{name[:3]} boards", n, boards)
        deals: list[tuple[float, str, int]] = []
        for n in range(1, boards + 1):
            deal = dense_deal(n) if name == "square" else hex_dense_deal(n)
            deals.append(decide(deal, max_nodes))
            progress(f"{name[:3]} deals", n, boards)
        for what, runs in ((f"{name}: boards", searches), (f"{name}: random deals", deals)):
            times = [t for t, _, _ in runs]
            counts = {kind: sum(o == kind for _, o, _ in runs) for kind in
                      ("solved", "none", "budget")}
            rows.append(f"{what:<28} {ms(statistics.median(times))} "
                        f"{ms(percentile(times, 0.99))} {ms(max(times))} "
                        f"{max(k for _, _, k in runs):>9} {counts['solved']:>7} "
                        f"{counts['none']:>7} {counts['budget']:>7}")
        rows.append(f"{name + ': building a board':<28} {ms(statistics.median(builds))} "
                    f"{ms(percentile(builds, 0.99))} {ms(max(builds))}")
    print(f"{boards} Board Numbers and {boards} random deals per garden; solver CPU time "
          f"(ms), at most {max_nodes:,} positions")
    print(f"{'':<28} {'median':>8} {'p99':>8} {'max':>8} {'positions':>9} {'solved':>7} "
          f"{'none':>7} {'budget':>7}")
    for row in rows:
        print(row)
    return 0


ANSWER_MS = 300  # the goal: an answer within this
DEALS_PER_ROUND = 5  # New Games on Hard per round (each draws numbers until one rates hard)


def dense_deal(seed: int) -> Game:
    """The standard 55 atoms shuffled onto a dense 7x8 block: hard for the solver."""
    atoms = [a for a, n in generator.STANDARD_COUNTS.items() for _ in range(n)]
    random.Random(seed).shuffle(atoms)
    cells = [(r, c) for r in range(7) for c in range(8)][:len(atoms)]
    return Game(zip(cells, atoms, strict=True), name=f"Deal {seed}", rows=7, cols=8,
                level=f"deal{seed}")


def deep_hard(seed: int) -> Game:
    """A position 5-25 random takes into a board New Game deals on Hard."""
    pick = random.Random(seed)
    game = Game.new(seed=generator.deal("hard", lambda: pick.randint(1, 999_999)))
    for _ in range(pick.randint(5, 25)):
        takes = game.legal_takes()
        if not takes:
            break
        game.take(*takes[pick.randrange(len(takes))])
    return game


def run_as_window(device: Device, action: Callable[[], None],
                  done: Callable[[], bool]) -> tuple[float, float, float]:
    """Do `action`, then fire the device's timers on the real clock until none is left,
    as the window does. The longest gap between frames, the most CPU time of one of
    them (the gap without the other processes of a busy machine) and the time until
    `done()`, in seconds (the work after that, such as dealing ahead, counts for the gap)."""
    base = time.perf_counter() - device.now_ms / 1000

    def now_ms() -> int:
        return int((time.perf_counter() - base) * 1000)

    start = time.perf_counter()
    cpu = time.process_time()
    device.set_clock(now_ms())
    action()
    device.take_damage()  # the frame after the input
    longest = time.perf_counter() - start
    most_cpu = time.process_time() - cpu
    answered = None if not done() else longest
    while (due := device.next_timer_ms()) is not None:
        time.sleep(max(0, due - now_ms()) / 1000)
        began = time.perf_counter()
        cpu = time.process_time()
        device.catch_up(now_ms())
        device.take_damage()
        ended = time.perf_counter()
        longest = max(longest, ended - began)
        most_cpu = max(most_cpu, time.process_time() - cpu)
        if answered is None and done():
            answered = ended - start
    return longest, most_cpu, answered if answered is not None else time.perf_counter() - start


def frames(deals: int, repeats: int) -> int:
    """Frame gaps and answer times of the Hint on hard positions and of New Game on Hard."""
    positions = [dense_deal(n) for n in range(1, deals + 1)]
    positions += [deep_hard(n) for n in range(1, deals + 1)]
    hint_gaps: list[float] = []
    hint_cpu: list[float] = []
    deal_cpu: list[float] = []
    answered: list[int] = []
    decided: list[int] = []  # of those, a take or "no solution" (not "not found in time")
    deal_gaps: list[float] = []
    deal_times: list[float] = []
    # The same work in one piece, as before (solver.hint, generator.deal), in each round.
    before_freeze: list[float] = []
    before_within: list[int] = []
    before_deal: list[float] = []
    numbers = random.Random(3)
    with tempfile.TemporaryDirectory() as tmp:
        app = SigmarApp()
        device = Device(CONFIGS[ConfigName.SQUARE], Path(tmp), [app], start_app="sigmar",
                        durable=False, alerts=False)
        for round_ in range(repeats):
            longest = most_cpu = 0.0
            within = sure = 0
            for done, game in enumerate(positions, start=1):
                app.start_game(Game.from_record(game.record()) if game.seed is not None
                               else game)
                gap, cpu, took = run_as_window(device, lambda: device.post(MenuCommand("hint")),
                                               lambda: app.work is None or not app.work.running)
                longest = max(longest, gap)
                most_cpu = max(most_cpu, cpu)
                within += took <= ANSWER_MS / 1000
                sure += took <= ANSWER_MS / 1000 and (
                    app.scene.hint != () or app.scene.message == NO_SOLUTION)
                progress(f"hint {round_ + 1}", done, len(positions))
            hint_gaps.append(longest)
            hint_cpu.append(most_cpu)
            answered.append(within)
            decided.append(sure)
            app.prefs["difficulty"] = "hard"
            app.start_game(Game.new(seed=1))  # a fresh board: New Game does not ask first
            for _ in range(DEALS_PER_ROUND):
                shown = app.game.seed

                def dealt(shown: int | None = shown) -> bool:
                    return app.game.seed != shown

                gap, cpu, took = run_as_window(device, lambda: device.post(MenuCommand("new")),
                                               dealt)
                deal_gaps.append(gap)
                deal_cpu.append(cpu)
                deal_times.append(took)
            app.prefs["difficulty"] = "any"
            longest = 0.0
            within = 0
            for done, game in enumerate(positions, start=1):
                took, outcome, _ = timed_hint(solver, game)
                within += took <= ANSWER_MS / 1000 and outcome != "budget"
                longest = max(longest, took)
                progress(f"before {round_ + 1}", done, len(positions))
            before_freeze.append(longest)
            before_within.append(within)
            for _ in range(DEALS_PER_ROUND):
                start = time.perf_counter()
                generator.deal("hard", lambda: numbers.randint(1, 999_999))
                before_deal.append(time.perf_counter() - start)
        device.shutdown()

    def span(values: list[float]) -> str:
        return f"{1000 * min(values):.0f}-{1000 * max(values):.0f} ms"

    n = len(positions)
    print(f"{'':<44} {'sliced (now)':>22} {'in one piece (before)':>22}")
    print(f"{'Hint, hard positions: longest frame gap':<44} {span(hint_gaps):>22} "
          f"{span(before_freeze):>22}")
    print(f"{'  the same, CPU time of that frame':<44} {span(hint_cpu):>22}")
    print(f"{'Hint, hard positions: answered <= 300 ms':<44} "
          f"{f'{min(answered)}-{max(answered)} of {n}':>22}"
          f" {f'{min(before_within)}-{max(before_within)} of {n}':>22}")
    print(f"{'  of them a take or no solution':<44} "
          f"{f'{min(decided)}-{max(decided)} of {n}':>22}")
    print(f"{'New Game on Hard: longest frame gap':<44} {span(deal_gaps):>22} "
          f"{span(before_deal):>22}")
    print(f"{'  the same, CPU time of that frame':<44} {span(deal_cpu):>22}")
    print(f"{'New Game on Hard: until the new board':<44} {span(deal_times):>22} "
          f"{span(before_deal):>22}")
    print(f"  ({deals} dense deals + {deals} deep positions of Hard boards, {repeats} rounds; "
          f"{DEALS_PER_ROUND} New Games a round)")
    return 0


def deep_hard_hex(seed: int) -> HexGame:
    """A position 5-25 random takes into a hexagonal board New Game deals on Hard."""
    pick = random.Random(seed)
    game = HexGame.new(seed=hex_generator.deal("hard", lambda: pick.randint(1, 999_999)))
    for _ in range(pick.randint(5, 25)):
        takes = game.legal_takes()
        if not takes:
            break
        game.take(*takes[pick.randrange(len(takes))])
    return game


def hex_frames(deals: int, repeats: int) -> int:
    """--frames in the hexagonal garden: the Hint's frame gaps and answer times on hard
    positions, New Game on Hard, through the app on the real clock."""
    positions = [hex_dense_deal(n) for n in range(1, deals + 1)]
    positions += [deep_hard_hex(n) for n in range(1, deals + 1)]
    gaps: list[float] = []
    answers: list[float] = []
    decided = 0
    deal_gaps: list[float] = []
    deal_cpu: list[float] = []
    deal_times: list[float] = []
    with tempfile.TemporaryDirectory() as tmp:
        app = SigmarApp()
        app.accept_option("--garden", "hexagonal")
        device = Device(CONFIGS[ConfigName.SQUARE], Path(tmp), [app], start_app="sigmar",
                        durable=False, alerts=False)
        for round_ in range(repeats):
            for done, game in enumerate(positions, start=1):
                app.start_game(HexGame.from_record(game.record()))
                gap, _, took = run_as_window(device, lambda: device.post(MenuCommand("hint")),
                                             lambda: app.work is None or not app.work.running)
                gaps.append(gap)
                answers.append(took)
                decided += took <= ANSWER_MS / 1000 and (
                    app.scene.hint != () or app.scene.message == NO_SOLUTION)
                progress(f"hint {round_ + 1}", done, len(positions))
            app.prefs["difficulty"] = "hard"
            app.start_game(HexGame.new(seed=1))
            for _ in range(DEALS_PER_ROUND):
                shown = app.game.seed

                def dealt(shown: int | None = shown) -> bool:
                    return app.game.seed != shown

                gap, cpu, took = run_as_window(device, lambda: device.post(MenuCommand("new")),
                                               dealt)
                deal_gaps.append(gap)
                deal_cpu.append(cpu)
                deal_times.append(took)
            app.prefs["difficulty"] = "any"
        device.shutdown()
    n = len(answers)
    within = sum(t <= ANSWER_MS / 1000 for t in answers)
    print(f"hexagonal garden, {deals} dense deals + {deals} deep positions of Hard boards, "
          f"{repeats} rounds ({n} hints)")
    print(f"Hint: longest frame gap {1000 * max(gaps):.0f} ms; answer median "
          f"{1000 * statistics.median(answers):.0f} ms, p99 "
          f"{1000 * percentile(answers, 0.99):.0f} ms, max {1000 * max(answers):.0f} ms; "
          f"answered <= 300 ms: {within} of {n} (a take or no solution: {decided})")
    print(f"New Game on Hard: longest frame gap {1000 * max(deal_gaps):.0f} ms (CPU time of "
          f"a frame at most {1000 * max(deal_cpu):.0f} ms); until the new board "
          f"{1000 * min(deal_times):.0f}-{1000 * max(deal_times):.0f} ms")
    return 0


def deal_slices(deals: int, which: str) -> int:
    """The CPU time of each slice of New Game's deal, and of building the board dealt."""
    from palmish.sigmar import garden
    from palmish.sigmar.app import DEAL_PLAYOUTS_PER_SLICE

    print(f"{which} garden, {deals} deals per difficulty, "
          f"{DEAL_PLAYOUTS_PER_SLICE} steps a slice; CPU ms")
    print(f"{'difficulty':<10} {'slices':>7} {'median':>8} {'p99':>8} {'max':>8} "
          f"{'show max':>9}")
    for difficulty in (None, *generator.DIFFICULTIES):
        numbers = random.Random(f"slices {which} {difficulty}")

        def draw(numbers: random.Random = numbers) -> int:
            return numbers.randint(1, 999_999)

        pieces: list[float] = []
        shows: list[float] = []
        for done in range(1, deals + 1):
            steps = garden.dealing(which, difficulty, draw)
            seed: int | None = None
            while seed is None:
                start = time.process_time()
                try:
                    for _ in range(DEAL_PLAYOUTS_PER_SLICE):
                        next(steps)
                except StopIteration as finished:
                    seed = finished.value
                pieces.append(time.process_time() - start)
            start = time.process_time()
            garden.new_game(which, seed)
            shows.append(time.process_time() - start)
            progress(f"{difficulty or 'any'}", done, deals)
        print(f"{difficulty or 'any':<10} {len(pieces):7d} {ms(statistics.median(pieces))} "
              f"{ms(percentile(pieces, 0.99))} {ms(max(pieces))} {ms(max(shows)):>9}",
              flush=True)
    return 0


def load_solver(path: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location("other_solver", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def timed_hint(module: ModuleType, game: Game) -> tuple[float, str, object]:
    """Seconds for a Hint, its outcome ("take", "none" or "budget") and the take."""
    start = time.perf_counter()
    take = None
    try:
        take = module.hint(game)
        outcome = "take" if take is not None else "none"
    except module.SearchBudget:
        outcome = "budget"
    return time.perf_counter() - start, outcome, take


def hard_hints(count: int, against: str | None) -> int:
    positions = [dense_deal(1000 + n) if n % 2 == 0 else deep_hard(2000 + n)
                 for n in range(count)]
    solvers = {"this solver": solver}
    if against:
        solvers[against] = load_solver(against)
    results: dict[str, list[tuple[float, str]]] = {name: [] for name in solvers}
    # A player who takes the hinted move and asks again: the second Hint.
    again: dict[str, list[float]] = {name: [] for name in solvers}
    for done, game in enumerate(positions, start=1):
        order = list(solvers.items())
        if done % 2 == 0:
            order.reverse()  # alternate who goes first
        for name, module in order:
            seconds, outcome, take = timed_hint(module, game)
            results[name].append((seconds, outcome))
            if isinstance(take, tuple):
                game.take(*take)
                again[name].append(timed_hint(module, game)[0])
                game.undo()
        progress("hard hints", done, count)
    print(f"{count} hard positions (dense deals and deep positions of Hard boards), "
          f"Hint with its own node budget")
    print(f"{'solver':<34} {'<=300ms':>8} {'median':>8} {'p90':>8} {'max':>8}  outcomes")
    for name, runs in results.items():
        times = [t for t, _ in runs]
        quick = sum(t <= ANSWER_MS / 1000 and outcome != "budget" for t, outcome in runs)
        outcomes = {kind: sum(o == kind for _, o in runs) for kind in ("take", "none", "budget")}
        print(f"{name:<34} {quick / count:8.0%} {ms(statistics.median(times))} "
              f"{ms(percentile(times, 0.9))} {ms(max(times))}  {outcomes}")
    for name, times in again.items():
        if times:
            print(f"{'  then take it and Hint again':<34} {'':>8} {ms(statistics.median(times))} "
                  f"{ms(percentile(times, 0.9))} {ms(max(times))}  ({name})")
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bands", action="store_true",
                        help="measure the difficulties' clear rates instead")
    parser.add_argument("--boards", type=int, default=None,
                        help="boards per difficulty for --bands (500), per garden for "
                             "--gardens (300)")
    parser.add_argument("--frames", action="store_true",
                        help="measure frame gaps during the Hint and New Game on Hard instead")
    parser.add_argument("--deals", type=int, default=20,
                        help="dense deals (and as many deep positions) for --frames (20)")
    parser.add_argument("--repeats", type=int, default=3, help="rounds for --frames (3)")
    parser.add_argument("--hard", type=int, default=0,
                        help="only time the Hint on N hard positions")
    parser.add_argument("--against", help="another solver.py to time on the same positions")
    parser.add_argument("--seeds", type=int, default=200, help="boards to generate (200)")
    parser.add_argument("--positions", type=int, default=400,
                        help="positions after random takes to solve (400)")
    parser.add_argument("--seconds", type=float, default=2.0, help="time per speed test (2)")
    parser.add_argument("--max-nodes", type=int, default=solver.DEFAULT_MAX_NODES)
    parser.add_argument("--gardens", action="store_true",
                        help="the square and hexagonal gardens' solvers side by side instead")
    parser.add_argument("--garden", choices=("square", "hexagonal"), default="square",
                        help="the garden --bands and --frames measure (square)")
    parser.add_argument("--deal-slices", type=int, default=0, metavar="N",
                        help="time New Game's deal slice by slice, N deals per difficulty")
    args = parser.parse_args()
    if args.deal_slices > 0:
        return deal_slices(args.deal_slices, args.garden)
    if args.hard > 0:
        return hard_hints(args.hard, args.against)
    if args.seeds < 1 or args.positions < 1 or args.seconds <= 0:
        print("sigmar: --seeds, --positions and --seconds must be positive", file=sys.stderr)
        return 2
    if args.bands or args.gardens:
        boards = args.boards if args.boards is not None else 300 if args.gardens else 500
        if boards < 1:
            print("sigmar: --boards must be positive", file=sys.stderr)
            return 2
        if args.gardens:
            return gardens(boards, args.max_nodes)
        return hex_bands(boards) if args.garden == "hexagonal" else bands(boards)
    if args.frames:
        if args.deals < 1 or args.repeats < 1:
            print("sigmar: --deals and --repeats must be positive", file=sys.stderr)
            return 2
        if args.garden == "hexagonal":
            return hex_frames(args.deals, args.repeats)
        return frames(args.deals, args.repeats)

    # Generator.
    gen_times: list[float] = []
    games: list[Game] = []
    for done, seed in enumerate(range(args.seeds), start=1):
        start = time.perf_counter()
        games.append(Game.new(seed=seed))
        gen_times.append(time.perf_counter() - start)
        progress("generate", done, args.seeds)

    # Legal takes on positions met in random play (fresh boards included), both engines.
    rng = random.Random(1)
    positions: list[Game] = []
    for g in games:
        for _ in range(6):
            copy = Game.new(seed=g.seed)
            for _ in range(rng.randrange(0, 20)):
                codes = copy.legal_codes()
                if not codes:
                    break
                copy.take_code(codes[rng.randrange(len(codes))])
            positions.append(copy)
    plain_positions = [CellByCellGame(g) for g in positions]

    def engine_legal() -> int:
        for g in positions:
            g.legal_takes(cached=False)
        return len(positions)

    def engine_codes() -> int:
        for g in positions:
            g.legal_codes(cached=False)
        return len(positions)

    def plain_legal() -> int:
        for p in plain_positions:
            p.legal_takes()
        return len(plain_positions)

    sys.stderr.write("legal takes...\n")
    engine_rate, plain_rate = side_by_side(engine_legal, plain_legal, args.seconds)
    codes_rate, plain_rate_2 = side_by_side(engine_codes, plain_legal, args.seconds)

    # Random playouts from fresh boards, both engines.
    def engine_playout() -> int:
        g = games[rng.randrange(len(games))]
        while True:
            codes = g.legal_codes()
            if not codes:
                break
            g.take_code(codes[rng.randrange(len(codes))])
        g.restart()
        return 1

    def plain_playout() -> int:
        p = CellByCellGame(games[rng.randrange(len(games))])
        while True:
            takes = p.legal_takes()
            if not takes:
                break
            p.take(*takes[rng.randrange(len(takes))])
        return 1

    sys.stderr.write("playouts...\n")
    engine_playouts, plain_playouts = side_by_side(engine_playout, plain_playout, args.seconds)

    # Solver on fresh boards.
    fresh_times: list[float] = []
    for done, g in enumerate(games, start=1):
        start = time.perf_counter()
        assert solver.solve(g, args.max_nodes) is not None
        fresh_times.append(time.perf_counter() - start)
        progress("solve new", done, len(games))

    # Solver on positions after 3..20 random takes.
    pos_times: list[float] = []
    unsolvable = unknown = 0
    most_nodes = 0
    pick = random.Random(2)
    for done in range(1, args.positions + 1):
        g = Game.new(seed=pick.randrange(args.seeds))
        for _ in range(pick.randrange(3, 21)):
            takes = g.legal_takes()
            if not takes:
                break
            g.take(*takes[pick.randrange(len(takes))])
        start = time.perf_counter()
        try:
            answer, nodes = solver.solve_counted(g, args.max_nodes)
            unsolvable += answer is None
            most_nodes = max(most_nodes, nodes)
        except SearchBudget:
            unknown += 1
        pos_times.append(time.perf_counter() - start)
        progress("solve play", done, args.positions)

    print(f"{'':<34} {'median':>8} {'p99':>8} {'max':>8}  (ms)")
    print(f"{'generator (' + str(args.seeds) + ' seeds)':<34} {ms(statistics.median(gen_times))} "
          f"{ms(percentile(gen_times, 0.99))} {ms(max(gen_times))}")
    print(f"{'solver, new boards':<34} {ms(statistics.median(fresh_times))} "
          f"{ms(percentile(fresh_times, 0.99))} {ms(max(fresh_times))}")
    print(f"{'solver, after random takes':<34} {ms(statistics.median(pos_times))} "
          f"{ms(percentile(pos_times, 0.99))} {ms(max(pos_times))}")
    print(f"  positions: {args.positions}, unsolvable {unsolvable}, budget spent {unknown}, "
          f"most nodes {most_nodes}")
    for difficulty in generator.DIFFICULTIES:
        deals, solves, budget = per_difficulty(difficulty, max(10, args.seeds // 10),
                                               args.max_nodes)
        print(f"{difficulty + ': deal':<34} {ms(statistics.median(deals))} "
              f"{ms(percentile(deals, 0.99))} {ms(max(deals))}")
        print(f"{difficulty + ': solver on its boards':<34} {ms(statistics.median(solves))} "
              f"{ms(percentile(solves, 0.99))} {ms(max(solves))}  budget spent {budget}")
    print(f"{'median (range) over 0.1 s slices':<34} {'engine':>22} {'plain':>22} {'ratio':>7}")
    print(rates_row("legal-take lists / s (Take objects)", engine_rate, plain_rate))
    print(rates_row("legal-take lists / s (bit codes)", codes_rate, plain_rate_2))
    print(rates_row("random playouts / s", engine_playouts, plain_playouts))
    return hard_hints(20, None)


def per_difficulty(difficulty: str, boards: int, max_nodes: int
                   ) -> tuple[list[float], list[float], int]:
    """Seconds of each New Game deal on `difficulty`, of the solver on each board it
    dealt, and how many of those searches spent their node budget."""
    numbers = random.Random(f"time {difficulty}")
    deals: list[float] = []
    solves: list[float] = []
    budget = 0
    for done in range(1, boards + 1):
        start = time.perf_counter()
        game = Game.new(seed=generator.deal(difficulty, lambda: numbers.randint(1, 999_999)))
        deals.append(time.perf_counter() - start)
        start = time.perf_counter()
        try:
            solver.solve(game, max_nodes)
        except SearchBudget:
            budget += 1
        solves.append(time.perf_counter() - start)
        progress(difficulty[:10], done, boards)
    return deals, solves, budget


if __name__ == "__main__":
    sys.exit(main())
