"""PalmIshido's high scores: the ten best results of each scoring (palmish.boardgame.stats)."""

from __future__ import annotations

from typing import NamedTuple

from palmish.boardgame.stats import ScoreTables
from palmish.ishido.rules import SCORINGS


class Entry(NamedTuple):
    score: int
    fourways: int
    tiles_left: int
    seed: int


HighScores = ScoreTables[Entry]


def high_scores(saved: object = None) -> HighScores:
    """The tables, read from what `to_prefs` wrote (empty when absent or malformed)."""
    scores = ScoreTables(SCORINGS, Entry, width=4)
    scores.load(saved)
    return scores
