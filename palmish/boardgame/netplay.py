"""A game played over the network, as an app sees it (docs/network.md).

The app never imports the network: whoever starts a network game (the window's
Network Game dialogs, through the context's network service,
palmish.device.machine.services) hands the app a play, and the app then asks it
instead of changing the game itself. Network lines reach the app as device
events (NetworkLine, NetworkClosed), which it passes on here; so an event script
or a test drives a network game without sockets. A game narrows these two
protocols to its own game and choice types (palmish/pachisi/netplay.py).
"""

from __future__ import annotations

from collections.abc import Generator, Mapping, Sequence
from typing import Any, Protocol

from palmish.device.events import NetworkClosed, NetworkLine


class NetEvent(Protocol):
    """One thing that happened in a game (its kind names the sound it makes)."""

    @property
    def kind(self) -> str: ...


class NetGame(Protocol):
    """What the shared network layer reads of a game: what happened, the seats,
    whose turn it is."""

    @property
    def events(self) -> Sequence[NetEvent]: ...

    @property
    def players(self) -> Sequence[object]: ...

    @property
    def current(self) -> int: ...

    @property
    def over(self) -> bool: ...


class NetPlay(Protocol):
    """The host's table or a joiner's copy of it."""

    @property
    def game(self) -> NetGame | None:
        """The game so far (None before the host starts it)."""

    @property
    def marker(self) -> tuple[int, int] | None:
        """(seat, piece) another device's person points at, or None."""

    @property
    def table_name(self) -> str:
        """The game's name (the host's handheld name); "" until the host welcomes
        this joiner."""

    @property
    def code(self) -> str | None:
        """The join code, on the host (None on a joiner)."""

    def mine(self, seat: int) -> bool:
        """This device's person plays this seat."""

    def ask(self, kind: str, piece: int | None = None) -> str | None:
        """An intent of this device's person (the game's kinds: throw, move...); a
        line saying why not, or None once it is on its way (or done, on the host)."""

    def receive(self, event: NetworkLine | NetworkClosed, now_s: float) -> None:
        """A line from a peer, or a peer gone."""

    def computer_due(self, now_s: float) -> bool:
        """Silicon plays the seat in turn on this device (the host's computer and
        away seats); False on a joiner."""

    def computer_thinking(self) -> Generator[None, None, Any] | None:
        """Silicon's move for the seat in turn as a stepped search, for the window to
        run between frames and hand to `play_computer`; None when nothing needs
        thinking (a throw) or on a joiner."""

    def play_computer(self, now_s: float, choice: Any = None) -> None: ...

    def seat_lines(self, now_s: float) -> Sequence[str]:
        """One line per seat: name and state, for the screen."""

    def status(self) -> str | None:
        """One line of trouble (the host gone, refused), or None."""

    def start(self) -> None:
        """The host starts now, Silicon in the open seats (nothing on a joiner)."""

    def close(self) -> None:
        """Leave the game (the links close)."""

    # ------------------------------------------------------------ at the table

    def table_lines(self) -> Sequence[str]:
        """What was said and done at the table (messages, rematches, leavers), the
        last lines, newest last."""

    def said(self) -> Mapping[int, str]:
        """Each seat's table message, shown in its corner until the next step."""

    def say(self, text: str, now_s: float) -> str | None:
        """Send a canned table message (its text); a line saying why not (the rate
        limit is checked on the sender's device too), or None."""

    def rematch_question(self) -> str | None:
        """The open rematch proposal this device's person has yet to answer
        ("Ann proposes a rematch."), or None."""

    def again(self, yes: bool, vacate: str | None = None) -> str | None:
        """Propose a rematch (at the end) or answer the open one; on the host
        `vacate` (open or silicon) is what the seats of those who say no become.
        A joiner's no leaves the table. A line saying why not, or None."""

    def leave_table(self) -> None:
        """This device's person leaves the table for good (the host: closes it)."""

    def removable(self) -> Sequence[tuple[int, str]]:
        """The host: the seats held by a person of another handheld, with their
        names (empty on a joiner)."""

    def remove(self, seat: int, vacate: str) -> str | None:
        """The host removes the person of `seat` (its seat becomes `vacate`)."""

    def ended(self) -> str | None:
        """Why this device is no longer at the table (removed, or no answer to a
        rematch): it then returns to its own game; None while it is there."""
