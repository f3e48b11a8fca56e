"""One interface over both gardens (docs/sigmar-rules.md, "One interface"): the square
remake's Game and the hexagonal HexGame answer the same questions, and the functions
here pick the right generator, solver and record reader for either, so an app can play
both without asking which one it holds.

Pure: nothing here imports the device or the frontend.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Generator
from typing import Protocol

from palmish.outcome import Outcome
from palmish.sigmar import generator as square_generator
from palmish.sigmar import solver as square_solver
from palmish.sigmar.atoms import Atom, IllegalMove, Take
from palmish.sigmar.game import Game
from palmish.sigmar.geometry import Geometry, SquareGeometry
from palmish.sigmar.hexagonal import generator as hex_generator
from palmish.sigmar.hexagonal import record as hex_record
from palmish.sigmar.hexagonal import solver as hex_solver
from palmish.sigmar.hexagonal.game import HexGame

SQUARE = "square"
HEXAGONAL = "hexagonal"
GARDENS = (HEXAGONAL, SQUARE)
# What the Game menu and Preferences call them.
TITLES = {HEXAGONAL: "Hexagonal (Opus Magnum)", SQUARE: "Square (the remake)"}

Cell = tuple[int, int]


class Garden(Protocol):
    """What the app asks of a game, in either garden. Cells are (row, col) of the
    garden's geometry; reading order (the keys' Up/Down) is sorted (row, col)."""

    @property
    def name(self) -> str: ...
    @property
    def rows(self) -> int: ...
    @property
    def cols(self) -> int: ...
    @property
    def seed(self) -> int | None: ...
    @property
    def level(self) -> str | None: ...
    @property
    def difficulty(self) -> str | None: ...
    @property
    def current_metal(self) -> Atom | None: ...
    @property
    def metal_index(self) -> int: ...
    @property
    def remaining(self) -> int: ...
    @property
    def moves(self) -> list[Take]: ...
    @property
    def can_undo(self) -> bool: ...
    @property
    def won(self) -> bool: ...
    @property
    def stuck(self) -> bool: ...
    @property
    def over(self) -> bool: ...
    @property
    def occupancy(self) -> int: ...
    @property
    def kinds(self) -> tuple[int, ...]: ...
    def atom_at(self, row: int, col: int) -> Atom | None: ...
    def start_atom_at(self, row: int, col: int) -> Atom | None: ...
    def is_free(self, row: int, col: int) -> bool: ...
    def is_selectable(self, row: int, col: int) -> bool: ...
    def partners(self, row: int, col: int) -> list[Cell]: ...
    def counts(self) -> Counter[Atom]: ...
    def free_mask(self) -> int: ...
    def outcome(self) -> Outcome | None: ...
    def legal_takes(self, *, cached: bool = True) -> list[Take]: ...
    def legal_codes(self, *, cached: bool = True) -> list[int]: ...
    def why_not(self, a: Cell, b: Cell | None = None) -> str | None: ...
    def why_unselectable(self, a: Cell) -> str | None: ...
    def take(self, a: Cell, b: Cell | None = None) -> Take: ...
    def take_code(self, code: int) -> None: ...
    def undo(self) -> Take: ...
    def restart(self) -> None: ...
    def record(self) -> str: ...


def garden_of(game: Garden) -> str:
    """Which garden a game is played in."""
    return HEXAGONAL if isinstance(game, HexGame) else SQUARE


def geometry_of(game: Garden) -> Geometry:
    """The board a game is drawn on: the hexagon, or the square field of its size."""
    if isinstance(game, HexGame):
        return game.geometry
    return SquareGeometry(game.rows, game.cols)


def _check(garden: str) -> None:
    if garden not in GARDENS:
        raise ValueError(f"unknown garden {garden!r} (use {' or '.join(GARDENS)})")


def new_game(garden: str, seed: int | None = None) -> Garden:
    """Board Number `seed` of a garden (each garden has numbers of its own); a number
    is drawn without one."""
    _check(garden)
    return HexGame.new(seed) if garden == HEXAGONAL else Game.new(seed)


def game_from_record(text: str) -> Garden:
    """Replay either garden's record (its first word tells which); IllegalMove, one
    line, for a bad one."""
    words = text.split(maxsplit=1)
    if words and words[0] == hex_record.MAGIC:
        return HexGame.from_record(text)
    return Game.from_record(text)


def solving(game: Garden, max_nodes: int = square_solver.HINT_MAX_NODES,
            slice_nodes: int | None = None) -> Generator[None, None, list[Take] | None]:
    """The garden's solver a slice at a time (both pause after about `slice_nodes`
    positions): the takes of a solution, None when there is none; SearchBudget when
    `max_nodes` positions were not enough."""
    if isinstance(game, HexGame):
        return hex_solver.solving(game, max_nodes, slice_nodes)
    if not isinstance(game, Game):
        raise TypeError(f"not a game of either garden: {game!r}")
    return square_solver.solving(game, max_nodes, slice_nodes)


def dealing(garden: str, difficulty: str | None,
            draw: Callable[[], int]) -> Generator[None, None, int]:
    """New Game's Board Number for a difficulty, rated on that garden's boards, a
    playout at a time."""
    _check(garden)
    if garden == HEXAGONAL:
        return hex_generator.dealing(difficulty, draw)
    return square_generator.dealing(difficulty, draw)


def rating(garden: str, seed: int) -> str:
    """Board `seed`'s difficulty in a garden: "easy", "normal" or "hard"."""
    _check(garden)
    return hex_generator.rating(seed) if garden == HEXAGONAL else square_generator.rating(seed)


__all__ = ["GARDENS", "HEXAGONAL", "SQUARE", "TITLES", "Garden", "IllegalMove", "dealing",
           "game_from_record", "garden_of", "geometry_of", "new_game", "rating", "solving"]
