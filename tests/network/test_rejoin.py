"""A window that joined a table keeps it until it leaves (docs/network.md,
"Rejoin"): a restarted window asks "Rejoin Kitchen's game?", one tap joins
again under the same name; No forgets it; the name last used at a table is
prefilled. Loopback only; the hosting device's network thread serves."""

from __future__ import annotations

import os
import stat
import time
from collections.abc import Sequence
from pathlib import Path

import pytest

from palmish.device.display import ConfigName
from palmish.device.events import CharKey, Key, KeyDown, MenuCommand
from palmish.device.machine.system import Services
from palmish.device.ui.alert import Alert
from palmish.device.ui.name_entry import NameEntry
from palmish.network import keep
from palmish.network.service import WindowNetwork
from palmish.pachisi.app import PachisiApp
from tests.game_devices import start_device

KEPT = keep.KeptTable("Kitchen", "127.0.0.1:40731", "0421", "Ann")


class KeptNetwork:
    """The window's network service with a kept table; records joins and forgets."""

    announces = False

    def __init__(self, kept: keep.KeptTable | None) -> None:
        self.kept = kept
        self.joins: list[tuple[str, str, str | None]] = []
        self.forgot = 0

    def saved_game(self) -> str | None:
        return None

    def found_games(self) -> Sequence[tuple[str, str]]:
        return ()

    def kept_table(self) -> keep.KeptTable | None:
        return self.kept

    def forget_table(self) -> None:
        self.forgot += 1

    def join(self, address: str, code: str, name: str | None) -> object:
        self.joins.append((address, code, name))
        raise OSError("connection refused")  # the host is not up yet: said, not crashed


def started(built_plugins: Path, tmp_path: Path, network: KeptNetwork) -> tuple[object, object]:
    app = PachisiApp()
    device = start_device(app, "pachisi", built_plugins, ConfigName.SQUARE, tmp_path / "d",
                          services=Services(network=lambda _device: network))
    return app, device


def test_a_kept_table_is_offered_on_start_and_one_tap_rejoins(built_plugins: Path,
                                                              tmp_path: Path) -> None:
    network = KeptNetwork(KEPT)
    _, device = started(built_plugins, tmp_path, network)
    offer = device.modals[-1]
    assert isinstance(offer, Alert) and offer.message == "Rejoin Kitchen's game?"
    device.post(KeyDown(Key.SELECT))  # Rejoin, the first button
    assert network.joins == [("127.0.0.1:40731", "0421", "Ann")] and network.forgot == 0


def test_no_forgets_the_kept_table_and_nothing_kept_asks_nothing(built_plugins: Path,
                                                                 tmp_path: Path) -> None:
    network = KeptNetwork(KEPT._replace(table="", name=None))
    _, device = started(built_plugins, tmp_path, network)
    offer = device.modals[-1]
    assert isinstance(offer, Alert)
    assert offer.message == "Watch the game at 127.0.0.1:40731 again?"
    device.post(KeyDown(Key.RIGHT))
    device.post(KeyDown(Key.SELECT))  # No
    assert network.joins == [] and network.forgot == 1
    _, quiet = started(built_plugins, tmp_path / "again", KeptNetwork(None))
    assert not quiet.modals


def test_the_name_last_used_at_a_table_is_prefilled(built_plugins: Path,
                                                    tmp_path: Path) -> None:
    network = KeptNetwork(None)
    _, device = started(built_plugins, tmp_path, network)

    def sit(typed: str) -> NameEntry:
        device.post(MenuCommand("network"))
        device.post(KeyDown(Key.RIGHT))
        device.post(KeyDown(Key.SELECT))  # Join
        device.post(CharKey("\n"))  # Other...
        for char in "127.0.0.1:40731\n0421\n":
            device.post(CharKey(char))
        device.post(KeyDown(Key.SELECT))  # Sit
        entry = device.modals[-1]
        assert isinstance(entry, NameEntry)
        shown = NameEntry("x", entry.text)
        for char in typed + "\n":
            device.post(CharKey(char))
        alert = device.modals[-1]  # "Cannot join": the fake host is not there
        assert isinstance(alert, Alert) and alert.icon == "error"
        device.post(KeyDown(Key.SELECT))
        assert not device.modals
        return shown

    assert sit("zoe").text == "You"  # nothing yet: the last local name
    assert sit("").text == "Zoe"  # the last name used at a table, kept as it is
    assert network.joins[-1] == ("127.0.0.1:40731", "0421", "Zoe")


def test_a_window_keeps_the_table_it_joined_until_it_leaves(built_plugins: Path,
                                                           tmp_path: Path) -> None:
    host_device = start_device(PachisiApp(), "pachisi", built_plugins, ConfigName.SQUARE,
                               tmp_path / "host")
    hosting = WindowNetwork(host_device, tmp_path / "host", "Kitchen", listen="127.0.0.1",
                            port=0)
    seat, where = hosting.host(["host", "remote"], "Ann", False, 60.0, None)
    host_device.running_app.net = seat  # type: ignore[attr-defined]
    bob_device = start_device(PachisiApp(), "pachisi", built_plugins, ConfigName.SQUARE,
                              tmp_path / "bob")
    joining = WindowNetwork(bob_device, tmp_path / "bob", "Bob's", listen="127.0.0.1", port=0)
    assert seat.code is not None
    bob = joining.join(where, seat.code, "Bob")
    try:
        assert joining.kept_table() == keep.KeptTable("", where, seat.code, "Bob")
        path = keep.joined_path(tmp_path / "bob", "pachisi")
        assert stat.S_IMODE(os.stat(path).st_mode) == 0o600  # the code at rest
        deadline = time.monotonic() + 20
        while joining.kept_table() != keep.KeptTable("Kitchen", where, seat.code, "Bob"):
            assert time.monotonic() < deadline, joining.kept_table()
            host_device.post_waiting()
            bob_device.post_waiting()
            time.sleep(0.01)
    finally:
        bob.close()  # left on purpose: not offered again
        seat.close()
    deadline = time.monotonic() + 5
    while path.exists():
        assert time.monotonic() < deadline
        time.sleep(0.01)
    assert joining.kept_table() is None


@pytest.mark.parametrize("text", ['{"table": 1}', "[]", '{"table":"K","address":"x",'
                                  '"code":"0421","name":null}', "not json"])
def test_a_kept_table_file_that_is_not_one_is_not_offered(tmp_path: Path, text: str) -> None:
    keep.save_joined(tmp_path, "pachisi", KEPT)
    assert keep.load_joined(tmp_path, "pachisi") == KEPT
    keep.joined_path(tmp_path, "pachisi").write_text(text)
    lines: list[str] = []
    assert keep.load_joined(tmp_path, "pachisi", lines.append) is None
    assert len(lines) == 1 and "not a kept table" in lines[0]
