"""Pairing (docs/network.md, "Beam", "Pairing"): what each side keeps.

A sender has one key, 32 hex digits made once per data folder and sent in
every hello. A receiver keeps the handhelds it trusts: the name and the
SHA-256 of the key of each sender whose beam its person accepted after the
sender gave the right code. A paired sender needs no code again; forgetting
it (one name, or all) asks for the code next time.
"""

from __future__ import annotations

import hashlib
import hmac
from pathlib import Path

from palmish.network import keep
from palmish.network.beam.wire import DEVICE_NAME, SHA256

FOLDER = "beam"
KEY_FILE = "key"  # DIR/network/beam/key: this device's key as a sender
PAIRED_FILE = "paired.json"  # DIR/network/beam/paired.json: the receiver's paired senders
MAX_PAIRED = 64  # the oldest pairing goes first


def sender_key(data_dir: Path) -> str:
    """This device's key as a sender, made the first time."""
    return keep.kept_token(data_dir / keep.FOLDER / FOLDER / KEY_FILE)


def _digest(key: str) -> str:
    return hashlib.sha256(key.encode("ascii")).hexdigest()


class Pairings:
    """The receiver's paired senders, read when made and written on every change."""

    def __init__(self, data_dir: Path, damaged_ok: bool = False) -> None:
        """ValueError (one line) when the file is damaged, unless `damaged_ok`
        (to forget it all): then it is read as empty."""
        self.path = data_dir / keep.FOLDER / FOLDER / PAIRED_FILE
        self.paired: list[tuple[str, str]] = []  # (name, SHA-256 of its key), oldest first
        try:
            kept = keep.read_json(self.path)
        except ValueError:
            if damaged_ok:
                return
            raise
        if kept is None:
            return
        entries = kept.get("paired") if isinstance(kept, dict) else None
        if not isinstance(entries, list):
            if damaged_ok:
                return
            raise ValueError(f"{self.path}: not a list of paired handhelds")
        for entry in entries[-MAX_PAIRED:]:
            if (isinstance(entry, dict) and DEVICE_NAME(entry.get("name"))
                    and SHA256(entry.get("key_sha256"))):
                self.paired.append((entry["name"], entry["key_sha256"]))

    def name_of(self, key: str | None) -> str | None:
        """The name a paired sender was paired as, or None (compared in constant time)."""
        if key is None:
            return None
        digest = _digest(key)
        found = None
        for name, kept in self.paired:
            if hmac.compare_digest(kept, digest):
                found = name
        return found

    def remember(self, name: str, key: str) -> None:
        digest = _digest(key)
        self.paired = [(n, k) for n, k in self.paired if k != digest][-(MAX_PAIRED - 1):]
        self.paired.append((name, digest))
        self._save()

    def names(self) -> list[str]:
        return [name for name, _ in self.paired]

    def forget(self, name: str | None) -> int:
        """Forget the senders paired as `name` (None: all); how many were forgotten."""
        before = len(self.paired)
        self.paired = [(n, k) for n, k in self.paired if name is not None and n != name]
        if len(self.paired) != before or name is None:
            self._save()
        return before - len(self.paired)

    def _save(self) -> None:
        keep.write_json(self.path, {"v": 1, "paired": [{"name": n, "key_sha256": k}
                                                        for n, k in self.paired]})
