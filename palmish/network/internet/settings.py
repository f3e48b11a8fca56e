"""Where the rendezvous and the relay are, and which direct hints to offer
(docs/network.md, "Across the internet"): a command-line option, else an
environment variable, else the preference file DIR/network/internet.json
(`{"rendezvous": ..., "relay": ..., "direct": ..., "lan": ...}`), else the
public servers Magic Wormhole's authors run."""

from __future__ import annotations

import argparse
import os
import re
from dataclasses import dataclass
from pathlib import Path

PREFERENCE_FILE = Path("network") / "internet.json"  # in the data folder

# The public servers of the Magic Wormhole project (its own defaults).
PUBLIC_RENDEZVOUS = "ws://relay.magic-wormhole.io:4000/v1"
PUBLIC_RELAY = "tcp:transit.magic-wormhole.io:4001"
RENDEZVOUS_ENV = "PALMISH_RENDEZVOUS"
RELAY_ENV = "PALMISH_RELAY"
DIRECT_ENV = "PALMISH_DIRECT"  # "auto", "off", or addresses to offer, comma-separated
LAN_ENV = "PALMISH_LAN"  # the same, for the LAN path (the table's own listener)
REACH_S = 10.0  # the rendezvous must answer within this
CONNECT_S = 20.0  # direct and relayed attempts together, per meeting

_RENDEZVOUS = re.compile(r"^wss?://[A-Za-z0-9.\-\[\]:]+(:\d{1,5})?(/[\x21-\x7e]*)?$")
_RELAY = re.compile(r"^tcp:[A-Za-z0-9.\-]+:\d{1,5}$")
_ADDRESS = re.compile(r"^[0-9A-Fa-f.:]{2,45}$")
CODE = re.compile(r"^[0-9]{1,4}(-[a-z]{2,12}){1,4}$")


@dataclass(frozen=True)
class Settings:
    rendezvous: str = PUBLIC_RENDEZVOUS
    relay: str = PUBLIC_RELAY
    direct: tuple[str, ...] | None = None  # None: the engine's own (every interface); (): none
    lan: tuple[str, ...] | None = None  # the host's: its listener's LAN addresses; (): none

    @property
    def offers_direct(self) -> bool:
        return self.direct != ()

    def lan_hints(self, listen: str, port: int) -> list[list[object]]:
        """What a host offers for the LAN path: [address, port] of its table's own
        listener (auto: the addresses a LAN joiner would use)."""
        if self.lan == ():
            return []
        if self.lan is not None:
            return [[address, port] for address in self.lan]
        from palmish.network.discovery import lan_addresses
        return [[address, port] for address in lan_addresses(listen)]

    def tries_lan(self, address: str) -> bool:
        """A joiner tries the LAN path to a host's `address` (off: never; a list:
        only those)."""
        return self.lan is None or address in self.lan


def rendezvous_url(text: str) -> str:
    if not _RENDEZVOUS.match(text):
        raise argparse.ArgumentTypeError(
            f"{text!r} is not a rendezvous URL (ws://HOST:PORT/v1)")
    return text


def relay_hint(text: str) -> str:
    if not _RELAY.match(text):
        raise argparse.ArgumentTypeError(f"{text!r} is not a relay (tcp:HOST:PORT)")
    return text


def direct_hints(text: str) -> tuple[str, ...] | None:
    """auto: every address of this machine (the engine's way); off: relay only;
    else the addresses listed."""
    if text == "auto":
        return None
    if text == "off":
        return ()
    parts = tuple(p.strip() for p in text.split(",") if p.strip())
    if not parts or not all(_ADDRESS.match(p) for p in parts):
        raise argparse.ArgumentTypeError(
            f"{text!r} is not auto, off or a list of addresses")
    return parts


def internet_code(text: str) -> str:
    if not CODE.match(text):
        raise argparse.ArgumentTypeError(
            f"{text!r} is not an internet code (a number and words, like 7-cobra-lantern)")
    return text


def add_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--rendezvous", metavar="URL",
                        help=f"the Magic Wormhole mailbox server (default ${RENDEZVOUS_ENV}, "
                             f"else {PUBLIC_RENDEZVOUS})")
    parser.add_argument("--relay", metavar="URL",
                        help=f"the Magic Wormhole transit relay (default ${RELAY_ENV}, "
                             f"else {PUBLIC_RELAY})")
    parser.add_argument("--direct", metavar="auto|off|ADDRESSES",
                        help=f"the addresses offered for a direct connection (default "
                             f"${DIRECT_ENV}, else auto: every address of this machine)")
    parser.add_argument("--lan", metavar="auto|off|ADDRESSES",
                        help=f"the LAN path, tried with the others: the table's own addresses "
                             f"offered (or tried) (default ${LAN_ENV}, else auto)")


def preferences(data_dir: Path | None) -> dict[str, str]:
    """The preference file's settings (none when it is absent); ValueError, one line."""
    if data_dir is None:
        return {}
    path = data_dir / PREFERENCE_FILE
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return {}
    except OSError as err:
        raise ValueError(f"{path}: {err.strerror or err}") from None
    from palmish.device.disk.storage import parse_json
    try:
        value = parse_json(data)
    except ValueError as err:
        raise ValueError(f"{path}: {err}") from None
    if not isinstance(value, dict) or not all(
            k in ("rendezvous", "relay", "direct", "lan") and isinstance(v, str)
            for k, v in value.items()):
        raise ValueError(f"{path}: not an object of rendezvous, relay, direct and lan texts")
    return value


def from_args(args: argparse.Namespace, parser: argparse.ArgumentParser,
              data_dir: Path | None = None) -> Settings:
    """The options, else the environment, else the preference file, else the public
    servers; parser.error on bad."""
    try:
        return chosen(data_dir, args)
    except ValueError as err:
        parser.error(str(err))


def chosen(data_dir: Path | None, args: argparse.Namespace | None = None) -> Settings:
    """As `from_args` (the window has no such options: the environment, the
    preference file, the public servers); ValueError with one line on bad."""
    preferred = preferences(data_dir)
    found: list[object] = []
    for option, env, check, default in (
            ("rendezvous", RENDEZVOUS_ENV, rendezvous_url, PUBLIC_RENDEZVOUS),
            ("relay", RELAY_ENV, relay_hint, PUBLIC_RELAY),
            ("direct", DIRECT_ENV, direct_hints, "auto"),
            ("lan", LAN_ENV, direct_hints, "auto")):
        text = getattr(args, option, None)
        where = f"argument --{option}"
        if text is None and os.environ.get(env):
            text, where = os.environ[env], f"${env}"
        if text is None and option in preferred:
            text, where = preferred[option], f"{PREFERENCE_FILE} {option}"
        if text is None:
            text = default
        try:
            found.append(check(text))
        except argparse.ArgumentTypeError as err:
            raise ValueError(f"{where}: {err}") from None
    return Settings(str(found[0]), str(found[1]), found[2], found[3])  # type: ignore[arg-type]
