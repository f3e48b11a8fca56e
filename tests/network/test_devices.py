"""Two devices playing one network game in-process: each device gets the other's
records as the window's network thread hands them over (NetworkRecord events,
no sockets), each person plays with the keys, Silicon plays on the host's
clock, and the two games end alike, the joiner's dice verified."""

from __future__ import annotations

from pathlib import Path

import pytest

from palmish.device.display import ConfigName
from palmish.device.events import CharKey, Key, KeyDown, MenuCommand, NetworkClosed
from palmish.network.engine import Arrival, NetworkRecord, record_event
from palmish.network.fairdice import JoinerDice
from palmish.network.session.kinds import Join
from palmish.network.session.records import Record
from palmish.pachisi import PASS, ai
from palmish.pachisi import app as pachisi_app
from palmish.pachisi.app import PachisiApp
from palmish.pachisi.net.seats import HostSeat, JoinSeat
from palmish.pachisi.net.table import HostTable
from tests.game_devices import start_device

JOINER = 7  # the host's number for the joiner's connection


class Pair:
    def __init__(self, built: Path, tmp: Path, seats: list[str], level: str = "easy") -> None:
        self.host_app, self.join_app = PachisiApp(), PachisiApp()
        self.host = start_device(self.host_app, "pachisi", built, ConfigName("square"),
                                 tmp / "host")
        self.joiner = start_device(self.join_app, "pachisi", built, ConfigName("square-low"),
                                   tmp / "join")
        self.to_joiner: list[NetworkRecord] = []
        self.to_host: list[NetworkRecord] = []
        table = HostTable.create(seats, "1234", "Kitchen", seed=3, level=level)
        self.host_app.net = HostSeat(table, self._host_sends)
        dice = JoinerDice()
        self.join_app.net = JoinSeat(self._joiner_sends, dice_part=dice)
        self._joiner_sends(Join("Bob", dice=dice.commitment))

    def _host_sends(self, peer: int, record: Record) -> None:
        assert peer == JOINER
        self.to_joiner.append(record_event(0, record))

    def _joiner_sends(self, record: Record) -> None:
        # what the host's session proved of Bob: its identity and its seat key
        self.to_host.append(record_event(JOINER, record, Arrival(b"b" * 32, b"B" * 32)))

    def deliver(self) -> int:
        count = 0
        while self.to_host or self.to_joiner:
            if self.to_host:
                self.host.post(self.to_host.pop(0))
            if self.to_joiner:
                self.joiner.post(self.to_joiner.pop(0))
            count += 1
        return count

    def step(self) -> None:
        """Whoever's turn: the person presses Select, or the host's clock moves on."""
        self.deliver()
        for device, app in ((self.host, self.host_app), (self.joiner, self.join_app)):
            if app.human_turn and not device.modals:
                device.post(KeyDown(Key.SELECT))
                self.deliver()
                return
            for _ in range(3):  # a "can't move" alert (the game-over question stays)
                if device.modals and getattr(device.modals[-1], "title", "") != "Game Over":
                    # The caution question's default is Cancel (so Select alone never
                    # strands a piece): this person means it, and presses M for Move.
                    caution = getattr(device.modals[-1], "title", "") == "Caution"
                    device.post(CharKey("m") if caution else KeyDown(Key.SELECT))
        self.host.advance(self.host.now_ms + 600)
        self.deliver()

    def play_to_the_end(self) -> None:
        for _ in range(5000):
            if self.host_app.game.over:
                break
            self.step()
        self.deliver()
        assert self.host_app.game.over and self.join_app.game.over


def test_a_person_on_each_device_and_silicon_play_to_the_same_end(
        built_plugins: Path, tmp_path: Path) -> None:
    pair = Pair(built_plugins, tmp_path, ["host", "remote", "computer"])
    pair.deliver()
    host_game, join_game = pair.host_app.game, pair.join_app.game
    assert pair.host_app.net is not None and pair.host_app.net.game is host_game
    assert join_game.players == host_game.players
    assert [p.name for p in host_game.players] == ["You", "Bob", "Silicon"]
    pair.play_to_the_end()
    assert host_game.over and pair.join_app.game.over
    join_net = pair.join_app.net
    assert isinstance(join_net, JoinSeat)
    assert join_net.mirror.record == host_game.record()
    assert join_net.mirror.verdict == "verified" and join_net.status() is None
    assert pair.join_app.game_fields() is None  # a network game never replaces the saved one


def test_out_of_turn_keys_send_nothing_and_a_dropped_joiner_is_away(
        built_plugins: Path, tmp_path: Path) -> None:
    pair = Pair(built_plugins, tmp_path, ["host", "remote"])
    pair.deliver()
    assert pair.host_app.human_turn and not pair.join_app.human_turn
    pair.joiner.post(KeyDown(Key.SELECT))
    assert pair.to_host == []
    pair.host.post(NetworkClosed(JOINER))
    net = pair.host_app.net
    assert net is not None
    assert net.seat_lines(0.0) == ["You: here", "Bob: away"]


def test_the_marker_moved_on_one_device_shows_on_the_other(
        built_plugins: Path, tmp_path: Path) -> None:
    pair = Pair(built_plugins, tmp_path, ["host", "remote"])
    for _ in range(400):  # until the host's person has a throw with two choices
        pair.deliver()
        game = pair.host_app.game
        if (pair.host_app.human_turn and game.phase == "move"
                and len({m.pieces[0] for m in game.legal_moves()}) > 1
                and not pair.host.modals):
            break
        pair.step()
    else:
        raise AssertionError("no choice of pieces came")
    pair.host.post(KeyDown(Key.DOWN))
    pair.deliver()
    mark = pair.host_app.scene.mark
    assert mark is not None and pair.join_app.scene.mark == mark


def test_a_dialog_on_the_host_does_not_pause_the_others(built_plugins: Path,
                                                        tmp_path: Path) -> None:
    """Silicon's seat on the host plays on while the host's person has Preferences
    open, and the joiner sees its steps; the dialog stays open and whole."""
    pair = Pair(built_plugins, tmp_path, ["computer", "host", "remote"])
    pair.deliver()
    game = pair.host_app.game
    assert not pair.host_app.human_turn  # Silicon's turn first
    pair.host.post(MenuCommand("prefs"))
    assert pair.host.modals
    dialog = pair.host.modals[-1]
    before = len(game.history)
    for _ in range(20):
        pair.host.advance(pair.host.now_ms + 600)
        pair.deliver()
    assert len(game.history) > before  # Silicon threw (and moved) behind the dialog
    assert pair.host.modals[-1] is dialog and not dialog.closed
    join_net = pair.join_app.net
    assert isinstance(join_net, JoinSeat) and join_net.mirror.steps  # the joiner saw them


def test_the_hosts_silicon_thinks_between_frames_and_plays_what_choose_chooses(
        built_plugins: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """At level hard the host's Silicon seat works out its move in slices on the
    host's clock (the window draws between them), and plays choose's move."""
    monkeypatch.setattr(pachisi_app, "TIMED_SLICE_MS", 0.0)  # a pause after every step
    pair = Pair(built_plugins, tmp_path, ["computer", "host", "remote"], level="hard")
    pair.deliver()
    app, game = pair.host_app, pair.host_app.game
    expected: dict[int, object] = {}  # throw number -> choose's answer
    for _ in range(5000):
        pair.deliver()
        if game.over or len(expected) >= 4:
            break
        thinking = app.thinking_for
        if thinking is not None and thinking[2] == "net" and thinking[1] not in expected:
            assert thinking[0] is game
            expected[thinking[1]] = ai.choose(game, "hard")
        if app.human_turn or pair.join_app.human_turn:
            pair.step()
        else:
            due = pair.host.next_timer_ms()
            assert due is not None
            pair.host.advance(due)
    played = {n: game.history[n - 1] for n in expected
              if game.history[n - 1].outcome != "pending"}  # the last may still think
    assert len(played) >= 3
    for n, throw in played.items():
        choice = expected[n]
        assert throw.move == choice if choice is not PASS else throw.outcome == "passed"


def test_at_the_end_every_device_shows_the_result_and_counts_it_apart(
        built_plugins: Path, tmp_path: Path) -> None:
    pair = Pair(built_plugins, tmp_path, ["host", "remote"])
    pair.deliver()
    pair.play_to_the_end()
    assert pair.host_app.game.over and pair.join_app.game.over
    assert pair.join_app.game.record().split(" seed=")[1].split(" ", 1)[1] == \
        pair.host_app.game.record().split(" seed=")[1].split(" ", 1)[1]
    for device, app in ((pair.host, pair.host_app), (pair.joiner, pair.join_app)):
        shown = device.modals[-1]
        assert getattr(shown, "title", "") == "Game Over", shown
        assert app.game.message.split(".")[0] in getattr(shown, "message", "")
        device.post(CharKey("n"))  # no other game now
        device.post(MenuCommand("stats"))
        text = getattr(device.modals[-1], "text", "")
        assert text.startswith("Network games finished: 1"), text
        assert "Games finished" not in text  # this device's own games are apart
        assert "Bob: 1 game" in text and "You: 1 game" in text
