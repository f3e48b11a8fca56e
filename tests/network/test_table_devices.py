"""At the table with two devices in-process (docs/network.md, "At the table"):
Game > Table Message..., Game Over's "Play again?" as a rematch at the same
table (never a local game with the table's names), Game > Leave Table and the
host's Remove Player..., as a person does them with keys and menus."""

from __future__ import annotations

from pathlib import Path

from palmish.device.events import CharKey, Key, KeyDown, MenuCommand
from palmish.device.machine.system import Device
from palmish.device.ui.alert import Alert
from palmish.device.ui.form import Form
from palmish.network.session.kinds import Join
from palmish.network.session.talk import TABLE_LEVEL
from palmish.pachisi.net.seats import HostSeat, JoinSeat
from tests.network.test_devices import Pair
from tests.pachisi.test_app import answer


class TalkPair(Pair):
    """test_devices' pair, its joiner speaking the table's kinds."""

    def __init__(self, built: Path, tmp: Path, seats: list[str]) -> None:
        super().__init__(built, tmp, seats)
        join_net = self.join_app.net
        assert isinstance(join_net, JoinSeat)
        self.to_host.clear()  # Bob's join again, with the table level
        self._joiner_sends(Join("Bob", dice=join_net.mirror.dice.commitment, table=TABLE_LEVEL))
        self.deliver()

    def host_net(self) -> HostSeat:
        assert isinstance(self.host_app.net, HostSeat)
        return self.host_app.net

    def join_net(self) -> JoinSeat:
        assert isinstance(self.join_app.net, JoinSeat)
        return self.join_app.net


def say(device: Device, index: int) -> None:
    """Game > Table Message..., the message `index` (Right moves the choice), Send."""
    device.post(MenuCommand("say"))
    assert title(device.modals[-1]) == "Table Message"
    for _ in range(index):
        device.post(KeyDown(Key.RIGHT))
    device.post(CharKey("\n"))


def title(modal: object) -> str:
    return str(getattr(modal, "title", ""))


def test_table_messages_reach_the_other_device_its_log_and_the_senders_corner(
        built_plugins: Path, tmp_path: Path) -> None:
    pair = TalkPair(built_plugins, tmp_path, ["host", "remote"])
    say(pair.joiner, 0)  # Good luck!
    pair.deliver()
    assert pair.host_net().table_lines()[-1] == "Bob: Good luck!"
    assert "Bob: Good luck!" in pair.host_app.network_lines()
    assert pair.host_app.scene.away.get(1) == "Good luck!"  # Bob's corner (Square)
    say(pair.host, 3)  # Well played
    pair.deliver()
    assert pair.join_net().table_lines()[-1] == "You: Well played"
    assert pair.join_app.scene.away.get(0) == "Well played"
    for _ in range(3):  # Bob's limit: 3 in 10 s (the first counted), refused on his device
        say(pair.joiner, 1)  # Your turn
    shown = pair.joiner.modals[-1]
    assert isinstance(shown, Alert) and shown.message.startswith("At most 3 table messages")
    pair.deliver()
    assert pair.host_net().table_lines().count("Bob: Your turn") == 2


def test_play_again_on_a_joiner_is_a_rematch_at_the_same_table(built_plugins: Path,
                                                               tmp_path: Path) -> None:
    pair = TalkPair(built_plugins, tmp_path, ["host", "remote"])
    first = pair.host_app.game
    pair.play_to_the_end()
    assert title(pair.joiner.modals[-1]) == "Game Over"
    answer(pair.joiner, "Yes")  # "Play again?"
    assert pair.join_app.net is not None  # no local game with the table's names
    pair.join_app.play_again()  # Game > Play Again as well: said once, one commitment
    assert len([r for r in pair.to_host if r.text.startswith('{"t":"again"')]) == 1
    assert pair.join_app.game is not first and pair.join_app.game.over  # still the table's
    pair.deliver()
    question = pair.host.modals[-1]
    assert isinstance(question, Form) and title(question) == "Rematch", question
    pair.host.post(CharKey("\n"))  # Yes (no-sayers' seats: open)
    pair.deliver()
    for app in (pair.host_app, pair.join_app):
        assert app.net is not None and app.game is not None
        assert not app.game.over and not app.game.history  # a new game, on both devices
        assert [p.name for p in app.game.players] == ["You", "Bob"]
        assert "The rematch is on" in app.network_lines()
    assert pair.host_app.game is not first
    assert not pair.host.modals  # the last game's Game Over closed when the rematch began
    assert pair.host_app.game.history == []
    pair.play_to_the_end()
    assert pair.join_net().mirror.verdict == "verified"
    assert pair.join_net().mirror.record == pair.host_app.game.record()


def test_leave_table_gives_the_seat_up_and_brings_the_local_game_back(
        built_plugins: Path, tmp_path: Path) -> None:
    pair = TalkPair(built_plugins, tmp_path, ["host", "remote"])
    pair.joiner.post(MenuCommand("leave"))
    answer(pair.joiner, "Leave")
    assert pair.join_app.net is None
    assert [p.name for p in pair.join_app.game.players] != ["You", "Bob"]  # its own game
    pair.deliver()
    table = pair.host_net().table
    assert table.seats[1].kind == "computer"  # Silicon plays Bob's seat to the end
    assert pair.host_net().table_lines()[-1] == "Bob left the table; the seat is Silicon"


def test_the_host_removes_a_player_who_is_told_and_goes_back_to_its_own_game(
        built_plugins: Path, tmp_path: Path) -> None:
    pair = TalkPair(built_plugins, tmp_path, ["host", "remote", "computer"])
    pair.host.post(MenuCommand("remove"))
    form = pair.host.modals[-1]
    assert isinstance(form, Form) and title(form) == "Remove Player"
    pair.host.post(CharKey("\n"))  # Remove Bob, his seat to Silicon
    pair.deliver()
    assert pair.join_app.net is None
    told = pair.joiner.modals[-1]
    assert isinstance(told, Alert)
    assert told.message == ("Kitchen's host removed you from the table. Back to this"
                            " handheld's own game.")
    assert pair.host_net().table.removed == {b"B" * 32}  # its seat key opens nothing more
    pair.joiner.post(MenuCommand("remove"))  # not the host: it says so
    assert isinstance(pair.joiner.modals[-1], Alert)


def test_outside_a_network_game_the_table_commands_say_what_they_are_for(
        built_plugins: Path, tmp_path: Path) -> None:
    pair = TalkPair(built_plugins, tmp_path, ["host", "remote"])
    pair.join_app.leave_table_now()
    assert not pair.joiner.modals
    for command in ("say", "leave", "remove"):
        pair.joiner.post(MenuCommand(command))
        shown = pair.joiner.modals[-1]
        assert isinstance(shown, Alert) and "network games" in shown.message
        answer(pair.joiner, "OK")
