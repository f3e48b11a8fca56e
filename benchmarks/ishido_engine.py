"""How fast the PalmIshido engine is, next to a straightforward cell-by-cell engine.

    .venv/bin/python benchmarks/ishido_engine.py [--games N] [--seconds S]

Prints legal-move generations per second and complete random games per
second (a random legal move each turn, seeded) for palmish.ishido, then the
same games on a plain 2-D list engine written here only for comparison.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable

from palmish.ishido import Game, Tile, rules


class CellByCellGame:
    """The rules as a beginner would code them: a 2-D list, one cell at a time."""

    def __init__(self, seed: int) -> None:
        opening, self.pouch = rules.deal(seed)
        self.board: list[list[Tile | None]] = [[None] * 12 for _ in range(8)]
        for (r, c), t in zip(rules.OPENING_CELLS, opening, strict=True):
            self.board[r][c] = t
        self.drawn = 0

    def fits(self, tile: Tile, r: int, c: int) -> bool:
        if self.board[r][c] is not None:
            return False
        only_color = only_shape = both = 0
        for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
            if not (0 <= rr < 8 and 0 <= cc < 12):
                continue
            n = self.board[rr][cc]
            if n is None:
                continue
            color, shape = n.color == tile.color, n.shape == tile.shape
            if color and shape:
                both += 1
            elif color:
                only_color += 1
            elif shape:
                only_shape += 1
            else:
                return False
        count = only_color + only_shape + both
        if count == 0:
            return False
        if count == 1:
            return True
        # Split `count` into colour-servers and shape-servers; twins fill either side.
        splits = {2: ((1, 1),), 3: ((2, 1), (1, 2)), 4: ((2, 2),)}[count]
        return any(only_color <= k_c and only_shape <= k_s for k_c, k_s in splits)

    def legal_moves(self) -> list[tuple[int, int]]:
        if self.drawn >= len(self.pouch):
            return []
        tile = self.pouch[self.drawn]
        return [(r, c) for r in range(8) for c in range(12) if self.fits(tile, r, c)]

    def place(self, r: int, c: int) -> None:
        self.board[r][c] = self.pouch[self.drawn]
        self.drawn += 1


def random_games_engine(seeds: range, choices: random.Random) -> int:
    placed = 0
    for seed in seeds:
        game = Game.new(seed=seed)
        while not game.over:
            moves = game.legal_moves()
            game.place(*moves[choices.randrange(len(moves))])
        placed += game.placed_count
    return placed


def random_games_cell_by_cell(seeds: range, choices: random.Random) -> int:
    placed = 0
    for seed in seeds:
        game = CellByCellGame(seed)
        moves = game.legal_moves()
        while moves:
            game.place(*moves[choices.randrange(len(moves))])
            moves = game.legal_moves()
        placed += 6 + game.drawn
    return placed


def sample_positions(count: int) -> list[Game]:
    """Games stopped part-way, to time legal-move generation on varied boards."""
    rng = random.Random(1)
    games = []
    for seed in range(count):
        game = Game.new(seed=10_000 + seed)
        for _ in range(rng.randrange(0, 50)):
            if game.over:
                break
            game.place(*rng.choice(game.legal_moves()))
        games.append(game)
    return games


def board_masks(game: Game) -> tuple[int, int, int]:
    """The occupied / same-colour / same-shape masks for the current tile."""
    current = game.current or Tile(0, 0)
    occupied = same_color = same_shape = 0
    for r in range(rules.ROWS):
        for c in range(rules.COLS):
            t = game.tile_at(r, c)
            if t is not None:
                bit = 1 << rules.cell_index(r, c)
                occupied |= bit
                same_color |= bit if t.color == current.color else 0
                same_shape |= bit if t.shape == current.shape else 0
    return occupied, same_color, same_shape


def timed(label: str, seconds: float, step: Callable[[], int]) -> float:
    """Run `step()` (returning work done) until `seconds` pass; print and return the rate."""
    work = 0
    start = time.perf_counter()
    while (elapsed := time.perf_counter() - start) < seconds:
        work += step()
    rate = work / elapsed
    print(f"{label:<48} {rate:>12,.0f} /s")
    return rate


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="random games per batch")
    parser.add_argument("--seconds", type=float, default=2.0, help="time per measurement")
    args = parser.parse_args()
    if args.games < 1 or args.seconds <= 0:
        print("ishido_engine: --games must be >= 1 and --seconds > 0", file=sys.stderr)
        return 2

    positions = sample_positions(200)
    naive = []
    for game in positions:
        twin = CellByCellGame(game.seed or 0)
        for r, c in game.moves:
            twin.place(r, c)
        assert twin.legal_moves() == game.legal_moves()  # both engines agree
        naive.append(twin)

    # Game caches its legal moves, so time what legal_moves() runs on a miss.
    masks = [board_masks(game) for game in positions]

    def engine_generations() -> int:
        for occupied, same_color, same_shape in masks:
            rules.cells_of(rules.legal_mask(occupied, same_color, same_shape))
        return len(masks)

    def naive_generations() -> int:
        for twin in naive:
            twin.legal_moves()
        return len(naive)

    batch = range(args.games)
    fast_gen = timed("legal-move generations, engine", args.seconds, engine_generations)
    slow_gen = timed("legal-move generations, cell by cell", args.seconds, naive_generations)

    def fast_games() -> int:
        random_games_engine(batch, random.Random(0))
        return len(batch)

    def slow_games() -> int:
        random_games_cell_by_cell(batch, random.Random(0))
        return len(batch)

    # Same seeds and same choice stream: both engines play identical games.
    assert random_games_engine(batch, random.Random(0)) == random_games_cell_by_cell(
        batch, random.Random(0)
    )
    fast = timed("complete random games, engine", args.seconds, fast_games)
    slow = timed("complete random games, cell by cell", args.seconds, slow_games)
    print(f"speed-up: legal-move generation x{fast_gen / slow_gen:.1f}, "
          f"random games x{fast / slow:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
