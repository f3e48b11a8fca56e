"""Identities at rest (0600 in a 0700 folder, wider modes tightened with one
line), fingerprints, seat proofs bound to one session and one table, and the
list of paired handhelds known by key."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from palmish.network.session.identity import (
    IDENTITY_FILE,
    Identity,
    check_seat,
    fingerprint,
    keys_folder,
    load_identity,
    prove_seat,
)
from palmish.network.session.peers import KnownPeers

posix_only = pytest.mark.skipif(os.name != "posix", reason="file modes are POSIX's")


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


@posix_only
def test_the_identity_is_made_once_and_kept_private(tmp_path: Path) -> None:
    log: list[str] = []
    first = load_identity(tmp_path, log.append)
    assert load_identity(tmp_path, log.append).public == first.public
    path = keys_folder(tmp_path) / IDENTITY_FILE
    assert mode(path) == 0o600 and mode(path.parent) == 0o700
    assert log == []


@posix_only
def test_wider_modes_are_tightened_with_one_line_each(tmp_path: Path) -> None:
    first = load_identity(tmp_path, lambda line: None)
    path = keys_folder(tmp_path) / IDENTITY_FILE
    os.chmod(path, 0o644)
    os.chmod(path.parent, 0o755)
    log: list[str] = []
    assert load_identity(tmp_path, log.append).public == first.public
    assert mode(path) == 0o600 and mode(path.parent) == 0o700
    assert len(log) == 2, log
    assert "mode 0644); now 0600" in log[1] and "mode 0755); now 0700" in log[0]


def test_a_damaged_identity_is_one_line_and_a_new_one(tmp_path: Path) -> None:
    first = load_identity(tmp_path, lambda line: None)
    (keys_folder(tmp_path) / IDENTITY_FILE).write_text("not a key\n")
    log: list[str] = []
    assert load_identity(tmp_path, log.append).public != first.public
    assert len(log) == 1 and "not an identity key" in log[0]


def test_a_fingerprint_is_short_and_follows_the_key() -> None:
    a, b = Identity.new(), Identity.new()
    assert len(a.fingerprint) == 19 and a.fingerprint.count("-") == 3
    assert a.fingerprint == fingerprint(a.public) != b.fingerprint


def test_a_seat_proof_is_worth_nothing_in_another_session_or_at_another_table() -> None:
    ann = Identity.new()
    table, other_table = bytes(16), bytes([1]) * 16
    session, other_session = bytes([7]) * 32, bytes([8]) * 32
    proof = prove_seat(ann, table, session)
    assert check_seat(proof, table, session)
    assert not check_seat(proof, table, other_session)  # replayed in another session
    assert not check_seat(proof, other_table, session)  # shown to another table
    assert prove_seat(ann, other_table, session).key != proof.key  # a key per table
    assert proof.key not in (ann.public,)  # the identity itself is never the seat key
    assert prove_seat(ann, table, other_session).key == proof.key  # the same seat again
    eve = Identity.new()
    assert prove_seat(eve, table, session).key != proof.key


@posix_only
def test_paired_handhelds_are_known_by_key_and_a_new_name_is_told(tmp_path: Path) -> None:
    log: list[str] = []
    paired = KnownPeers(tmp_path, "paired-senders.json", log.append)
    den, hall = Identity.new(), Identity.new()
    assert paired.remember(den.public, "Den") is None
    assert paired.remember(hall.public, "Hall") is None
    assert paired.remember(den.public, "Study") == "Den"  # the same key, a new name
    again = KnownPeers(tmp_path, "paired-senders.json", log.append)
    assert again.name_of(den.public) == "Study" and again.trusts(hall.public)
    assert not again.trusts(Identity.new().public)
    assert mode(again.path) == 0o600
    assert again.forget("Hall") == 1 and not again.trusts(hall.public)
    assert again.forget(None) == 1 and again.known == []
    assert log == []


def test_a_damaged_pairing_file_is_one_line_and_nobody_paired(tmp_path: Path) -> None:
    log: list[str] = []
    path = keys_folder(tmp_path) / "paired.json"
    path.parent.mkdir(parents=True, mode=0o700)
    path.write_text("{broken")
    path.chmod(0o600)
    assert KnownPeers(tmp_path, "paired.json", log.append).known == []
    assert len(log) == 1 and "paired.json" in log[0]
