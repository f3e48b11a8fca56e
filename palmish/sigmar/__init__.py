"""Sigmar's Garden: the rules engine (rules.py, game.py), levels, the board generator
and the solver. Import it as
``from palmish.sigmar import Game, Atom, Take, IllegalMove, LevelError, solver``."""

from palmish.sigmar import solver
from palmish.sigmar.game import Game
from palmish.sigmar.level import Level, LevelError, parse_level, read_level
from palmish.sigmar.rules import Atom, IllegalMove, Take
from palmish.sigmar.solver import SearchBudget

__all__ = [
    "Atom", "Game", "IllegalMove", "Level", "LevelError", "SearchBudget", "Take",
    "parse_level", "read_level", "solver",
]
