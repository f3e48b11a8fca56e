"""PalmIshido: the rules engine (rules.py, game.py), the computer player (ai.py)
and the app. Import the engine as ``from palmish.ishido import Game, Tile, IllegalMove``.

The engine is imported on first use (palmish.lazy): the registry reads the
descriptor (descriptor.py) of every game without importing any engine."""

from typing import TYPE_CHECKING

from palmish.lazy import exports

if TYPE_CHECKING:
    from palmish.ishido.game import Game, Placement
    from palmish.ishido.rules import IllegalMove, Tile, roman

__all__ = ["Game", "IllegalMove", "Placement", "Tile", "roman"]
__getattr__ = exports(__name__, {
    "palmish.ishido.game": ("Game", "Placement"),
    "palmish.ishido.rules": ("IllegalMove", "Tile", "roman"),
})
