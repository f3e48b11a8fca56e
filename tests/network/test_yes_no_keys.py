"""Issue 41: every yes/no question of a network game answers Y and N (docs/network.md,
"Answering by keys"), as Pachisi's own questions do: N presses the question's No
(No, Stay, Wait, Cancel), Y the other; first letters press their buttons; Escape
keeps its meaning. And a question about the game at a table closes, unanswered,
when the next game there begins (a rematch the others agreed to)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pytest

from palmish.device.display import ConfigName
from palmish.device.events import CharKey, Event, Key, KeyDown, MenuCommand
from palmish.device.machine.system import Device, Services
from palmish.device.ui.alert import Alert
from palmish.device.ui.form import Form
from palmish.device.ui.name_entry import NameEntry
from palmish.network import keep
from palmish.network.engine import Arrival, record_event
from palmish.network.session.kinds import Join
from palmish.network.session.records import Record
from palmish.network.session.talk import TABLE_LEVEL
from palmish.pachisi.app import PachisiApp
from tests.game_devices import start_device
from tests.network.test_table_devices import TalkPair, title

KEPT = keep.KeptTable("Kitchen", "127.0.0.1:40731", "0421", "Ann")
ESCAPE = "escape"


def key(device: Device, name: str) -> None:
    """A typed letter, or Escape."""
    event: Event = KeyDown(Key.CANCEL) if name == ESCAPE else CharKey(name)
    device.post(event)


class FakeNetwork:
    """The window's network service, as far as the questions go: records what the
    answers asked of it (hosting and joining fail, said in an alert)."""

    announces = False

    def __init__(self, kept: keep.KeptTable | None = None, saved: str | None = None) -> None:
        self.kept, self.saved = kept, saved
        self.calls: list[tuple[object, ...]] = []

    def saved_game(self) -> str | None:
        return self.saved

    def found_games(self) -> Sequence[tuple[str, str]]:
        return ()

    def kept_table(self) -> keep.KeptTable | None:
        return self.kept

    def forget_table(self) -> None:
        self.calls.append(("forget",))

    def join(self, address: str, code: str, name: str | None) -> object:
        self.calls.append(("join", address, code, name))
        raise OSError("connection refused")

    def host(self, seats: Sequence[str], name: str, advertise: bool, wait_s: float,
             turn_s: float | None, resume: bool = False, internet: bool = False,
             ) -> tuple[object, str]:
        self.calls.append(("host", resume))
        raise OSError("address in use")

    def internet(self) -> None:
        return None


def started(built_plugins: Path, tmp_path: Path, network: FakeNetwork) -> Device:
    return start_device(PachisiApp(), "pachisi", built_plugins, ConfigName.SQUARE,
                        tmp_path / "d", services=Services(network=lambda _device: network))


def top(device: Device) -> object:
    return device.modals[-1] if device.modals else None


@pytest.mark.parametrize(("press", "calls"), [
    ("y", [("join", "127.0.0.1:40731", "0421", "Ann")]), ("Y", [("join", "127.0.0.1:40731",
                                                                   "0421", "Ann")]),
    ("r", [("join", "127.0.0.1:40731", "0421", "Ann")]),
    ("n", [("forget",)]), (ESCAPE, [("forget",)])])
def test_rejoin_kitchens_game(built_plugins: Path, tmp_path: Path, press: str,
                              calls: list[tuple[object, ...]]) -> None:
    network = FakeNetwork(KEPT)
    device = started(built_plugins, tmp_path, network)
    offer = top(device)
    assert isinstance(offer, Alert) and offer.message == "Rejoin Kitchen's game?"
    key(device, press)
    assert top(device) is not offer and network.calls == calls


@pytest.mark.parametrize(("press", "then"), [("h", "Host"), ("j", "Join"), ("n", None),
                                             ("c", None), (ESCAPE, None), ("y", "same")])
def test_host_or_join(built_plugins: Path, tmp_path: Path, press: str, then: str | None) -> None:
    """Not a yes/no question: H hosts, J joins, N (as Escape) and C cancel; Y does nothing."""
    device = started(built_plugins, tmp_path, FakeNetwork())
    device.post(MenuCommand("network"))
    asked = top(device)
    assert isinstance(asked, Alert) and asked.row.labels() == ("Host", "Join", "Cancel")
    key(device, press)
    if then == "same":
        assert top(device) is asked
    elif then is None:
        assert not device.modals
    else:
        assert isinstance(top(device), Form) and title(top(device)) == then


@pytest.mark.parametrize(("press", "then"), [("y", "resume"), ("r", "resume"),
                                             ("n", "Host"), (ESCAPE, None), ("c", None)])
def test_host_the_game_you_left_again(built_plugins: Path, tmp_path: Path, press: str,
                                      then: str | None) -> None:
    """Y (Resume) hosts it again, N a new one (its form), Escape neither."""
    network = FakeNetwork(saved="2 seats, 14 steps")
    device = started(built_plugins, tmp_path, network)
    device.post(MenuCommand("network"))
    key(device, "h")
    asked = top(device)
    assert isinstance(asked, Alert) and asked.message.startswith("Host the network game you")
    key(device, press)
    if then == "resume":
        assert network.calls == [("host", True)]  # refused by the fake: said
        assert isinstance(top(device), Alert) and "Cannot host" in top(device).message  # type: ignore[union-attr]
    elif then is None:
        assert not device.modals and network.calls == []
    else:
        assert isinstance(top(device), Form) and title(top(device)) == then


@pytest.mark.parametrize(("press", "then"), [("s", "sit"), ("w", "watch"), ("n", None),
                                             (ESCAPE, None), ("y", "same")])
def test_sit_or_watch_takes_s_and_w(built_plugins: Path, tmp_path: Path, press: str,
                                    then: str | None) -> None:
    """"Sit in a free seat, or watch?" is not a yes/no question: S sits (the name
    next), W watches, N and Escape cancel as Cancel does, Y does nothing."""
    network = FakeNetwork()
    device = started(built_plugins, tmp_path, network)
    device.post(MenuCommand("network"))
    key(device, "j")
    device.post(CharKey("\n"))  # Other...
    for char in "127.0.0.1:40731\n0421\n":
        device.post(CharKey(char))
    asked = top(device)
    assert isinstance(asked, Alert) and asked.message.startswith("Sit in a free seat")
    key(device, press)
    if then == "sit":
        assert isinstance(top(device), NameEntry)
    elif then == "watch":
        assert network.calls == [("join", "127.0.0.1:40731", "0421", None)]
    elif then == "same":
        assert top(device) is asked
    else:
        assert not device.modals and network.calls == []


# ---------------------------------------------------------------- at a table


@pytest.mark.parametrize(("press", "left"), [("y", True), ("l", True), ("n", False),
                                             ("s", False), (ESCAPE, False)])
@pytest.mark.parametrize("command", ["leave", "network"])
def test_leave_table_and_leave_the_network_game(built_plugins: Path, tmp_path: Path,
                                                command: str, press: str, left: bool) -> None:
    """Game > Leave Table and Network Game... ("Leave the network game?"): Y leaves,
    N and Escape stay."""
    pair = TalkPair(built_plugins, tmp_path, ["host", "remote"])
    pair.deliver()
    pair.joiner.services = Services(network=lambda _device: FakeNetwork())  # the window's
    pair.joiner.post(MenuCommand(command))
    asked = top(pair.joiner)
    assert isinstance(asked, Alert) and asked.row.labels() == ("Leave", "Stay")
    key(pair.joiner, press)
    assert top(pair.joiner) is not asked
    assert (pair.join_app.net is None) is left


@pytest.mark.parametrize(("press", "closed"), [("y", True), ("n", False), (ESCAPE, False)])
def test_the_hosts_close_the_table(built_plugins: Path, tmp_path: Path, press: str,
                                   closed: bool) -> None:
    """On the host Leave Table asks "Close the table? ..." (Leave, Stay): Y closes it,
    N and Escape stay."""
    pair = TalkPair(built_plugins, tmp_path, ["host", "remote"])
    pair.deliver()
    pair.host.post(MenuCommand("leave"))
    asked = top(pair.host)
    assert isinstance(asked, Alert) and asked.message.startswith("Close the table?")
    key(pair.host, press)
    assert top(pair.host) is not asked and (pair.host_app.net is None) is closed


@pytest.mark.parametrize(("press", "then"), [("y", "started"), ("s", "started"),
                                             ("n", "waits"), ("w", "waits"),
                                             (ESCAPE, "waits"), ("l", "left")])
def test_start_now_with_silicon(built_plugins: Path, tmp_path: Path, press: str,
                                then: str) -> None:
    """The host in its waiting room: "Start now, with Silicon in the open seats?"
    (Start, Leave, Wait): Y starts, N waits (as Escape), L leaves."""
    pair = TalkPair(built_plugins, tmp_path, ["host", "remote", "remote"])
    pair.deliver()
    assert pair.host_app.net is not None and pair.host_app.net.game is None
    pair.host.services = Services(network=lambda _device: FakeNetwork())  # the window's
    pair.host.post(MenuCommand("network"))
    asked = top(pair.host)
    assert isinstance(asked, Alert) and asked.row.labels() == ("Start", "Leave", "Wait")
    key(pair.host, press)
    assert top(pair.host) is not asked
    pair.deliver()
    net = pair.host_app.net
    if then == "left":
        assert net is None
    else:
        assert net is not None and (net.game is not None) is (then == "started")


def game_over_on_both(pair: TalkPair) -> None:
    pair.play_to_the_end()
    for device in (pair.host, pair.joiner):
        assert title(top(device)) == "Game Over"


@pytest.mark.parametrize(("press", "proposed"), [("y", True), ("p", True), ("n", False),
                                                 ("c", False), (ESCAPE, False)])
def test_the_hosts_play_again_here(built_plugins: Path, tmp_path: Path, press: str,
                                   proposed: bool) -> None:
    """The host's Game Over, Y: "Play again here?" (Propose, Cancel, and what the
    seat of a no becomes): Y proposes, N and Escape do not."""
    pair = TalkPair(built_plugins, tmp_path, ["host", "remote"])
    game_over_on_both(pair)
    key(pair.host, "y")
    asked = top(pair.host)
    assert isinstance(asked, Form) and asked.row.labels() == ("Propose", "Cancel")
    key(pair.host, press)
    assert top(pair.host) is not asked
    pair.deliver()
    question = pair.join_net().rematch_question()
    assert (question == "You proposes a rematch.") is proposed, question  # the host's You


def proposed_by_the_host(pair: TalkPair) -> None:
    game_over_on_both(pair)
    key(pair.host, "y")  # Play again? Yes
    key(pair.host, "y")  # Play again here? Propose
    pair.deliver()
    asked = top(pair.joiner)
    assert isinstance(asked, Alert) and title(asked) == "Rematch"
    assert asked.row.labels() == ("Yes", "No")
    assert title(pair.joiner.modals[-2]) == "Game Over"  # under it, the last game's


@pytest.mark.parametrize("press", ["y", "Y"])
def test_y_on_a_joiners_rematch_starts_it_and_no_question_of_the_last_game_stays(
        built_plugins: Path, tmp_path: Path, press: str) -> None:
    pair = TalkPair(built_plugins, tmp_path, ["host", "remote"])
    last = pair.join_app.game
    proposed_by_the_host(pair)
    key(pair.joiner, press)
    pair.deliver()
    for device, app in ((pair.host, pair.host_app), (pair.joiner, pair.join_app)):
        assert app.net is not None and app.game is not last and not app.game.over
        assert not device.modals, device.modals  # Game Over went with the last game
    assert pair.join_app.human_turn or pair.host_app.human_turn
    pair.play_to_the_end()  # the new game plays to its end as any
    assert pair.join_net().mirror.verdict == "verified"


def test_n_on_a_joiners_rematch_leaves_the_table_and_escape_leaves_it_open(
        built_plugins: Path, tmp_path: Path) -> None:
    pair = TalkPair(built_plugins, tmp_path, ["host", "remote"])
    proposed_by_the_host(pair)
    asked = top(pair.joiner)
    key(pair.joiner, ESCAPE)  # unanswered: still at the table, asked nothing more
    assert top(pair.joiner) is not asked and pair.join_app.net is not None
    assert title(top(pair.joiner)) == "Game Over"
    pair.deliver()
    assert pair.host_net().table.vote is not None  # the proposal stays open
    pair2 = TalkPair(built_plugins, tmp_path / "again", ["host", "remote"])
    proposed_by_the_host(pair2)
    key(pair2.joiner, "n")
    assert pair2.join_app.net is None  # No leaves the table: this handheld's own game
    told = top(pair2.joiner)
    assert isinstance(told, Alert) and told.message.startswith("You left the table.")
    assert len(pair2.joiner.modals) == 1  # the last game's Game Over went with it


def test_a_rematch_the_host_starts_closes_the_question_still_open_on_a_joiner(
        built_plugins: Path, tmp_path: Path) -> None:
    """Bob's Game Over is open when the host proposes and Bob answers on Game Over
    itself (Y: a yes to the open proposal): the rematch starts, and the Rematch
    question that came meanwhile, now stale, closes with everything of the last game."""
    pair = TalkPair(built_plugins, tmp_path, ["host", "remote"])
    game_over_on_both(pair)
    key(pair.host, "y")
    key(pair.host, "y")  # proposed; not yet delivered to Bob
    gone = top(pair.joiner)
    assert title(gone) == "Game Over"
    key(pair.joiner, "y")  # Play again? Yes: Bob's yes to the rematch
    assert not pair.joiner.modals
    pair.deliver()
    for device, app in ((pair.host, pair.host_app), (pair.joiner, pair.join_app)):
        assert app.net is not None and not app.game.over and not app.game.history
        assert not device.modals, device.modals


@pytest.mark.parametrize(("press", "agreed"), [("y", True), ("n", False), (ESCAPE, None)])
def test_the_hosts_rematch_question_takes_y_and_n(built_plugins: Path, tmp_path: Path,
                                                  press: str, agreed: bool | None) -> None:
    """Bob proposes; the host is asked (Yes, No and the seat of a no): Y agrees and the
    rematch starts (the host's Game Over closes with the last game), N declines,
    Escape leaves it unanswered (the proposal waits)."""
    pair = TalkPair(built_plugins, tmp_path, ["host", "remote"])
    last = pair.host_app.game
    game_over_on_both(pair)
    key(pair.joiner, "y")
    pair.deliver()
    asked = top(pair.host)
    assert isinstance(asked, Form) and title(asked) == "Rematch"
    assert asked.row.labels() == ("Yes", "No")
    key(pair.host, press)
    pair.deliver()
    assert (pair.host_app.game is not last) is bool(agreed)
    if agreed is None:
        assert pair.host_net().table.vote is not None and top(pair.host) is not asked
    elif agreed:
        assert not pair.host.modals and not pair.joiner.modals
    else:
        assert "No rematch: the host declined" in pair.join_net().table_lines()


class ThreePair(TalkPair):
    """TalkPair with a third seat another joiner (Cy, peer 8) takes later; what the
    host says to Cy is not followed."""

    def _host_sends(self, peer: int, record: Record) -> None:
        if peer != CY:
            super()._host_sends(peer, record)


CY = 8


def test_start_now_closes_when_the_last_seat_fills_and_the_game_starts(
        built_plugins: Path, tmp_path: Path) -> None:
    """The host asks itself "Start now, with Silicon in the open seats?" while Cy
    takes the last seat: the game starts, and the question no longer applies."""
    pair = ThreePair(built_plugins, tmp_path, ["host", "remote", "remote"])
    pair.deliver()
    pair.host.services = Services(network=lambda _device: FakeNetwork())
    pair.host.post(MenuCommand("network"))
    asked = top(pair.host)
    assert isinstance(asked, Alert) and asked.row.labels() == ("Start", "Leave", "Wait")
    # (Cy pledges no dice: the round then waits for Bob's alone)
    pair.host.post(record_event(CY, Join("Cy", table=TABLE_LEVEL),
                                Arrival(b"c" * 32, b"C" * 32)))
    pair.deliver()
    net = pair.host_app.net
    assert net is not None and net.game is not None  # every seat taken: it began
    assert not pair.host.modals  # the question went with the waiting room
