"""The handhelds a data folder paired with, known by their keys
(docs/network-session.md, "Identity, pairing and seats").

A pairing is made inside a session the code authenticated: each side keeps
the other's identity key (Peer.key) with the name it showed, and from then on
their sessions need no code (key mode). A paired peer is known by its key,
never by its name: a new name for a known key is kept and reported, so the
person sees it. Kept in DIR/network/keys/<file> (0600), at most MOST, the
oldest forgotten first.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from palmish.device.disk.storage import parse_json
from palmish.network.session.identity import fingerprint, keys_folder
from palmish.network.session.kinds import KEY_BYTES
from palmish.network.session.secretfiles import read_secret, write_secret

MOST = 64
MAX_FILE = 64 << 10
FORMAT = 2


@dataclass(frozen=True)
class Known:
    key: bytes
    name: str

    @property
    def fingerprint(self) -> str:
        return fingerprint(self.key)


class KnownPeers:
    """One list of paired peers (a receiver's senders, a sender's receivers)."""

    def __init__(self, data_dir: Path, file: str, log: Callable[[str], None]) -> None:
        """Read now; a damaged file is one line and an empty list."""
        self.path = keys_folder(data_dir) / file
        self.log = log
        self.known: list[Known] = []
        try:
            data = read_secret(self.path, MAX_FILE, log)
            kept = None if data is None else parse_json(data, MAX_FILE)
        except ValueError as err:
            log(f"{self.path}: {err}; no handheld is paired until it is written again")
            return
        entries = kept.get("paired") if isinstance(kept, dict) else None
        if kept is not None and not isinstance(entries, list):
            log(f"{self.path}: not a list of paired handhelds; none is paired")
            return
        for entry in (entries or [])[-MOST:]:
            key, name = (entry.get("key"), entry.get("name")) if isinstance(entry, dict) else (
                None, None)
            if (isinstance(key, str) and len(key) == 2 * KEY_BYTES
                    and not key.strip("0123456789abcdef") and isinstance(name, str)
                    and 0 < len(name) <= 40 and name.isprintable()):
                self.known.append(Known(bytes.fromhex(key), name))

    def name_of(self, key: bytes) -> str | None:
        """The name a paired key was last seen with, or None when it is not paired."""
        for known in self.known:
            if known.key == key:
                return known.name
        return None

    def trusts(self, key: bytes) -> bool:
        return self.name_of(key) is not None

    def remember(self, key: bytes, name: str) -> str | None:
        """Pair `key` (or note its new name); the name it had before, if another."""
        before = self.name_of(key)
        self.known = [k for k in self.known if k.key != key][-(MOST - 1):]
        self.known.append(Known(key, name))
        self._save()
        return before if before is not None and before != name else None

    def forget(self, name: str | None) -> int:
        """Forget the peers known as `name` (None: all); how many."""
        before = len(self.known)
        self.known = [k for k in self.known if name is not None and k.name != name]
        self._save()
        return before - len(self.known)

    def _save(self) -> None:
        entries = [{"name": k.name, "key": k.key.hex()} for k in self.known]
        text = json.dumps({"v": FORMAT, "paired": entries}, indent=1) + "\n"
        write_secret(self.path, text.encode("utf-8"), self.log)
