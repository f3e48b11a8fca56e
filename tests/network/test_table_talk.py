"""At the table, in-process (docs/network.md, "At the table"): canned messages,
their limits, a rematch at the same table, leaving and removing, through the
records' encoding as test_table.py's room does, with joiners that speak the
table's kinds."""

from __future__ import annotations

from palmish.network.session import talk
from palmish.network.session.kinds import Error, Join
from palmish.network.session.records import MessageError
from palmish.pachisi.game import Game
from palmish.pachisi.net.mirror import Mirror
from tests.network.test_table import JOINER_SAYS, Room, arrival


class TalkRoom(Room):
    """test_table's room, its joiners speaking table level 1."""

    def __init__(self, spec: str = "remote,computer,remote", wait_s: float = 5.0) -> None:
        super().__init__(spec)
        self.table.wait_s = wait_s
        self.errors: dict[int, list[str]] = {}

    def join(self, peer: int, name: str | None, who: int | None = None) -> bool:
        from palmish.network.fairdice import JoinerDice
        part = JoinerDice(contribute=name is not None)
        self.mirrors[peer] = Mirror(part)
        join = Join(name, watch=name is None, dice=part.commitment, table=talk.TABLE_LEVEL)
        ok = self.table.join(peer, join, arrival(peer if who is None else who), self.now)
        self.deliver()
        if not ok:
            del self.mirrors[peer]
        if not self.table.started and self.table.ready():  # as the headless host does
            self.table.start(self.now)
            self.deliver()
        return ok

    def deliver(self) -> None:
        super().deliver()
        for peer, mirror in self.mirrors.items():
            if mirror.errors:
                self.errors.setdefault(peer, []).extend(mirror.errors)
                mirror.errors.clear()


def played_room(spec: str = "remote,computer,remote") -> TalkRoom:
    room = TalkRoom(spec)
    assert room.join(1, "Ann") and room.join(2, "Bob") and room.join(9, None)
    room.deliver()
    assert room.table.started
    room.play()
    return room


def test_a_canned_message_reaches_every_device_and_its_corner() -> None:
    room = TalkRoom()
    assert room.join(1, "Ann") and room.join(2, "Bob") and room.join(9, None)
    room.say(1, talk.Say("good-luck"))
    room.deliver()
    for peer in (1, 2, 9):
        assert room.mirrors[peer].table_lines[-1] == "Ann: Good luck!"
        assert room.mirrors[peer].said == {0: "Good luck!"}
    assert "Ann: Good luck!" in room.table.log


def test_free_text_unknown_ids_and_a_fourth_message_are_refused_and_the_game_goes_on() -> None:
    room = TalkRoom()
    assert room.join(1, "Ann") and room.join(2, "Bob")
    assert room.table.started
    for msg in ("Hello everyone", "shout"):  # no free text: an error, the session stays
        room.say(1, talk.Say(msg))
    for _ in range(4):
        room.say(2, talk.Say("well-played"))
    room.deliver()
    assert room.errors[1] == ["no table message 'Hello everyone'", "no table message 'shout'"]
    assert room.errors[2] == ["at most 3 table messages in 10 s; wait a moment"]
    assert [line for line in room.mirrors[1].table_lines] == ["Bob: Well played"] * 3
    room.now += talk.SAY_WINDOW_S  # the limit is per window: later it may speak again
    room.say(2, talk.Say("your-turn"))
    room.deliver()
    assert room.mirrors[1].table_lines[-1] == "Bob: Your turn"
    assert 1 in room.table.peers and 2 in room.table.peers  # nobody was dropped
    room.play()  # and the game plays to its end
    assert room.mirrors[1].verdict == "verified"


def test_a_message_longer_than_its_bound_does_not_decode() -> None:
    try:
        JOINER_SAYS.decode(b'{"t":"say","msg":"' + b"x" * 41 + b'"}', 1024)
    except MessageError:
        return
    raise AssertionError("a 41-character message decoded")


def test_a_rematch_everyone_accepts_starts_a_new_game_on_every_device_spectator_too() -> None:
    room = played_room()
    first = room.table.record()
    room.say(1, room.mirrors[1].again(True))  # Ann proposes
    room.deliver()
    vote = room.mirrors[2].vote
    assert vote is not None and vote.by == 0 and vote.answers == ("yes", "-", "wait")
    assert room.mirrors[9].table_lines[-1] == "Ann proposes a rematch"
    room.say(2, room.mirrors[2].again(True))  # Bob accepts (the headless host agrees)
    room.deliver()
    assert room.table.vote is not None  # the host's device has not answered: it decides
    room.table.again(None, True, room.now)
    room.deliver()
    assert room.table.started and not room.table.over
    assert room.table.finished == [first]
    room.play()
    second = room.table.record()
    assert second != first
    for peer in (1, 2, 9):  # everyone followed, the spectator too, dice verified
        assert room.mirrors[peer].record == second
        assert room.mirrors[peer].verdict == "verified"
        assert room.mirrors[peer].games == 2
    assert " players=Ann:h,Silicon:c,Bob:h " in second


def test_a_seat_that_says_no_becomes_open_or_silicon_as_the_host_chose() -> None:
    for vacate, players in (("silicon", "Ann:h,Silicon:c,Silicon1:c"), ("open", None)):
        room = played_room()
        room.table.vacate = vacate
        room.table.again(None, True, room.now)  # the host proposes
        room.say(1, room.mirrors[1].again(True))
        room.say(2, room.mirrors[2].again(False))
        room.deliver()
        assert room.refusals.get(2) == "you left the table"
        seat_now = "Silicon" if vacate == "silicon" else "open"
        assert f"Bob left the table; the seat is {seat_now}" in room.mirrors[1].table_lines
        assert "The rematch is on" in room.mirrors[1].table_lines
        if players is None:  # an open seat: the waiting room, a newcomer may sit
            assert not room.table.started
            assert room.join(3, "Cy")
            room.deliver()
            assert room.table.started
            players = "Ann:h,Silicon:c,Cy:h"
        room.play()
        assert f" players={players} " in room.table.record()


def test_no_answer_in_time_vacates_and_a_host_no_ends_it() -> None:
    room = played_room()
    room.table.again(None, True, room.now)
    room.say(1, room.mirrors[1].again(True))
    room.now += room.table.wait_s + 1  # Bob never answers
    room.table.tick(room.now)
    room.deliver()
    assert room.refusals.get(2) == "you did not answer the rematch in time"
    assert not room.table.started  # Bob's seat is open (the default): the waiting room
    assert [s.state for s in room.table.seat_list(room.now)] == ["here", "here", "open"]
    room = played_room()
    room.say(1, room.mirrors[1].again(True))
    room.table.again(None, False, room.now)
    room.deliver()
    assert room.mirrors[1].vote is None
    assert room.mirrors[1].table_lines[-1] == "No rematch: the host declined"
    assert room.table.over and room.table.closed


def test_leaving_mid_game_gives_the_seat_to_silicon_and_its_key_holds_nothing() -> None:
    room = TalkRoom()
    assert room.join(1, "Ann") and room.join(2, "Bob")
    room.advance(10)
    room.say(2, talk.Leave())
    room.deliver()
    assert room.refusals[2] == "you left the table"
    assert room.table.seats[2].kind == "computer"
    assert room.mirrors[1].table_lines[-1] == "Bob left the table; the seat is Silicon"
    assert not room.join(3, "Bob", who=2)  # the same device again: the seat is not its own
    assert room.refusals[3] == "the name Bob is taken"
    room.play()  # Silicon plays Bob's seat to the end
    assert room.mirrors[1].verdict == "verified"


def test_the_host_removes_a_player_whose_key_then_opens_nothing() -> None:
    room = TalkRoom("remote,remote")
    assert room.join(1, "Ann") and room.join(2, "Bob")
    room.advance(6)
    room.table.vacate_seat(1, room.now, removed=True, why="the host removed you from the table")
    room.deliver()
    assert room.refusals[2] == "the host removed you from the table"
    assert room.mirrors[1].table_lines[-1] == "Bob was removed from the table; the seat is Silicon"
    assert not room.join(3, "Robert", who=2)  # another name, the same key
    assert room.refusals[3] == "the host removed you from this table"
    room.play()


def test_spectators_and_old_clients_cannot_talk() -> None:
    room = TalkRoom()
    assert room.join(1, "Ann") and room.join(9, None)
    room.say(9, talk.Say("good-luck"))
    room.deliver()
    assert room.errors[9] == ["spectators watch"]
    room.table.join(4, Join("Bob"), arrival(4), room.now)  # no `table`: the plain protocol
    out = room.table.take_outbox()
    assert all(record.KIND != "said" for peer, record in out if peer == 4)
    room.table.say(0, "good-luck", room.now)
    assert all(peer != 4 for peer, record in room.table.take_outbox())
    assert isinstance(Error("x"), Error)


def test_a_rematch_is_refused_before_the_end() -> None:
    room = TalkRoom()
    assert room.join(1, "Ann") and room.join(2, "Bob")
    room.say(1, room.mirrors[1].again(True))
    room.deliver()
    assert room.errors[1] == ["a rematch is proposed once the game is over"]
    assert isinstance(room.table.game, Game)
