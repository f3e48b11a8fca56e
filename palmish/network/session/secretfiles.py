"""Secrets at rest (docs/network-session.md, "Files"): a folder only its user
may enter (0700) and files only its user may read (0600), written atomically
with those modes from the start. A folder or file found with wider modes is
tightened, with one line saying so. On Windows, which has no such modes, the
per-user data folder is what keeps other users out.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Callable
from pathlib import Path

from prc_tools.atomic import write_atomic
from prc_tools.files import FileProblem, read_regular

FOLDER_MODE = 0o700
FILE_MODE = 0o600
POSIX = os.name == "posix"
Log = Callable[[str], None]


def _tighten(path: Path, what: str, log: Log) -> None:
    """Take every permission of the group and of others away, saying so."""
    if not POSIX:
        return
    try:
        mode = stat.S_IMODE(path.stat().st_mode)
    except FileNotFoundError:
        return
    if mode & 0o077:
        os.chmod(path, mode & ~0o077)
        log(f"{path}: {what} others could read (mode {mode:04o}); now {mode & ~0o077:04o}")


def private_folder(path: Path, log: Log) -> Path:
    """`path` made (0700) or, if it exists with wider modes, tightened."""
    path.mkdir(mode=FOLDER_MODE, parents=True, exist_ok=True)
    _tighten(path, "a folder of secrets", log)
    return path


def write_secret(path: Path, data: bytes, log: Log) -> None:
    """Replace `path` by `data`, mode 0600 from its first byte, in a private folder."""
    private_folder(path.parent, log)
    write_atomic(path, data, durable=True, mode=FILE_MODE)


def read_secret(path: Path, limit: int, log: Log) -> bytes | None:
    """The bytes of `path` (tightened to 0600 first when wider), or None when it is
    missing; ValueError (one line) when it cannot be read."""
    private_folder(path.parent, log)
    _tighten(path, "a secret", log)
    try:
        return read_regular(path, limit)
    except FileProblem as err:
        if err.missing:
            return None
        raise ValueError(f"{path}: {err}") from None
