"""High scores and statistics, kept per variant in the app's preferences.

- `ScoreTables`: the best results of each variant (PalmIshido: "modern" and
  "scored"). An entry is a NamedTuple of ints whose first field is the score;
  higher is better, and a new score goes below older equal ones.
- `Tallies`: games played, won and lost per variant, the current streak
  (positive: wins in a row, negative: losses) and the best one, and games per
  player name (for games with named players).

Both read what they wrote and skip anything malformed, never failing. The base
app records a game once (`BoardGameApp.record_result`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Generic, TypeVar

E = TypeVar("E", bound=tuple[int, ...])
TABLE_SIZE = 10


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


class ScoreTables(Generic[E]):
    """The `size` best entries of each variant. `make` builds an entry from its ints."""

    def __init__(self, variants: Sequence[str], make: Callable[..., E], width: int,
                 size: int = TABLE_SIZE) -> None:
        self.variants = tuple(variants)
        self.tables: dict[str, list[E]] = {v: [] for v in self.variants}
        self._make = make
        self._width = width  # ints per entry
        self.size = size

    def table(self, variant: str) -> list[E]:
        return list(self.tables.get(variant, []))

    def best(self, variant: str) -> E | None:
        table = self.tables.get(variant)
        return table[0] if table else None

    def add(self, variant: str, entry: E) -> int | None:
        """Enter a result; its rank (1 = best) or None if it did not make the table."""
        table = self.tables.setdefault(variant, [])
        rank = next((i for i, e in enumerate(table) if entry[0] > e[0]), len(table))
        if rank >= self.size:
            return None
        table.insert(rank, entry)
        del table[self.size:]
        return rank + 1

    def to_prefs(self) -> dict[str, object]:
        return {v: [list(e) for e in t] for v, t in self.tables.items()}

    def load(self, value: object) -> None:
        """Replace the tables with what `to_prefs` wrote (malformed rows are skipped)."""
        self.tables = {v: [] for v in self.variants}
        if not isinstance(value, dict):
            return
        for variant in self.variants:
            rows = value.get(variant)
            if not isinstance(rows, list):
                continue
            table = self.tables[variant]
            for row in rows:
                if (isinstance(row, list) and len(row) == self._width
                        and all(_is_int(v) for v in row)):
                    table.append(self._make(*row))
            table.sort(key=lambda e: -e[0])
            del table[self.size:]


@dataclass
class Tally:
    """Games played, won and lost, and the current streak, of one variant."""

    played: int = 0
    won: int = 0
    lost: int = 0
    streak: int = 0  # > 0: wins in a row; < 0: losses in a row
    best_streak: int = 0  # the longest run of wins

    def add(self, won: bool | None) -> None:
        """Count one game; `won` None for a game without a winner (a solitaire's end)."""
        self.played += 1
        if won is True:
            self.won += 1
            self.streak = self.streak + 1 if self.streak > 0 else 1
            self.best_streak = max(self.best_streak, self.streak)
        elif won is False:
            self.lost += 1
            self.streak = self.streak - 1 if self.streak < 0 else -1


@dataclass
class Tallies:
    """The tallies per variant and the games per player name."""

    variants: dict[str, Tally] = field(default_factory=dict)
    players: dict[str, int] = field(default_factory=dict)  # games per player name

    def tally(self, variant: str) -> Tally:
        return self.variants.get(variant, Tally())

    def add(self, variant: str, won: bool | None = None, players: Sequence[str] = ()) -> None:
        self.variants.setdefault(variant, Tally()).add(won)
        for name in dict.fromkeys(players):  # a name playing two seats counts once
            self.players[name] = self.players.get(name, 0) + 1

    def to_prefs(self) -> dict[str, object]:
        return {
            "variants": {v: [t.played, t.won, t.lost, t.streak, t.best_streak]
                         for v, t in self.variants.items()},
            "players": dict(self.players),
        }

    @classmethod
    def from_prefs(cls, value: object) -> Tallies:
        tallies = cls()
        if not isinstance(value, dict):
            return tallies
        variants = value.get("variants")
        if isinstance(variants, dict):
            for name, row in variants.items():
                if (isinstance(name, str) and isinstance(row, list) and len(row) == 5
                        and all(_is_int(v) for v in row)):
                    tallies.variants[name] = Tally(*row)
        players = value.get("players")
        if isinstance(players, dict):
            tallies.players = {k: v for k, v in players.items()
                               if isinstance(k, str) and _is_int(v)}
        return tallies
