"""The files the network commands keep: seat tokens made once per name, and the
host's saved game read back with bounds (a damaged file is one line)."""

from __future__ import annotations

from pathlib import Path

import pytest

from palmish.network import keep


def test_a_seat_token_is_made_once_per_name_and_kept(tmp_path: Path) -> None:
    ann = keep.seat_token(tmp_path, "Ann")
    assert len(ann) == 32 and keep.seat_token(tmp_path, "Ann") == ann
    assert keep.seat_token(tmp_path, "ann") != ann
    odd = keep.seat_token(tmp_path, "../x")  # a name is never a path
    assert sorted(p.name for p in (tmp_path / "network" / "seats").iterdir()) == [
        "%2E.%2Fx.token", "Ann.token", "ann.token"]
    assert odd != ann


def test_a_damaged_token_is_replaced(tmp_path: Path) -> None:
    first = keep.seat_token(tmp_path, "Bob")
    (tmp_path / "network" / "seats" / "Bob.token").write_bytes(b"\xff" * 40)
    second = keep.seat_token(tmp_path, "Bob")
    assert second != first and keep.seat_token(tmp_path, "Bob") == second


def test_the_hosts_game_is_saved_read_and_forgotten(tmp_path: Path) -> None:
    assert keep.load_host_game(tmp_path, "pachisi") is None
    keep.save_host_game(tmp_path, "pachisi", {"v": 1, "steps": ["T6"]})
    assert keep.load_host_game(tmp_path, "pachisi") == {"v": 1, "steps": ["T6"]}
    (tmp_path / "network" / "host-pachisi.json").write_text("[" * 10_000)
    with pytest.raises(ValueError, match=r"host-pachisi\.json: JSON nested"):
        keep.load_host_game(tmp_path, "pachisi")
    keep.forget_host_game(tmp_path, "pachisi")
    assert keep.load_host_game(tmp_path, "pachisi") is None
