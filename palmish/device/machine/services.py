"""What the command line offers a device beyond itself: the network game service.

The window hands its services to `Device(..., services=Services(...))`
(machine/system.py; docs/architecture.md, "The device in rooms"): factories the
device calls with itself when an app first asks, so the window's network
service is made (and asyncio imported) only when a network game starts. The
device and the apps never import the network: they know it by this protocol,
and Beam by `BeamService` (beam/beaming.py).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from prc_tools.frozen import Frozen


class Internet(Frozen):
    """A network game across the internet as the device shows it (docs/network.md,
    "Across the internet"): the host's code to read out (empty until the rendezvous
    gave one), how each person is connected (name -> LAN, direct or relayed), this
    joiner's own path, and trouble in one line."""

    code: str = ""
    paths: tuple[tuple[str, str], ...] = ()
    path: str = ""
    trouble: str = ""


class NetworkService(Protocol):
    """What the window offers an app to host and join network games
    (palmish.network.service.WindowNetwork). A play is the game's own type, made
    by the network engine its descriptor names (palmish.network.engine), so it
    crosses this game-neutral seam as Any."""

    @property
    def announces(self) -> bool:
        """Whether a hosted game can be announced on the local network (False when
        the window runs with --no-discovery)."""

    def saved_game(self) -> str | None:
        """One line about a hosted network game left unfinished, or None."""

    def host(self, seats: Sequence[str], name: str, advertise: bool, wait_s: float,
             turn_s: float | None, resume: bool = False,
             internet: bool = False) -> tuple[Any, str]:
        """Host: seat kinds (host, remote, computer), or the saved game again
        (`resume`); the game's play and the address others join at (HOST:PORT).
        `internet`: joiners by code too (the code comes later, see `internet`)."""

    def join_by_code(self, code: str, name: str | None) -> Any:
        """Join (or watch) the game whose host read out this internet code: the
        game's play; the meeting goes on behind it. ValueError with one line for
        something that is not a code."""

    def internet(self) -> Internet | None:
        """The network game across the internet as it now is; None when this game
        is not played across the internet. Its changes come as NetworkNews."""

    def join(self, address: str, code: str, name: str | None) -> Any:
        """Join the game at HOST:PORT as `name`, or watch it (None): the game's play.
        ValueError with one line for a bad address."""

    def found_games(self) -> Sequence[tuple[str, str]]:
        """(name, HOST:PORT) of the games found on the local network."""

    def kept_table(self) -> tuple[str, str, str, str | None] | None:
        """The table this device joined and did not leave (a crash, a window closed
        mid-game): (its name, HOST:PORT, join code, the name sat under or None to
        watch), or None."""

    def forget_table(self) -> None:
        """Offer the kept table no more."""

