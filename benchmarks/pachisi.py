"""How fast the Pachisi engine is and how well Silicon plays.

    .venv/bin/python benchmarks/pachisi.py [--games N] [--speed-seconds S]
        [--dice cowrie|die7] [--levels easy,normal,hard] [--only speed|table]

1. Complete 4-player games per second with random players (any legal move,
   caution moves included, never passing), for --speed-seconds.

Random choices are uniform over distinct moves (rules.distinct: one entering
move stands for the start area's alike pieces, each of which has its own
move), so entering is not favoured by the number of pieces waiting.
2. The tournament: each level in one seat against three copies of a
   baseline (sane random: uniform among non-caution moves; sane fast: the
   most advanced non-caution move; and the other levels). The level's seat
   rotates through all four seats game by game; game g uses seed g. Win
   rate with its 95 % (Wilson) interval against the 25 % of an equal
   player, and the level's mean CPU ms per decision (CPU time, so other
   work on a shared machine does not count; the speed line gives both). --games per row
   (default 2,000). A progress bar goes to stderr.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from collections.abc import Callable

from palmish.pachisi import PASS, Game, Move, Player, ai, rules
from palmish.pachisi.game import _Pass

Choice = Callable[[Game, random.Random], "Move | _Pass"]


def random_player(game: Game, rng: random.Random) -> Move | _Pass:
    return rng.choice(rules.distinct(game.legal_moves()))


def sane_random(game: Game, rng: random.Random) -> Move | _Pass:
    moves = game.legal_moves()
    sane = [m for m in rules.distinct(moves) if not m.caution]
    if sane:
        return rng.choice(sane)
    return PASS if game.can_pass else moves[0]


def sane_fast(game: Game, rng: random.Random) -> Move | _Pass:
    sane = [m for m in game.legal_moves() if not m.caution]
    if sane:
        return sane[0]
    return PASS if game.can_pass else game.legal_moves()[0]


def level_player(level: str) -> Choice:
    def play(game: Game, rng: random.Random) -> Move | _Pass:
        return ai.choose(game, level)

    return play


MAX_THROWS = 20_000

PLAYERS: dict[str, Choice] = {
    "sane-random": sane_random,
    "sane-fast": sane_fast,
    **{lv: level_player(lv) for lv in ai.LEVELS},
}


def play(game: Game, seats: list[Choice], rng: random.Random,
         timed: int | None = None) -> tuple[int | None, float, int]:
    """Play to the end; the seconds and decisions of player `timed`."""
    seconds = 0.0
    decisions = 0
    for _ in range(MAX_THROWS):  # the rules allow endless passing; count such a game as no win
        if game.over:
            break
        if game.phase == "throw":
            game.throw()
        if game.phase != "move":
            continue
        who = game.current
        start = time.process_time()  # CPU time: the machine may be shared
        choice = seats[who](game, rng)
        if who == timed:
            seconds += time.process_time() - start
            decisions += 1
        if choice is PASS:
            game.pass_turn()
        else:
            assert isinstance(choice, Move)
            game.move(choice)
    return game.winner, seconds, decisions  # None: no winner (or stopped at MAX_THROWS)


def progress(name: str, done: int, total: int) -> None:
    width = 30
    filled = width * done // total
    sys.stderr.write(f"\r{name:<22} [{'#' * filled}{'.' * (width - filled)}] {done}/{total}")
    if done == total:
        sys.stderr.write("\n")
    sys.stderr.flush()


def wilson(wins: int, n: int) -> tuple[float, float]:
    if n == 0:
        return 0.0, 1.0
    z = 1.96
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def speed(seconds: float, dice: str) -> None:
    names = [Player(f"P{i}") for i in range(4)]
    start = time.perf_counter()
    cpu = time.process_time()
    games = throws = 0
    while time.perf_counter() - start < seconds:
        rng = random.Random(games)
        game = Game.new(seed=games, players=names, dice=dice)
        while not game.over:
            game.throw()
            throws += 1
            if game.phase == "move":
                game.move(rng.choice(rules.distinct(game.legal_moves())))
        games += 1
        done = min(int(100 * (time.perf_counter() - start) / seconds), 100)
        progress("random games (time)", done, 100)
    took = time.perf_counter() - start
    cpu = time.process_time() - cpu
    # games per CPU second too: on a shared machine the wall clock counts other work
    print(f"random 4-player games: {games / took:.0f} games/s wall, "
          f"{games / max(cpu, 1e-9):.0f} per CPU second "
          f"({games} games, {throws / max(games, 1):.0f} throws a game, {dice})")


def row(level: str, baseline: str, games: int, dice: str) -> str:
    wins = draws = decisions = 0
    seconds = 0.0
    names = [Player(f"P{i}") for i in range(4)]
    for g in range(games):
        seat = g % 4
        seats = [PLAYERS[baseline]] * 4
        seats[seat] = PLAYERS[level]
        game = Game.new(seed=g, players=names, dice=dice)
        winner, s, d = play(game, seats, random.Random(g), timed=seat)
        wins += winner == seat
        draws += winner is None
        seconds += s
        decisions += d
        progress(f"{level} vs 3 {baseline}", g + 1, games)
    low, high = wilson(wins, games)
    verdict = "better" if low > 0.25 else "worse" if high < 0.25 else "even"
    ms = 1000.0 * seconds / max(decisions, 1)
    return (f"{level:<7} {baseline:<12} {games:>6} {100 * wins / games:>6.1f}% "
            f"[{100 * low:5.1f}, {100 * high:5.1f}] {verdict:<7} {draws:>6} {ms:>10.2f}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000, help="games per table row")
    parser.add_argument("--speed-seconds", type=float, default=5.0)
    parser.add_argument("--dice", choices=("cowrie", "die7"), default="cowrie")
    parser.add_argument("--levels", default="easy,normal,hard")
    parser.add_argument("--baselines", default="sane-random,sane-fast,easy,normal,hard")
    parser.add_argument("--only", choices=("speed", "table"), default=None)
    args = parser.parse_args()
    levels = [x for x in args.levels.split(",") if x]
    baselines = [x for x in args.baselines.split(",") if x]
    bad = [x for x in levels if x not in ai.LEVELS] + [x for x in baselines if x not in PLAYERS]
    if bad or args.games < 1 or args.speed_seconds <= 0:
        print(f"pachisi: bad arguments {' '.join(bad)} (levels: {', '.join(ai.LEVELS)}; "
              f"baselines: {', '.join(PLAYERS)}; --games and --speed-seconds positive)",
              file=sys.stderr)
        return 2
    if args.only != "table":
        speed(args.speed_seconds, args.dice)
    if args.only == "speed":
        return 0
    print(f"tournament, {args.dice}: one seat (rotated) against three copies of the baseline")
    print(f"{'level':<7} {'vs 3 x':<12} {'games':>6} {'wins':>7} {'95% interval':>14} "
          f"{'vs 25%':<7} {'draws':>6} {'cpu ms/dec':>10}")
    for level in levels:
        for baseline in baselines:
            if baseline != level:
                print(row(level, baseline, args.games, args.dice), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
