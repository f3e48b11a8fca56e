"""Sigmar's Garden: the rules engine (rules.py, game.py), levels, the board generator
and the solver. Import it as
``from palmish.sigmar import Game, Atom, Take, IllegalMove, LevelError, solver``.

The engine is imported on first use (palmish.lazy): the registry reads the
descriptor (descriptor.py) of every game without importing any engine."""

from typing import TYPE_CHECKING

from palmish.lazy import exports

if TYPE_CHECKING:
    from palmish.sigmar import solver
    from palmish.sigmar.game import Game
    from palmish.sigmar.level import Level, LevelError, parse_level, read_level
    from palmish.sigmar.rules import Atom, IllegalMove, Take
    from palmish.sigmar.solver import SearchBudget

__all__ = [
    "Atom", "Game", "IllegalMove", "Level", "LevelError", "SearchBudget", "Take",
    "parse_level", "read_level", "solver",
]
__getattr__ = exports(__name__, {
    "palmish.sigmar.game": ("Game",),
    "palmish.sigmar.level": ("Level", "LevelError", "parse_level", "read_level"),
    "palmish.sigmar.rules": ("Atom", "IllegalMove", "Take"),
    "palmish.sigmar.solver": ("SearchBudget",),
}, submodules=("solver",))
