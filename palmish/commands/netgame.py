"""What `palmish host` and `palmish join` share: the games that play over the
network (their --app), and the chosen game's engine, which checks the options
that depend on the game (docs/network.md, "A game's network engine")."""

from __future__ import annotations

import argparse

from palmish.games import network_games
from palmish.network.engine import NetworkEngine, engine_for


def network_apps() -> list[str]:
    """The ids of the games with a network engine, in launcher order."""
    return [g.id for g in network_games()]


def engine(parser: argparse.ArgumentParser, app: str | None) -> NetworkEngine:
    """The network engine of the game `app` (--app); a usage error when there is none."""
    if app is None:
        parser.error("no game here plays over the network")
    return engine_for(app)

