"""How a finished game ended, the same type for every engine.

Pure (no device, no game), so each game's engine can return it: `Game.outcome()`
is None while the game goes on and an `Outcome` once it is over. The app records it
in the statistics (`BoardGameApp.record_result`); see docs/architecture.md.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum


class Termination(Enum):
    """Why a game ended. The value is the word a record or a log may use."""

    ALL_PLACED = "all_placed"  # PalmIshido: every tile is on the board
    CLEARED = "cleared"  # Sigmar's Garden: only Slag (or nothing) is left
    ALL_HOME = "all_home"  # Pachisi: a player brought all four pieces home
    STUCK = "stuck"  # no legal move is left (Ishido's tile has no cell, no atoms react)
    DEADLOCK = "deadlock"  # Pachisi: every player has a piece stuck before the finish


@dataclass(frozen=True)
class Outcome:
    """A finished game: why it ended, who won and its score."""

    termination: Termination
    winner: int | None = None  # the winning player's index (0 in a solitaire); None: nobody
    score: int | None = None  # the final score, for a game that keeps one
