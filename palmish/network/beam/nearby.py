"""Handhelds receiving beams nearby (docs/network.md, "Beam"): a window whose
Beam Receive is on advertises itself with the games' DNS-SD service type and
`app` "beam"; a sender's pick dialog lists those it finds. The list is fed
zeroconf's ServiceInfo objects, so tests feed it in-process; only `advertise`
and `find` open a multicast socket."""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from typing import Any, Protocol

from palmish.network.beam.wire import APP
from palmish.network.discovery import (
    MAX_GAMES,
    MAX_TABLE_NAME,
    SERVICE_TYPE,
    Advertisement,
    BrowseListener,
    GameList,
    InfoLike,
    _text,
    usable_address,
)


def receiver_from_info(info: InfoLike) -> tuple[str, str] | None:
    """(name, HOST:PORT) of a beam receiver's advertisement, or None to ignore it."""
    props = info.properties or {}
    name = _text(props.get(b"table"), MAX_TABLE_NAME)
    port = info.port
    if _text(props.get(b"app"), 16) != APP or name is None or not isinstance(port, int) \
            or not 1 <= port <= 65535:
        return None
    host = usable_address(info)
    if host is None:
        return None
    return name, f"[{host}]:{port}" if ":" in host else f"{host}:{port}"


class ReceiverList(GameList):
    """The receivers found, by name (thread-safe: zeroconf reports from its thread):
    a GameList whose entries are beam receivers, so BrowseListener feeds it."""

    def __init__(self) -> None:
        super().__init__()
        self._found: dict[str, tuple[str, str]] = {}
        self._lock = threading.Lock()

    def found(self, info: InfoLike) -> None:
        receiver = receiver_from_info(info)
        with self._lock:
            if receiver is None:
                self._found.pop(info.name, None)
            elif info.name in self._found or len(self._found) < MAX_GAMES:
                self._found[info.name] = receiver

    def lost(self, name: str) -> None:
        with self._lock:
            self._found.pop(name, None)

    def receivers(self) -> list[tuple[str, str]]:
        with self._lock:
            return sorted(self._found.values(), key=lambda r: (r[0].lower(), r[1]))


class Advertised(Protocol):
    def close(self) -> None: ...


class Finder(Protocol):
    def receivers(self) -> list[tuple[str, str]]: ...


class _Browser:
    def __init__(self) -> None:
        from zeroconf import ServiceBrowser, Zeroconf

        self.list = ReceiverList()
        self._zc = Zeroconf()
        listener: Any = BrowseListener(self.list)  # a zeroconf ServiceListener by shape
        self._browser = ServiceBrowser(self._zc, SERVICE_TYPE, listener=listener)

    def receivers(self) -> list[tuple[str, str]]:
        return self.list.receivers()


def advertise(name: str, port: int, addresses: Sequence[str],
              log: Callable[[str], None]) -> Advertised | None:
    """Announce this receiver on the local network; None (one log line) when it cannot."""
    try:
        return Advertisement(name, APP, port, addresses)
    except Exception as err:  # zeroconf: no multicast, no interface, ...
        log(f"cannot announce Beam Receive ({type(err).__name__}); send to it by address")
        return None


def find(log: Callable[[str], None]) -> Finder | None:
    """Look for receivers on the local network; None (one log line) when it cannot."""
    try:
        return _Browser()
    except Exception as err:
        log(f"cannot look for handhelds on the network ({type(err).__name__})")
        return None
