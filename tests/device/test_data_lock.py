"""The data folder's lock and hostile data folders (issue 22 items 4, 5, 9 and 11):
a symlinked or odd lock file, a deleted lock, an unreadable databases/, a read-only folder."""

from __future__ import annotations

import errno
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from palmish import cli
from palmish.device.disk import datalock
from palmish.device.disk.datalock import LOCK_NAME, DataDirLock, DeviceInUse
from palmish.device.disk.storage import Storage
from palmish.device.events import PenDown

from .conftest import MakeDevice, RecordingApp

AS_ROOT = os.name == "posix" and os.geteuid() == 0
posix_only = pytest.mark.skipif(os.name != "posix", reason="POSIX file kinds and modes")


def one_line(text: str) -> bool:
    return text.count("\n") == 1 and text.endswith("\n")


@posix_only
def test_a_symlinked_lock_file_is_refused_and_its_target_left_alone(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = tmp_path / "data"
    data.mkdir()
    precious = tmp_path / "notes.txt"
    precious.write_text("my own notes\n")
    (data / LOCK_NAME).symlink_to(precious)
    code = cli.main(["--screenshot", str(tmp_path / "out.png"), "--data-dir", str(data)])
    _, err = capsys.readouterr()
    assert code == 1 and one_line(err)
    assert "lock file is not a regular file (a symbolic link)" in err
    assert precious.read_text() == "my own notes\n"  # neither truncated nor overwritten
    assert not (tmp_path / "out.png").exists()


@posix_only
@pytest.mark.parametrize("kind", ["fifo", "folder"])
def test_a_lock_file_that_is_not_a_regular_file_is_refused(tmp_path: Path, kind: str) -> None:
    lock_path = tmp_path / LOCK_NAME
    if kind == "fifo":
        os.mkfifo(lock_path)
    else:
        lock_path.mkdir()
    with pytest.raises(DeviceInUse, match="not a regular file") as caught:
        DataDirLock(tmp_path).acquire()
    assert "\n" not in str(caught.value)


@posix_only
def test_deleting_the_lock_file_does_not_let_a_second_device_start(
    make_device: MakeDevice, tmp_path: Path
) -> None:
    (tmp_path / "data").mkdir()
    first = make_device(exclusive=True)
    (tmp_path / "data" / LOCK_NAME).unlink()  # tidying the folder while it runs
    with pytest.raises(DeviceInUse, match="in use by another palmish"):
        make_device(exclusive=True)
    first.post(PenDown(10, 40))
    first.shutdown()  # and the first still saves
    again = make_device(exclusive=True)
    assert again.storage.load_state("TRec") == b"1"
    again.shutdown()


def test_where_the_folder_cannot_be_locked_a_replaced_lock_file_stops_saving(
    make_device: MakeDevice, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
    recording_app: RecordingApp,
) -> None:
    """Windows locks the file only: there, each save checks the lock file is the one
    locked, and a folder whose lock is no longer ours is not saved into (one line)."""
    monkeypatch.setattr(datalock, "_open_folder", lambda folder: None)
    (tmp_path / "data").mkdir()
    messages: list[str] = []
    device = make_device(exclusive=True, report=messages.append)
    device.storage.save_state("TRec", b"saved while ours")
    lock_path = tmp_path / "data" / LOCK_NAME
    lock_path.unlink()
    lock_path.write_text("4242\n")  # another palmish's lock, say
    device.post(PenDown(10, 40))
    device.storage.save_state("TRec", b"7")
    device.storage.save_prefs("TRec", {"sound": False})
    device.shutdown()
    refusals = [m for m in messages if "nothing more is saved" in m]
    assert len(refusals) == 1 and "lock file was removed or replaced" in refusals[0]
    assert Storage(tmp_path / "data").load_state("TRec") == b"saved while ours"


def _read_only_lock(monkeypatch: pytest.MonkeyPatch) -> None:
    """As a read-only disk answers: creating or writing the lock file is refused."""
    real_open = os.open

    def refusing(path: object, flags: int, *args: object) -> int:
        if str(path).endswith(LOCK_NAME) and flags & (os.O_RDWR | os.O_WRONLY | os.O_CREAT):
            raise OSError(errno.EROFS, os.strerror(errno.EROFS), str(path))
        return real_open(path, flags, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(datalock.os, "open", refusing)


def test_a_read_only_data_folder_runs_without_saving_and_says_so_once(
    make_device: MakeDevice, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    make_device().shutdown()  # an earlier run left a folder with a save in it
    before = {p: p.read_bytes() for p in (tmp_path / "data" / "databases").iterdir()}
    _read_only_lock(monkeypatch)
    messages: list[str] = []
    device = make_device(exclusive=True, report=messages.append)
    device.post(PenDown(10, 40))
    device.storage.save_prefs("TRec", {"sound": False})
    device.shutdown()
    assert len(messages) == 1 and "\n" not in messages[0]
    assert "cannot be written (Read-only file system): running without saving" in messages[0]
    after = {p: p.read_bytes() for p in (tmp_path / "data" / "databases").iterdir()}
    assert after == before


@posix_only
@pytest.mark.skipif(AS_ROOT, reason="root writes into a mode-555 folder all the same;"
                    " the read-only case is tested through the refused open above")
def test_a_data_folder_without_write_permission_starts(tmp_path: Path) -> None:
    data = tmp_path / "data"
    assert cli.main(["--screenshot", str(tmp_path / "a.png"), "--data-dir", str(data)]) == 0
    data.chmod(0o555)
    try:
        done = subprocess.run(
            [sys.executable, "-m", "palmish", "--screenshot", str(tmp_path / "b.png"),
             "--data-dir", str(data)], capture_output=True, text=True, timeout=120, check=False)
    finally:
        data.chmod(0o755)
    assert done.returncode == 0, done.stderr
    assert "running without saving" in done.stderr and len(done.stderr.splitlines()) == 1


def _unlistable(monkeypatch: pytest.MonkeyPatch, folder: Path) -> None:
    """As mode 000 answers a user who is not root: the folder cannot be listed."""
    from palmish.device.disk import storage as storage_module

    real = storage_module.os.scandir

    def scandir(path: object) -> object:
        if Path(str(path)) == folder:
            raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), str(path))
        return real(path)  # type: ignore[call-overload]

    monkeypatch.setattr(storage_module.os, "scandir", scandir)


def test_an_unlistable_databases_folder_is_one_line_in_plugins_and_at_start(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    data = tmp_path / "data"
    (data / "databases").mkdir(parents=True)
    _unlistable(monkeypatch, data / "databases")
    assert cli.main(["plugins", "--data-dir", str(data)]) == 0
    out, err = capsys.readouterr()
    assert "Test" not in err and one_line(err) and "cannot list: Permission denied" in err
    assert "bundled" in out  # the bundled plugins are still listed
    assert cli.main(["--screenshot", str(tmp_path / "a.png"), "--data-dir", str(data)]) == 0
    _, err = capsys.readouterr()
    assert "Traceback" not in err and err.count("cannot list") == 1


@posix_only
@pytest.mark.skipif(AS_ROOT, reason="root lists a mode-000 folder all the same; the"
                    " refused listing is tested through scandir above")
def test_a_mode_000_databases_folder_is_one_line(tmp_path: Path) -> None:
    data = tmp_path / "data"
    (data / "databases").mkdir(parents=True)
    (data / "databases").chmod(0)
    try:
        done = subprocess.run([sys.executable, "-m", "palmish", "plugins", "--data-dir",
                               str(data)], capture_output=True, text=True, timeout=120,
                              check=False)
    finally:
        (data / "databases").chmod(0o755)
    assert done.returncode == 0 and "Traceback" not in done.stderr
    assert "cannot list" in done.stderr


@posix_only
def test_a_file_system_that_cannot_lock_a_folder_falls_back_to_the_lock_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = datalock._try_lock

    def no_folder_locks(fd: int) -> bool:
        if stat.S_ISDIR(os.fstat(fd).st_mode):
            raise OSError(errno.EOPNOTSUPP, os.strerror(errno.EOPNOTSUPP))
        return real(fd)

    monkeypatch.setattr(datalock, "_try_lock", no_folder_locks)
    first = DataDirLock(tmp_path)
    first.acquire()
    with pytest.raises(DeviceInUse, match=f"process {os.getpid()}"):
        DataDirLock(tmp_path).acquire()
    assert first.still_ours()
    (tmp_path / LOCK_NAME).unlink()
    assert not first.still_ours()  # so saves stop, as on Windows
    first.release()
