"""The index of installed plugins: each .prc read once, then only when it changes.

With a thousand plugins installed, reading every database on every rescan
cost half a minute per Preferences visit. The index keeps, per file name,
the size and modification time it was read at plus what describing a plugin
needs (database name, type, creator, attributes and the raw 'pINF'); a
rescan lists the folder, stats each file and reads only new or changed
ones. It is saved as cache/installed-index.json (derived data, sealed with a
checksum by palmish.device.disk.kept: a damaged or deleted one only costs one full
rescan) so a restart does not read everything either.
"""

from __future__ import annotations

import base64
import binascii
import json
import math
import time
from pathlib import Path

from palmish.device.disk import kept
from palmish.device.disk.storage import Storage
from palmish.device.frozen import Frozen
from prc_tools import Database, Resource

INDEX_NAME = "installed-index.json"
INDEX_FORMAT = 2
INDEX_SOURCE = [INDEX_NAME, INDEX_FORMAT]  # what the kept file is made from (kept.py)
MAX_INDEX_BYTES = 64 * 1024 * 1024
INFO_TYPE = "pINF"
RESTAT_SECONDS = 1.0  # an unchanged folder is statted file by file at most this often


class _Entry(Frozen):
    """One indexed file: the size and time it was read at, and its header."""

    size: int
    mtime_ns: int
    name: str
    type: str
    creator: str
    attributes: int
    info: bytes | None  # the 'pINF' id 0 resource, None when absent

    def header(self) -> Database:
        """A database with only what `describe` looks at (no bitmaps or sounds)."""
        resources = [] if self.info is None else [Resource(INFO_TYPE, 0, self.info)]
        return Database(name=self.name, type=self.type, creator=self.creator,
                        attributes=self.attributes, resources=resources)

    def to_json(self) -> dict[str, object]:
        info = None if self.info is None else base64.b64encode(self.info).decode("ascii")
        return {"size": self.size, "mtime_ns": self.mtime_ns, "name": self.name,
                "type": self.type, "creator": self.creator, "attributes": self.attributes,
                "info": info}

    @staticmethod
    def from_json(raw: object) -> _Entry | None:
        if not isinstance(raw, dict):
            return None
        ints = [raw.get(k) for k in ("size", "mtime_ns", "attributes")]
        texts = [raw.get(k) for k in ("name", "type", "creator")]
        info = raw.get("info")
        if not all(isinstance(v, int) and not isinstance(v, bool) for v in ints):
            return None
        if not all(isinstance(v, str) for v in texts) or not isinstance(info, (str, type(None))):
            return None
        try:
            data = None if info is None else base64.b64decode(info, validate=True)
        except (binascii.Error, ValueError):
            return None
        size, mtime_ns, attributes = (int(v) for v in ints)  # type: ignore[arg-type]
        name, type_, creator = (str(v) for v in texts)
        return _Entry(size, mtime_ns, name, type_, creator, attributes, data)


class InstalledIndex:
    """Headers of the installed plugin databases, kept current by size and mtime."""

    def __init__(self, storage: Storage) -> None:
        self.storage = storage
        self._entries: dict[str, _Entry] | None = None
        self.reads = 0  # databases read (not served from the index), for tests and benchmarks
        self._listed: dict[str, tuple[_Entry, tuple[Path, int, Database]]] = {}
        self._folder_stamp: int | None = None
        self._checked_at = -math.inf

    def expire(self) -> None:
        """Stat every file at the next scan even if the folder looks unchanged."""
        self._checked_at = -math.inf

    @property
    def path(self) -> Path:
        return self.storage.cache_dir / INDEX_NAME

    def headers(self) -> list[tuple[Path, int, Database]]:
        """(path, mtime_ns, header database) of every installed .prc, by file name.

        A damaged file is moved aside by the storage as usual and left out.
        """
        if self._entries is None:
            self._entries = self._load()
        try:
            folder_stamp: int | None = self.storage.databases_dir.stat().st_mtime_ns
        except OSError:
            folder_stamp = None
        now = time.monotonic()
        if folder_stamp == self._folder_stamp and now - self._checked_at < RESTAT_SECONDS:
            # Nothing added, removed or replaced (installs rename into the folder,
            # which changes its time) and the files were statted a moment ago: an
            # app listing plugins many times while it builds one form pays once.
            return [listed for _, listed in self._listed.values()]
        self._folder_stamp, self._checked_at = folder_stamp, now
        current: dict[str, _Entry] = {}
        changed = False
        for path in self.storage.database_paths():
            if path.suffix.lower() != ".prc":
                continue
            try:
                stat = path.stat()
            except OSError:
                continue
            entry = self._entries.get(path.name)
            if entry is None or (entry.size, entry.mtime_ns) != (stat.st_size, stat.st_mtime_ns):
                entry = self._read(path, stat.st_size, stat.st_mtime_ns)
                changed = True
                if entry is None:
                    continue
            current[path.name] = entry
        if changed or current.keys() != self._entries.keys():
            self._entries = current
            self._save()
        folder = self.storage.databases_dir
        listed = {}
        for name, entry in sorted(current.items()):
            old = self._listed.get(name)
            same = old is not None and old[0] is entry
            listed[name] = old if same and old is not None else (
                entry, (folder / name, entry.mtime_ns, entry.header()))
        self._listed = listed
        return [item for _, item in listed.values()]

    def forget(self) -> None:
        """Drop the in-memory copy (the next scan reloads the saved index and checks it)."""
        self._entries = None
        self.expire()

    def _read(self, path: Path, size: int, mtime_ns: int) -> _Entry | None:
        self.reads += 1
        db = self.storage.read_database(path, then="plugin ignored")
        if db is None:
            return None
        res = db.resource(INFO_TYPE, 0) if db.is_resource else None
        return _Entry(size, mtime_ns, db.name, db.type, db.creator, db.attributes,
                      None if res is None else bytes(res.data))

    def _load(self) -> dict[str, _Entry]:
        raw = kept.read_json(self.path, INDEX_SOURCE, MAX_INDEX_BYTES)
        if raw is None:
            return {}  # no index yet, or a damaged one: every file is read once
        files = raw.get("files")
        if not isinstance(files, dict):
            return {}
        entries = {}
        for name, value in files.items():
            entry = _Entry.from_json(value)
            if entry is not None and "/" not in name and "\\" not in name:
                entries[name] = entry
        return entries

    def _save(self) -> None:
        assert self._entries is not None
        files = {name: entry.to_json() for name, entry in self._entries.items()}
        data = json.dumps({"files": files}, sort_keys=True).encode()
        kept.write(self.path, data, INDEX_SOURCE)  # only a cache: unwritten costs a rescan
