"""A network address as a player types it and as the network reads it.

The device never imports the network (docs/architecture.md), yet the games'
Join and Beam dialogs put together what the network parses: `HOST:PORT`, an
IPv6 host in brackets (`[fe80::1]:40731`), as `palmish join` takes it. What
both sides must agree on lives here, once: the text of an address, the port
range and its wording, and the ports a window uses.
"""

from __future__ import annotations

import ipaddress
import re
from typing import TypeGuard

ADDRESS_CHARS = 60  # a host name or address typed on the device (an IPv6 address takes 39)
WINDOW_LISTEN = "0.0.0.0"  # a window hosts and receives for other machines: every interface
GAME_PORT = 40731  # where a window hosts network games (a free one when it is taken)
BEAM_PORT = 40732  # where a window receives beams (the same)
HIGHEST_PORT = 65535
FREE_PORT = 0  # listening: "any free port", which the listener then says

_ADDRESS = re.compile(r"\[([0-9A-Fa-f:.]+)\]:([0-9]{1,5})|([^\s:\[\]]+):([0-9]{1,5})")


def address_text(host: str, port: int) -> str:
    """(host, port) as `HOST:PORT`, an IPv6 host in brackets: what parse_address reads."""
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"


def is_port(number: object) -> TypeGuard[int]:
    """Whether `number` is a port one can connect to: a whole number 1 to 65535."""
    return type(number) is int and 1 <= number <= HIGHEST_PORT


def port_range(listening: bool = False) -> str:
    """The ports allowed, as every message says them: `1-65535`, or `0-65535` where
    0 means a free one (listening)."""
    return f"{FREE_PORT if listening else 1}-{HIGHEST_PORT}"


def parse_port(text: str, listening: bool = False) -> int:
    """A port typed in ASCII digits; `listening`: 0 (a free one) too. ValueError, one line."""
    number = int(text) if text.isascii() and text.isdigit() and len(text) <= 5 else -1
    if not (is_port(number) or (listening and number == FREE_PORT)):
        raise ValueError(f"{text!r} is not a port ({port_range(listening)})")
    return number


def parse_address(text: str) -> tuple[str, int]:
    """`HOST:PORT` or `[IPV6]:PORT` -> (host, port); ValueError with one line."""
    match = _ADDRESS.fullmatch(text)
    if match is None:
        raise ValueError(f"{text!r} is not HOST:PORT")
    host = match.group(1) or match.group(3)
    try:
        return host, parse_port(match.group(2) or match.group(4))
    except ValueError as err:
        raise ValueError(f"{text!r}: {err}") from None


def parse_typed_host(text: str) -> tuple[str, int | None]:
    """What a person types in Join > Other...: `HOST:PORT` or `[IPV6]:PORT` ->
    (host, port), or a host alone (a name, an IPv4 address, an IPv6 address with
    or without brackets) -> (host, None), its port asked next. Anything else:
    ValueError with one line, at once."""
    if _ADDRESS.fullmatch(text) is not None:
        return parse_address(text)
    bare = text[1:-1] if text.startswith("[") and text.endswith("]") else text
    if bare and ":" not in bare and "[" not in bare and "]" not in bare and bare == text:
        return bare, None  # a name or an IPv4 address
    try:
        ipaddress.IPv6Address(bare)
    except ValueError:
        raise ValueError(f"{text!r} is not HOST:PORT, [IPV6]:PORT or a host") from None
    return bare, None
