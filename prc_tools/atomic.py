"""Replacing a file so that a crash leaves either the old or the new contents."""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path

MAX_PREFIX_BYTES = 200  # of a temporary's name; with its other 15 characters within 255


def fsync_directory(directory: Path) -> None:
    """Make a rename in `directory` durable (not possible on every platform)."""
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        with contextlib.suppress(OSError):
            os.fsync(fd)
    finally:
        os.close(fd)


def write_atomic(path: Path, data: bytes, durable: bool = True, mode: int | None = None) -> None:
    """Replace `path` by `data`: temporary file beside it, fsync, rename, fsync the folder.

    `durable=False` skips the fsyncs: still atomic against a crash of this
    process, not of the machine (for throw-away folders such as stress runs).
    `mode`: the new file's permissions (0o600 for a secret: it never exists
    with wider ones); by default a new file's usual 0666 less the umask.
    """
    directory = path.parent if str(path.parent) else Path(".")
    fd, tmp_name = tempfile.mkstemp(prefix=f".{_short(path.name)}.", suffix=".tmp", dir=directory)
    try:
        if hasattr(os, "fchmod"):  # mkstemp makes 0600; a new file is 0666 minus the umask
            os.fchmod(fd, 0o666 & ~_umask() if mode is None else mode)
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            if durable:
                os.fsync(handle.fileno())
        os.replace(tmp_name, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp_name)
        raise
    if durable:
        fsync_directory(directory)


def _short(name: str) -> str:
    """The file's name as its temporary's prefix, short enough that the temporary's
    name (a dot, 8 random characters and `.tmp` more) fits the usual 255-byte limit:
    a long name keeps its start and its last 8 characters (the extension, so a
    leftover is still recognised as one)."""
    if len(name.encode("utf-8")) <= MAX_PREFIX_BYTES:
        return name
    head = name[:-8].encode("utf-8")[: MAX_PREFIX_BYTES - 40].decode("utf-8", "ignore")
    return head + name[-8:]


def _umask() -> int:
    """The process umask (read by setting it, as POSIX offers no other way)."""
    mask = os.umask(0o022)
    os.umask(mask)
    return mask
