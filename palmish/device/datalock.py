"""One device per data directory: an advisory lock on DIR/palmish.lock.

Two processes saving into the same databases would each overwrite the
other's moves. The lock is held for the life of the device and released by
the operating system when the process ends in any way (kill -9 included), so
a stale lock cannot keep the device from starting.
"""

from __future__ import annotations

import contextlib
import os
import sys
from pathlib import Path

LOCK_NAME = "palmish.lock"


class DeviceInUse(ValueError):
    """Another process holds the data directory's lock (the message is one line)."""


class DataDirLock:
    """The lock of one data directory; `acquire` raises DeviceInUse when taken."""

    def __init__(self, data_dir: Path) -> None:
        self.path = Path(data_dir) / LOCK_NAME
        self._fd: int | None = None

    @property
    def held(self) -> bool:
        return self._fd is not None

    def acquire(self) -> None:
        if self._fd is not None:
            return
        try:
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError as exc:
            raise DeviceInUse(
                f"{self.path}: cannot create the lock file: {exc.strerror or exc}"
            ) from None
        if not _try_lock(fd):
            holder = _read_pid(fd)
            os.close(fd)
            who = f" (process {holder})" if holder else ""
            raise DeviceInUse(
                f"{self.path.parent}: the device is in use by another palmish{who}"
            )
        with contextlib.suppress(OSError):  # the pid is only for the message above
            os.ftruncate(fd, 0)
            os.write(fd, f"{os.getpid()}\n".encode("ascii"))
        self._fd = fd

    def release(self) -> None:
        if self._fd is None:
            return
        fd, self._fd = self._fd, None
        _unlock(fd)
        os.close(fd)


def _read_pid(fd: int) -> str:
    with contextlib.suppress(OSError, ValueError):
        os.lseek(fd, 0, os.SEEK_SET)
        text = os.read(fd, 32).decode("ascii").strip()
        return text if text.isdigit() else ""
    return ""


if sys.platform == "win32":
    import msvcrt

    def _try_lock(fd: int) -> bool:
        try:
            os.lseek(fd, 0, os.SEEK_SET)
            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
        except OSError:
            return False
        return True

    def _unlock(fd: int) -> None:
        with contextlib.suppress(OSError):
            os.lseek(fd, 0, os.SEEK_SET)
            msvcrt.locking(fd, msvcrt.LK_UNLCK, 1)

else:
    import fcntl

    def _try_lock(fd: int) -> bool:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            return False
        return True

    def _unlock(fd: int) -> None:
        with contextlib.suppress(OSError):
            fcntl.flock(fd, fcntl.LOCK_UN)
