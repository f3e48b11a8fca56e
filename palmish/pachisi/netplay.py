"""A Pachisi game played over the network, as the app sees it (docs/network.md):
the shared layer's play (palmish/boardgame/netplay.py) with Pachisi's game and
Silicon's choice."""

from __future__ import annotations

from collections.abc import Generator
from typing import TYPE_CHECKING, Protocol

from palmish.boardgame.netplay import NetPlay as SharedNetPlay
from palmish.pachisi.game import Game

if TYPE_CHECKING:
    from palmish.pachisi.ai import Choice


class NetPlay(SharedNetPlay, Protocol):
    """The host's Pachisi table or a joiner's copy of it."""

    @property
    def game(self) -> Game | None:
        """The game so far (None before the host starts it)."""

    def computer_thinking(self) -> Generator[None, None, Choice] | None:
        """Silicon's move for the seat in turn (None at a throw or on a joiner)."""

    def play_computer(self, now_s: float, choice: Choice | None = None) -> None: ...
