"""A PalmIshido game: the board, the pouch, the score and the undo stack."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Mapping
from typing import NamedTuple

from palmish.ishido import rules
from palmish.ishido.rules import IllegalMove, Tile
from palmish.outcome import Outcome, Termination
from palmish.records import split_record

RECORD_MAGIC = "ishido"
RECORD_VERSION = "1"


class Placement(NamedTuple):
    """What one placement earned.

    `points` is neighbour points plus the four-way bonus; `end_bonus` is the
    end-of-game bonus when this placement ended the game (else 0). The score
    grows by points + end_bonus.
    """

    row: int
    col: int
    tile: Tile
    neighbours: int
    points: int
    fourway: bool
    end_bonus: int


class Game:
    """One game. Build with Game.new(seed=...), Game.from_record(text) or,
    for tests and puzzles, Game.from_position(...)."""

    def __init__(
        self,
        placed: Iterable[tuple[tuple[int, int], Tile]],
        pouch: list[Tile],
        *,
        seed: int | None,
        scoring: str,
        score: int = 0,
        fourways: int = 0,
    ) -> None:
        if scoring not in rules.SCORINGS:
            raise ValueError(f"unknown scoring {scoring!r} (use 'modern' or 'scored')")
        self._seed = seed
        self._scoring = scoring
        self._cells: list[Tile | None] = [None] * (rules.ROWS * rules.STRIDE)
        self._occupied = 0
        self._by_color = [0] * rules.COLORS
        self._by_shape = [0] * rules.SHAPES
        for (row, col), t in placed:
            i = rules.cell_index(row, col)
            if self._cells[i] is not None:
                raise ValueError(f"two tiles on cell ({row}, {col})")
            self._put(i, rules.tile(t.color, t.shape))
        self._pouch = [rules.tile(t.color, t.shape) for t in pouch]
        self._drawn = 0  # pouch tiles already placed; pouch[_drawn] is current
        self._points = score  # placement points so far, end bonus excluded
        self._fourways = fourways
        self._moves: list[int] = []  # bit index of each placement, in order
        self._earned: list[int] = []  # points earned by each placement
        self._legal: int | None = None  # cached legal mask for the current tile

    # ------------------------------------------------------------ builders

    @classmethod
    def new(cls, seed: int | None = None, scoring: str = "modern") -> Game:
        """A dealt game; without a seed one is picked at random (see .seed)."""
        if seed is None:
            seed = random.SystemRandom().randrange(1 << 31)
        opening, pouch = rules.deal(seed)
        placed = zip(rules.OPENING_CELLS, opening, strict=True)
        return cls(placed, pouch, seed=seed, scoring=scoring)

    @classmethod
    def from_position(
        cls,
        board: Mapping[tuple[int, int], Tile],
        pouch: Iterable[Tile],
        *,
        scoring: str = "modern",
        score: int = 0,
        fourways: int = 0,
    ) -> Game:
        """A game from any position, for tests, puzzles and search.

        `board` maps (row, col) to tiles, `pouch` lists the tiles to come,
        current first; `score` / `fourways` are what was earned before. The
        tile counts are not checked against the 72-tile set, and such a game
        has no seed, so it cannot be recorded; undo stops at this position.
        """
        return cls(
            board.items(), list(pouch), seed=None, scoring=scoring,
            score=score, fourways=fourways,
        )

    @classmethod
    def from_record(cls, text: str) -> Game:
        """Replay a record made by record(); IllegalMove with one line if it is bad."""
        fields, moves = split_record(
            text, magic=RECORD_MAGIC, version=RECORD_VERSION, fields_known=("seed", "scoring"),
            what="an Ishido record", error=IllegalMove,
        )
        if "seed" not in fields:
            raise IllegalMove("record has no seed=")
        try:
            seed = int(fields["seed"])
        except ValueError:
            raise IllegalMove(f"record seed {fields['seed']!r} is not a whole number") from None
        scoring = fields.get("scoring", "modern")
        if scoring not in rules.SCORINGS:
            raise IllegalMove(f"record scoring {scoring!r} is not 'modern' or 'scored'")
        game = cls.new(seed=seed, scoring=scoring)
        for number, name in enumerate(moves or [], start=1):
            try:
                row, col = rules.parse_cell(name)
            except ValueError as exc:
                raise IllegalMove(f"record move {number}: {exc}") from None
            if not game.is_legal(row, col):
                raise IllegalMove(f"record move {number} ({name}) is not a legal placement")
            game.place(row, col)
        return game

    # ------------------------------------------------------------ facts

    @property
    def seed(self) -> int | None:
        """The deal's seed (None for a game built with from_position)."""
        return self._seed

    @property
    def scoring(self) -> str:
        return self._scoring

    def tile_at(self, row: int, col: int) -> Tile | None:
        return self._cells[rules.cell_index(row, col)]

    @property
    def current(self) -> Tile | None:
        """The tile to place; None once the game is over."""
        if self.over:
            return None
        return self._pouch[self._drawn]

    @property
    def stuck_tile(self) -> Tile | None:
        """The tile that had no legal cell when the game ended stuck, else None."""
        if self._drawn < len(self._pouch) and self._legal_now() == 0:
            return self._pouch[self._drawn]
        return None

    @property
    def remaining(self) -> int:
        """Tiles not on the board, the current one included."""
        return len(self._pouch) - self._drawn

    @property
    def placed_count(self) -> int:
        """Tiles on the board."""
        return self._occupied.bit_count()

    def pouch_counts(self) -> Counter[Tile]:
        """The tiles still in the pouch after the current one, as counts.

        This is what a player can work out by counting; their order is secret.
        """
        return Counter(self._pouch[self._drawn + 1:])

    @property
    def moves(self) -> list[tuple[int, int]]:
        """The cells placed on since the opening, in order."""
        return [_coords(i) for i in self._moves]

    @property
    def can_undo(self) -> bool:
        return bool(self._moves)

    def neighbour_count(self, row: int, col: int) -> int:
        """How many orthogonal neighbours of (row, col) hold a tile."""
        return (self._occupied & rules.AROUND[rules.cell_index(row, col)]).bit_count()

    def is_legal(self, row: int, col: int) -> bool:
        """Whether the current tile may go on (row, col); False off the board."""
        if not (0 <= row < rules.ROWS and 0 <= col < rules.COLS):
            return False
        return bool((self._legal_now() >> (row * rules.STRIDE + col)) & 1)

    def legal_moves(self) -> list[tuple[int, int]]:
        """The cells where the current tile may go, sorted by row then column."""
        return rules.cells_of(self._legal_now())

    def legal_mask(self) -> int:
        """legal_moves() as a bitboard (bit row * rules.STRIDE + col)."""
        return self._legal_now()

    @property
    def over(self) -> bool:
        """All tiles placed, or the current tile has no legal cell."""
        return self._drawn >= len(self._pouch) or self._legal_now() == 0

    @property
    def fourways(self) -> int:
        """Four-ways made so far: the ancient score."""
        return self._fourways

    @property
    def end_bonus(self) -> int:
        """The end bonus, once the game is over (0 before)."""
        return rules.end_bonus(self.remaining) if self.over else 0

    @property
    def score(self) -> int:
        """The score in this game's scoring, the end bonus included once over."""
        return self._points + self.end_bonus

    def outcome(self) -> Outcome | None:
        """None while tiles can still be placed; then why it ended and the score (a
        solitaire scored by points: nobody wins or loses)."""
        if not self.over:
            return None
        why = Termination.COMPLETED if self.remaining == 0 else Termination.STUCK
        return Outcome(why, winner=None, score=self.score)

    # ------------------------------------------------------------ play

    def place(self, row: int, col: int) -> Placement:
        """Put the current tile on (row, col); IllegalMove if the rules forbid it."""
        if self._drawn >= len(self._pouch):
            raise IllegalMove("the game is over: every tile is on the board")
        legal = self._legal_now()
        if legal == 0:
            raise IllegalMove("the game is over: the current tile has no legal cell")
        if not (0 <= row < rules.ROWS and 0 <= col < rules.COLS):
            raise IllegalMove(f"cell ({row}, {col}) is off the 8x12 board")
        i = row * rules.STRIDE + col
        if not (legal >> i) & 1:
            raise IllegalMove(f"the current tile may not go on {rules.cell_name(row, col)}")
        return self._place_index(i)

    def place_index(self, index: int) -> Placement:
        """place() by bit index, for search code that works on masks."""
        if not (self._legal_now() >> index) & 1 or self._drawn >= len(self._pouch):
            raise IllegalMove(f"bit {index} is not a legal cell for the current tile")
        return self._place_index(index)

    def _place_index(self, i: int) -> Placement:
        t = self._pouch[self._drawn]
        neighbours = (self._occupied & rules.AROUND[i]).bit_count()
        points = rules.neighbour_points(i, neighbours, self._fourways)
        fourway = neighbours == 4
        if fourway:
            self._fourways += 1
            points += rules.fourway_bonus(self._fourways, self._scoring)
        self._put(i, t)
        self._drawn += 1
        self._points += points
        self._moves.append(i)
        self._earned.append(points)
        self._legal = None
        row, col = _coords(i)
        return Placement(row, col, t, neighbours, points, fourway, self.end_bonus)

    def undo(self) -> Placement:
        """Take back the last placement (and any end bonus); IllegalMove at the opening."""
        if not self._moves:
            raise IllegalMove("nothing to undo: this is the opening position")
        i = self._moves.pop()
        points = self._earned.pop()
        t = self._cells[i]
        assert t is not None
        bit = 1 << i
        self._occupied ^= bit
        self._by_color[t.color] ^= bit
        self._by_shape[t.shape] ^= bit
        self._cells[i] = None
        self._drawn -= 1
        self._points -= points
        # The board is now as it was before that placement, neighbours included.
        neighbours = (self._occupied & rules.AROUND[i]).bit_count()
        fourway = neighbours == 4
        if fourway:
            self._fourways -= 1
        self._legal = None
        row, col = _coords(i)
        return Placement(row, col, t, neighbours, points, fourway, 0)

    def record(self) -> str:
        """The game as one short line: `ishido 1 seed=7 scoring=modern moves=f5 g4 ...`."""
        if self._seed is None:
            raise ValueError("a game built from a position has no seed and cannot be recorded")
        names = " ".join(rules.cell_name(*_coords(i)) for i in self._moves)
        moves = f"moves={names}" if names else "moves="
        return f"{RECORD_MAGIC} {RECORD_VERSION} seed={self._seed} scoring={self._scoring} {moves}"

    # ------------------------------------------------------------ internals

    def _put(self, i: int, t: Tile) -> None:
        bit = 1 << i
        self._occupied |= bit
        self._by_color[t.color] |= bit
        self._by_shape[t.shape] |= bit
        self._cells[i] = t

    def _legal_now(self) -> int:
        legal = self._legal
        if legal is None:
            if self._drawn >= len(self._pouch):
                legal = 0
            else:
                t = self._pouch[self._drawn]
                legal = rules.legal_mask(
                    self._occupied, self._by_color[t.color], self._by_shape[t.shape]
                )
            self._legal = legal
        return legal

    def __repr__(self) -> str:
        return (
            f"<Game seed={self._seed} scoring={self._scoring} placed={self.placed_count} "
            f"score={self.score} fourways={self._fourways}>"
        )


def _coords(i: int) -> tuple[int, int]:
    return divmod(i, rules.STRIDE)
