"""A host whose disk refuses its saves tells every joiner (an `error` record, which
any joiner of version 2 takes; docs/network.md, "Trouble"): the joiner's window
shows it over the board once (Square has no log) and in the log while it lasts."""

from __future__ import annotations

import errno
import os
from pathlib import Path

import pytest

from palmish.device.display import ConfigName
from palmish.network import keep
from palmish.network.engine import CANNOT_SAVE, SAVED_AGAIN, record_event
from palmish.network.service import WindowNetwork
from palmish.network.session.kinds import Error
from palmish.pachisi.app import PachisiApp
from palmish.pachisi.net.seats import JoinSeat
from tests.game_devices import start_device
from tests.network.test_devices import Pair

FULL = f"{CANNOT_SAVE}the disk is full; it goes on from memory (the last save is kept)"


def test_the_hosts_full_disk_shows_on_the_joiner_until_it_saves_again(
        built_plugins: Path, tmp_path: Path) -> None:
    pair = Pair(built_plugins, tmp_path, ["host", "remote"])
    pair.deliver()
    join_net = pair.join_app.net
    assert isinstance(join_net, JoinSeat) and join_net.status() is None
    pair.to_joiner.append(record_event(0, Error(FULL)))
    pair.deliver()
    said = f"The host {FULL}."
    assert join_net.status() == said
    assert pair.join_app.scene.notice == said  # over the board, once
    assert pair.join_app.network_lines()[-1] == said  # and in the log
    pair.step()  # the game goes on; the line stays while the saves fail
    pair.deliver()
    assert join_net.status() == said
    pair.to_joiner.append(record_event(0, Error(SAVED_AGAIN)))
    pair.deliver()
    assert join_net.status() is None and said not in pair.join_app.network_lines()
    pair.to_joiner.append(record_event(0, Error("it is not your turn")))
    pair.deliver()
    assert join_net.status() is None  # a refused request is not the host's trouble


def test_a_window_host_whose_disk_is_full_plays_on_and_says_so(
        built_plugins: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    app = PachisiApp()
    device = start_device(app, "pachisi", built_plugins, ConfigName("square"), tmp_path / "d")
    network = WindowNetwork(device, tmp_path / "d", "Test", listen="127.0.0.1", port=0)
    seat, _ = network.host(["host", "remote"], "Ann", False, 60.0, None)
    leftover = tmp_path / "d" / "network" / "keys" / ".host-pachisi.json.abcdefgh.tmp"
    try:
        seat.start()  # the open seat goes to Silicon
        saved = keep.load_host_game(tmp_path / "d", "pachisi")

        def full(*_args: object, **_kwargs: object) -> None:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

        monkeypatch.setattr(keep, "write_atomic", full)
        assert seat.ask("throw") is None  # played, not saved
        assert seat.table.steps and keep.load_host_game(tmp_path / "d", "pachisi") == saved
        assert device.messages.count(f"{FULL[0].upper()}{FULL[1:]}.") == 1
        leftover.write_text("{}")  # as a host killed in its save would leave it
    finally:
        seat.close()
    monkeypatch.undo()
    again = WindowNetwork(device, tmp_path / "d", "Test", listen="127.0.0.1", port=0)
    resumed, _ = again.host([], "", False, 60.0, None, resume=True)
    assert not leftover.exists()  # the next host start removed it (the lock is its)
    resumed.close()
