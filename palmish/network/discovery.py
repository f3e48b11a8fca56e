"""Finding games on the local network by DNS-SD over mDNS (python-zeroconf;
docs/network.md, "Discovery").

A host advertises a service of type `_palmish._tcp.local.` whose TXT
properties say the app, the protocol version and the game's name. A joiner
browses for that type; `GameList` turns what zeroconf reports (its own
`ServiceInfo` objects) into a bounded, validated list of `FoundGame`s. The
tests feed `GameList` and `BrowseListener` in-process; only `advertise` and
`browse` below ever open a multicast socket, and only when a person hosts or
joins from the window, or passes `--advertise`.
"""

from __future__ import annotations

import ipaddress
import platform
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from palmish.device.addresses import address_text, is_port
from palmish.games import network_games
from palmish.network.session.kinds import VERSION
from prc_tools.text import printable

SERVICE_TYPE = "_palmish._tcp.local."
MAX_GAMES = 32  # a joiner lists at most this many games
MAX_TABLE_NAME = 40
INFO_TIMEOUT_MS = 1500


@dataclass(frozen=True)
class FoundGame:
    """A game on the network: its name, app, address and port."""

    table: str
    app: str
    host: str
    port: int

    @property
    def address(self) -> str:
        return address_text(self.host, self.port)


class InfoLike(Protocol):
    """What GameList reads of a zeroconf ServiceInfo."""

    @property
    def name(self) -> str: ...
    @property
    def port(self) -> int | None: ...
    @property
    def properties(self) -> dict[bytes, bytes | None]: ...
    def parsed_addresses(self) -> list[str]: ...


def machine_name() -> str:
    """The name this machine goes by on the network: a hosted game's (its table),
    and a handheld's as a beam sender or receiver, unless one is given."""
    return printable(platform.node() or "palmish")[:MAX_TABLE_NAME] or "palmish"


def _text(value: bytes | None, most: int) -> str | None:
    if value is None or len(value) > most * 4:
        return None
    try:
        text = value.decode("utf-8")
    except UnicodeDecodeError:
        return None
    if not 1 <= len(text) <= most or not text.isprintable():
        return None
    return text


def game_from_info(info: InfoLike, apps: Sequence[str] | None = None) -> FoundGame | None:
    """The game an advertisement describes, or None for one to ignore (another
    app or version, no usable address, a name that is not printable text).
    `apps`: the apps looked for (a beam sender looks for `beam` receivers; None:
    every game with a network engine)."""
    props = info.properties or {}
    app = _text(props.get(b"app"), 16)
    version = _text(props.get(b"v"), 6)
    table = _text(props.get(b"table"), MAX_TABLE_NAME)
    port = info.port
    wanted = {g.id for g in network_games()} if apps is None else apps
    if app is None or app not in wanted or version != str(VERSION) or table is None:
        return None
    if not is_port(port):
        return None
    for text in info.parsed_addresses():
        try:
            address = ipaddress.ip_address(text)
        except ValueError:
            continue
        if not (address.is_multicast or address.is_unspecified):
            return FoundGame(table, app, str(address), port)
    return None


class GameList:
    """The games a joiner shows, kept up to date from advertisements (thread-safe:
    zeroconf calls from its own thread, the window reads from its own)."""

    def __init__(self, on_change: Callable[[], None] | None = None,
                 apps: Sequence[str] | None = None) -> None:
        self._games: dict[str, FoundGame] = {}
        self._lock = threading.Lock()
        self._on_change = on_change
        self._apps = apps

    def found(self, info: InfoLike) -> None:
        game = game_from_info(info, self._apps)
        with self._lock:
            if game is None:
                changed = self._games.pop(info.name, None) is not None
            elif info.name in self._games or len(self._games) < MAX_GAMES:
                changed = self._games.get(info.name) != game
                self._games[info.name] = game
            else:
                changed = False
        if changed and self._on_change is not None:
            self._on_change()

    def lost(self, name: str) -> None:
        with self._lock:
            changed = self._games.pop(name, None) is not None
        if changed and self._on_change is not None:
            self._on_change()

    def games(self) -> list[FoundGame]:
        """By name, then address."""
        with self._lock:
            return sorted(self._games.values(), key=lambda g: (g.table.lower(), g.address))


class InfoSource(Protocol):
    def get_service_info(self, type_: str, name: str, timeout: int = ...) -> Any: ...


class BrowseListener:
    """A zeroconf ServiceListener feeding a GameList."""

    def __init__(self, games: GameList) -> None:
        self.games = games

    def add_service(self, zc: InfoSource, type_: str, name: str) -> None:
        info = zc.get_service_info(type_, name, timeout=INFO_TIMEOUT_MS)
        if info is not None:
            self.games.found(info)

    update_service = add_service

    def remove_service(self, zc: InfoSource, type_: str, name: str) -> None:
        self.games.lost(name)


def service_info(table: str, app: str, port: int, addresses: Sequence[str]) -> Any:
    """The advertisement of a hosted game (a zeroconf ServiceInfo)."""
    from zeroconf import ServiceInfo

    label = "".join(c for c in table if c.isprintable() and c != ".")[:MAX_TABLE_NAME]
    label = label or "palmish"
    return ServiceInfo(
        SERVICE_TYPE, f"{label} {port}.{SERVICE_TYPE}", port=port,
        properties={"app": app, "v": str(VERSION), "table": table[:MAX_TABLE_NAME]},
        parsed_addresses=list(addresses),
    )


def lan_addresses(listen: str) -> list[str]:
    """The addresses to advertise for a host listening on `listen`: itself, or
    for a wildcard every non-loopback address of this machine."""
    if listen not in ("0.0.0.0", "::", ""):
        return [listen]
    import ifaddr

    found = []
    for adapter in ifaddr.get_adapters():
        for ip in adapter.ips:
            text = ip.ip if isinstance(ip.ip, str) else ip.ip[0]
            try:
                address = ipaddress.ip_address(text)
            except ValueError:
                continue
            if not (address.is_loopback or address.is_link_local):
                found.append(str(address))
    return found


class Advertisement:
    """A game announced on the local network until `close()`."""

    def __init__(self, table: str, app: str, port: int, addresses: Sequence[str]) -> None:
        from zeroconf import Zeroconf

        self._info = service_info(table, app, port, addresses)
        self._zc = Zeroconf()
        self._zc.register_service(self._info, allow_name_change=True)

    def close(self) -> None:
        self._zc.unregister_service(self._info)
        self._zc.close()


class Browser:
    """Games found on the local network, in `games`, until `close()`."""

    def __init__(self, on_change: Callable[[], None] | None = None,
                 apps: Sequence[str] | None = None) -> None:
        from zeroconf import ServiceBrowser, Zeroconf

        self.games = GameList(on_change, apps)
        self._zc = Zeroconf()
        listener: Any = BrowseListener(self.games)  # a zeroconf ServiceListener by shape
        self._browser = ServiceBrowser(self._zc, SERVICE_TYPE, listener=listener)

    def close(self) -> None:
        self._browser.cancel()
        self._zc.close()
