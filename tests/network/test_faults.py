"""Faults that must not end a game or a receiver for the wrong reason (issue 41;
docs/network.md, "Trouble"; docs/storage.md, "Leftover temporary files"):

- a disk that refuses the host's saves (full) is said once, to the host and to
  the players, and the table plays on from memory; `palmish host` never calls it
  "cannot listen";
- a board a receiver accepted but cannot save fails with one line, and the
  receiver goes on receiving;
- a host killed during its save, or a receiver killed during an install, leaves
  files the next start removes (only files of ours, proven stale), and the
  sender of that install is told the truth: unknown, check the receiver.

A full disk is an OSError(ENOSPC) put in at the save (tests/network/faulty.py),
and once a real tmpfs of a few pages in a mount namespace of the test's own.
Loopback only; every process bounded and killed at the end."""

from __future__ import annotations

import errno
import os
import queue
import re
import shutil
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from palmish.network import keep, leftovers
from tests.network import beam_items
from tests.network.processes import TIMEOUT_S, Process

FULL = "cannot save the game: the disk is full; it goes on from memory (the last save is kept)"


@pytest.fixture
def started() -> Iterator[list[Process]]:
    processes: list[Process] = []
    yield processes
    for process in processes:
        process.kill()


class Command(Process):
    """A program (argv) as processes.Process reads it, with an environment of its own."""

    def __init__(self, argv: list[str], env: dict[str, str] | None = None) -> None:
        self.proc = subprocess.Popen(
            argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
            encoding="utf-8", errors="replace", env={**os.environ, **(env or {})})
        self.out: queue.Queue[str] = queue.Queue()
        self.err_lines: list[str] = []
        self.out_lines: list[str] = []
        self._started = time.monotonic()
        self._pumps = [threading.Thread(target=self._pump, args=(stream, into), daemon=True)
                       for stream, into in ((self.proc.stdout, self.out_lines),
                                            (self.proc.stderr, self.err_lines))]
        for pump in self._pumps:
            pump.start()


def faulty(started: list[Process], fault: str, n: int, *args: str,
           env: dict[str, str] | None = None) -> Process:
    process = Command([sys.executable, "-m", "tests.network.faulty", fault, str(n), "--",
                       *args], env)
    started.append(process)
    return process


def listening(process: Process) -> tuple[int, str]:
    line = process.next_line()
    match = re.fullmatch(r"(?:listening|receiving) on 127\.0\.0\.1:(\d+) code (\d{4})", line)
    assert match, (line, process.err_lines)
    return int(match.group(1)), match.group(2)


def wait_until(check: object, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while not check():  # type: ignore[operator]
        assert time.monotonic() < deadline, "not in time"
        time.sleep(0.02)


# ---------------------------------------------------------------- the host's saves


def test_host_saves_say_a_full_disk_once_and_when_it_is_over(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    saves = keep.HostSaves(tmp_path, "pachisi")
    assert saves.save({"steps": ["T6"]}) is None
    real = keep.write_atomic

    def full(*_args: object, **_kwargs: object) -> None:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(keep, "write_atomic", full)
    assert saves.save({"steps": ["T6", "M0"]}) == FULL
    assert saves.save({"steps": ["T6", "M0", "T2"]}) is None  # said once
    assert keep.load_host_game(tmp_path, "pachisi") == {"steps": ["T6"]}  # the last save
    monkeypatch.setattr(keep, "write_atomic", real)
    assert saves.save({"steps": ["T6", "M0", "T2", "M1"]}) == "the game is saved again"
    assert saves.save({"steps": ["T6", "M0", "T2", "M1", "P"]}) is None
    assert keep.load_host_game(tmp_path, "pachisi") == {"steps": ["T6", "M0", "T2", "M1", "P"]}
    assert list((tmp_path / "network" / "keys").glob(".*.tmp")) == []


@pytest.mark.process
def test_a_full_disk_mid_game_does_not_end_palmish_host(
        tmp_path: Path, started: list[Process]) -> None:
    host = faulty(started, "host-full", 3, "host", "--app", "pachisi", "--seats",
                  "remote,computer", "--data-dir", str(tmp_path / "host"), "--seed", "7")
    port, code = listening(host)
    joiner = Process("join", f"127.0.0.1:{port}", "--code", code, "--name", "Ann", "--auto",
                     "--data-dir", str(tmp_path / "ann"))
    started.append(joiner)
    assert joiner.finish(TIMEOUT_S) == 0, joiner.err_lines
    assert host.finish(TIMEOUT_S) == 0, host.err_lines
    assert host.record() == joiner.record()  # played to the end from memory
    assert host.err_lines.count(f"palmish host: {FULL}") == 1, host.err_lines
    assert not any("cannot listen" in line for line in host.err_lines)
    assert any(line.endswith(f"the host says: {FULL}") for line in joiner.err_lines), \
        joiner.err_lines


TINY = """
set -e
mount -t tmpfs -o size={size}k tmpfs "$1"
cd "$1"
shift
(  # once the saved game has grown (a step was played), fill the disk; at most 60 s
  for _ in $(seq 1200); do
    [ -s d/network/keys/host-pachisi.json ] && break; sleep 0.05
  done
  first=$(stat -c %s d/network/keys/host-pachisi.json 2>/dev/null || echo 0)
  for _ in $(seq 1200); do
    [ "$(stat -c %s d/network/keys/host-pachisi.json 2>/dev/null || echo 0)" != "$first" ] \
      && break; sleep 0.05
  done
  cat /dev/zero > filler 2>/dev/null || true
) &
exec "$@"
"""


@pytest.mark.process
def test_a_real_full_tmpfs_mid_game(tmp_path: Path, started: list[Process]) -> None:
    """A tmpfs of 256 KB in a mount namespace of its own (unshare), filled up by a
    program in the same namespace once the first step is saved: the host's next
    save meets a real full disk mid-game."""
    unshare = shutil.which("unshare")
    mount = tmp_path / "tiny"
    mount.mkdir()
    if unshare is None or subprocess.run(
            [unshare, "-rm", "sh", "-c", 'mount -t tmpfs -o size=64k tmpfs "$1"', "sh",
             str(mount)],
            capture_output=True, timeout=30).returncode != 0:
        pytest.skip("no tmpfs of our own here (unshare -rm and mount not allowed)")
    host = Command([unshare, "-rm", "sh", "-c", TINY.format(size=256), "sh", str(mount),
                    sys.executable, "-m", "palmish", "host", "--app", "pachisi", "--seats",
                    "remote,computer", "--data-dir", str(mount / "d"), "--seed", "7"])
    started.append(host)
    port, code = listening(host)
    joiner = Process("join", f"127.0.0.1:{port}", "--code", code, "--name", "Ann", "--auto",
                     "--data-dir", str(tmp_path / "ann"))
    started.append(joiner)
    assert joiner.finish(TIMEOUT_S) == 0, joiner.err_lines
    assert host.finish(TIMEOUT_S) == 0, host.err_lines
    assert host.record() == joiner.record()
    assert f"palmish host: {FULL}" in host.err_lines, host.err_lines


# ---------------------------------------------------------------- kills and leftovers


@pytest.mark.process
def test_a_host_killed_in_its_save_leaves_a_temporary_the_next_start_removes(
        tmp_path: Path, started: list[Process]) -> None:
    data = tmp_path / "host"
    stalled = faulty(started, "host-stall", 1, "host", "--app", "pachisi", "--data-dir",
                     str(data), "--seats", "remote,computer")
    line = stalled.wait_for_log(r"^STALLED ")
    temporary = Path(line.removeprefix("STALLED "))
    assert temporary.parent == data / "network" / "keys" and temporary.exists()
    # Another host of the same game on the same folder while it runs: refused, and
    # the temporary of a save under way is left alone.
    second = Process("host", "--app", "pachisi", "--data-dir", str(data))
    started.append(second)
    assert second.finish() == 1
    assert second.err_lines == [f"palmish: {data}: another palmish host keeps a pachisi game"
                                " in this data folder; give another --data-dir"]
    assert temporary.exists()
    stalled.proc.kill()  # SIGKILL, at the save point
    stalled.finish()
    assert temporary.exists()
    again = Process("host", "--app", "pachisi", "--data-dir", str(data), "--seats",
                    "remote,computer")
    started.append(again)
    listening(again)
    again.wait_for_log("interrupted; removed")
    assert not temporary.exists()
    assert f"palmish host: {temporary}: the temporary file of a save that was interrupted;" \
           " removed" in again.err_lines


@pytest.mark.process
def test_a_receiver_killed_in_an_install_leaves_nothing_the_next_start_keeps(
        tmp_path: Path, started: list[Process]) -> None:
    temp = tmp_path / "tmp"
    temp.mkdir()
    env = {"TMPDIR": str(temp)}
    receiver = faulty(started, "install-stall", 0, "receive", "--accept", "--name",
                      "Kitchen", "--data-dir", str(tmp_path / "kitchen"), env=env)
    port, code = listening(receiver)
    plugin = tmp_path / "Cherry.prc"
    plugin.write_bytes(beam_items.cherry())
    sender = Process("beam", str(plugin), "--to", f"127.0.0.1:{port}", "--code", code,
                     "--name", "Den", "--data-dir", str(tmp_path / "den"))
    started.append(sender)
    line = receiver.wait_for_log(r"^STALLED ")
    beamed = Path(line.removeprefix("STALLED "))
    assert beamed.name == "beamed.prc" and beamed.parent.parent == temp
    assert re.fullmatch(rf"palmish-beam-{receiver.proc.pid}-\w{{8}}", beamed.parent.name)
    receiver.proc.kill()  # SIGKILL, the item in its private folder
    receiver.finish()
    assert sender.finish() == 1
    assert sender.err_lines[-1] == ("palmish: unknown: check the receiver ('Kitchen' went away"
                                    " while its person was asked)"), sender.err_lines
    # Another user's folder, or one holding more than our one file, is not ours.
    (temp / "palmish-beam-1-abcdefgh").mkdir()
    (temp / "palmish-beam-1-abcdefgh" / "notes.txt").write_text("mine")
    (temp / "palmish-beam-1-abcdefgh" / "more.txt").write_text("mine")
    again = Command([sys.executable, "-m", "palmish", "receive", "--data-dir",
                     str(tmp_path / "kitchen")], env)
    started.append(again)
    listening(again)
    again.wait_for_log("left by an install that was interrupted; removed")
    assert not beamed.parent.exists()
    assert (temp / "palmish-beam-1-abcdefgh" / "notes.txt").exists()


@pytest.mark.process
def test_a_board_that_cannot_be_saved_is_one_line_and_receiving_goes_on(
        tmp_path: Path, started: list[Process]) -> None:
    receiver = faulty(started, "storage-full", 0, "receive", "--accept", "--count", "2",
                      "--name", "Kitchen", "--data-dir", str(tmp_path / "kitchen"))
    port, code = listening(receiver)
    for _ in range(2):
        sent = subprocess.run(
            [sys.executable, "-m", "palmish", "beam", "--board", "1234", "--to",
             f"127.0.0.1:{port}", "--code", code, "--name", "Den", "--data-dir",
             str(tmp_path / "den")], capture_output=True, text=True, timeout=TIMEOUT_S)
        assert sent.returncode == 1
        assert sent.stderr.strip().endswith("could not be installed: cannot save it: the disk"
                                            " is full"), sent.stderr
    assert receiver.finish() == 0, receiver.err_lines
    assert receiver.out_lines[1:] == [
        "failed: Sigmar's Garden board 1234 from 'Den': could not be installed: cannot save"
        " it: the disk is full"] * 2


def test_only_our_stale_host_temporaries_go(tmp_path: Path) -> None:
    keys = tmp_path / "network" / "keys"
    keys.mkdir(parents=True)
    ours = keys / ".host-pachisi.json.ab_12xyz.tmp"
    other_game = keys / ".host-other.json.ab_12xyz.tmp"
    not_ours = keys / ".host-pachisi.json.tmp"
    for path in (ours, other_game, not_ours):
        path.write_text("{}")
    link = keys / ".host-pachisi.json.zzzzzzzz.tmp"
    link.symlink_to(tmp_path / "elsewhere")
    said: list[str] = []
    lock = leftovers.HostLock(tmp_path, "pachisi")
    assert leftovers.clean_host_temporaries(tmp_path, "pachisi", lock, said.append) == []
    assert ours.exists()  # not held: only an old one would be proven stale
    old = time.time() - leftovers.STALE_S - 1
    os.utime(ours, (old, old))
    assert leftovers.clean_host_temporaries(tmp_path, "pachisi", lock, said.append) == [ours]
    ours.write_text("{}")
    assert lock.acquire()
    try:
        assert not leftovers.HostLock(tmp_path, "pachisi").acquire()  # one host a game
        assert leftovers.clean_host_temporaries(tmp_path, "pachisi", lock, said.append) == [ours]
    finally:
        lock.release()
    assert other_game.exists() and not_ours.exists() and link.is_symlink()
    assert said == [f"{ours}: the temporary file of a save that was interrupted; removed"] * 2


def test_only_beam_folders_of_gone_processes_go(tmp_path: Path) -> None:
    dead = (1 << 22) + 1  # above Linux's highest possible pid_max: no process has it
    gone = tmp_path / f"palmish-beam-{dead}-abcdefgh"
    alive = tmp_path / f"palmish-beam-{os.getpid()}-abcdefgh"
    old_naming = tmp_path / "palmish-beam-a1b2c3d4"
    for folder in (gone, alive, old_naming):
        folder.mkdir()
        (folder / "beamed.prc").write_bytes(b"x")
    said: list[str] = []
    assert leftovers.clean_beam_folders(said.append, tmp_path) == [gone]
    old = time.time() - leftovers.STALE_S - 1
    os.utime(old_naming, (old, old))
    assert leftovers.clean_beam_folders(said.append, tmp_path) == [old_naming]
    assert alive.exists() and len(said) == 2


def test_a_host_whose_key_cannot_be_kept_says_so_not_cannot_listen(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    from palmish.cli import main
    from palmish.network.session import secretfiles

    def full(*_args: object, **_kwargs: object) -> None:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(secretfiles, "write_atomic", full)
    assert main(["host", "--app", "pachisi", "--data-dir", str(tmp_path)]) == 1
    assert capsys.readouterr().err.splitlines()[-1] == (
        f"palmish: {tmp_path}: cannot keep this handheld's key: the disk is full")


def test_the_other_kept_files_temporaries_go_once_old(tmp_path: Path) -> None:
    keys = tmp_path / "network" / "keys"
    keys.mkdir(parents=True)
    old_one = keys / ".beam-senders.q1w2e3r4.tmp"
    new_one = keys / ".identity.q1w2e3r4.tmp"  # another command may be writing it now
    recent = tmp_path / "network" / ".beam-recent.json.q1w2e3r4.tmp"
    stranger = keys / ".notes.q1w2e3r4.tmp"
    for path in (old_one, new_one, recent, stranger):
        path.write_text("x")
    old = time.time() - leftovers.STALE_S - 1
    for path in (old_one, recent, stranger):
        os.utime(path, (old, old))
    said: list[str] = []
    assert sorted(leftovers.clean_kept_temporaries(tmp_path, said.append)) == sorted(
        [old_one, recent])
    assert new_one.exists() and stranger.exists() and len(said) == 2


def test_a_receiver_whose_key_cannot_be_kept_says_so_not_cannot_listen(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    from palmish.cli import main
    from palmish.network.session import secretfiles

    def full(*_args: object, **_kwargs: object) -> None:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(secretfiles, "write_atomic", full)
    assert main(["receive", "--data-dir", str(tmp_path)]) == 1
    assert capsys.readouterr().err.splitlines()[-1] == (
        f"palmish: {tmp_path}: cannot keep this handheld's key: the disk is full")
