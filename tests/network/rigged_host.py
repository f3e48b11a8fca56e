"""A host patched to rig its throws (run as a program by the tests:
`python -m tests.network.rigged_host HOST-OPTIONS...`): every third throw it
makes is a six, whatever its generator says. Its joiners must find out."""

from __future__ import annotations

import itertools
import sys

from palmish.cli import main
from palmish.pachisi.game import Game

_real_throw = Game.throw
_draws = itertools.count()


def _rigged(game: Game, value: int | None = None) -> int:
    if value is None and next(_draws) % 3 == 0:  # the host's own draws only
        value = 6  # (sixes every time would never end the game)
    return _real_throw(game, value)


if __name__ == "__main__":
    Game.throw = _rigged  # type: ignore[method-assign]
    raise SystemExit(main(["host", *sys.argv[1:]]))
