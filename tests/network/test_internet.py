"""Games by code across "the internet" on loopback (docs/network.md, "Across the
internet"): Magic Wormhole's real mailbox server and transit relay started on
127.0.0.1, a host and joiners as separate processes, the engine's direct
hints restricted to 127.0.0.1 (or none: the relay forced), so nothing leaves
this machine."""

from __future__ import annotations

import contextlib
import os
import re
import socket
import subprocess
import threading
import time
from pathlib import Path

import pytest

from palmish.pachisi.game import Game
from tests.network.processes import Process, free_port, idle_joiner
from tests.network.wormhole_servers import Servers

pytestmark = pytest.mark.process  # every test here starts other programs


def internet_host(folder: Path, env: dict[str, str],
                  *options: str) -> tuple[Process, int, str, str]:
    """The host's process, its LAN port and code, and its internet code."""
    process = Process("host", "--app", "pachisi", "--internet", "--data-dir", str(folder),
                      *options, env=env)
    listening = re.fullmatch(r"listening on 127\.0\.0\.1:(\d+) code (\d{4})", process.next_line())
    assert listening, process.err_lines
    coded = re.fullmatch(r"code (\d+(-[a-z]+)+)", process.next_line())
    assert coded, (process.out_lines, process.err_lines)
    return process, int(listening.group(1)), listening.group(2), coded.group(1)


STARTED: list[Process] = []  # what a test that fails shows


def by_code(code: str, name: str, folder: Path, env: dict[str, str]) -> Process:
    return started(Process("join", "--code", code, "--name", name, "--auto", "--data-dir",
                           str(folder), env=env))


def started(process: Process) -> Process:
    STARTED.append(process)
    return process


def finished(record: str) -> str:
    game = Game.from_record(record)
    assert game.over and game.record() == record
    return record


def ends(process: Process, timeout: float = 60.0) -> int:
    """The exit status; what it said when it did not end in time."""
    try:
        return process.finish(timeout)
    except subprocess.TimeoutExpired:
        others = [(p.proc.args, p.out_lines, p.err_lines) for p in STARTED]
        raise AssertionError(f"still running: {process.out_lines} {process.err_lines}; "
                             f"all: {others}") from None


def paths(process: Process) -> list[str]:
    return [line.removeprefix("path: ") for line in process.out_lines
            if line.startswith("path: ")]


@pytest.mark.parametrize("direct,lan,path", [("off", "off", "relayed"),
                                             ("127.0.0.1", "off", "direct"),
                                             ("off", "127.0.0.1", "lan")])
def test_two_joiners_by_one_code_play_to_the_end(direct: str, lan: str, path: str,
                                                  tmp_path: Path, servers: Servers) -> None:
    # lan: the host's table on 127.0.0.1, its LAN path; the relay then answers nobody
    # (a port nothing listens on), since the two are tried together and on a loaded
    # machine the relay may win the race now and then, which is right too
    relay_port = free_port() if path == "lan" else None
    env = servers.env(direct, relay_port=relay_port, lan=lan)
    host, _, _, code = internet_host(tmp_path / "host", env, "--seats",
                                     "remote,computer,remote")
    ann = by_code(code, "Ann", tmp_path / "ann", env)
    bob = by_code(code, "Bob", tmp_path / "bob", env)
    try:
        assert ends(host) == 0, host.err_lines
        assert ends(ann) == 0, ann.err_lines
        assert ends(bob) == 0, bob.err_lines
        record = finished(host.record())
        assert ann.record() == bob.record() == record
        assert paths(host) == [path, path] and paths(ann) == paths(bob) == [path]
        assert ann.err_lines[-1] == "palmish join: dice: verified"
    finally:
        for p in (host, ann, bob):
            p.kill()


def test_the_relay_killed_mid_game_and_started_again(tmp_path: Path, servers: Servers) -> None:
    env = servers.env("off")
    host, port, lan_code, code = internet_host(tmp_path / "host", env, "--seats",
                                               "remote,computer,remote", "--wait", "2")
    ann = by_code(code, "Ann", tmp_path / "ann", env)
    host.wait_for_log("Ann sits in seat 1")
    # Cal (on the LAN) sits in seat 3 and never acts: the game waits at Cal's
    # first turn, however fast Ann and the computer play, until Cal is gone.
    cal = idle_joiner(port, lan_code, "Cal", tmp_path / "cal")
    try:
        host.wait_for_log("the game starts")
        servers.relay.kill()
        ann.wait_for_log("is gone; waiting for it")
        host.wait_for_log("Ann is away")
        servers.relay.start()  # the same port: the settings unchanged
        deadline = time.monotonic() + 60
        while sum("Ann sits in seat 1" in line for line in host.err_lines) < 2:
            assert time.monotonic() < deadline, host.err_lines  # Ann takes her seat back
            time.sleep(0.05)
        cal.kill()  # now Silicon plays Cal's seat (away) and the game ends
        assert ends(host) == 0, host.err_lines
        assert ends(ann) == 0, ann.err_lines
        record = finished(host.record())
        assert ann.record() == record
        assert paths(ann) == ["relayed", "relayed"] and paths(host) == ["relayed", "relayed"]
    finally:
        for p in (host, ann, cal):
            p.kill()


class FlippingRelay:
    """A TCP forwarder to the real relay that changes one byte once, far enough
    in (past the relay's and transit's handshakes) to be inside a sealed record:
    the last byte of a read, which on loopback ends a record (transit writes each
    whole), so it is ciphertext and never a length that would stall the stream."""

    # bytes from one client: past the relay's and transit's handshakes (about 200)
    # and the session layer's (under 2000), inside the game
    FLIP_AT = 6000

    def __init__(self, target: int) -> None:
        self.target = target
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.listener.settimeout(0.5)
        self.port = self.listener.getsockname()[1]
        self.flipped = False
        self.stop = threading.Event()
        self.lock = threading.Lock()
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while not self.stop.is_set():
            try:
                client, _ = self.listener.accept()
            except OSError:
                continue
            upstream = socket.create_connection(("127.0.0.1", self.target), timeout=10)
            for a, b, flips in ((client, upstream, True), (upstream, client, False)):
                threading.Thread(target=self._pipe, args=(a, b, flips), daemon=True).start()

    def _pipe(self, source: socket.socket, sink: socket.socket, flips: bool) -> None:
        source.settimeout(60)
        seen = 0
        try:
            while data := source.recv(65536):
                if flips and seen + len(data) > self.FLIP_AT:
                    with self.lock:
                        if not self.flipped:
                            self.flipped = True
                            data = data[:-1] + bytes([data[-1] ^ 0x01])
                seen += len(data)
                sink.sendall(data)
        except OSError:
            pass
        finally:
            for s in (source, sink):
                with contextlib.suppress(OSError):
                    s.shutdown(socket.SHUT_RDWR)

    def close(self) -> None:
        self.stop.set()
        self.listener.close()


def test_a_relay_that_changes_a_byte_is_caught(tmp_path: Path, servers: Servers) -> None:
    flipping = FlippingRelay(servers.relay.port)
    env = servers.env("off", relay_port=flipping.port)
    host, _, _, code = internet_host(tmp_path / "host", env, "--seats", "remote,computer",
                                     "--wait", "30")
    ann = by_code(code, "Ann", tmp_path / "ann", env)
    try:
        assert ends(host) == 0, host.err_lines
        assert ends(ann) == 0, ann.err_lines
        assert flipping.flipped
        record = finished(host.record())
        assert ann.record() == record  # the link was made again; nothing changed got in
        said = host.err_lines + ann.err_lines
        assert any("altered on its way" in line for line in said), said
        assert len(paths(ann)) == 2  # the first link, and the one made again
    finally:
        flipping.close()
        for p in (host, ann):
            p.kill()


def test_a_dead_rendezvous_is_one_line(tmp_path: Path) -> None:
    env = dict(os.environ, PALMISH_RENDEZVOUS=f"ws://127.0.0.1:{free_port()}/v1",
               PALMISH_RELAY="tcp:127.0.0.1:9", PALMISH_DIRECT="off",
               PALMISH_LAN="off")
    host = Process("host", "--app", "pachisi", "--internet", "--data-dir",
                   str(tmp_path / "host"), env=env)
    joiner = by_code("7-cobra-lantern", "Ann", tmp_path / "ann", env)
    try:
        assert ends(host, 30) == 1 and ends(joiner, 30) == 1
        for process in (host, joiner):
            assert process.err_lines[-1].startswith(
                "palmish: Cannot reach the rendezvous server at ws://127.0.0.1:"), \
                process.err_lines
            assert process.err_lines[-1].endswith(": check the internet connection")
    finally:
        host.kill()
        joiner.kill()


def test_a_wrong_code_is_one_line(tmp_path: Path, servers: Servers) -> None:
    env = servers.env("off")
    host, _, _, code = internet_host(tmp_path / "host", env, "--seats", "remote,computer")
    nameplate = code.split("-")[0]
    wrong = by_code(f"{nameplate}-wrong-words", "Ann", tmp_path / "ann", env)
    try:
        assert ends(wrong) == 1
        assert wrong.err_lines[-1] == f"palmish: wrong code {nameplate}-wrong-words", \
            wrong.err_lines
        right = by_code(code, "Ann", tmp_path / "ann2", env)  # the host takes joiners still
        assert ends(right) == 0, right.err_lines
        assert ends(host) == 0
        assert right.record() == finished(host.record())
    finally:
        host.kill()
        wrong.kill()



def test_a_beam_by_code(tmp_path: Path, servers: Servers) -> None:
    env = servers.env("off")
    receiver = started(Process("receive", "--internet", "--accept", "--count", "1",
                               "--data-dir", str(tmp_path / "receiver"), env=env))
    try:
        assert re.fullmatch(r"receiving on 127\.0\.0\.1:\d+ code \d{4}", receiver.next_line())
        coded = re.fullmatch(r"code (\d+(-[a-z]+)+)", receiver.next_line())
        assert coded, receiver.err_lines
        sender = started(Process("beam", "--board", "3", "--code", coded.group(1), "--name",
                                 "Ann", "--data-dir", str(tmp_path / "sender"), env=env))
        assert ends(sender) == 0, sender.err_lines
        assert ends(receiver) == 0, receiver.err_lines
        assert sender.out_lines[0] == "path: relayed"
        assert sender.out_lines[-1].startswith("accepted by ")
        assert receiver.out_lines[-1].startswith("accepted: Sigmar's Garden board 3 from 'Ann'")
    finally:
        receiver.kill()
