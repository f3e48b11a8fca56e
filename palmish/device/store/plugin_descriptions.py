"""What each plugin header declared, kept across runs: cache/plugin-descriptions.json.

Describing a plugin (plugins.describe) parses its 'pINF' YAML and checks it
against the installed game schemas; the schema registry reads the entry-point
group through importlib.metadata. Together that was ~40 ms of every start,
spent on headers that had not changed. So a description is kept under the
header's own content (resource flag, type, creator and the 'pINF' bytes: all
that `describe` reads) together with the size and modification time of the
schema file its game was checked against:

- a changed header is another key, so it is described afresh;
- a changed (or removed) schema file makes the entries checked against it stale;
- a header whose game has no schema is not kept (installing the schema later
  could change the verdict, and nothing cheap would notice);
- only usable plugins are kept: a broken one is described, and reported, each time;
- a missing, damaged or foreign file (another format or palmish version, a
  flipped bit: the file is sealed with a checksum by palmish.device.disk.kept) is
  ignored, and rewritten once something new was described.

Where the plugin lives (path, bundled) is not part of a description: the caller
gives it. Which files passed the load-time structure check (every bitmap's
member headers read) is kept by path, size and mtime, so an unchanged file is
not checked again. The parsed YAML document of each schema file used is kept too, under
the same stamp: `preload_schemas` hands the unchanged ones to prc_tools.schema,
so a game importing its schema needs no YAML parser either. The file is
derived data; deleting it only costs one slower start.
"""

from __future__ import annotations

import base64
import contextlib
import json
import os
from pathlib import Path

from palmish.device.disk import kept as kept_file
from palmish.device.store.info import PluginInfo
from prc_tools import Database

FILE_NAME = "plugin-descriptions.json"
FORMAT = 2
SOURCE = [FILE_NAME, FORMAT]  # what the kept file is made from, for palmish.device.disk.kept
MAX_BYTES = 16 * 1024 * 1024
INFO_TYPE = "pINF"
_TEXTS = ("name", "game", "kind", "author")

SchemaStamp = tuple[str, int, int]  # schema file, size, mtime_ns


def header_key(db: Database) -> str | None:
    """The key of a database's header: everything `describe` looks at. None: no 'pINF'."""
    res = db.resource(INFO_TYPE, 0) if db.is_resource else None
    if res is None:
        return None
    codes = f"{db.type.encode('latin-1').hex()}{db.creator.encode('latin-1').hex()}"
    return f"{codes}:{base64.b64encode(bytes(res.data)).decode('ascii')}"


def schema_stamp(source: str) -> SchemaStamp | None:
    """The schema file's size and time now, None when it cannot be statted."""
    try:
        stat = os.stat(source)
    except OSError:
        return None
    return (source, stat.st_size, stat.st_mtime_ns)


class DescriptionCache:
    """Plugin descriptions by header key; see the module docstring."""

    def __init__(self, folder: Path) -> None:
        self.path = folder / FILE_NAME
        self._entries: dict[str, dict[str, object]] | None = None
        self._schemas: dict[str, dict[str, object]] = {}  # schema file -> stamp, document
        self._checked: dict[str, object] = {}  # plugin file -> [size, mtime_ns] checked
        self._used: set[str] = set()  # keys asked for or added in this process
        self._dirty = False
        self._stamps: dict[str, SchemaStamp | None] = {}  # schema files statted once a run
        self.hits = 0  # for tests and benchmarks

    def get(self, db: Database, path: Path, bundled: bool) -> PluginInfo | None:
        """The kept description of `db` at `path`, or None (describe it, then `put`)."""
        key = header_key(db)
        if key is None:
            return None
        self._used.add(key)
        raw = self._load().get(key)
        if raw is None:
            return None
        stamp = raw.get("schema")
        if not isinstance(stamp, list) or len(stamp) != 3 or not isinstance(stamp[0], str):
            return None
        if list(self._stamp(stamp[0]) or ()) != stamp:
            return None  # the schema changed since: describe again
        info = _info(raw.get("info"), db, path, bundled)
        if info is not None:
            self.hits += 1
        return info

    def put(self, db: Database, info: PluginInfo, schema_source: str | None) -> None:
        """Keep a fresh description (checked against the schema file `schema_source`)."""
        key = header_key(db)
        stamp = self._stamp(schema_source) if schema_source is not None else None
        if key is None or stamp is None:
            return
        fields = dict(info.fields)
        try:
            same = json.loads(json.dumps(fields)) == fields
        except (TypeError, ValueError):
            same = False
        if not same:
            return  # a value JSON would not give back as it is (not from plain YAML)
        if stamp[0] not in self._schemas:
            self._keep_schema(stamp)
        self._load()[key] = {
            "schema": list(stamp),
            "info": {"name": info.name, "game": info.game, "kind": info.kind,
                     "configs": list(info.configs), "version": info.version,
                     "author": info.author, "default": info.default, "fields": fields},
        }
        self._used.add(key)
        self._dirty = True

    def checked(self, path: Path, stat: os.stat_result) -> bool:
        """Whether the file, as it is now, passed the structure check on an earlier run."""
        self._load()
        return self._checked.get(str(path)) == [stat.st_size, stat.st_mtime_ns]

    def mark_checked(self, path: Path, stat: os.stat_result) -> None:
        self._load()
        self._checked[str(path)] = [stat.st_size, stat.st_mtime_ns]
        self._dirty = True

    def preload_schemas(self) -> None:
        """Give prc_tools.schema the kept documents of the schema files still unchanged."""
        from prc_tools import PrcError, schema

        self._load()
        for source, kept in self._schemas.items():
            if kept.get("stamp") == list(self._stamp(source) or ()):
                with contextlib.suppress(PrcError):  # not a schema: read from its file later
                    schema.preload(source, kept.get("document"))

    def save(self) -> None:
        """Write the file if something was added; entries not used in this run are dropped."""
        if not self._dirty or self._entries is None:
            return
        kept = {k: v for k, v in self._entries.items() if k in self._used}
        used = {_schema_of(v) for v in kept.values()}
        schemas = {k: v for k, v in self._schemas.items() if k in used}
        checked = {k: v for k, v in self._checked.items() if os.path.exists(k)}
        data = json.dumps({"headers": kept, "schemas": schemas, "checked": checked},
                          sort_keys=True).encode()
        kept_file.write(self.path, data, SOURCE)  # only a cache: unwritten costs a slower start
        self._dirty = False

    def _stamp(self, source: str) -> SchemaStamp | None:
        if source not in self._stamps:
            self._stamps[source] = schema_stamp(source)
        return self._stamps[source]

    def _keep_schema(self, stamp: SchemaStamp) -> None:
        """Keep the schema file's document (when JSON gives it back as it is)."""
        from prc_tools import PrcError, schema

        try:
            document = schema.read_document(stamp[0])
            same = json.loads(json.dumps(document)) == document
        except (PrcError, TypeError, ValueError):
            return
        if same:
            self._schemas[stamp[0]] = {"stamp": list(stamp), "document": document}

    def _load(self) -> dict[str, dict[str, object]]:
        if self._entries is None:
            self._entries, self._schemas, self._checked = _read(self.path)
        return self._entries


Table = dict[str, dict[str, object]]


def _read(path: Path) -> tuple[Table, Table, dict[str, object]]:
    """The kept headers, schema documents and checked files; empty when unusable."""
    raw = kept_file.read_json(path, SOURCE, MAX_BYTES)
    if raw is None:
        return {}, {}, {}  # none yet, or damaged: every header is described once
    tables = []
    for name in ("headers", "schemas"):
        table = raw.get(name)
        table = table if isinstance(table, dict) else {}
        tables.append({k: v for k, v in table.items()
                       if isinstance(k, str) and isinstance(v, dict)})
    checked = raw.get("checked")
    checked = dict(checked) if isinstance(checked, dict) else {}
    return tables[0], tables[1], checked


def _schema_of(entry: dict[str, object]) -> str | None:
    stamp = entry.get("schema")
    return stamp[0] if isinstance(stamp, list) and stamp and isinstance(stamp[0], str) else None


def _info(raw: object, db: Database, path: Path, bundled: bool) -> PluginInfo | None:
    """The PluginInfo a kept entry gives, None if any field is not what it should be."""
    if not isinstance(raw, dict) or set(raw) != {*_TEXTS, "configs", "version", "default",
                                                  "fields"}:
        return None
    name, game, kind, author = (raw[k] for k in _TEXTS)
    configs, version, default, fields = (raw[k] for k in ("configs", "version", "default",
                                                          "fields"))
    if not (isinstance(name, str) and isinstance(game, str) and isinstance(kind, str)
            and isinstance(author, str) and isinstance(configs, list)
            and all(isinstance(c, str) for c in configs)
            and isinstance(version, int) and not isinstance(version, bool)
            and isinstance(default, bool) and isinstance(fields, dict)):
        return None
    return PluginInfo(name=name, game=game, kind=kind, configs=tuple(configs), version=version,
                      author=author, creator=db.creator, db_type=db.type, path=path,
                      bundled=bundled, default=default, fields=fields)
