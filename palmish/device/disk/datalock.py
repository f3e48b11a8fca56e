"""One device per data directory: an advisory lock on the folder and on DIR/palmish.lock.

Two processes saving into the same databases would each overwrite the
other's moves. The locks are held for the life of the device and released by
the operating system when the process ends in any way (kill -9 included), so
a stale lock cannot keep the device from starting.

On POSIX the folder itself is locked (`flock` on its open descriptor), which
no tidying of files can undo; `palmish.lock` holds the owner's process id for
the message a second device prints, and is locked too (older palmish versions
lock only that file). The lock file is opened without following a symbolic link
and must be a regular file, so a link planted there never makes palmish write
into another file. Where the folder cannot be locked (Windows, whose byte-range
lock keeps the open file from being deleted), `still_ours` compares the lock
file with the one locked before each save. A folder that cannot be written
(a read-only disk) is locked all the same where possible and reported as
`read_only`: the device then runs without saving.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
import sys
from pathlib import Path

LOCK_NAME = "palmish.lock"
_READ_ONLY_ERRORS = {errno.EROFS, errno.EACCES, errno.EPERM}
_NO_FOLLOW = getattr(os, "O_NOFOLLOW", 0)
_OPEN_FLAGS = _NO_FOLLOW | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)


class DeviceInUse(ValueError):
    """The data directory cannot be locked: another process holds it, or its lock file
    is not a regular file (the message is one line)."""


class DataDirLock:
    """The lock of one data directory; `acquire` raises DeviceInUse when taken."""

    def __init__(self, data_dir: Path) -> None:
        self.folder = Path(data_dir)
        self.path = self.folder / LOCK_NAME
        self._fd: int | None = None
        self._folder_fd: int | None = None
        self._identity: tuple[int, int] | None = None  # (device, inode) of the file locked
        self.read_only: str | None = None  # why the folder cannot be written, if it cannot

    @property
    def held(self) -> bool:
        return self._fd is not None or self._folder_fd is not None

    def acquire(self) -> None:
        if self.held:
            return
        folder_fd = _open_folder(self.folder)
        if folder_fd is not None:
            try:
                locked = _try_lock(folder_fd)
            except OSError:  # this file system cannot lock a folder: the file serves
                os.close(folder_fd)
                folder_fd, locked = None, True
            if not locked:
                assert folder_fd is not None
                os.close(folder_fd)
                raise self._in_use()
        try:
            self._lock_file(folder_fd is not None)
        except BaseException:
            if folder_fd is not None:
                _unlock(folder_fd)
                os.close(folder_fd)
            raise
        self._folder_fd = folder_fd

    def still_ours(self) -> bool:
        """Whether no other device can have started on the folder since `acquire`:
        the folder is locked, or the lock file is still the very file we locked."""
        if self._folder_fd is not None or self._identity is None:
            return True
        try:
            info = os.stat(self.path, follow_symlinks=False)
        except OSError:
            return False
        return (info.st_dev, info.st_ino) == self._identity

    def release(self) -> None:
        for fd in (self._fd, self._folder_fd):
            if fd is not None:
                _unlock(fd)
                os.close(fd)
        self._fd = self._folder_fd = None
        self._identity = None

    def _lock_file(self, folder_locked: bool) -> None:
        try:
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT | _OPEN_FLAGS, 0o644)
        except OSError as exc:
            if exc.errno == errno.ELOOP:  # O_NOFOLLOW met a symbolic link
                raise self._not_regular("a symbolic link") from None
            if exc.errno == errno.EISDIR:
                raise self._not_regular("a folder") from None
            if exc.errno not in _READ_ONLY_ERRORS:
                raise DeviceInUse(
                    f"{self.path}: cannot create the lock file: {exc.strerror or exc}"
                ) from None
            reopened = self._open_read_only(exc, folder_locked)
            if reopened is None:
                return
            fd = reopened
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            os.close(fd)
            kind = "a folder" if stat.S_ISDIR(info.st_mode) else "a device, pipe or socket"
            raise self._not_regular(kind)
        try:
            locked = _try_lock(fd)
        except OSError:
            locked = False  # as before: better refuse than risk two devices
        if not locked:
            os.close(fd)
            raise self._in_use()
        if self.read_only is None:
            with contextlib.suppress(OSError):  # the pid is only for the message above
                os.ftruncate(fd, 0)
                os.write(fd, f"{os.getpid()}\n".encode("ascii"))
        self._fd = fd
        self._identity = (info.st_dev, info.st_ino)

    def _open_read_only(self, refused: OSError, folder_locked: bool) -> int | None:
        """The lock file of a folder that cannot be written, opened for reading only
        (it can still be locked); None when there is none. DeviceInUse when nothing
        at all could be locked."""
        self.read_only = refused.strerror or str(refused)
        try:
            return os.open(self.path, os.O_RDONLY | _OPEN_FLAGS)
        except OSError as exc:
            if exc.errno == errno.ELOOP:
                raise self._not_regular("a symbolic link") from None
            if folder_locked:
                return None
            raise DeviceInUse(
                f"{self.path}: cannot create the lock file: {self.read_only}"
            ) from None

    def _in_use(self) -> DeviceInUse:
        holder = _peek_pid(self.path)
        who = f" (process {holder})" if holder else ""
        return DeviceInUse(f"{self.folder}: the device is in use by another palmish{who}")

    def _not_regular(self, kind: str) -> DeviceInUse:
        return DeviceInUse(f"{self.path}: the lock file is not a regular file ({kind});"
                           " remove it and start again")


def _peek_pid(path: Path) -> str:
    """The process id in a lock file, read without following a link or blocking."""
    try:
        fd = os.open(path, os.O_RDONLY | _OPEN_FLAGS)
    except OSError:
        return ""
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return ""
        text = os.read(fd, 32).decode("ascii").strip()
    except (OSError, ValueError):
        return ""
    finally:
        os.close(fd)
    return text if text.isdigit() else ""


if sys.platform == "win32":
    import msvcrt

    def _open_folder(folder: Path) -> int | None:
        return None  # a folder cannot be opened as a file here; the file lock serves

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

    def _open_folder(folder: Path) -> int | None:
        try:
            return os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0)
                           | getattr(os, "O_CLOEXEC", 0))
        except OSError:
            return None  # the lock file alone, as before

    def _try_lock(fd: int) -> bool:
        """False when another process holds the lock; OSError when none can be taken."""
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return False
        return True

    def _unlock(fd: int) -> None:
        with contextlib.suppress(OSError):
            fcntl.flock(fd, fcntl.LOCK_UN)
