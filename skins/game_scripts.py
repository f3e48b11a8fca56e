"""Run every game's art or screenshot script, as the game registry lists them.

    .venv/bin/python skins/game_scripts.py art [GAME ...]          # redraw the bundled plugins
    .venv/bin/python skins/game_scripts.py screenshots [GAME ...]  # docs/screenshots/<game>-*.png
                                                                   # (and network-*.png)

Each game's descriptor (palmish/<game>/descriptor.py) names its scripts, by
their path from the repository root; without GAME ids, all the games' run.
Each script runs on its own, with the Python that runs this one.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

from palmish.games import games

ROOT = Path(__file__).resolve().parents[1]


def scripts(kind: str, wanted: list[str]) -> list[Path]:
    """The `kind` ("art" or "screenshots") scripts of the wanted games (all: [])."""
    unknown = set(wanted) - {g.id for g in games()}
    if unknown:
        raise SystemExit(f"game_scripts: no game {', '.join(sorted(unknown))}"
                         f" (games: {', '.join(g.id for g in games())})")
    chosen = [g for g in games() if not wanted or g.id in wanted]
    paths = [p for g in chosen for p in ((g.art_script,) if kind == "art" else
                                        (g.screenshot_script, g.network_screenshot_script))]
    return [ROOT / p for p in paths if p is not None]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("kind", choices=("art", "screenshots"))
    parser.add_argument("games", nargs="*", metavar="GAME")
    args = parser.parse_args(argv)
    for script in scripts(args.kind, args.games):
        print(f"== {script.relative_to(ROOT)}", flush=True)
        if subprocess.run([sys.executable, str(script)], check=False).returncode != 0:
            return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
