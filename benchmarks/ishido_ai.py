"""How well the PalmIshido computer player plays, next to a random and a greedy player.

    .venv/bin/python benchmarks/ishido_ai.py --deals N --budget-ms M [--aim clear|score]

Every player plays the same seeded deals (seeds FIRST.. FIRST+N-1, modern
scoring). For each it prints the share of deals with all 72 tiles placed, the
mean modern score, four-ways and tiles left, and the mean time per move. The
random player picks any legal cell; the greedy player the cell with the most
neighbours (ties at random), the usual solitaire hint; ours is
palmish.ishido.ai.choose. A progress bar goes to stderr.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field

import _shared

from palmish.ishido import Game, ai

Player = Callable[[Game, random.Random], tuple[int, int]]


def random_player(game: Game, rng: random.Random) -> tuple[int, int]:
    return rng.choice(game.legal_moves())


def greedy_player(game: Game, rng: random.Random) -> tuple[int, int]:
    return max(game.legal_moves(), key=lambda m: (game.neighbour_count(*m), rng.random()))


def our_player(budget_ms: float, aim: str, max_evals: int | None) -> Player:
    def play(game: Game, rng: random.Random) -> tuple[int, int]:
        return ai.choose(game, budget_ms=budget_ms, aim=aim, rng=rng, max_evals=max_evals)

    return play


@dataclass
class Tally:
    scores: list[int] = field(default_factory=list)  # one per deal
    cleared: int = 0
    fourways: int = 0
    left: int = 0
    moves: int = 0
    seconds: float = 0.0

    def line(self, name: str) -> str:
        n = max(len(self.scores), 1)
        ms = 1000.0 * self.seconds / max(self.moves, 1)
        median = statistics.median(self.scores) if self.scores else 0
        return (
            f"{name:<8} {100.0 * self.cleared / n:>7.1f}% {sum(self.scores) / n:>12,.0f} "
            f"{median:>8,.0f} {self.fourways / n:>9.2f} {self.left / n:>10.2f} {ms:>9.2f}"
        )


def play_deal(player: Player, seed: int, tally: Tally) -> None:
    game = Game.new(seed=seed, scoring="modern")
    rng = random.Random(seed)
    while not game.over:
        start = time.perf_counter()
        row, col = player(game, rng)
        tally.seconds += time.perf_counter() - start
        tally.moves += 1
        game.place(row, col)
    tally.cleared += game.remaining == 0
    tally.scores.append(game.score)
    tally.fourways += game.fourways
    tally.left += game.remaining


def progress(name: str, done: int, total: int) -> None:
    _shared.progress(name, done, total, name_width=8)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=3, help="how many deals (default 3)")
    parser.add_argument("--first", type=int, default=0, help="seed of the first deal")
    parser.add_argument("--budget-ms", type=float, default=100.0, help="our time per move")
    parser.add_argument("--aim", choices=ai.AIMS, default="clear")
    parser.add_argument(
        "--max-evals", type=int, default=None,
        help="limit our search by positions evaluated instead of time (reproducible)",
    )
    parser.add_argument(
        "--players", default="random,greedy,ours", help="comma-separated: random, greedy, ours"
    )
    args = parser.parse_args()
    if args.deals < 1 or args.budget_ms <= 0 or (args.max_evals is not None and args.max_evals < 1):
        print("ishido_ai: --deals, --budget-ms and --max-evals must be positive", file=sys.stderr)
        return 2
    players: dict[str, Player] = {
        "random": random_player,
        "greedy": greedy_player,
        "ours": our_player(args.budget_ms, args.aim, args.max_evals),
    }
    chosen = [name.strip() for name in args.players.split(",") if name.strip()]
    unknown = [name for name in chosen if name not in players]
    if unknown or not chosen:
        print(f"ishido_ai: unknown player {', '.join(unknown) or '(none)'}"
              " (use random, greedy, ours)", file=sys.stderr)
        return 2

    seeds = range(args.first, args.first + args.deals)
    tallies: dict[str, Tally] = {}
    for name in chosen:
        tally = tallies[name] = Tally()
        for done, seed in enumerate(seeds, start=1):
            play_deal(players[name], seed, tally)
            progress(name, done, len(seeds))

    limit = (f"{args.max_evals} evaluations/move" if args.max_evals
             else f"budget {args.budget_ms:g} ms/move")
    print(f"seeds {seeds.start}..{seeds.stop - 1}, ours: aim={args.aim}, {limit}")
    print(f"{'player':<8} {'cleared':>8} {'mean score':>12} {'median':>8} {'fourways':>9} "
          f"{'tiles left':>10} {'ms/move':>9}")
    for name in chosen:
        print(tallies[name].line(name))
    return 0


if __name__ == "__main__":
    sys.exit(main())
