"""A joiner's copy of the host's game (docs/network.md, "The joiner").

The joiner never throws: it replays the host's steps (`T6` a throw of 6,
`M2` piece 2 moves, `P` a pass) on the same engine, so its board, message
lines and record follow the host's exactly. The seed stays on the host until
the end; the `end` message's record is then checked against the steps seen
and becomes this device's record too.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from palmish.network.engine import HostError
from palmish.network.protocol import VERSION, Message
from palmish.pachisi import ai
from palmish.pachisi.game import Game, Phase, Player
from palmish.pachisi.rules import IllegalMove, Move


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


def turn_message(game: Game, steps: int) -> Message:
    """Whose turn after `steps` steps, and what they may do: a client needs no
    rules of its own to know when to act (docs/network.md)."""
    pieces = sorted({p for m in game.legal_moves() for p in m.pieces})
    phase = Phase.OVER if game.over else game.phase
    return {"t": "turn", "n": steps, "seat": game.current, "phase": phase,
            "pieces": pieces, "pass": not game.over and game.can_pass}


@dataclass
class Mirror:
    """What a joiner knows: its seat, the seats, the game, the final record."""

    seat: int | None = None
    table: str = ""
    seats: list[Message] = field(default_factory=list)
    game: Game | None = None
    steps: list[str] = field(default_factory=list)
    record: str | None = None
    marker: tuple[int, int] | None = None
    errors: list[str] = field(default_factory=list)

    def receive(self, msg: Message) -> None:
        """A validated host message; HostError when it contradicts the game."""
        kind = msg["t"]
        if kind == "welcome":
            if msg["v"] != VERSION:
                raise HostError(f"the host speaks protocol version {msg['v']}; this is {VERSION}")
            self.seat, self.table = msg["seat"], msg["table"]
        elif kind == "seats":
            self.seats = msg["seats"]
        elif kind == "game":
            players = [Player(name, kind == "c") for name, kind in msg["players"]]
            if len(players) < 2:
                raise HostError("a game needs 2 to 4 players")
            self.steps = list(msg["steps"])
            self.game = replay(players, msg["dice"], self.steps)
        elif kind == "step":
            self._step(msg["n"], msg["step"])
        elif kind == "turn":
            self._check_turn(msg)
        elif kind == "marker":
            self.marker = (msg["seat"], msg["piece"])
        elif kind == "end":
            self._end(msg["record"])
        elif kind == "error":
            self.errors.append(msg["text"])

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

    def _check_turn(self, msg: Message) -> None:
        if self.game is None or turn_message(self.game, len(self.steps)) != msg:
            raise HostError("the host's turn does not fit the steps it sent")

    def _end(self, record: str) -> None:
        if self.game is None or not self.game.over:
            raise HostError("the host ended a game that is not over here")
        if not same_game(record, self.game):
            raise HostError("the host's record differs from the steps it sent")
        try:
            final = Game.from_record(record)
        except IllegalMove as err:
            raise HostError(f"the host's record is bad: {err}") from None
        if final.record() != record or not final.over:
            raise HostError("the host's record does not replay to the end")
        self.record = record

    @property
    def started(self) -> bool:
        return self.game is not None

    @property
    def my_turn(self) -> bool:
        g = self.game
        return g is not None and not g.over and self.seat is not None and g.current == self.seat

    def silicon_intent(self, level: str) -> Message:
        """What Silicon would ask for in this seat now (the seat's turn)."""
        game = self.game
        assert game is not None and self.my_turn
        if game.phase == Phase.THROW:
            return {"t": "throw"}
        choice = ai.choose(game, level)
        if not isinstance(choice, Move):
            return {"t": "pass"}
        return {"t": "move", "piece": choice.pieces[0]}
