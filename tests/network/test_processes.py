"""Whole games between separate processes over loopback (127.0.0.1 only)."""

from __future__ import annotations

import json
import re
import socket
import time
from pathlib import Path

import pytest

from palmish.pachisi.game import Game
from tests.network.processes import free_port, host, idle_joiner, join

pytestmark = pytest.mark.process  # every test here starts another program


def finished_record(record: str) -> str:
    game = Game.from_record(record)
    assert game.over and game.record() == record
    return record


def test_four_joiners_play_to_the_end_with_identical_records(tmp_path: Path) -> None:
    server, port, code = host(tmp_path / "host", "--seats", "remote,remote,remote,remote",
                              "--code", "4821")
    assert code == "4821"
    names = ["Ann", "Bob", "Cy", "Dee"]
    joiners = [join(port, code, n, tmp_path / n) for n in names]
    try:
        assert server.finish() == 0, server.err_lines
        statuses = [j.finish() for j in joiners]
        assert statuses == [0] * 4, [j.err_lines for j in joiners]
        record = finished_record(server.record())
        assert [j.record() for j in joiners] == [record] * 4
        assert all(j.err_lines[-1] == "palmish join: dice: verified" for j in joiners)
        assert "players=" in record and all(f"{n}:h" in record for n in names)
        assert not (tmp_path / "host" / "network" / "keys" / "host-pachisi.json").exists()
    finally:
        for p in [server, *joiners]:
            p.kill()


def test_a_joiner_killed_mid_game_takes_its_seat_back(tmp_path: Path) -> None:
    server, port, code = host(tmp_path / "host", "--seats", "remote,computer,remote",
                              "--wait", "30")
    ann = join(port, code, "Ann", tmp_path / "ann")
    bob = join(port, code, "Bob", tmp_path / "bob")
    try:
        server.wait_for_log("the game starts")
        ann.kill()  # kill -9, at whatever point of the game
        server.wait_for_log("Ann is away")
        again = join(port, code, "Ann", tmp_path / "ann")
        assert again.finish() == 0, again.err_lines
        assert server.finish() == 0 and bob.finish() == 0
        record = finished_record(server.record())
        assert again.record() == bob.record() == record
        assert sum(re.search("Ann sits in seat", line) is not None
                   for line in server.err_lines) == 2
    finally:
        for p in (server, ann, bob):
            p.kill()


def test_the_host_killed_and_started_again_resumes_the_game(tmp_path: Path) -> None:
    port = free_port()
    options = ("--seats", "remote,computer,remote,computer", "--port", str(port), "--code",
               "1111", "--seed", "5", "--wait", "2")
    first, _, code = host(tmp_path / "host", *options)
    ann = join(port, code, "Ann", tmp_path / "ann")
    # Cal sits in seat 3 and never acts: the game cannot be over before the kill
    # (Cal's first turn waits for Cal), however fast Ann and the computers play.
    first.wait_for_log("Ann sits in seat 1")
    cal = idle_joiner(port, code, "Cal", tmp_path / "cal")
    try:
        first.wait_for_log("the game starts")
        first.kill()
        cal.kill()
        kept = tmp_path / "host" / "network" / "keys" / "host-pachisi.json"
        assert kept.stat().st_mode & 0o777 == 0o600  # it holds the dice secret
        saved = json.loads(kept.read_text())
        assert saved["record"] is not None
        ann.wait_for_log("is gone; waiting for it")
        second, _, _ = host(tmp_path / "host", *options)
        second.wait_for_log("hosting the saved game again")
        assert second.finish() == 0, second.err_lines  # Silicon plays for Cal, away
        assert ann.finish() == 0, ann.err_lines
        record = finished_record(second.record())
        assert ann.record() == record
        assert ann.err_lines[-1] == "palmish join: dice: verified"
        assert record.startswith(saved["record"].split(" moves=")[0])  # the same seed
    finally:
        for p in (first, ann, cal):
            p.kill()


def test_a_wrong_code_and_another_version_are_refused_with_one_line(tmp_path: Path) -> None:
    server, port, code = host(tmp_path / "host", "--seats", "remote,computer", "--code", "2222")
    try:
        wrong = join(port, "9999", "Eve", tmp_path / "eve")
        assert wrong.finish() == 1
        assert wrong.err_lines == [f"palmish: refused by 127.0.0.1:{port}: wrong join code"]
        server.wait_for_log(r"wrong code .*\(counted as a wrong code\)")
        with socket.create_connection(("127.0.0.1", port), timeout=5) as s:  # version 1
            s.sendall(b'{"t":"hello","v":1,"app":"pachisi","code":"2222","name":"Neo",'
                      b'"token":"' + b"0" * 32 + b'"}\n')
            answer = json.loads(s.makefile().readline())
            assert s.recv(100) == b""  # and closed
        assert answer == {"t": "refused", "v": 2, "reason":
                          "this handheld speaks network version 2; update palmish"}
        server.wait_for_log("speaks network version 1; told: this handheld speaks network "
                            "version 2; update palmish")
        ann = join(port, code, "Ann", tmp_path / "ann")
        assert ann.finish() == 0 and server.finish() == 0
        assert ann.record() == finished_record(server.record())
    finally:
        server.kill()


@pytest.mark.parametrize("address", ["nohost", "127.0.0.1:0", "127.0.0.1:99999"])
def test_a_bad_address_is_a_usage_error(address: str, tmp_path: Path) -> None:
    from tests.network.processes import Process

    p = Process("join", address, "--code", "1234", "--name", "A", "--auto")
    assert p.finish() == 2
    assert "HOST:PORT" in p.err_lines[-1] or "port" in p.err_lines[-1]


def test_a_window_join_refused_says_so_before_any_window(tmp_path: Path) -> None:
    from tests.network.processes import Process

    server, port, _ = host(tmp_path / "host", "--seats", "remote,computer", "--code", "3333")
    try:
        window = Process("join", f"127.0.0.1:{port}", "--code", "1234", "--name", "Eve",
                         "--data-dir", str(tmp_path / "eve"))
        assert window.finish() == 1
        assert window.err_lines == [f"palmish: refused by 127.0.0.1:{port}: wrong join code"]
        nowhere = Process("join", f"127.0.0.1:{free_port()}", "--code", "1234", "--name",
                          "Eve", "--data-dir", str(tmp_path / "eve"))
        assert nowhere.finish() == 1
        assert len(nowhere.err_lines) == 1 and "cannot reach" in nowhere.err_lines[0]
    finally:
        server.kill()


def test_a_host_on_port_0_started_again_listens_where_it_did(tmp_path: Path) -> None:
    first, port, code = host(tmp_path / "host", "--seats", "remote,computer", "--port", "0")
    kept = tmp_path / "host" / "network" / "keys" / "host-pachisi.json"
    try:
        for _ in range(500):  # the table is saved before anyone joins (at most 5 s)
            if kept.exists() and json.loads(kept.read_text()).get("listening_port") == port:
                break
            time.sleep(0.01)
        else:
            raise AssertionError("the host's game was not kept with its port")
        first.kill()
        second, again, same_code = host(tmp_path / "host", "--seats", "remote,computer",
                                        "--port", "0")
        second.kill()
        assert (again, same_code) == (port, code)  # joiners' retries find it
    finally:
        first.kill()
