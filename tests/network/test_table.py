"""The host's table and the joiners' mirrors, in-process: messages passed by
hand, no sockets. Host and joiners must end with the same record."""

from __future__ import annotations

import json
from typing import Any

import pytest

from palmish import stepped
from palmish.network.engine import HostError
from palmish.network.protocol import HOST_KINDS, decode, encode
from palmish.pachisi import ai
from palmish.pachisi.game import Game
from palmish.pachisi.net.mirror import Mirror
from palmish.pachisi.net.table import ALL, HostTable, parse_seats
from palmish.pachisi.rules import Move

LEVEL = "easy"  # fast, and deterministic like every level


def token(i: int) -> str:
    return f"{i:032x}"


def hello(name: str, i: int, code: str = "1234", **extra: Any) -> dict[str, Any]:
    return {"t": "hello", "v": 1, "app": "pachisi", "code": code, "name": name,
            "token": token(i), **extra}


class Room:
    """A table and its joiners' mirrors, wired by hand through the wire format."""

    def __init__(self, spec: str = "remote,computer,remote,remote", seed: int = 11) -> None:
        self.table = HostTable.create(parse_seats(spec), "1234", "Kitchen", seed=seed,
                                      wait_s=5.0, level=LEVEL)
        self.mirrors: dict[int, Mirror] = {}
        self.refusals: dict[int, str] = {}
        self.now = 0.0

    def deliver(self) -> None:
        for peer, msg in self.table.take_outbox():
            line = encode(msg)  # every message goes through the wire format
            for target in (self.mirrors if peer == ALL else [peer]):
                received = decode(line, HOST_KINDS, 1 << 20)
                if received["t"] == "refused":
                    self.refusals[target] = received["reason"]
                elif target in self.mirrors:
                    self.mirrors[target].receive(received)

    def join(self, peer: int, msg: dict[str, Any]) -> bool:
        self.mirrors[peer] = Mirror()
        ok = self.table.hello(peer, msg, self.now)
        self.deliver()
        if not ok:
            del self.mirrors[peer]
        return ok

    def advance(self, actions: int) -> None:
        """Up to `actions` throws and moves: each joiner's Silicon asks in its
        turn, the host's Silicon plays its seats (and away seats past the wait)."""
        for _ in range(actions):
            self.table.tick(self.now)
            if self.table.over:
                return
            if self.table.computer_due(self.now):
                self.table.play_computer(self.now)
            else:
                peer = next(p for p, m in self.mirrors.items() if m.my_turn)
                self.table.receive(peer, self.mirrors[peer].silicon_intent(LEVEL), self.now)
            self.deliver()
            self.now += 0.01

    def play(self) -> None:
        self.advance(20_000)
        assert self.table.over, "the game did not end"


def seated_room() -> Room:
    room = Room()
    for peer, name in enumerate(["Ann", "Bob", "Cy"], start=1):
        assert room.join(peer, hello(name, peer))
    room.table.start(room.now)
    room.deliver()
    return room


def test_three_joiners_and_silicon_end_with_the_hosts_record() -> None:
    room = seated_room()
    room.play()
    record = room.table.record()
    assert Game.from_record(record).over
    assert [m.record for m in room.mirrors.values()] == [record] * 3
    assert record.startswith("pachisi 1 seed=11 dice=cowrie players=Ann:h,Silicon:c,Bob:h,Cy:h")


def test_intents_out_of_turn_or_illegal_change_nothing() -> None:
    room = seated_room()
    game = room.table.game
    assert game is not None and game.current == 0
    before = game.record()
    intents: list[tuple[int, dict[str, Any]]] = [
        (2, {"t": "throw"}), (3, {"t": "pass"}), (1, {"t": "move", "piece": 0}), (1, {"t": "pass"}),
    ]
    for peer, intent in intents:
        room.table.receive(peer, intent, room.now)
    out = room.table.take_outbox()
    assert [m["t"] for _, m in out] == ["error"] * 4
    assert [m["text"] for _, m in out][:2] == ["it is Ann's turn"] * 2
    assert game.record() == before


def test_refusals_wrong_code_full_taken_name_other_app() -> None:
    room = Room("remote,remote")
    assert not room.join(1, hello("Ann", 1, code="9999"))
    assert room.refusals[1] == "wrong join code"
    assert room.join(2, hello("Ann", 2))
    assert not room.join(3, hello("Ann", 3))
    assert room.refusals[3] == "the name Ann is taken"
    assert not room.join(4, {**hello("Zed", 4), "app": "sigmar"})
    assert "pachisi, not sigmar" in room.refusals[4]
    assert room.join(5, hello("Bob", 5))
    assert not room.join(6, hello("Cy", 6))
    assert room.refusals[6] == "the game is full"
    assert room.join(7, {"t": "hello", "v": 1, "app": "pachisi", "code": "1234", "watch": True})
    assert room.mirrors[7].seat is None


def test_a_joiner_away_comes_back_with_its_token_and_silicon_stands_in_meanwhile() -> None:
    room = seated_room()
    room.table.gone(1, room.now)
    room.deliver()
    assert room.table.seat_list(room.now)[0]["state"] == "away"
    ann = room.mirrors.pop(1)
    room.now += 6.0  # past the wait: Silicon plays Ann's seat
    room.table.tick(room.now)
    room.deliver()
    assert room.table.seat_list(room.now)[0]["state"] == "silicon"
    assert room.table.computer_plays(0, room.now)
    room.advance(40)
    assert not room.join(8, hello("Ann", 99))  # the name without the token
    assert room.join(9, hello("Ann", 1))  # the same token: the seat again
    assert room.mirrors[9].seat == 0 and room.mirrors[9].steps == room.table.steps
    assert ann.steps == room.table.steps[:len(ann.steps)]
    room.play()
    assert room.mirrors[9].record == room.table.record()


def test_a_saved_table_hosts_again_where_it_stopped() -> None:
    room = seated_room()
    room.advance(25)
    saved = json.loads(json.dumps(room.table.snapshot()))
    again = HostTable.restore(saved, 0.0)
    assert again.steps == room.table.steps and again.record() == room.table.record()
    assert [s["state"] for s in again.seat_list(0.0)] == ["away", "here", "away", "away"]
    saved["steps"] = [*saved["steps"][:-1], "P"]
    with pytest.raises(ValueError, match="does not replay"):
        HostTable.restore(saved, 0.0)
    with pytest.raises(ValueError, match="damaged"):
        HostTable.restore({"v": 1}, 0.0)


def test_a_mirror_refuses_steps_that_do_not_fit() -> None:
    mirror = Mirror()
    mirror.receive({"t": "game", "dice": "cowrie", "players": [["A", "h"], ["B", "h"]],
                    "steps": []})
    with pytest.raises(HostError, match="after step"):
        mirror.receive({"t": "step", "n": 5, "step": "T6"})
    with pytest.raises(HostError, match="does not fit"):
        mirror.receive({"t": "step", "n": 0, "step": "M0"})
    with pytest.raises(HostError, match="not over"):
        mirror.receive({"t": "end", "record": "pachisi 1 seed=1 dice=cowrie players=A:h,B:h"})


def test_the_turn_timer_has_silicon_act_for_a_slow_player() -> None:
    room = Room("remote,remote")
    room.table.turn_s = 30.0
    assert room.join(1, hello("Ann", 1)) and room.join(2, hello("Bob", 2))
    room.table.start(room.now)
    assert not room.table.computer_due(room.now + 29.0)
    assert room.table.computer_due(room.now + 30.0)
    room.table.play_computer(room.now + 30.0)  # Silicon throws for Ann
    assert room.table.steps[0].startswith("T")
    assert not room.table.computer_due(room.now + 31.0)  # the clock starts again


def test_silicon_plays_a_move_worked_out_ahead_only_while_it_is_still_open() -> None:
    # The window works Silicon's move out between frames and hands it over; one
    # the game has moved past (not legal now) is chosen again, as choose would.
    room = seated_room()
    table = room.table
    game = table.game
    assert game is not None
    for _ in range(2000):  # until Silicon's seat has a throw waiting with a choice
        if (table.computer_due(room.now) and game.phase == "move"
                and len(game.legal_moves()) > 1
                and isinstance(ai.choose(game, LEVEL), Move)):
            break
        room.advance(1)
    else:
        raise AssertionError("Silicon never had a choice")
    thinking = table.computer_thinking()
    assert thinking is not None
    ahead = stepped.finish(thinking)
    assert ahead == ai.choose(game, LEVEL)
    other = next(m for m in game.legal_moves() if m != ahead)
    stale = other._replace(to=other.to + 1)
    assert stale not in game.legal_moves()
    throws = len(game.history)
    table.play_computer(room.now, stale)  # not open: chosen again
    assert game.history[throws - 1].move == ahead
    assert table.computer_thinking() is None  # a throw is next (or another seat's)
