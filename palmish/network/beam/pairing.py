"""Pairing (docs/network.md, "Beam", "Pairing"): who each side knows, by key.

Each data folder has one identity key (the session layer's,
DIR/network/keys/identity). A beam's first meeting is a session the receiver's
code authenticated; inside it each side learns the other's identity key. When
the receiver's person accepts the item, the receiver keeps the sender's key
(the senders it takes without a code) and the sender keeps the receiver's
(the receivers it meets by keys alone). Both are kept by key, never by name: a
known key under a new name is reported, and a name alone opens nothing.
Forgetting one (by name, or all) asks for the code again.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from pathlib import Path

from palmish.network.session.peers import KnownPeers

SENDERS_FILE = "beam-senders"  # DIR/network/keys/beam-senders: a receiver's paired senders
RECEIVERS_FILE = "beam-receivers"  # DIR/network/keys/beam-receivers: a sender's receivers


VERSION_1 = {"key": "version 1's pairing key (it was sent in clear)",
             "paired.json": "version 1's pairings"}  # in DIR/network/beam/


def paired_senders(data_dir: Path, log: Callable[[str], None]) -> KnownPeers:
    """The senders this handheld, as a receiver, takes without a code."""
    retire_version_1(data_dir, log)
    return KnownPeers(data_dir, SENDERS_FILE, log)


def paired_receivers(data_dir: Path, log: Callable[[str], None]) -> KnownPeers:
    """The receivers this handheld, as a sender, meets by keys alone."""
    retire_version_1(data_dir, log)
    return KnownPeers(data_dir, RECEIVERS_FILE, log)


def retire_version_1(data_dir: Path, log: Callable[[str], None]) -> None:
    """Remove version 1's files, one line each: its key, which anyone who saw one
    beam (or could read the file) could beam with to a version 1 receiver, and
    its pairings, which version 2 does not read (the two meet with the code again)."""
    folder = data_dir / "network" / "beam"
    for name, what in VERSION_1.items():
        path = folder / name
        try:
            path.unlink()
        except FileNotFoundError:
            continue
        except OSError as err:
            log(f"{path}: {what}, no longer used, cannot be removed: {err.strerror or err}")
            continue
        log(f"{path}: {what}, no longer used; removed")
    with contextlib.suppress(OSError):
        folder.rmdir()  # only when empty
