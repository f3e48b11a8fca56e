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

from collections.abc import Callable
from pathlib import Path

from palmish.network.session.peers import KnownPeers

SENDERS_FILE = "beam-senders"  # DIR/network/keys/beam-senders: a receiver's paired senders
RECEIVERS_FILE = "beam-receivers"  # DIR/network/keys/beam-receivers: a sender's receivers


def paired_senders(data_dir: Path, log: Callable[[str], None]) -> KnownPeers:
    """The senders this handheld, as a receiver, takes without a code."""
    return KnownPeers(data_dir, SENDERS_FILE, log)


def paired_receivers(data_dir: Path, log: Callable[[str], None]) -> KnownPeers:
    """The receivers this handheld, as a sender, meets by keys alone."""
    return KnownPeers(data_dir, RECEIVERS_FILE, log)
