"""A joiner's copy of the host's game (docs/network.md, "The joiner").

The joiner never throws: it replays the host's steps (`T6` a throw of 6,
`M2` piece 2 moves, `P` a pass) on the same engine, so its board, message
lines and record follow the host's exactly. The seed stays on the host until
the end; the `end` message's record is then checked against the steps seen
and becomes this device's record too, and every throw is checked against the
dice round (palmish/network/fairdice.py): the verdict.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field

from palmish.network.engine import HostError
from palmish.network.fairdice import DiceProblem, JoinerDice
from palmish.network.session import talk
from palmish.network.session.dice import DiceCommits, DiceEnd, DiceSecrets
from palmish.network.session.kinds import Error, Welcome
from palmish.network.session.records import Record
from palmish.pachisi import ai, rules
from palmish.pachisi.game import Game, Phase, Player
from palmish.pachisi.net import messages as msgs
from palmish.pachisi.rules import IllegalMove, Move

TABLE_LINES = 20  # what a joiner keeps of what was said at the table


def apply_step(game: Game, step: str) -> None:
    """Apply one host step to a game with the engine; IllegalMove if it does not fit."""
    if step == "P":
        game.pass_turn()
    elif step.startswith("T"):
        game.throw(int(step[1:]))
    else:
        m = game.move_for(int(step[1:]))
        if m is None:
            raise IllegalMove(f"piece {step[1:]} cannot move")
        game.move(m)


def replay(players: Sequence[Player], dice: str, steps: Sequence[str]) -> Game:
    """A game (seed 0 stands in for the host's secret) after the host's steps."""
    game = Game.new(seed=0, players=players, dice=dice)
    for i, step in enumerate(steps):
        try:
            apply_step(game, step)
        except IllegalMove as err:
            raise HostError(f"step {i} ({step}) does not fit the game: {err}") from None
    return game


def same_game(record: str, game: Game) -> bool:
    """The record is this game's, apart from the seed the host kept secret."""
    return re.sub(r" seed=\d+ ", " seed=0 ", record, count=1) == game.record()


def turn_message(game: Game, steps: int) -> msgs.Turn:
    """Whose turn after `steps` steps, and what they may do: a client needs no
    rules of its own to know when to act (docs/network.md)."""
    pieces = tuple(sorted({p for mv in game.legal_moves() for p in mv.pieces}))
    phase = Phase.OVER if game.over else game.phase
    return msgs.Turn(steps, game.current, phase.value, pieces, not game.over and game.can_pass)


def throws_from(seed: int, dice: str) -> Iterator[int]:
    """The throws a game seeded so makes, in order: Game draws nothing else
    from its generator (random.Random(seed), one rules.draw a throw)."""
    rng = random.Random(seed)
    while True:
        yield rules.draw(rng, dice)


def record_seed(record: str) -> int:
    found = re.search(r" seed=(\d+) ", record)
    return int(found.group(1)) if found else -1


@dataclass
class Mirror:
    """What a joiner knows: its seat, the seats, the game, the final record."""

    dice: JoinerDice = field(default_factory=JoinerDice)
    seat: int | None = None
    table: str = ""
    seats: list[msgs.SeatState] = field(default_factory=list)
    game: Game | None = None
    steps: list[str] = field(default_factory=list)
    record: str | None = None
    verdict: str | None = None  # the dice's check, once the game ended
    marker: tuple[int, int] | None = None
    errors: list[str] = field(default_factory=list)
    outbox: list[Record] = field(default_factory=list)  # answers (a dice reveal) to send
    talks: bool = False  # the host speaks the table's kinds (its welcome said so)
    table_lines: list[str] = field(default_factory=list)  # said at the table, newest last
    lines_said: int = 0  # table lines in all (table_lines keeps the last TABLE_LINES)
    said: dict[int, str] = field(default_factory=dict)  # seat -> its message, until a step
    vote: talk.Rematch | None = None  # the rematch proposed, while it is open
    answered: bool = False  # this device answered the open rematch
    games: int = 0  # the games this device saw end here

    def receive(self, msg: Record) -> None:
        """A validated host message; HostError when it contradicts the game."""
        if isinstance(msg, Welcome):
            self.seat, self.table = msg.seat, msg.name
            self.talks = msg.table >= talk.TABLE_LEVEL
            self._dice(lambda: self.dice.welcome(msg.dice))
        elif isinstance(msg, msgs.Seats):
            self.seats = list(msg.seats)
        elif isinstance(msg, msgs.GameSoFar):
            players = [Player(p.name, p.computer) for p in msg.players]
            if len(players) < 2:
                raise HostError("a game needs 2 to 4 players")
            self.steps = list(msg.steps)
            self.game = replay(players, msg.dice, self.steps)
        elif isinstance(msg, msgs.Step):
            self._step(msg.n, msg.step)
        elif isinstance(msg, msgs.Turn):
            self._check_turn(msg)
        elif isinstance(msg, msgs.Marker):
            self.marker = (msg.seat, msg.piece)
        elif isinstance(msg, msgs.End):
            self._end(msg.record)
        elif isinstance(msg, Error):
            self.errors.append(msg.text)
        elif isinstance(msg, talk.Said | talk.Rematch | talk.Left):
            self._talk(msg)
        elif isinstance(msg, DiceCommits | DiceSecrets | DiceEnd):
            live = self.game is None  # the round opens now (else told to a late arrival)
            self._dice(lambda: self._answer(self.dice.take(msg, live)))

    def _talk(self, msg: talk.Said | talk.Rematch | talk.Left) -> None:
        if isinstance(msg, talk.Said):
            self.said[msg.seat] = talk.MESSAGES[msg.msg]
            self.log_line(talk.said_line(msg))
        elif isinstance(msg, talk.Left):
            self.said.pop(msg.seat, None)
            self.log_line(talk.left_line(msg))
        elif msg.state == "open":
            if self.vote is None:
                who = "The host" if msg.by is None else self.seat_name(msg.by)
                self.log_line(f"{who} proposes a rematch")
            self.vote = msg
        elif msg.state == "off":
            self.vote, self.answered = None, False
            self.log_line(f"No rematch: {msg.why or 'declined'}")
        else:
            self._rematch(msg.dice)

    def _rematch(self, commitment: bytes | None) -> None:
        """The next game at this table: its dice round and game follow."""
        if not self.answered:  # a spectator: nothing of its own in the next dice
            self.dice.renew(contribute=False)
        self._dice(lambda: self.dice.rewelcome(commitment) if commitment else None)
        self.vote, self.answered = None, False
        self.game, self.steps, self.record, self.verdict = None, [], None, None
        self.marker = None
        self.said.clear()
        self.log_line("The rematch is on")

    def seat_name(self, seat: int) -> str:
        """The name at `seat`: its person's, else the game's player, else "Seat N"."""
        if 0 <= seat < len(self.seats) and self.seats[seat].name:
            return str(self.seats[seat].name)
        if self.game is not None and 0 <= seat < len(self.game.players):
            return self.game.players[seat].name
        return f"Seat {seat + 1}"

    def log_line(self, line: str) -> None:
        """A line of the table's log (the last TABLE_LINES kept)."""
        self.table_lines.append(line)
        del self.table_lines[:-TABLE_LINES]
        self.lines_said += 1

    def again(self, yes: bool) -> talk.Again:
        """This device's answer to a rematch (or its proposal): a yes carries a
        fresh dice commitment for the next game."""
        self.answered = True
        if yes and self.seat is not None:
            self.dice.renew(contribute=True)
        return talk.Again(yes, self.dice.commitment if yes else None)

    def _answer(self, reply: Record | None) -> None:
        if reply is not None:
            self.outbox.append(reply)

    @staticmethod
    def _dice(check: Callable[[], None]) -> None:
        try:
            check()
        except DiceProblem as err:
            raise HostError(f"the host's dice: {err}") from None

    def _step(self, n: int, step: str) -> None:
        if self.game is None:
            raise HostError("a step before the game")
        if n != len(self.steps):
            raise HostError(f"step {n} arrived after step {len(self.steps) - 1}")
        try:
            apply_step(self.game, step)
        except IllegalMove as err:
            raise HostError(f"step {n} ({step}) does not fit the game: {err}") from None
        self.steps.append(step)
        self.marker = None
        self.said.clear()

    def _check_turn(self, msg: msgs.Turn) -> None:
        if self.game is None or turn_message(self.game, len(self.steps)) != msg:
            raise HostError("the host's turn does not fit the steps it sent")

    def _end(self, record: str) -> None:
        if self.game is None or not self.game.over:
            raise HostError("the host ended a game that is not over here")
        if not same_game(record, self.game):
            raise HostError("the host's record differs from the steps it sent")
        # The throws first: a host that made its own throws has a record that does
        # not replay from its seed, and the verdict says which throws were not the dice's.
        throws = [int(step[1:]) for step in self.steps if step.startswith("T")]
        dice = self.game.dice
        verdict = self.dice.verdict(record_seed(record), throws,
                                    lambda seed: throws_from(seed, dice))
        if verdict.verified:
            try:
                final = Game.from_record(record)
            except IllegalMove as err:
                raise HostError(f"the host's record is bad: {err}") from None
            if final.record() != record or not final.over:
                raise HostError("the host's record does not replay to the end")
        self.record = record  # the game as played here, checked or not (the verdict says)
        self.verdict = verdict.text()
        self.games += 1

    @property
    def started(self) -> bool:
        return self.game is not None

    @property
    def my_turn(self) -> bool:
        g = self.game
        return g is not None and not g.over and self.seat is not None and g.current == self.seat

    def silicon_intent(self, level: str) -> Record:
        """What Silicon would ask for in this seat now (the seat's turn)."""
        game = self.game
        assert game is not None and self.my_turn
        if game.phase == Phase.THROW:
            return msgs.Throw()
        choice = ai.choose(game, level)
        if not isinstance(choice, Move):
            return msgs.Pass()
        return msgs.Move(choice.pieces[0])
