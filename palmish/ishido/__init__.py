"""PalmIshido: the rules engine (rules.py, game.py), the computer player (ai.py)
and the app. Import the engine as ``from palmish.ishido import Game, Tile, IllegalMove``."""

from palmish.ishido.game import Game, Placement
from palmish.ishido.rules import IllegalMove, Tile, roman

__all__ = ["Game", "IllegalMove", "Placement", "Tile", "roman"]
