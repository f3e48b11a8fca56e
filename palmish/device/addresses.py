"""A network address as a player types it and as the network reads it.

The device never imports the network (docs/architecture.md), yet the games'
Join and Beam dialogs put together what the network parses: `HOST:PORT`, an
IPv6 host in brackets (`[fe80::1]:40731`), as `palmish join` takes it.
"""

from __future__ import annotations

ADDRESS_CHARS = 60  # a host name or address typed on the device (an IPv6 address takes 39)


def address_text(host: str, port: int) -> str:
    """(host, port) as `HOST:PORT`, an IPv6 host in brackets: what parse_address reads."""
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
