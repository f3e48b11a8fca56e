"""The high-score tables: the ten best results of each scoring, kept in the prefs."""

from __future__ import annotations

from dataclasses import dataclass, field

from palmish.ishido.rules import SCORINGS

TABLE_SIZE = 10


@dataclass(frozen=True)
class Entry:
    score: int
    fourways: int
    tiles_left: int
    seed: int


@dataclass
class HighScores:
    tables: dict[str, list[Entry]] = field(default_factory=lambda: {s: [] for s in SCORINGS})

    def table(self, scoring: str) -> list[Entry]:
        return list(self.tables.get(scoring, []))

    def add(self, scoring: str, entry: Entry) -> int | None:
        """Enter a finished game; its rank (1 = best) or None if it did not make the table.

        A new score goes below older equal scores: the first to reach it keeps the place.
        """
        table = self.tables.setdefault(scoring, [])
        rank = next((i for i, e in enumerate(table) if entry.score > e.score), len(table))
        if rank >= TABLE_SIZE:
            return None
        table.insert(rank, entry)
        del table[TABLE_SIZE:]
        return rank + 1

    def to_prefs(self) -> dict[str, object]:
        return {s: [[e.score, e.fourways, e.tiles_left, e.seed] for e in t]
                for s, t in self.tables.items()}

    @classmethod
    def from_prefs(cls, value: object) -> HighScores:
        """Read what to_prefs wrote; anything malformed is skipped, never fatal."""
        scores = cls()
        if not isinstance(value, dict):
            return scores
        for scoring in SCORINGS:
            rows = value.get(scoring)
            if not isinstance(rows, list):
                continue
            for row in rows:
                if (isinstance(row, list) and len(row) == 4
                        and all(isinstance(v, int) and not isinstance(v, bool) for v in row)):
                    scores.tables[scoring].append(Entry(*row))
            scores.tables[scoring].sort(key=lambda e: -e.score)
            del scores.tables[scoring][TABLE_SIZE:]
        return scores
