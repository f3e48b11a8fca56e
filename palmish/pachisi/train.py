"""Train the `hard` player's weights by self-play with TD(lambda).

    python -m palmish.pachisi.train [--games N] [--seed S] [--out FILE]

Writes `hard-weights.json` (by default the packaged file, so running it with
the defaults reproduces the committed weights exactly: every game, seat and
throw comes from --seed). The method is in docs/pachisi-rules.md.

Each training game seats four players (sometimes two or three); each seat is
the learner itself (greedy on its present weights), or, to keep it honest
against other styles, `normal` or a sane random player. After every decision
the position's feature rows are kept with the softmax win chances the weights
give them; when the game ends, the chances are pulled toward the
lambda-return (a blend of the later chances and the true winner) by a
gradient step on the cross-entropy.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

from palmish.pachisi import ai, features, learned, rules
from palmish.pachisi.features import COUNT, NAMES, player_features
from palmish.pachisi.game import PASS, Game, Phase, Player, _Pass
from palmish.pachisi.rules import FINISH, Move

DEFAULT_OUT = Path(__file__).with_name(learned.WEIGHTS_FILE)
DEFAULT_GAMES = 8000
DEFAULT_SEED = 2026
MAX_THROWS = 5000  # a game that long is stuck in passing; it teaches nothing

Policy = Callable[[Game, random.Random, Sequence[float]], "Move | _Pass"]


def initial_weights() -> list[float]:
    """A plain race count to start from: a step is worth 1/60 in log-odds, a
    finished piece a little more, a piece stuck on 75 a lost game."""
    w = [0.0] * COUNT
    step = 1.0 / 60.0
    for i, name in enumerate(NAMES):
        if name.startswith("ring"):
            w[i] = int(name[4:]) * step
        elif name.startswith("home"):
            w[i] = int(name[4:]) * step + 0.1
        elif name == "finished":
            w[i] = FINISH * step + 0.2
        elif name == "stuck":
            w[i] = -3.0
    return w


def _learner(game: Game, rng: random.Random, w: Sequence[float]) -> Move | _Pass:
    return ai.choose_learned(game, w, look=False)


def _normal(game: Game, rng: random.Random, w: Sequence[float]) -> Move | _Pass:
    return ai.choose(game, "normal")


def _sane_random(game: Game, rng: random.Random, w: Sequence[float]) -> Move | _Pass:
    moves = game.legal_moves()
    sane = rules.sane(moves)
    if sane:
        return rng.choice(sane)
    return PASS if game.can_pass else moves[0]


# Each seat is the learner itself (6 in 10), `normal` (3 in 10) or a sane
# random player; a table without the learner gets it in one seat.
LEARNER_BELOW = 0.6
NORMAL_BELOW = 0.9


def _seat_policies(rng: random.Random, n: int) -> list[Policy]:
    policies: list[Policy] = []
    for _ in range(n):
        r = rng.random()
        policies.append(_learner if r < LEARNER_BELOW
                        else _normal if r < NORMAL_BELOW else _sane_random)
    if _learner not in policies:
        policies[rng.randrange(n)] = _learner
    return policies


def play_and_learn(w: list[float], seed: int, rng: random.Random, alpha: float,
                   lam: float, dice: str) -> int | None:
    """One training game; updates `w` in place and returns the winner."""
    n = 4 if rng.random() < 0.8 else rng.choice((2, 3))
    policies = _seat_policies(rng, n)
    game = Game.new(seed=seed, players=[Player(f"P{i}") for i in range(n)], dice=dice)
    t = features.tables(dice)
    trail: list[tuple[list[list[float]], list[float]]] = []
    for _ in range(MAX_THROWS):
        if game.over:
            break
        game.throw()
        if game.phase != Phase.MOVE:
            continue
        choice = policies[game.current](game, rng, w)
        if choice is PASS:
            game.pass_turn()
        else:
            assert isinstance(choice, Move)
            game.move(choice)
        if game.over:
            break
        pos = [list(game.positions(p)) for p in range(n)]
        first = [game.in_first_turn(p) for p in range(n)]
        rows = player_features(pos, game.seats, first, game.current, t)
        trail.append((rows, learned.chances(rows, w)))
    if not game.over:
        return None
    winner = game.winner
    target = [1.0 / n] * n if winner is None else [float(p == winner) for p in range(n)]
    # Backwards: the lambda-return G_t = (1 - lam) V_{t+1} + lam G_{t+1}.
    for rows, chance in reversed(trail):
        for p in range(n):
            error = alpha * (target[p] - chance[p])
            if error:
                row = rows[p]
                for i in range(COUNT):
                    w[i] += error * row[i]
        target = [(1.0 - lam) * c + lam * g for c, g in zip(chance, target, strict=True)]
    return winner


def train(games: int, seed: int, alpha: float = 0.004, lam: float = 0.7,
          progress: Callable[[int], None] | None = None) -> list[float]:
    """Weights after `games` training games from `seed` (deterministic)."""
    rng = random.Random(seed)
    w = initial_weights()
    for g in range(games):
        rate = alpha / (1.0 + 3.0 * g / max(games, 1))  # settle down towards the end
        dice = "cowrie" if rng.random() < 0.75 else "die7"
        play_and_learn(w, rng.randrange(1 << 31), rng, rate, lam, dice)
        if progress:
            progress(g + 1)
    return w


def write_weights(path: Path, w: Sequence[float], games: int, seed: int) -> None:
    """The weights file: one weight per feature name, and how it was made."""
    data = {
        "made_by": "python -m palmish.pachisi.train",
        "games": games,
        "seed": seed,
        "weights": {name: round(v, 6) for name, v in zip(NAMES, w, strict=True)},
    }
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    tmp.replace(path)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=DEFAULT_GAMES)
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED)
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    args = parser.parse_args(argv)
    if args.games < 1:
        print("train: --games must be positive", file=sys.stderr)
        return 2

    def show(done: int) -> None:
        if done % 50 == 0 or done == args.games:
            sys.stderr.write(f"\rtraining {done}/{args.games}")
            sys.stderr.flush()

    w = train(args.games, args.seed, progress=show)
    sys.stderr.write("\n")
    try:
        write_weights(args.out, w, args.games, args.seed)
    except OSError as exc:
        print(f"train: cannot write {args.out}: {exc.strerror}", file=sys.stderr)
        return 1
    print(f"wrote {args.out} ({args.games} games, seed {args.seed})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
