"""Pachisi's network engine (palmish.network.engine.NetworkEngine), named by
the descriptor: palmish/network/ reaches the table, the mirror and the app's
views of them only through it."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from palmish.network.engine import SendTo, Table
from palmish.network.fairdice import JoinerDice
from palmish.network.session.records import Record, Vocabulary
from palmish.pachisi.net import messages
from palmish.pachisi.net.mirror import Mirror
from palmish.pachisi.net.seats import HostSeat, JoinSeat
from palmish.pachisi.net.table import DEFAULT_WAIT_S, HostTable, parse_seats, strongest_level
from palmish.pachisi.rules import valid_name


class PachisiNetwork:
    """Two to four seats of Pachisi; the host throws and applies the moves."""

    @property
    def from_host(self) -> Vocabulary:
        return messages.FROM_HOST

    @property
    def from_joiner(self) -> Vocabulary:
        return messages.FROM_JOINER

    @property
    def strongest_level(self) -> str:
        return strongest_level()

    def parse_seats(self, spec: str) -> list[str]:
        return parse_seats(spec)

    def name_problem(self, name: str) -> str | None:
        if valid_name(name):
            return None
        return f"{name!r} is not a player name (1-10 characters, no spaces, commas or colons)"

    def new_table(self, kinds: Sequence[str], code: str, table_name: str, *,
                  host_name: str = "You", seed: int | None = None,
                  wait_s: float = DEFAULT_WAIT_S, turn_s: float | None = None) -> HostTable:
        return HostTable.create(kinds, code, table_name, host_name, seed=seed, wait_s=wait_s,
                                turn_s=turn_s)

    def restore_table(self, saved: Any, now: float) -> HostTable:
        return HostTable.restore(saved, now)

    def new_mirror(self, dice: JoinerDice) -> Mirror:
        return Mirror(dice)

    def host_play(self, table: Table, send: SendTo, close: Callable[[], None],
                  save: Callable[[Table], None]) -> HostSeat:
        if not isinstance(table, HostTable):
            raise TypeError("a Pachisi seat needs a Pachisi table")
        return HostSeat(table, send, close, save)

    def join_play(self, send: Callable[[Record], None], close: Callable[[], None],
                  dice: JoinerDice) -> JoinSeat:
        return JoinSeat(send, close, dice)


ENGINE = PachisiNetwork()
