"""Discovery without the network: zeroconf's own ServiceInfo objects, made
in-process, fed to the list a joiner shows. Nothing here opens a socket."""

from __future__ import annotations

from typing import Any

from zeroconf import ServiceInfo

from palmish.network.discovery import (
    SERVICE_TYPE,
    BrowseListener,
    FoundGame,
    GameList,
    lan_addresses,
    service_info,
)


def advert(name: str, table: str, port: int = 40731, address: str = "192.0.2.7",
           **props: str) -> ServiceInfo:
    properties = {"app": "pachisi", "v": "2", "table": table, **props}
    return ServiceInfo(SERVICE_TYPE, f"{name}.{SERVICE_TYPE}", port=port,
                       properties=properties, parsed_addresses=[address])


def test_advertisements_fill_the_list_by_name() -> None:
    changes: list[int] = []
    games = GameList(lambda: changes.append(1))
    games.found(advert("b", "Kitchen"))
    games.found(advert("a", "attic", port=5000, address="2001:db8::5"))
    assert games.games() == [
        FoundGame("attic", "pachisi", "2001:db8::5", 5000),
        FoundGame("Kitchen", "pachisi", "192.0.2.7", 40731),
    ]
    assert games.games()[0].address == "[2001:db8::5]:5000"
    games.found(advert("b", "Kitchen"))  # the same again: no change
    games.lost(f"b.{SERVICE_TYPE}")
    assert [g.table for g in games.games()] == ["attic"]
    assert len(changes) == 3


def test_what_the_host_advertises_is_what_a_joiner_lists() -> None:
    info = service_info("Kitchen", "pachisi", 40731, ["192.0.2.9"])
    games = GameList()
    games.found(info)
    assert games.games() == [FoundGame("Kitchen", "pachisi", "192.0.2.9", 40731)]


def test_other_apps_versions_and_hostile_names_are_not_listed() -> None:
    games = GameList()
    games.found(advert("x", "Beamer", app="sigmar"))
    games.found(advert("y", "Old", v="1"))  # a version 1 host: it would refuse us
    games.found(advert("f", "Future", v="3"))
    games.found(advert("z", "\x1b[2Jboo"))
    games.found(advert("w", "x" * 200))
    games.found(advert("m", "Multicast", address="224.1.2.3"))
    assert games.games() == []


def test_the_list_is_bounded() -> None:
    games = GameList()
    for i in range(100):
        games.found(advert(f"g{i}", f"game{i}"))
    assert len(games.games()) == 32


class FakeInfoCache:
    """Answers get_service_info from a dict, as a Zeroconf would from its cache."""

    def __init__(self, infos: dict[str, ServiceInfo]) -> None:
        self.infos = infos

    def get_service_info(self, type_: str, name: str, timeout: int = 3000) -> Any:
        return self.infos.get(name)


def test_the_browse_listener_feeds_the_list() -> None:
    games = GameList()
    listener = BrowseListener(games)
    name = f"k.{SERVICE_TYPE}"
    zc = FakeInfoCache({name: advert("k", "Kitchen")})
    listener.add_service(zc, SERVICE_TYPE, name)
    listener.add_service(zc, SERVICE_TYPE, f"gone.{SERVICE_TYPE}")  # no info: nothing
    assert [g.table for g in games.games()] == ["Kitchen"]
    listener.remove_service(zc, SERVICE_TYPE, name)
    assert games.games() == []


def test_a_host_on_one_address_advertises_that_address() -> None:
    assert lan_addresses("192.0.2.1") == ["192.0.2.1"]
    assert all(not a.startswith("127.") for a in lan_addresses("0.0.0.0"))
