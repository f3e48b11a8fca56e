"""The receivers this handheld beamed to lately, by name and address
(docs/network.md, "Beam as a player sees it"): the window's "To:" list offers
them besides the receivers found on the local network, so a paired receiver
(or any address used before) is one tap away without discovery.

Kept in `DIR/network/beam-recent.json`, `{"v":1,"recent":[{"name":NAME,
"address":"HOST:PORT"},...]}`, the latest first, at most MOST; an address is
kept once a receiver answered there (it said its name). Names and addresses
are checked when read: a damaged file is one line and an empty list. Nothing
in it is a secret (the pairing keys are in `network/keys/`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from palmish.device.addresses import parse_address
from palmish.network.keep import FOLDER, read_json, write_json

FILE = "beam-recent.json"
MOST = 8
FORMAT = 1


@dataclass(frozen=True)
class Recent:
    name: str
    address: str  # HOST:PORT, as parse_address reads it


def recent_path(data_dir: Path) -> Path:
    return data_dir / FOLDER / FILE


def recent_receivers(data_dir: Path, log: Callable[[str], None]) -> list[Recent]:
    """The receivers beamed to lately, the latest first."""
    path = recent_path(data_dir)
    try:
        kept = read_json(path)
    except ValueError as err:
        log(f"{err}; no recent receiver is listed")
        return []
    entries = kept.get("recent") if isinstance(kept, dict) else None
    if kept is not None and not isinstance(entries, list):
        log(f"{path}: not a list of receivers; none is listed")
        return []
    found: list[Recent] = []
    for entry in (entries or [])[:MOST]:
        name = entry.get("name") if isinstance(entry, dict) else None
        address = entry.get("address") if isinstance(entry, dict) else None
        if not (isinstance(name, str) and 0 < len(name) <= 40 and name.isprintable()
                and isinstance(address, str) and len(address) <= 80):
            continue
        try:
            parse_address(address)
        except ValueError:
            continue
        if all(r.address != address for r in found):
            found.append(Recent(name, address))
    return found


def remember_receiver(data_dir: Path, name: str, address: str,
                      log: Callable[[str], None]) -> None:
    """Put `name` at `address` first in the list; a disk that refuses is one line."""
    kept = [r for r in recent_receivers(data_dir, log) if r.address != address]
    kept.insert(0, Recent(name, address))
    value = {"v": FORMAT, "recent": [{"name": r.name, "address": r.address}
                                     for r in kept[:MOST]]}
    try:
        write_json(recent_path(data_dir), value)
    except OSError as err:
        log(f"{recent_path(data_dir)}: cannot keep the receivers beamed to: "
            f"{err.strerror or err}")
