"""Pachisi (seed 004, docs/pachisi-rules.md): the rules engine (rules.py, game.py) and
the computer players (ai.py). Pure: no device import.

    from palmish.pachisi import Game, Player, Move, IllegalMove, PASS, ai
"""

from palmish.pachisi import ai
from palmish.pachisi.game import CAUTION_TEXT, NO_MOVE, PASS, Event, Game, Player, Throw
from palmish.pachisi.rules import IllegalMove, Move

__all__ = [
    "CAUTION_TEXT", "NO_MOVE", "PASS", "Event", "Game", "IllegalMove", "Move", "Player", "Throw",
    "ai",
]
