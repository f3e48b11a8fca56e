"""Typing a host's address on the device: an IPv6 address's colons from the pen's
":" key and from the desktop's keyboard, sent bracketed as the network reads it
(docs/network.md, "Join" and "Beam")."""

from __future__ import annotations

import re
from collections.abc import Sequence

import pytest

from palmish.device.addresses import ADDRESS_CHARS, address_text, parse_address, parse_typed_host
from palmish.device.events import CharKey, Key, KeyDown, MenuCommand, PenDown, PenUp
from palmish.device.machine.system import Device, Services
from palmish.device.scripting.eventscript import parse_script
from palmish.device.ui.alert import Alert
from palmish.device.ui.form import Form, PopupList, PushButtons
from palmish.device.ui.name_entry import NameEntry
from palmish.device.ui.number_entry import NumberEntry
from palmish.frontend.input import text_event
from tests.device.test_beam_dialogs import FakeBeam, beam, device

__all__ = ["beam", "device"]  # the fixtures, shared with the Beam dialogs' tests
IPV6 = "fe80::1:2"


class FakeNetwork:
    """The window's network service as Join uses it: records the join, then refuses."""

    def __init__(self) -> None:
        self.joins: list[tuple[str, str, str | None]] = []

    announces = False  # as under --no-discovery

    def saved_game(self) -> str | None:
        return None

    def kept_table(self) -> tuple[str, str, str, str | None] | None:
        return None

    def forget_table(self) -> None:
        pass

    def found_games(self) -> Sequence[tuple[str, str]]:
        return ()

    def join(self, address: str, code: str, name: str | None) -> object:
        self.joins.append((address, code, name))
        raise OSError("connection refused")


def top(device: Device) -> object:
    return device.modals[-1] if device.modals else None


def tap_key(device: Device, entry: NameEntry, label: str) -> None:
    """Tap the on-screen key `label` with the pen."""
    rect = next(rect for key, rect in entry.keys if key == label)
    x, y = rect.x + rect.w // 2, rect.y + rect.h // 2
    device.post(PenDown(x, y))
    device.post(PenUp(x, y))


def test_an_address_entry_has_a_colon_key_and_a_name_entry_has_none(device: Device) -> None:
    address, name = NameEntry("Host address", address=True), NameEntry("Your name")
    device.open_modal(address)  # laid out on the screen
    assert ":" in [key for key, _ in address.keys]
    tap_key(device, address, "f")
    tap_key(device, address, ":")
    tap_key(device, address, ":")
    tap_key(device, address, "1")
    assert address.text == "f::1"
    for char in ":x":
        name._char(char)
    assert name.text == "X" and ":" not in [key for key, _ in name.keys]
    assert address.most == ADDRESS_CHARS == 60 and name.most == 10


def test_the_keyboard_types_a_colon_where_text_is_wanted() -> None:
    assert text_event(":", wants_text=True) == CharKey(":")
    assert text_event(":", wants_text=False) is None  # no app takes it
    assert text_event("[", wants_text=True) == CharKey("[")  # [IPV6]:PORT
    address, name = NameEntry("Host address", address=True), NameEntry("Your name")
    for char in "[::1]":
        address._char(char)
        name._char(char)
    assert address.text == "[::1]" and name.text == "1"  # a name takes no bracket nor colon
    assert parse_script("char :\nchar .\nchar -\nchar _\n", "t.events") == [
        CharKey(":"), CharKey("."), CharKey("-"), CharKey("_")]


def test_an_ipv6_host_is_put_in_brackets_the_network_reads() -> None:
    assert address_text(IPV6, 40731) == f"[{IPV6}]:40731"
    assert parse_address(address_text(IPV6, 40731)) == (IPV6, 40731)
    assert parse_address(address_text("192.0.2.4", 40731)) == ("192.0.2.4", 40731)


def test_beam_other_sends_to_a_typed_ipv6_address(device: Device, beam: FakeBeam) -> None:
    device.switch_to("Sigmar's Garden")
    device.post(MenuCommand("beam"))  # Game > Beam Board
    form = top(device)
    assert isinstance(form, Form) and isinstance(form.fields[0], PopupList)
    form.fields[0].selected = 1  # Other...
    device.post(CharKey("\n"))
    assert isinstance(top(device), NameEntry)
    for char in IPV6 + "\n":
        device.post(CharKey(char))
    assert isinstance(top(device), NumberEntry)
    device.post(CharKey("\n"))  # the port shown, 40732
    assert beam.sent[0][1] == f"[{IPV6}]:40732"


def test_join_other_joins_a_typed_ipv6_address(device: Device) -> None:
    network = FakeNetwork()
    device.services = Services(network=lambda _device: network)  # as the window hands it over
    device.switch_to("Pachisi")
    device.post(MenuCommand("network"))
    assert isinstance(top(device), Alert)  # Host, Join or Cancel
    device.post(KeyDown(Key.RIGHT))
    device.post(KeyDown(Key.SELECT))  # Join
    form = top(device)
    assert isinstance(form, Form) and isinstance(form.fields[0], PushButtons)
    device.post(CharKey("\n"))  # only Other... is listed: OK
    entry = top(device)
    assert isinstance(entry, NameEntry) and entry.title == "Host address"
    for char in IPV6 + "\n":
        device.post(CharKey(char))
    device.post(CharKey("\n"))  # the port shown, 40731
    for char in "0421\n":
        device.post(CharKey(char))  # the join code
    assert isinstance(top(device), Alert)  # Sit, Watch or Cancel
    device.post(KeyDown(Key.RIGHT))
    device.post(KeyDown(Key.SELECT))  # Watch
    assert network.joins == [(f"[{IPV6}]:40731", "0421", None)]


def test_a_typed_host_is_host_port_a_bracketed_ipv6_or_a_host_alone() -> None:
    assert parse_typed_host("127.0.0.1:39375") == ("127.0.0.1", 39375)
    assert parse_typed_host(f"[{IPV6}]:40999") == (IPV6, 40999)
    assert parse_typed_host("kitchen.local") == ("kitchen.local", None)
    assert parse_typed_host(IPV6) == (IPV6, None)
    assert parse_typed_host(f"[{IPV6}]") == (IPV6, None)
    for wrong, said in (("127.0.0.1:39375:40731", "is not HOST:PORT, [IPV6]:PORT or a host"),
                        ("127.0.0.1:0", "'0' is not a port (1-65535)"),
                        ("[kitchen]:1", "is not HOST:PORT, [IPV6]:PORT or a host"),
                        ("host]", "is not HOST:PORT, [IPV6]:PORT or a host")):
        with pytest.raises(ValueError, match=re.escape(said)):
            parse_typed_host(wrong)


def join_other(device: Device, typed: str) -> None:
    """Game > Network Game... > Join > Other..., then `typed` as the host and Enter."""
    device.switch_to("Pachisi")
    device.post(MenuCommand("network"))
    device.post(KeyDown(Key.RIGHT))
    device.post(KeyDown(Key.SELECT))  # Join
    device.post(CharKey("\n"))  # only Other... is listed: OK
    entry = top(device)
    assert isinstance(entry, NameEntry) and entry.title == "Host address"
    for char in typed + "\n":
        device.post(CharKey(char))


@pytest.mark.parametrize(("typed", "joined"), [
    ("127.0.0.1:39375", "127.0.0.1:39375"), (f"[{IPV6}]:40999", f"[{IPV6}]:40999")])
def test_join_other_takes_host_port_and_asks_no_port(device: Device, typed: str,
                                                      joined: str) -> None:
    network = FakeNetwork()
    device.services = Services(network=lambda _device: network)
    join_other(device, typed)
    for char in "0421\n":
        device.post(CharKey(char))  # straight to the join code
    device.post(KeyDown(Key.RIGHT))
    device.post(KeyDown(Key.SELECT))  # Watch
    assert network.joins == [(joined, "0421", None)]


def test_join_other_refuses_anything_else_at_once_with_one_line(device: Device) -> None:
    network = FakeNetwork()
    device.services = Services(network=lambda _device: network)
    join_other(device, "127.0.0.1:39375:40731")
    alert = top(device)
    assert isinstance(alert, Alert) and alert.icon == "error"
    assert alert.message == ("Cannot join: '127.0.0.1:39375:40731' is not HOST:PORT, "
                             "[IPV6]:PORT or a host.")
    assert network.joins == []
