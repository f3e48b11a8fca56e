"""How a finished game ended, the same type for every engine.

Pure (no device, no game), so each game's engine can return it: `Game.outcome()`
is None while the game goes on and an `Outcome` once it is over, a record on
the one record base of both packages (prc_tools/frozen.py, below every layer). The app records it
in the statistics (`BoardGameApp.record_result`); see docs/architecture.md.
"""

from __future__ import annotations

from enum import Enum

from prc_tools.frozen import Frozen


class Termination(Enum):
    """Why a game ended, in words that fit any game: a new game picks among them and
    needs no edit here. The value is the word a log may use (no record stores it:
    docs/storage.md)."""

    # The goal was reached: every PalmIshido tile placed, Sigmar's Garden's board
    # cleared, a Pachisi player's four pieces home. `winner` says who won, if anyone.
    COMPLETED = "completed"
    # The player to move has no legal move before the goal (Ishido's tile has no
    # cell, no Sigmar atoms can react).
    STUCK = "stuck"
    # Every player is blocked before the goal for good, so nobody can finish (Pachisi).
    DEADLOCK = "deadlock"
    # The rules ended the game against the player before the goal: out of moves,
    # time or lives.
    LOST = "lost"


class Outcome(Frozen):
    """A finished game: why it ended, who won and its score."""

    termination: Termination
    winner: int | None = None  # the winning player's index (0 in a solitaire); None: nobody
    score: int | None = None  # the final score, for a game that keeps one
