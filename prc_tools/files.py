"""Reading a user's file safely: a regular file only, of bounded size, inside a folder.

`Path.read_bytes` on a FIFO waits forever, on /dev/zero it fills memory, and
through a symlink it reads whatever the link points at. `read_regular`
refuses all three before reading a byte; `inside` checks that a name in a
folder really resolves to a place in that folder.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from prc_tools.errors import PrcError

MAX_INPUT_BYTES = 64 * 1024 * 1024  # bigger than any Palm database (they top out near 16 MB)


class FileProblem(PrcError):
    """A file that is missing, unreadable, not a regular file or too big (one line, no path).

    `unreadable` is True when the file exists but the system refused to open
    it (permissions): callers keep such a file as it is instead of treating
    it as damaged.
    """

    def __init__(self, message: str, unreadable: bool = False, missing: bool = False) -> None:
        super().__init__(message)
        self.unreadable = unreadable
        self.missing = missing


def read_regular(path: Path, limit: int = MAX_INPUT_BYTES) -> bytes:
    """The bytes of the regular file at `path`; FileProblem if that cannot be done quickly.

    Opened without blocking (a FIFO would wait for a writer), checked to be a
    regular file (not a device, FIFO or folder) of at most `limit` bytes.
    """
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
    try:
        fd = os.open(path, flags)
    except FileNotFoundError as exc:
        raise FileProblem(f"cannot read: {exc.strerror or 'no such file'}", missing=True) from None
    except PermissionError as exc:
        raise FileProblem(f"cannot read: {exc.strerror or exc}", unreadable=True) from None
    except OSError as exc:
        raise FileProblem(f"cannot read: {exc.strerror or exc}", unreadable=True) from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            what = "a folder" if stat.S_ISDIR(info.st_mode) else "a device, pipe or socket"
            raise FileProblem(f"not a regular file ({what})")
        if info.st_size > limit:
            raise FileProblem(f"{_megabytes(info.st_size)} is too big: at most {_megabytes(limit)}")
        chunks: list[bytes] = []
        total = 0
        while True:
            chunk = os.read(fd, min(1 << 20, limit + 1 - total))
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
            if total > limit:  # the file grew while we read it
                raise FileProblem(f"more than {_megabytes(limit)} (it grew while read)")
        return b"".join(chunks)
    except OSError as exc:
        raise FileProblem(f"cannot read: {exc.strerror or exc}", unreadable=True) from None
    finally:
        os.close(fd)


def _megabytes(size: int) -> str:
    """A size as people read it: `91.5 MiB (95983311 bytes)`, `64 MiB` for a round one."""
    mib = size / (1024 * 1024)
    if size % (1024 * 1024) == 0:
        return f"{size // (1024 * 1024)} MiB"
    return f"{mib:.1f} MiB ({size} bytes)" if mib >= 1 else f"{size} bytes"


def inside(folder: Path, name: str, root: Path | None = None) -> Path:
    """`folder / name` if it resolves (symlinks followed) to a place inside `folder`.

    FileProblem otherwise, so a symlink to /etc/shadow or a linked sub-folder
    pointing elsewhere is never read. `root`: `folder` already resolved (saves
    the work when checking many names in one folder).
    """
    path = folder / name
    try:
        root = root if root is not None else folder.resolve(strict=True)
        real = path.resolve(strict=True)
    except FileNotFoundError:
        raise FileProblem("no such file", missing=True) from None
    except (OSError, RuntimeError) as exc:  # RuntimeError: a symlink loop (older Pythons)
        raise FileProblem(f"cannot resolve: {exc}") from None
    if real != root and root not in real.parents:
        raise FileProblem("leads outside the folder (through a symbolic link)")
    return path
