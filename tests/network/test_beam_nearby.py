"""The handhelds a sender's Beam dialog lists: zeroconf's own ServiceInfo
objects, made in-process, fed to the list (nothing here opens a socket)."""

from __future__ import annotations

from zeroconf import ServiceInfo

from palmish.network.beam.nearby import ReceiverList
from palmish.network.discovery import SERVICE_TYPE, BrowseListener, service_info


def test_receivers_are_listed_by_name_and_games_are_not() -> None:
    found = ReceiverList()
    found.found(service_info("Lounge", "beam", 40732, ["192.0.2.7"]))
    found.found(service_info("attic", "beam", 5000, ["2001:db8::5"]))
    found.found(service_info("Kitchen", "pachisi", 40731, ["192.0.2.8"]))  # a game
    assert found.receivers() == [("attic", "[2001:db8::5]:5000"), ("Lounge", "192.0.2.7:40732")]
    found.lost(f"Lounge 40732.{SERVICE_TYPE}")
    assert found.receivers() == [("attic", "[2001:db8::5]:5000")]


def test_hostile_advertisements_are_left_out() -> None:
    found = ReceiverList()
    for name, props, port, address in (
        ("esc", {"app": "beam", "table": "Evil\x1b[2J"}, 40732, "192.0.2.1"),
        ("noport", {"app": "beam", "table": "Zero"}, 0, "192.0.2.2"),
        ("multicast", {"app": "beam", "table": "Loud"}, 40732, "224.0.0.251"),
        ("long", {"app": "beam", "table": "x" * 41}, 40732, "192.0.2.3"),
    ):
        found.found(ServiceInfo(SERVICE_TYPE, f"{name}.{SERVICE_TYPE}", port=port,
                                properties=props, parsed_addresses=[address]))
    assert found.receivers() == []


class Source:
    def __init__(self, info: ServiceInfo) -> None:
        self.info = info

    def get_service_info(self, type_: str, name: str, timeout: int = 0) -> ServiceInfo:
        return self.info


def test_the_browse_listener_feeds_the_list() -> None:
    found = ReceiverList()
    info = service_info("Lounge", "beam", 40732, ["192.0.2.7"])
    listener = BrowseListener(found)
    listener.add_service(Source(info), SERVICE_TYPE, info.name)
    assert found.receivers() == [("Lounge", "192.0.2.7:40732")]
    listener.remove_service(Source(info), SERVICE_TYPE, info.name)
    assert found.receivers() == []
