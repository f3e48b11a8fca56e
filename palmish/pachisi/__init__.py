"""Pachisi (seed 004, docs/pachisi-rules.md): the rules engine (rules.py, game.py) and
the computer players (ai.py). Pure: no device import.

    from palmish.pachisi import Game, Player, Move, IllegalMove, PASS, ai

The engine is imported on first use (palmish.lazy): the registry reads the
descriptor (descriptor.py) of every game without importing any engine.
"""

from typing import TYPE_CHECKING

from palmish.lazy import exports

if TYPE_CHECKING:
    from palmish.pachisi import ai
    from palmish.pachisi.game import CAUTION_TEXT, NO_MOVE, PASS, Event, Game, Player, Throw
    from palmish.pachisi.rules import IllegalMove, Move

__all__ = [
    "CAUTION_TEXT", "NO_MOVE", "PASS", "Event", "Game", "IllegalMove", "Move", "Player", "Throw",
    "ai",
]
__getattr__ = exports(__name__, {
    "palmish.pachisi.game": ("CAUTION_TEXT", "NO_MOVE", "PASS", "Event", "Game", "Player",
                             "Throw"),
    "palmish.pachisi.rules": ("IllegalMove", "Move"),
}, submodules=("ai",))
