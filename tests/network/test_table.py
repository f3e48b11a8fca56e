"""The host's table and the joiners' mirrors, in-process: records passed by
hand through their encoding, no sockets. Host and joiners must end with the
same record, and every joiner's dice check must say "verified"."""

from __future__ import annotations

import json

import pytest

from palmish import stepped
from palmish.network.engine import Arrival, HostError
from palmish.network.fairdice import JoinerDice
from palmish.network.session import dice
from palmish.network.session.kinds import FROM_SERVER, Join, Refused, Welcome
from palmish.network.session.records import Record
from palmish.pachisi import ai
from palmish.pachisi.game import Game
from palmish.pachisi.net import messages
from palmish.pachisi.net.mirror import Mirror
from palmish.pachisi.net.table import HostTable, parse_seats
from palmish.pachisi.rules import Move

LEVEL = "easy"  # fast, and deterministic like every level
HEARS = FROM_SERVER + dice.FROM_HOST + messages.FROM_HOST
JOINER_SAYS = dice.FROM_JOINER + messages.FROM_JOINER


def arrival(i: int) -> Arrival:
    """What a session would have proved of joiner i: its identity and seat key."""
    return Arrival(bytes([i]) * 32, bytes([100 + i]) * 32)


class Room:
    """A table and its joiners' mirrors, wired by hand through the records' encoding."""

    def __init__(self, spec: str = "remote,computer,remote,remote", seed: int = 11) -> None:
        self.table = HostTable.create(parse_seats(spec), "1234", "Kitchen", seed=seed,
                                      wait_s=5.0, level=LEVEL)
        self.mirrors: dict[int, Mirror] = {}
        self.refusals: dict[int, str] = {}
        self.firsts: dict[int, str] = {}  # the first kind each peer received
        self.now = 0.0

    def deliver(self) -> None:
        while True:
            out = self.table.take_outbox()
            if not out:
                return
            for peer, record in out:
                received = HEARS.decode(record.encode(), 1 << 20)  # through the wire format
                self.firsts.setdefault(peer, received.KIND)
                if isinstance(received, Refused):
                    self.refusals[peer] = received.reason
                elif peer in self.mirrors:
                    mirror = self.mirrors[peer]
                    mirror.receive(received)
                    for answer in mirror.outbox:  # a dice reveal
                        self.say(peer, answer)
                    mirror.outbox.clear()

    def say(self, peer: int, record: Record) -> None:
        self.table.receive(peer, JOINER_SAYS.decode(record.encode(), 1024), self.now)

    def join(self, peer: int, name: str | None, who: int | None = None) -> bool:
        """`name` sits (None: watches) with the keys of joiner `who` (default: peer)."""
        part = JoinerDice(contribute=name is not None)
        self.mirrors[peer] = Mirror(part)
        join = Join(name, watch=name is None, dice=part.commitment)
        ok = self.table.join(peer, join, arrival(peer if who is None else who), self.now)
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
                self.say(peer, self.mirrors[peer].silicon_intent(LEVEL))
            self.deliver()
            self.now += 0.01

    def play(self) -> None:
        self.advance(20_000)
        assert self.table.over, "the game did not end"


def seated_room() -> Room:
    room = Room()
    for peer, name in enumerate(["Ann", "Bob", "Cy"], start=1):
        assert room.join(peer, name)
    room.table.start(room.now)
    room.deliver()  # the dice round: commitments, reveals, secrets, the game
    assert room.table.started
    return room


def test_three_joiners_and_silicon_end_with_the_hosts_record_and_verified_dice() -> None:
    room = seated_room()
    room.play()
    record = room.table.record()
    assert Game.from_record(record).over
    assert [m.record for m in room.mirrors.values()] == [record] * 3
    assert [m.verdict for m in room.mirrors.values()] == ["verified"] * 3
    assert record.startswith("pachisi 1 seed=")
    assert " dice=cowrie players=Ann:h,Silicon:c,Bob:h,Cy:h" in record


def test_the_seed_comes_from_every_joiners_secret() -> None:
    # The same host secret (--seed 11) with other joiners' secrets: another seed.
    seeds = set()
    for _ in range(2):
        room = seated_room()
        seeds.add(room.table.seed)
    assert len(seeds) == 2


def test_a_host_that_throws_sixes_is_reported_by_every_joiner_and_spectator(
        monkeypatch: pytest.MonkeyPatch) -> None:
    room = seated_room()
    assert room.join(9, None)  # a spectator, from the start
    real_throw = Game.throw
    host_throws = iter(range(1_000_000))

    def sixes(game: Game, value: int | None = None) -> int:
        if value is None and next(host_throws) % 3 == 0:  # the host's own draws only
            value = 6  # (sixes every time would never end the game)
        return real_throw(game, value)

    monkeypatch.setattr(Game, "throw", sixes)
    room.play()
    verdicts = [m.verdict for m in room.mirrors.values()]
    assert len(verdicts) == 4
    for verdict in verdicts:
        assert verdict is not None and verdict.startswith("not verified: throw ")
        assert ": 6, the commitments give " in verdict


def test_welcome_is_the_first_message_of_two_joiners_and_a_spectator_together() -> None:
    room = Room("remote,remote,computer")
    room.table.join(1, Join("Ann"), arrival(1), 0.0)  # nothing delivered in between
    room.table.join(2, Join("Bob"), arrival(2), 0.0)
    room.table.join(3, Join(watch=True), arrival(3), 0.0)
    room.table.start(0.0)
    out = room.table.take_outbox()
    firsts: dict[int, str] = {}
    for peer, record in out:
        firsts.setdefault(peer, record.KIND)
    assert firsts == {1: "welcome", 2: "welcome", 3: "welcome"}
    assert isinstance(out[0][1], Welcome)


def test_intents_out_of_turn_or_illegal_change_nothing() -> None:
    room = seated_room()
    game = room.table.game
    assert game is not None and game.current == 0
    before = game.record()
    intents: list[tuple[int, Record]] = [
        (2, messages.Throw()), (3, messages.Pass()), (1, messages.Move(0)), (1, messages.Pass()),
        (1, Join("Ann")),
    ]
    for peer, intent in intents:
        room.table.receive(peer, intent, room.now)
    out = room.table.take_outbox()
    assert [r.KIND for _, r in out] == ["error"] * 5
    assert [getattr(r, "text", "") for _, r in out][:2] == ["it is Ann's turn"] * 2
    assert game.record() == before


def test_refusals_full_taken_name_no_seat_key() -> None:
    # (A wrong code or another app never reaches the table: the handshake refuses it.)
    room = Room("remote,remote")
    assert room.join(2, "Ann")
    assert not room.join(3, "Ann")  # another seat key
    assert room.refusals[3] == "the name Ann is taken"
    assert not room.table.join(4, Join("Zed"), Arrival(b"z" * 32, None), room.now)
    room.deliver()
    assert room.refusals[4] == "a name and a seat proof are needed to sit down"
    assert room.join(5, "Bob")
    assert not room.join(6, "Cy")
    assert room.refusals[6] == "the game is full"
    assert room.join(7, None)
    assert room.mirrors[7].seat is None
    assert set(room.firsts.values()) == {"welcome", "refused"}


def test_names_at_a_table_are_one_regardless_of_case() -> None:
    room = Room("remote,computer,remote,remote")  # the computer seat is Silicon
    assert room.join(2, "Ann")
    assert not room.join(3, "ann")  # another device: not beside Ann
    assert room.refusals[3] == "the name ann is taken"
    assert not room.join(4, "SILICON")  # nor beside the host's or Silicon's seats
    assert room.refusals[4] == "the name SILICON is taken"
    assert room.join(5, "Bob")
    assert room.join(6, "silicon1")
    names = [s.name.casefold() for s in room.table.seat_list(room.now) if s.name]
    assert names == ["ann", "silicon", "bob", "silicon1"]


def test_silicon_in_an_open_seat_takes_a_name_no_one_has_in_any_case() -> None:
    room = Room("remote,remote")
    assert room.join(2, "silicon")
    room.table.start(room.now)  # the open seat goes to Silicon
    assert [s.name for s in room.table.seat_list(room.now)] == ["silicon", "Silicon1"]


def test_a_joiner_away_comes_back_with_its_seat_key_and_silicon_stands_in_meanwhile() -> None:
    room = seated_room()
    room.table.gone(1, room.now)
    room.deliver()
    assert room.table.seat_list(room.now)[0].state == "away"
    ann = room.mirrors.pop(1)
    room.now += 6.0  # past the wait: Silicon plays Ann's seat
    room.table.tick(room.now)
    room.deliver()
    assert room.table.seat_list(room.now)[0].state == "silicon"
    assert room.table.computer_plays(0, room.now)
    room.advance(40)
    assert not room.join(8, "Ann", who=99)  # the name without the seat key
    assert room.table.trusts(arrival(1).identity) and not room.table.trusts(b"\x63" * 32)
    assert room.join(9, "Ann", who=1)  # the same seat key: the seat again
    assert room.mirrors[9].seat == 0 and room.mirrors[9].steps == room.table.steps
    assert ann.steps == room.table.steps[:len(ann.steps)]
    room.play()
    assert room.mirrors[9].record == room.table.record()
    assert room.mirrors[9].verdict == "verified"  # it checked the round told it late


def test_a_saved_table_hosts_again_where_it_stopped() -> None:
    room = seated_room()
    room.advance(25)
    saved = json.loads(json.dumps(room.table.snapshot()))
    again = HostTable.restore(saved, 0.0)
    assert again.steps == room.table.steps and again.record() == room.table.record()
    assert [s.state for s in again.seat_list(0.0)] == ["away", "here", "away", "away"]
    assert again.scope == room.table.scope and again.round.secrets == room.table.round.secrets
    saved["steps"] = [*saved["steps"][:-1], "P"]
    with pytest.raises(ValueError, match="does not replay"):
        HostTable.restore(saved, 0.0)
    with pytest.raises(ValueError, match="damaged"):
        HostTable.restore({"v": 2}, 0.0)


def test_a_mirror_refuses_steps_that_do_not_fit() -> None:
    mirror = Mirror(JoinerDice())
    players = (messages.Player("A", False), messages.Player("B", False))
    mirror.receive(messages.GameSoFar("cowrie", players, ()))
    with pytest.raises(HostError, match="after step"):
        mirror.receive(messages.Step(5, "T6"))
    with pytest.raises(HostError, match="does not fit"):
        mirror.receive(messages.Step(0, "M0"))
    with pytest.raises(HostError, match="not over"):
        mirror.receive(messages.End("pachisi 1 seed=1 dice=cowrie players=A:h,B:h"))


def test_a_mirror_refuses_dice_that_do_not_match_their_commitments() -> None:
    part = JoinerDice()
    mirror = Mirror(part)
    mirror.receive(Welcome(2, "pachisi", "Kitchen", 0, dice.commitment(b"h" * 32)))
    with pytest.raises(HostError, match="not the one it sent in welcome"):
        mirror.receive(dice.DiceCommits(b"x" * 32, (part.commitment or b"",)))
    with pytest.raises(HostError, match="missing"):
        mirror.receive(dice.DiceCommits(dice.commitment(b"h" * 32), ()))
    with pytest.raises(HostError, match="changed"):
        mirror.receive(Welcome(2, "pachisi", "Kitchen", 0, dice.commitment(b"other" * 6)))


def test_the_turn_timer_has_silicon_act_for_a_slow_player() -> None:
    room = Room("remote,remote")
    room.table.turn_s = 30.0
    assert room.join(1, "Ann") and room.join(2, "Bob")
    room.table.start(room.now)
    room.deliver()
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
