"""Beams between separate processes on loopback (docs/network.md, "Beam"): each kind
of item accepted, declined, refused, interrupted, and a busy receiver. Every
process is bounded (processes.TIMEOUT_S) and killed at the end of its test."""

from __future__ import annotations

import contextlib
import json
import re
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from palmish.apps import hard_buttons, installed_apps, real_app
from palmish.device.disk.resources import bundled_plugins
from palmish.device.disk.storage import Storage
from palmish.device.display import config_by_name
from palmish.device.machine.system import Device
from palmish.device.store.plugins import PluginRegistry
from palmish.sigmar.level import parse_level
from tests.network import beam_items
from tests.network.processes import TIMEOUT_S, Process

pytestmark = pytest.mark.process  # every test here starts another program

SENDER = "Den"


@pytest.fixture(scope="module")
def cherry() -> bytes:
    return beam_items.cherry()


@pytest.fixture
def started() -> Iterator[list[Process]]:
    """The test's processes, all killed at its end whatever happened."""
    processes: list[Process] = []
    yield processes
    for process in processes:
        process.kill()


def receiver(started: list[Process], data_dir: Path, *options: str) -> tuple[Process, int, str]:
    """`palmish receive` on 127.0.0.1: the process, its port and its code."""
    process = Process("receive", "--data-dir", str(data_dir), "--name", "Kitchen", *options)
    started.append(process)
    line = process.next_line()
    match = re.fullmatch(r"receiving on 127\.0\.0\.1:(\d+) code (\d{4})", line)
    assert match, (line, process.err_lines)
    return process, int(match.group(1)), match.group(2)


def beam(sender_dir: Path, port: int, *what: str, code: str | None = None,
         name: str = SENDER) -> subprocess.CompletedProcess[str]:
    options = ["--code", code] if code is not None else []
    return subprocess.run(
        [sys.executable, "-m", "palmish", "beam", *what, "--to", f"127.0.0.1:{port}",
         "--name", name, "--data-dir", str(sender_dir), *options],
        capture_output=True, text=True, timeout=TIMEOUT_S)


def raw_sender(started: list[Process], port: int, code: str, size: int, chunks: int
               ) -> Process:
    process = Process(str(port), code, str(size), str(chunks), "60",
                      module="tests.network.raw_beam_sender")
    started.append(process)
    return process


def files_under(folder: Path) -> list[Path]:
    return sorted(p for p in folder.rglob("*") if p.is_file()) if folder.exists() else []


def test_a_plugin_is_beamed_accepted_and_installed(tmp_path: Path, cherry: bytes,
                                                  started: list[Process]) -> None:
    plugin = tmp_path / "cherry.prc"
    plugin.write_bytes(cherry)
    process, port, code = receiver(started, tmp_path / "r", "--accept", "--count", "1")
    sent = beam(tmp_path / "s", port, str(plugin), code=code)
    assert sent.returncode == 0, sent.stderr
    assert sent.stdout.startswith("accepted by 'Kitchen': installed 'Cherry Board'")
    assert "sent 81 KB of 81 KB" in sent.stderr  # the receiver's progress, as it came
    assert process.finish() == 0
    assert process.out_lines[1].startswith(
        "accepted: Board plugin for PalmIshido 'Cherry Board' (81 KB) from 'Den': installed")
    listed = Process("plugins", "--data-dir", str(tmp_path / "r"))
    assert listed.finish() == 0
    assert [line.split()[:4] for line in listed.out_lines if "Cherry" in line] == [
        ["Cherry", "Board", "ishido", "board"]]
    storage = Storage(tmp_path / "r")
    installed = [p for p in PluginRegistry(storage, bundled_plugins(), print).all()
                 if not p.bundled]
    assert [(p.name, p.game, p.kind) for p in installed] == [("Cherry Board", "ishido", "board")]
    assert installed[0].path.read_bytes() == cherry


def test_a_level_is_installed_as_palmish_install_does(tmp_path: Path,
                                                     started: list[Process]) -> None:
    process, port, code = receiver(started, tmp_path / "r", "--accept", "--count", "1")
    sent = beam(tmp_path / "s", port, str(beam_items.LEVEL_7), code=code)
    assert sent.returncode == 0, sent.stderr
    assert process.finish() == 0
    assert process.out_lines[1].startswith("accepted: Sigmar's Garden level 'Level 7: Caution' (")
    installed = tmp_path / "r" / "files" / "PSgm" / "7.dat"
    level = parse_level(beam_items.LEVEL_7.read_bytes())
    assert parse_level(installed.read_bytes()) == level


def _running(data_dir: Path, app: str) -> object:
    device = Device(config_by_name("square"), data_dir, installed_apps(), app,
                    exclusive=True, buttons=hard_buttons(), report=lambda message: None)
    try:
        return real_app(device.running_app).game  # type: ignore[attr-defined]
    finally:
        device.shutdown()


def test_a_board_and_a_deal_open_the_same_at_the_next_start_and_pairing_holds(
        tmp_path: Path, started: list[Process]) -> None:
    from palmish.ishido.game import Game as IshidoGame
    from palmish.sigmar.game import Game as SigmarGame

    process, port, code = receiver(started, tmp_path / "r", "--accept", "--count", "2")
    board = beam(tmp_path / "s", port, "--board", "1234", code=code)
    assert board.returncode == 0, board.stderr
    deal = beam(tmp_path / "s", port, "--deal", "99")  # paired by the accepted board: no code
    assert deal.returncode == 0, deal.stderr
    assert process.finish() == 0
    assert process.out_lines[1:] == [
        "accepted: Sigmar's Garden board 1234 from 'Den': Sigmar's Garden opens board 1234"
        " at its next start",
        "accepted: PalmIshido deal 99 from 'Den': PalmIshido opens deal 99 at its next start"]
    sigmar = _running(tmp_path / "r", "sigmar")
    fresh = SigmarGame.new(seed=1234)
    assert (sigmar.seed, sigmar.kinds) == (1234, fresh.kinds)  # type: ignore[attr-defined]
    ishido = _running(tmp_path / "r", "ishido")
    dealt = IshidoGame.new(seed=99)
    assert ishido.seed == 99  # type: ignore[attr-defined]
    assert ishido._pouch == dealt._pouch  # type: ignore[attr-defined]  # the same 72 tiles
    assert ishido._cells == dealt._cells  # type: ignore[attr-defined]

    listed = Process("receive", "--paired", "--data-dir", str(tmp_path / "r"))
    assert listed.finish() == 0 and listed.out_lines == [SENDER]
    forgot = Process("receive", "--forget", SENDER, "--data-dir", str(tmp_path / "r"))
    assert forgot.finish() == 0 and forgot.out_lines == ["forgot 1 paired handheld"]
    _, port, _ = receiver(started, tmp_path / "r", "--accept", "--count", "1")
    refused = beam(tmp_path / "s", port, "--deal", "5")
    assert refused.returncode == 1
    assert refused.stderr.strip() == (
        f"palmish: 127.0.0.1:{port}: a pairing code is needed (the code on the receiver's"
        " screen); give it with --code NNNN")


def test_declined_writes_nothing(tmp_path: Path, cherry: bytes, started: list[Process]) -> None:
    plugin = tmp_path / "cherry.prc"
    plugin.write_bytes(cherry)
    process, port, code = receiver(started, tmp_path / "r", "--count", "2")
    for what in ([str(plugin)], ["--board", "7"]):
        sent = beam(tmp_path / "s", port, *what, code=code)
        assert sent.returncode == 1
        assert sent.stderr.strip().splitlines()[-1] == (
            "palmish: 'Kitchen': declined (this receiver runs without --accept)")
    assert process.finish() == 0
    assert [line.split(":")[0] for line in process.out_lines[1:]] == ["declined", "declined"]
    assert files_under(tmp_path / "r") == []  # not even a pairing


def test_refusals(tmp_path: Path, cherry: bytes, started: list[Process]) -> None:
    hostile = {
        "garbage.prc": b"not a database at all" * 10,
        "broken.prc": beam_items.broken_bitmap(cherry),
        "evil.prc": beam_items.renamed(cherry, "Evil\x1b]0;pwned\x07\x1b[2J Board"),
    }
    for name, data in hostile.items():
        (tmp_path / name).write_bytes(data)
    process, port, code = receiver(started, tmp_path / "r", "--accept", "--count", "4")
    wrong = beam(tmp_path / "s", port, str(tmp_path / "garbage.prc"),
                 code=f"{(int(code) + 1) % 10000:04d}")
    assert (wrong.returncode, wrong.stderr.strip()) == (
        1, f"palmish: 127.0.0.1:{port}: wrong pairing code")
    reasons = {}
    for name in hostile:
        sent = beam(tmp_path / "s", port, str(tmp_path / name), code=code)
        assert sent.returncode == 1, sent.stdout
        reasons[name] = sent.stderr.strip().splitlines()[-1]
    assert reasons["garbage.prc"].startswith("palmish: 'Kitchen': not a Palm database: ")
    assert reasons["broken.prc"].startswith("palmish: 'Kitchen': not a good plugin: Tbmp 2000")
    assert reasons["evil.prc"] == ("palmish: 'Kitchen': its name holds unprintable characters:"
                                   " 'Evil\\x1b]0;pwned\\x07\\x1b[2J Board'")
    big = raw_sender(started, port, code, 5 << 20, 0)  # offered, refused before any data
    assert big.finish() == 1  # no `ready`
    assert big.out_lines[-1] == (
        '{"t":"result","accepted":false,"text":"too large: 5 MB, at most 1 MB"}')
    assert process.finish() == 0
    lines = process.out_lines[1:]
    assert [line.split(":")[0] for line in lines] == ["refused"] * 4
    assert lines[2] == ("refused: a plugin of 81 KB from 'Den': its name holds unprintable"
                        " characters: 'Evil\\x1b]0;pwned\\x07\\x1b[2J Board'")
    assert lines[3] == "refused: a plugin of 5 MB from 'Raw': too large: 5 MB, at most 1 MB"
    assert not any("\x1b" in line or "\x07" in line for line in process.out_lines)
    assert not (tmp_path / "r" / "databases").exists()
    too_big = tmp_path / "big.prc"
    too_big.write_bytes(bytes(5 << 20))
    local = beam(tmp_path / "s", port, str(too_big), code=code)  # said before connecting
    assert (local.returncode, local.stderr.strip()) == (
        1, f"palmish: {too_big}: too large: 5 MB, at most 1 MB")


def test_a_sender_killed_mid_transfer_leaves_nothing_and_a_busy_receiver_refuses(
        tmp_path: Path, cherry: bytes, started: list[Process]) -> None:
    plugin = tmp_path / "cherry.prc"
    plugin.write_bytes(cherry)
    process, port, code = receiver(started, tmp_path / "r", "--accept", "--count", "1")
    raw = raw_sender(started, port, code, 900 * 1024, 3)
    assert raw.next_line(timeout=30).startswith('{"t":"welcome"')
    deadline_lines = [raw.next_line(timeout=30) for _ in range(4)]  # ready, 3 progress
    assert raw.next_line(timeout=30) == "sent", deadline_lines
    busy = beam(tmp_path / "s", port, str(plugin), code=code)
    assert (busy.returncode, busy.stderr.strip()) == (
        1, f"palmish: 127.0.0.1:{port}: busy: receiving another beam")
    raw.kill()  # SIGKILL, mid-transfer: 96 KB of 900 KB arrived
    assert process.finish() == 0
    assert process.out_lines[1:] == [
        "interrupted: a plugin of 900 KB from 'Raw': Raw went away before the end;"
        " nothing was kept"]
    assert files_under(tmp_path / "r") == []


def _exchange(port: int, data: bytes) -> bytes:
    """Send `data` on a fresh connection and read until the receiver closes it (10 s
    at most)."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(data)
        got = b""
        with contextlib.suppress(ConnectionError):
            while chunk := sock.recv(65536):
                got += chunk
        return got


def test_hostile_connections_leave_the_receiver_receiving(tmp_path: Path,
                                                          started: list[Process]) -> None:
    process, port, code = receiver(started, tmp_path / "r", "--accept", "--count", "1")
    assert _exchange(port, b"\x00\xff garbage\n") == b""
    assert _exchange(port, b"{" * 70000 + b"\n") == b""  # over the 48 KiB line limit
    assert _exchange(port, b'{"t":"offer"}\n') == b""
    assert json.loads(_exchange(port, b'{"t":"hello","v":2,"app":"beam"}\n')) == {
        "t": "refused", "v": 1,
        "reason": "protocol version 2 is not spoken here (this host speaks 1)"}
    pachisi = json.loads(_exchange(
        port, b'{"t":"hello","v":1,"app":"pachisi","code":"1234","name":"Ann"}\n'))
    assert pachisi["reason"] == "this is a beam receiver, not a pachisi game"
    sent = beam(tmp_path / "s", port, "--deal", "12", code=code)
    assert sent.returncode == 0, sent.stderr
    assert process.finish() == 0
    assert process.out_lines[1].startswith("accepted: PalmIshido deal 12 from 'Den'")
    assert any("dropped peer" in line for line in process.err_lines)


def test_a_board_for_a_folder_a_window_holds_fails_in_one_line(tmp_path: Path,
                                                               started: list[Process]) -> None:
    (tmp_path / "r").mkdir()
    window = Device(config_by_name("square"), tmp_path / "r", installed_apps(), "launcher",
                    exclusive=True, report=lambda message: None)  # holds the folder's lock
    try:
        process, port, code = receiver(started, tmp_path / "r", "--accept", "--count", "1")
        sent = beam(tmp_path / "s", port, "--board", "3", code=code)
        assert process.finish() == 0
    finally:
        window.shutdown()
    assert sent.returncode == 1
    line = process.out_lines[1]
    assert line.startswith("failed: Sigmar's Garden board 3 from 'Den': could not be installed: ")
    assert sent.stderr.strip().splitlines()[-1].startswith(
        "palmish: 'Kitchen': could not be installed: ")
