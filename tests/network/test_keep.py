"""The files the network commands keep: the host's saved game, among the keys
(it holds the dice secret: 0600 from its first byte, a wider file tightened
with one line), read back with bounds (a damaged file is one line). A joiner
keeps no file per seat: its seat keys come from the data folder's identity."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from palmish.network import keep


def test_the_hosts_game_is_saved_private_read_and_forgotten(tmp_path: Path) -> None:
    assert keep.load_host_game(tmp_path, "pachisi") is None
    keep.save_host_game(tmp_path, "pachisi", {"v": 2, "steps": ["T6"]})
    path = tmp_path / "network" / "keys" / "host-pachisi.json"
    assert path.stat().st_mode & 0o777 == 0o600
    assert path.parent.stat().st_mode & 0o777 == 0o700
    assert keep.load_host_game(tmp_path, "pachisi") == {"v": 2, "steps": ["T6"]}
    os.chmod(path, 0o644)
    said: list[str] = []
    assert keep.load_host_game(tmp_path, "pachisi", said.append) == {"v": 2, "steps": ["T6"]}
    assert path.stat().st_mode & 0o777 == 0o600
    assert said == [f"{path}: a secret others could read (mode 0644); now 0600"]
    path.write_text("[" * 10_000)
    with pytest.raises(ValueError, match=r"host-pachisi\.json: JSON nested"):
        keep.load_host_game(tmp_path, "pachisi")
    keep.forget_host_game(tmp_path, "pachisi")
    assert keep.load_host_game(tmp_path, "pachisi") is None
