"""Run every game's art or screenshot script, or check the games, as the registry lists them.

    .venv/bin/python skins/game_scripts.py art [GAME ...]          # redraw the bundled plugins
    .venv/bin/python skins/game_scripts.py screenshots [GAME ...]  # docs/screenshots/<game>-*.png
                                                                   # (and network-*.png)
    .venv/bin/python skins/game_scripts.py check [GAME ...]        # what each game lacks

Each game's descriptor (palmish/<game>/descriptor.py) names its scripts as
"module:main" (art_script, screenshot_script, network_screenshot_script);
without GAME ids, all the games' run. Each runs in a process of its own, with
the Python that runs this one. `check` prints, for each game, what it lacks
(palmish.gamecheck: one line each, saying what to add), and fails if anything.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

from palmish.games import GameDescriptor, games

ROOT = Path(__file__).resolve().parents[1]
# Runs one "module:main" target as its own program: its exit status is main()'s.
RUN_TARGET = "import sys; from palmish.games import load; sys.exit(load(sys.argv[1])(sys.argv[2:]))"


def chosen(wanted: list[str]) -> list[GameDescriptor]:
    """The wanted games (all: []); SystemExit naming an unknown one."""
    unknown = set(wanted) - {g.id for g in games()}
    if unknown:
        raise SystemExit(f"game_scripts: no game {', '.join(sorted(unknown))}"
                         f" (games: {', '.join(g.id for g in games())})")
    return [g for g in games() if not wanted or g.id in wanted]


def scripts(kind: str, wanted: list[str]) -> list[str]:
    """The `kind` ("art" or "screenshots") scripts of the wanted games (all: [])."""
    targets = [t for g in chosen(wanted) for t in ((g.art_script,) if kind == "art" else
                                          (g.screenshot_script, g.network_screenshot_script))]
    return [t for t in targets if t is not None]


def check(wanted: list[str]) -> int:
    """Print what each wanted game lacks; 1 if any game lacks something."""
    from palmish.gamecheck import check as problems_of

    failed = False
    for game in chosen(wanted):
        problems = problems_of(game)
        print("\n".join(f"{game.id}: {p}" for p in problems) or f"{game.id}: nothing missing")
        failed = failed or bool(problems)
    return 1 if failed else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("kind", choices=("art", "screenshots", "check"))
    parser.add_argument("games", nargs="*", metavar="GAME")
    args = parser.parse_args(argv)
    if args.kind == "check":
        return check(args.games)
    for target in scripts(args.kind, args.games):
        print(f"== {target}", flush=True)
        if subprocess.run([sys.executable, "-c", RUN_TARGET, target], cwd=ROOT,
                          check=False).returncode != 0:
            return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
