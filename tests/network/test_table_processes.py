"""Rematches and leaving between separate processes over loopback (docs/network.md,
"At the table"): `palmish host --games N` proposes a rematch after each game,
`palmish join --auto --games N` says yes until it has played N, then leaves."""

from __future__ import annotations

from pathlib import Path

import pytest

from palmish.pachisi.game import Game
from tests.network.processes import host, join

pytestmark = pytest.mark.process  # every test here starts another program


def records(process: object) -> list[str]:
    lines = [line.removeprefix("record: ") for line in process.out_lines  # type: ignore[attr-defined]
             if line.startswith("record: ")]
    for record in lines:
        assert Game.from_record(record).over
    return lines


def test_two_games_at_one_table_every_device_the_same_records(tmp_path: Path) -> None:
    server, port, code = host(tmp_path / "host", "--seats", "remote,computer,remote",
                              "--games", "2", "--wait", "20")
    ann = join(port, code, "Ann", tmp_path / "ann", "--games", "2")
    bob = join(port, code, "Bob", tmp_path / "bob", "--games", "2")
    try:
        assert server.finish() == 0, server.err_lines
        assert ann.finish() == 0 and bob.finish() == 0, (ann.err_lines, bob.err_lines)
        games = records(server)
        assert len(games) == 2 and games[0] != games[1]
        assert records(ann) == records(bob) == games
        for joiner in (ann, bob):
            assert joiner.err_lines.count("palmish join: dice: verified") == 2
            assert "palmish join: The host proposes a rematch" in joiner.err_lines
            assert "palmish join: The rematch is on" in joiner.err_lines
        assert any(line.endswith("Ann: yes") for line in server.err_lines)
        assert "palmish host: The rematch is on" in server.err_lines
    finally:
        for p in (server, ann, bob):
            p.kill()


def test_a_joiner_that_wants_one_game_leaves_and_its_seat_goes_to_silicon(
        tmp_path: Path) -> None:
    server, port, code = host(tmp_path / "host", "--seats", "remote,remote",
                              "--games", "2", "--leavers", "silicon", "--wait", "20")
    ann = join(port, code, "Ann", tmp_path / "ann", "--games", "2")
    bob = join(port, code, "Bob", tmp_path / "bob")  # one game, then it leaves
    try:
        assert bob.finish() == 0, bob.err_lines
        assert server.finish() == 0, server.err_lines
        assert ann.finish() == 0, ann.err_lines
        first, second = records(server)
        assert records(bob) == [first]
        assert records(ann) == [first, second]
        assert "players=Ann:h,Bob:h " in first
        assert "players=Ann:h,Silicon:c " in second
        assert "palmish join: Bob left the table; the seat is Silicon" in ann.err_lines
    finally:
        for p in (server, ann, bob):
            p.kill()


def test_one_game_tables_end_as_before_with_the_tables_bye(tmp_path: Path) -> None:
    server, port, code = host(tmp_path / "host", "--seats", "remote,computer")
    ann = join(port, code, "Ann", tmp_path / "ann", "--games", "3")  # the host closes first
    try:
        assert server.finish() == 0, server.err_lines
        assert ann.finish() == 0, ann.err_lines
        assert records(ann) == records(server)
        assert "palmish join: the host says: the table is closed" in ann.err_lines
    finally:
        for p in (server, ann):
            p.kill()
