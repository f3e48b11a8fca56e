"""How fast the Pachisi engine is and how well Silicon plays.

    .venv/bin/python benchmarks/pachisi.py [--games N] [--speed-seconds S]
        [--dice cowrie|die7] [--levels hard] [--baselines sane-random,normal]
        [--only speed|table|seats|length] [--first-seed N] [--length-games N]

1. Complete 4-player games per second with random players (any legal move,
   caution moves included, never passing), for --speed-seconds.

Random choices are uniform over distinct moves (rules.distinct: one entering
move stands for the start area's alike pieces, each of which has its own
move), so entering is not favoured by the number of pieces waiting.
2. The tournament: each level in one seat against three copies of a
   baseline (random: the random players of 1, who may walk onto 75; sane
   random: uniform among non-caution moves; sane fast: the most advanced
   non-caution move; and the other levels). The level's seat
   rotates through all four seats game by game; game g uses seed g
   (--first-seed N: seeds N, N+1, ..., for a check on fresh games). Win
   rate with its 95 % (Wilson) interval against the 25 % of an equal
   player, and the level's CPU ms per decision: mean, 99th percentile and
   maximum (CPU time, so other work on a shared machine does not count; the
   speed line gives both). --games per row (default 2,000). A progress bar
   goes to stderr.
3. The seat bias: each level in all four seats, game g with seed g (or N +
   g with --first-seed); the share of wins of each seat (South, West,
   North, East: South throws first) with its 95 % interval.
4. The game length (--length-games games a level, default 200; seeds as in
   3): each level in all four seats, the table a person meets against three
   Silicons of that level, the person's seat played by it too. A turn is one
   player's run of throws (it ends with a pass, a lost throw or a move that
   earns no further throw). Per level: the turns of a game (mean, median,
   90th percentile), the turns of one player (the mean over the four), the
   shares of turns that ended in a pass (after a throw some move could use)
   and in a lost throw (no legal move), and the games stopped at 20,000
   throws.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from collections.abc import Callable

import _shared
from _shared import percentile

from palmish.pachisi import PASS, Game, Move, Player, ai, rules
from palmish.pachisi.game import _Pass

Choice = Callable[[Game, random.Random], "Move | _Pass"]


def random_player(game: Game, rng: random.Random) -> Move | _Pass:
    return rng.choice(rules.distinct(game.legal_moves()))


def sane_random(game: Game, rng: random.Random) -> Move | _Pass:
    moves = game.legal_moves()
    sane = rules.sane(moves)
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
    "random": random_player,
    "sane-random": sane_random,
    "sane-fast": sane_fast,
    **{lv: level_player(lv) for lv in ai.ALL_LEVELS},
}


def play(game: Game, seats: list[Choice], rng: random.Random,
         timed: int | None = None, tally: Tally | None = None) -> tuple[int | None, list[float]]:
    """Play to the end; the CPU seconds of each decision of player `timed`;
    the turns, passes and lost throws into `tally`."""
    times: list[float] = []
    for _ in range(MAX_THROWS):  # the rules allow endless passing; count such a game as no win
        if game.over:
            break
        if game.phase == "throw":
            if tally is not None:
                tally.throw(game)
            else:
                game.throw()
        if game.phase != "move":
            continue
        who = game.current
        start = time.process_time()  # CPU time: the machine may be shared
        choice = seats[who](game, rng)
        if who == timed:
            times.append(time.process_time() - start)
        if choice is PASS:
            game.pass_turn()
            if tally is not None:
                tally.passes += 1
        else:
            assert isinstance(choice, Move)
            game.move(choice)
    return game.winner, times  # None: no winner (or stopped at MAX_THROWS)


class Tally:
    """Turns, passes and lost throws of the games played through `play`."""

    def __init__(self) -> None:
        self.turns = 0
        self.passes = 0
        self.lost = 0

    def throw(self, game: Game) -> None:
        if game.phase == "throw" and not game.turn_throws:
            self.turns += 1  # the first throw of a turn
        game.throw()
        if game.phase != "move" and game.history[-1].outcome == "lost" \
                and game.current != game.history[-1].player:
            self.lost += 1  # the turn ended with a lost throw


def progress(name: str, done: int, total: int) -> None:
    _shared.progress(name, done, total, name_width=22)


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


def timing(times: list[float]) -> str:
    """Mean, 99th percentile and maximum of decision times, in ms."""
    if not times:
        return f"{'-':>7} {'-':>7} {'-':>7}"
    return (f"{1000 * sum(times) / len(times):>7.2f} {1000 * percentile(times, 0.99):>7.2f} "
            f"{1000 * max(times):>7.2f}")


def row(level: str, baseline: str, games: int, dice: str, first_seed: int = 0) -> str:
    wins = draws = 0
    times: list[float] = []
    names = [Player(f"P{i}") for i in range(4)]
    for g in range(first_seed, first_seed + games):
        seat = g % 4
        seats = [PLAYERS[baseline]] * 4
        seats[seat] = PLAYERS[level]
        game = Game.new(seed=g, players=names, dice=dice)
        winner, took = play(game, seats, random.Random(g), timed=seat)
        wins += winner == seat
        draws += winner is None
        times += took
        progress(f"{level} vs 3 {baseline}", g + 1 - first_seed, games)
    low, high = wilson(wins, games)
    verdict = "better" if low > 0.25 else "worse" if high < 0.25 else "even"
    return (f"{level:<9} {baseline:<12} {games:>6} {wins:>6} {100 * wins / games:>6.1f}% "
            f"[{100 * low:5.1f}, {100 * high:5.1f}] {verdict:<7} {draws:>6} {timing(times)}")


def seat_bias(level: str, games: int, dice: str, first_seed: int = 0) -> str:
    """The level in all four seats: how often each seat wins."""
    wins = [0] * 4
    times: list[float] = []
    names = [Player(f"P{i}") for i in range(4)]
    for g in range(first_seed, first_seed + games):
        game = Game.new(seed=g, players=names, dice=dice)
        winner, took = play(game, [PLAYERS[level]] * 4, random.Random(g), timed=g % 4)
        if winner is not None:
            wins[winner] += 1
        times += took
        progress(f"{level} in every seat", g + 1 - first_seed, games)
    cells = []
    for w in wins:
        low, high = wilson(w, games)
        cells.append(f"{w:>5} {100 * w / games:5.1f}% [{100 * low:4.1f}, {100 * high:4.1f}]")
    return f"{level:<9} {games:>6}  " + "  ".join(cells) + f"  {timing(times)}"


def length(level: str, games: int, dice: str, first_seed: int = 0) -> str:
    """The level in all four seats: how long a game is and how its turns end."""
    per_game: list[float] = []
    tally = Tally()
    stopped = 0
    names = [Player(f"P{i}") for i in range(4)]
    for g in range(first_seed, first_seed + games):
        game = Game.new(seed=g, players=names, dice=dice)
        before = tally.turns
        play(game, [PLAYERS[level]] * 4, random.Random(g), tally=tally)
        stopped += not game.over
        per_game.append(tally.turns - before)
        progress(f"{level} game length", g + 1 - first_seed, games)
    turns = max(tally.turns, 1)
    mean = sum(per_game) / len(per_game)
    return (f"{level:<9} {games:>6} {mean:>7.1f} {percentile(per_game, 0.5):>7.0f} "
            f"{percentile(per_game, 0.9):>7.0f} {mean / 4:>9.1f} "
            f"{100 * tally.passes / turns:>7.1f}% {100 * tally.lost / turns:>7.1f}% {stopped:>8}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000, help="games per table row")
    parser.add_argument("--speed-seconds", type=float, default=5.0)
    parser.add_argument("--dice", choices=("cowrie", "die7"), default="cowrie")
    parser.add_argument("--levels", default=",".join(ai.ALL_LEVELS))
    parser.add_argument("--baselines", default=",".join(PLAYERS))
    parser.add_argument("--only", choices=("speed", "table", "seats", "length"), default=None)
    parser.add_argument("--length-games", type=int, default=200,
                        help="games per level of the game-length table")
    parser.add_argument("--first-seed", type=int, default=0,
                        help="seed of the first game (game g of a row uses seed N + g)")
    args = parser.parse_args()
    levels = [x for x in args.levels.split(",") if x]
    baselines = [x for x in args.baselines.split(",") if x]
    bad = [x for x in levels if x not in ai.ALL_LEVELS]
    bad += [x for x in baselines if x not in PLAYERS]
    if (bad or args.games < 1 or args.length_games < 1 or args.speed_seconds <= 0
            or args.first_seed < 0):
        print(f"pachisi: bad arguments {' '.join(bad)} (levels: {', '.join(ai.LEVELS)}; "
              f"baselines: {', '.join(PLAYERS)}; --games, --length-games and "
              f"--speed-seconds positive, --first-seed not negative)",
              file=sys.stderr)
        return 2
    if args.only in (None, "speed"):
        speed(args.speed_seconds, args.dice)
    if args.only in (None, "table"):
        print(f"tournament, {args.dice}, seeds {args.first_seed}-"
              f"{args.first_seed + args.games - 1}: one seat (rotated) against three copies "
              f"of the baseline; CPU ms per decision")
        print(f"{'level':<9} {'vs 3 x':<12} {'games':>6} {'wins':>6} {'share':>7} "
              f"{'95% interval':>14} {'vs 25%':<7} {'draws':>6} {'mean':>7} {'p99':>7} "
              f"{'max':>7}")
        for level in levels:
            for baseline in baselines:
                if baseline != level:
                    print(row(level, baseline, args.games, args.dice, args.first_seed), flush=True)
    if args.only in (None, "seats"):
        print(f"seat bias, {args.dice}: the level in all four seats, wins by seat "
              f"(South throws first); CPU ms per decision of one seat a game")
        print(f"{'level':<9} {'games':>6}  {'South wins':<25}  {'West':<25}  {'North':<25}  "
              f"{'East':<25}  {'mean':>7} {'p99':>7} {'max':>7}")
        for level in levels:
            print(seat_bias(level, args.games, args.dice, args.first_seed), flush=True)
    if args.only in (None, "length"):
        print(f"game length, {args.dice}: the level in all four seats; turns of a game "
              f"(mean, median, 90th percentile), of one player (mean), and the share of "
              f"turns ended by a pass or a lost throw")
        print(f"{'level':<9} {'games':>6} {'turns':>7} {'median':>7} {'p90':>7} "
              f"{'a player':>9} {'passed':>8} {'lost':>8} {'stopped':>8}")
        for level in levels:
            print(length(level, args.length_games, args.dice, args.first_seed), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
