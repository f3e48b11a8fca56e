"""The host's table between and around the moves (docs/network.md, "At the
table"): canned table messages, a rematch at the same table, a person leaving
it and the host removing one. A part of HostTable (table.py), which gives the
attributes and methods listed below; the records and the vote are the
network's (palmish/network/session/talk.py)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from palmish.network.fairdice import HostRound
from palmish.network.session import talk
from palmish.network.session.kinds import VERSION, Refused
from palmish.network.session.records import Record

if TYPE_CHECKING:
    from palmish.pachisi.game import Game, Player
    from palmish.pachisi.net.seating import Peer, Seat

HEARD_LINES = 20  # the table's lines the host's screen keeps
LEFT_TABLE = "you left the table"
NO_ANSWER = "you did not answer the rematch in time"


class TableTalk:
    """Messages, rematches and leaving, for HostTable."""

    if TYPE_CHECKING:
        seats: list[Seat]
        peers: dict[int, Peer]
        game: Game | None
        steps: list[str]
        log: list[str]
        dice_round: HostRound | None
        _players: list[Player]
        vote: talk.Vote | None
        says: talk.SayLimit
        vacate: str
        agrees: int
        wait_s: float
        removed: set[bytes]
        said: dict[int, str]
        heard: list[str]

        def _send(self, peer: int, record: Record) -> None: ...
        def _broadcast_seats(self, now: float) -> None: ...
        def ready(self) -> bool: ...
        def start(self, now: float) -> None: ...
        @property
        def over(self) -> bool: ...

    # ------------------------------------------------------------ sending

    def _heard(self, line: str) -> None:
        """A line of the table's: the host's log, and its screen's (the last ones)."""
        self.log.append(line)
        self.heard.append(line)
        del self.heard[:-HEARD_LINES]

    def _tell(self, record: Record) -> None:
        """To every peer that speaks the table's kinds."""
        for peer, who in self.peers.items():
            if who.talks:
                self._send(peer, record)

    # ------------------------------------------------------------ a seat's requests

    def table_request(self, seat: int | None, record: Record, now: float) -> str | None:
        """A table request of a seated joiner; one line saying why not, or None."""
        if seat is None:
            return "spectators watch"
        if isinstance(record, talk.Say):
            return self.say(seat, record.msg, now)
        if isinstance(record, talk.Again):
            return self.again(seat, record.yes, now, record.dice)
        if isinstance(record, talk.Leave):
            self.vacate_seat(seat, now, removed=False)
            return None
        return f"no request {record.KIND!r} here"

    def say(self, seat: int, msg: str, now: float) -> str | None:
        """A canned message of `seat` (its wire id) to the whole table."""
        if msg not in talk.MESSAGES:
            return f"no table message {msg[:20]!r}"
        if not self.says.allow(seat, now):
            return talk.TOO_MANY
        said = talk.Said(seat, self.seats[seat].name or f"Seat {seat + 1}", msg)
        self.said[seat] = talk.MESSAGES[msg]
        self._heard(talk.said_line(said))
        self._tell(said)
        return None

    # ------------------------------------------------------------ rematch

    def again(self, seat: int | None, yes: bool, now: float,
              dice: bytes | None = None) -> str | None:
        """Propose a rematch, or answer the open one: from `seat` (a joiner's), or
        from the host's device (None; its people's seats answer with it)."""
        if self.game is None or not self.game.over:
            return "a rematch is proposed once the game is over"
        if seat is not None and yes and self.seats[seat].kind == "remote" and dice is None:
            return "a yes needs your dice commitment for the next game"
        vote = self.vote
        if vote is None:
            if not yes:
                return None  # nothing to decline
            vote = self.vote = self._propose(seat, now)
        if seat is None or self.seats[seat].kind == "host":
            vote.host = yes
            if seat is None:
                self.log.append("the host " + ("agrees" if yes else "declines"))
        elif vote.answer(seat, yes):
            self.seats[seat].next_pledge = dice if yes else None
            self.log.append(f"{self.seats[seat].name}: {'yes' if yes else 'no'}")
        self._vote_moves(now)
        return None

    def _propose(self, seat: int | None, now: float) -> talk.Vote:
        asked = {i: None for i, s in enumerate(self.seats)
                 if s.kind == "remote" and s.name is not None}
        by = "The host" if seat is None else self.seats[seat].name
        self._heard(f"{by} proposes a rematch")
        host = True if seat is None or self.agrees > 0 else None
        if seat is not None and self.seats[seat].kind == "host":
            host = True
        return talk.Vote(seat, dict(asked), host, now + self.wait_s, self.vacate)

    def tick_talk(self, now: float) -> None:
        """Time passed: a proposal may run out; the headless host proposes at the end."""
        if self.vote is not None and self.vote.decided(now):
            self._resolve(now)
        elif (self.vote is None and self.agrees > 0 and self.game is not None
              and self.game.over and not self.proposed):
            self.proposed = True
            self.again(None, True, now)

    proposed = False  # the headless host proposed after this game

    def _vote_moves(self, now: float) -> None:
        vote = self.vote
        if vote is None:
            return
        if vote.decided(now):
            self._resolve(now)
        else:
            self._tell(vote.state(len(self.seats), now))

    def _resolve(self, now: float) -> None:
        vote = self.vote
        assert vote is not None
        self.vote = None
        players = [i for i, yes in vote.answers.items() if yes]
        if vote.host is not True:
            self._off("the host declined" if vote.host is False
                      else "the host did not answer in time")
            return
        if not players and not any(s.kind == "host" for s in self.seats):
            self._off("nobody else wants a rematch")
            return
        for seat, yes in list(vote.answers.items()):
            if not yes:
                self.vacate_seat(seat, now, removed=False, how=vote.vacate,
                                 why=LEFT_TABLE if yes is False else NO_ANSWER)
        for s in self.seats:
            if s.vacated:  # left during the game: Silicon played it to the end
                s.vacated, s.name = False, None
                s.kind = "computer" if vote.vacate == "silicon" else "remote"
        self.agrees = max(0, self.agrees - 1)
        self.proposed = False
        self.dice_round = HostRound(None)
        self.game, self.steps, self._players = None, [], []
        self.said.clear()
        for seat in players:
            s = self.seats[seat]
            s.pledge, s.next_pledge = s.next_pledge, None
        for peer, who in list(self.peers.items()):
            if not who.talks:  # a client of the plain protocol cannot follow the new dice
                self._send(peer, Refused(VERSION, "a rematch started; this handheld cannot"
                                         " follow it", "other"))
                self.peers.pop(peer)
        answers = tuple("yes" if vote.answers.get(i) else "-" for i in range(len(self.seats)))
        self._tell(talk.Rematch("on", vote.by, answers, 0, self.dice_round.commitment))
        self._heard("The rematch is on")
        self._broadcast_seats(now)
        if self.ready():
            self.start(now)

    def _off(self, why: str) -> None:
        self._heard(f"No rematch: {why}")
        self._tell(talk.Rematch("off", why=why))
        for s in self.seats:
            s.next_pledge = None
        self.proposed = True  # the headless host asks once a game

    @property
    def closed(self) -> bool:
        """The table is done: its game is over and no rematch is coming."""
        return self.over and self.vote is None and (self.agrees <= 0 or self.proposed)

    # ------------------------------------------------------------ leaving

    def vacate_seat(self, seat: int, now: float, removed: bool, how: str | None = None,
                    why: str = LEFT_TABLE) -> None:
        """The seat's person leaves (or is removed): its seat key holds nothing any
        more; in a game Silicon plays the seat to its end, between games it is
        open or Silicon (`how`, default the table's `vacate`)."""
        s = self.seats[seat]
        name = s.name
        if s.kind != "remote" or name is None:
            return
        if removed and s.seat_key is not None:
            self.removed.add(s.seat_key)
        peer = s.peer
        if peer is not None:
            self._send(peer, Refused(VERSION, why, "removed" if removed else "left"))
            self.peers.pop(peer, None)
        s.peer = s.seat_key = s.identity = s.pledge = s.next_pledge = None
        s.away_since = None
        playing = self.game is not None and not self.game.over
        now_is = "silicon" if playing else (how or self.vacate)
        if playing:
            s.kind = "computer"  # its person's name stays in this game's record
            s.vacated = True
        elif now_is == "silicon":
            s.name, s.kind = None, "computer"  # the next start names Silicon here
        else:
            s.name = None
        if self.vote is not None:
            self.vote.answers.pop(seat, None)
        self.said.pop(seat, None)
        left = talk.Left(seat, name, removed, now_is)
        self._heard(talk.left_line(left))
        self._tell(left)
        self._broadcast_seats(now)
        self._vote_moves(now)
