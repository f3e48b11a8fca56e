"""`WatchedFolder`: whether a plugin folder changed since its last build, by a cheap
scan of its files' names, sizes and modification times (no thread, no inotify: the
window's clock asks a few times a second, a scan of a plugin folder costs tens of
microseconds). A change is reported once the folder has stayed the same for one
more scan, so an editor that writes a file twice (or a folder copied in) gives one
build, not two."""

from __future__ import annotations

import os
from pathlib import Path

MOST_ENTRIES = 4000  # a folder of more is scanned only this far (a plugin has ~100 files)
Signature = tuple[tuple[str, int, int], ...]


# The signature of a folder that cannot be read (gone, say): not that of an empty
# one, so removing an emptied folder (or making it again) is a change too.
UNREADABLE: Signature = (("", -1, -1),)


def signature(folder: Path, suffix: str = "") -> Signature:
    """(relative path, size, mtime_ns) of every file under `folder` (whose name ends
    with `suffix`), sorted; UNREADABLE when the folder itself cannot be read."""
    found: list[tuple[str, int, int]] = []
    stack = [folder]
    while stack and len(found) < MOST_ENTRIES:
        here = stack.pop()
        try:
            with os.scandir(here) as entries:
                for entry in entries:
                    if entry.name.startswith("."):
                        continue  # editors' swap and lock files
                    if entry.is_dir(follow_symlinks=False):
                        stack.append(Path(entry.path))
                        continue
                    if not entry.name.endswith(suffix):
                        continue
                    try:
                        stat = entry.stat()
                    except OSError:
                        continue  # removed since it was listed
                    found.append((os.path.relpath(entry.path, folder), stat.st_size,
                                  stat.st_mtime_ns))
        except OSError:
            if here is folder:
                return UNREADABLE
            continue
    return tuple(sorted(found))


class WatchedFolder:
    def __init__(self, folder: Path, suffix: str = "") -> None:
        self.folder = folder
        self.suffix = suffix
        self._built: Signature | None = None  # what the last build saw
        self._seen: Signature | None = None  # the last scan

    def due(self) -> bool:
        """Scan once: True when the folder differs from the last build and did not
        change since the previous scan (the writes are over)."""
        now = signature(self.folder, self.suffix)
        settled = now == self._seen
        self._seen = now
        return settled and now != self._built

    def mark_built(self) -> None:
        """The folder as last scanned is what was just built (or tried)."""
        self._built = self._seen if self._seen is not None else signature(self.folder, self.suffix)
