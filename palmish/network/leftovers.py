"""What a killed network command leaves behind, cleaned at the next start
(docs/network.md, "Files"; docs/storage.md, "Leftover temporary files").

Two kinds, each removed only when it is provably ours and stale:

- a host's save killed between its temporary file and the rename leaves
  `DIR/network/keys/.host-APP.json.XXXXXXXX.tmp`. A host holds
  `DIR/network/keys/host-APP.lock` (an advisory `flock`, dropped by the system
  however the process ends) while it hosts; whoever holds it knows no other
  host of that game saves in the folder, so every such temporary is stale.
  Where no lock can be taken (Windows), one older than STALE_S is.
- an install killed while a beamed plugin waited in its private folder
  leaves `$TMPDIR/palmish-beam-PID-XXXXXXXX/beamed.prc` (a level: its
  `N.dat`). A folder whose process (PID) is gone, owned by this user, holding
  nothing but one regular file,
  is stale; a folder of the old naming (`palmish-beam-XXXXXXXX`, no process
  id) when it is older than STALE_S.

The network's other kept files (the identity, the pairings, the hosts joined,
the receivers beamed to) may be written by several commands at once; their
temporaries are stale once older than STALE_S.
"""

from __future__ import annotations

import contextlib
import os
import re
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from palmish.network.session.identity import keys_folder

STALE_S = 600.0  # a save or an install takes milliseconds; this much older is a leftover
BEAM_PREFIX = "palmish-beam-"
BEAMED_FILE = "beamed.prc"
_KEPT_TEMPORARY = re.compile(
    r"^\.(identity|hosts|beam-senders|beam-receivers|beam-recent\.json)\.[a-z0-9_]{8}\.tmp$",
    re.IGNORECASE)
_BEAM_FOLDER = re.compile(r"^palmish-beam-(?:(\d{1,10})-)?[a-z0-9_]{8}$", re.IGNORECASE)

if os.name == "posix":
    import fcntl

    LOCKS = True

    def _try_lock(fd: int) -> bool:
        """False when another process holds the lock."""
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            return False
        return True
else:  # pragma: no cover - Windows: no lock; only old temporaries are proven stale
    LOCKS = False

    def _try_lock(fd: int) -> bool:
        return True


def _host_temporary(app: str) -> re.Pattern[str]:
    """prc_tools.atomic's naming of the host game's temporary (mkstemp's 8 characters)."""
    return re.compile(rf"^\.host-{re.escape(app)}\.json\.[a-z0-9_]{{8}}\.tmp$", re.IGNORECASE)


class HostLock:
    """`DIR/network/keys/host-APP.lock`, held while a host of APP runs from DIR."""

    def __init__(self, data_dir: Path, app: str) -> None:
        self.path = keys_folder(data_dir) / f"host-{app}.lock"
        self._fd: int | None = None

    @property
    def held(self) -> bool:
        return self._fd is not None

    def acquire(self) -> bool:
        """True once held (or where no lock can be had); False when another process
        holds it (another host of this game runs from this folder)."""
        if not LOCKS:
            return True
        if self._fd is not None:
            return True
        try:
            self.path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0)
                         | getattr(os, "O_CLOEXEC", 0), 0o600)
        except OSError:
            return True  # a folder that cannot be written: nothing to save, nothing to clean
        if not _try_lock(fd):
            os.close(fd)
            return False
        self._fd = fd
        return True

    def release(self) -> None:
        fd, self._fd = self._fd, None
        if fd is not None:
            with contextlib.suppress(OSError):
                os.close(fd)  # closing drops the flock


def clean_host_temporaries(data_dir: Path, app: str, lock: HostLock,
                           log: Callable[[str], None]) -> list[Path]:
    """Remove the host's stale save temporaries (see the module's note); one log
    line each. Only files of the exact naming, never a link or a folder."""
    removed = clean_kept_temporaries(data_dir, log)
    # The held lock proves every temporary stale; without it only an old one is.
    min_age = 0.0 if lock.held else STALE_S
    return removed + _remove_temporaries(keys_folder(data_dir), _host_temporary(app),
                                         min_age, log)


def clean_kept_temporaries(data_dir: Path, log: Callable[[str], None]) -> list[Path]:
    """Remove the temporaries of the network's other kept files (the identity, the
    pairings, the hosts joined, the receivers beamed to) once older than STALE_S:
    several commands may write those at once, so no lock proves one stale sooner."""
    removed: list[Path] = []
    for folder in (keys_folder(data_dir), data_dir / "network"):
        removed += _remove_temporaries(folder, _KEPT_TEMPORARY, STALE_S, log)
    return removed


def _remove_temporaries(folder: Path, pattern: re.Pattern[str], min_age: float,
                        log: Callable[[str], None]) -> list[Path]:
    """Remove the files of `folder` named by `pattern` and at least `min_age`
    seconds old (never a link or a folder); one log line each."""
    removed: list[Path] = []
    now = time.time()
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return removed
    for entry in entries:
        if not pattern.match(entry.name) or not entry.is_file(follow_symlinks=False):
            continue
        try:
            if min_age and now - entry.stat(follow_symlinks=False).st_mtime < min_age:
                continue
            os.unlink(entry.path)
        except OSError:
            continue
        removed.append(Path(entry.path))
        log(f"{entry.path}: the temporary file of a save that was interrupted; removed")
    return removed


def beam_folder() -> tempfile.TemporaryDirectory[str]:
    """A private folder for one accepted plugin, named with this process's id so
    that a later start can tell it is stale once the process is gone."""
    return tempfile.TemporaryDirectory(prefix=f"{BEAM_PREFIX}{os.getpid()}-")


def clean_beam_folders(log: Callable[[str], None], root: Path | None = None) -> list[Path]:
    """Remove the private folders of installs that were killed (see the module's note)."""
    root = Path(root or tempfile.gettempdir())
    removed: list[Path] = []
    try:
        entries = list(os.scandir(root))
    except OSError:
        return removed
    now = time.time()
    for entry in entries:
        found = _BEAM_FOLDER.match(entry.name)
        if found is None or not entry.is_dir(follow_symlinks=False):
            continue
        try:
            info = entry.stat(follow_symlinks=False)
            if hasattr(os, "getuid") and info.st_uid != os.getuid():
                continue
            pid = found.group(1)
            if pid is None or os.name != "posix":  # no process to ask: only an old one
                if now - info.st_mtime < STALE_S:
                    continue
            elif int(pid) == os.getpid() or _alive(int(pid)):
                continue
            inside = list(os.scandir(entry.path))
            if len(inside) > 1 or any(not f.is_file(follow_symlinks=False) for f in inside):
                continue  # not only the one file we put there: not ours to remove
            for file in inside:
                os.unlink(file.path)
            os.rmdir(entry.path)
        except (OSError, ValueError):
            continue
        removed.append(Path(entry.path))
        log(f"{entry.path}: left by an install that was interrupted; removed")
    return removed


def _alive(pid: int) -> bool:
    if pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OSError):
        return True  # it exists (another user's), or we cannot tell: keep it
    return True
