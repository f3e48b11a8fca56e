"""Plugin folders (manifest.yaml + PNG + WAV) -> plugin databases.

`build_folder` makes the database a folder describes (docs/plugin-format.md),
each resource by its type's handler (prc_tools/plugin/resources.py). Reading
a database back is in prc_tools/plugin/check.py (`read_info`, `verify`), the
way back to a folder in prc_tools/plugin/extract.py.
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Callable
from pathlib import Path

from prc_tools import safeyaml
from prc_tools.database import ATTR_RESOURCE, Database, Record, Resource
from prc_tools.errors import PluginError, PrcError
from prc_tools.plugin.pinf import INFO_ID, INFO_TYPE
from prc_tools.plugin.resources import BITMAPS, sections

# What only building needs is imported there, and the schemas where they are
# read: `info` of a database that is no plugin never loads them.

# Not `from typing import TYPE_CHECKING`: typing costs a quick command 3 ms to load.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from datetime import datetime
    from typing import Any

    from prc_tools.plugin.folder import FolderFiles
    from prc_tools.plugin.manifest import Manifest
    from prc_tools.schema import Registry

Progress = Callable[[int, int], None]
Warn = Callable[[str], None]


# ---------------------------------------------------------------- building


def build_folder(
    folder: Path, progress: Progress | None = None, schemas: Registry | None = None,
    warn: Warn | None = None,
) -> Database:
    """The database a plugin folder describes; PluginError naming the file on any problem.

    `progress(done, total)` is called after each picture, sound or file. `schemas`
    (default: the installed ones) gives each game's codes, names and required resources.
    `warn(message)` hears of low-density member pictures that no longer follow their
    main picture (`stale_members`); the build goes on.
    """
    from prc_tools.plugin.folder import FolderFiles
    from prc_tools.plugin.sources import new_build

    new_build()
    return build_files(FolderFiles(Path(folder)), progress, schemas, warn)


def build_files(
    files: FolderFiles, progress: Progress | None = None, schemas: Registry | None = None,
    warn: Warn | None = None,
) -> Database:
    """`build_folder` of a folder's files, on disk or (for `extract`'s check) in memory."""
    from prc_tools.plugin.manifest import load, load_text
    from prc_tools.plugin.manifest_exact import apply_header, in_order
    from prc_tools.schema.requirements import check_folder_ids, missing_optional, run_warnings

    held = files.manifest_text()
    manifest = load(files.folder, schemas) if held is None else load_text(*held, schemas)
    if manifest.schema is not None and manifest.kind is not None:
        game_bitmaps = {spec.id for spec in manifest.bitmaps if spec.type == BITMAPS.game_type}
        check_folder_ids(manifest.schema, manifest.kind, game_bitmaps,
                         {spec.id for spec in manifest.sounds}, manifest.path)
        for line in missing_optional(manifest.schema, manifest.kind, game_bitmaps):
            if warn is not None:
                warn(f"{manifest.path}: {line}")
    total = sum(len(manifest.entries(h.section)) for h in sections()) + len(manifest.records)
    done = 0

    def step() -> None:
        nonlocal done
        done += 1
        if progress is not None:
            progress(done, total)

    now = _build_time()
    db = Database(
        name=manifest.name,
        type=manifest.type,
        creator=manifest.creator,
        attributes=manifest.attributes | (0 if manifest.is_records else ATTR_RESOURCE),
        version=manifest.version,
    )
    apply_header(db, manifest.header, now)
    try:
        db.to_bytes()  # checks the name and codes before any slow work
    except PrcError as exc:
        raise PluginError(f"{manifest.path}: {exc}") from None

    if manifest.app_info is not None:
        db.app_info = files.read(manifest.app_info)
    if manifest.sort_info is not None:
        db.sort_info = files.read(manifest.sort_info)
    if manifest.is_records:
        for record in manifest.records:
            db.records.append(Record(files.read(record.file), record.attributes,
                                     record.unique_id))
            step()
        return db

    _check_sources(files, manifest)

    def add(type_: str, id_: int, data: bytes) -> None:
        db.resources.append(Resource(type_, id_, data))

    if manifest.info is not None:
        add(INFO_TYPE, INFO_ID, info_bytes(manifest.info))
    for handler in sections():  # bitmaps, sounds, then raw resources
        for entry in manifest.entries(handler.section):
            add(entry.type, entry.id, handler.build(files, manifest, entry, warn))
            step()
    if manifest.schema is not None and manifest.kind is not None and warn is not None:
        for line in run_warnings(manifest.schema, manifest.kind, files.sizes):
            warn(line)
    if manifest.header.order:
        keys = [(res.type, res.id) for res in db.resources]
        db.resources = in_order(db.resources, keys, manifest.header.order)
    return db


def _check_sources(files: FolderFiles, manifest: Manifest) -> None:
    """Before any slow work: no resource twice, and every file named is there."""
    seen: dict[tuple[str, int], str] = {}
    if manifest.info is not None:
        seen[(INFO_TYPE, INFO_ID)] = "the plugin info"
    items = [(entry.type, entry.id, entry.file)
             for handler in sections() for entry in manifest.entries(handler.section)]
    # A key twice is a mistake, unless both are raw resources and `order` lists it
    # twice too: some databases do hold a type and id more than once (`extract`).
    listed = Counter(manifest.header.order)
    raw = Counter((r.type, r.id) for r in manifest.resources)
    every = Counter((type_, id_) for type_, id_, _ in items)
    for type_, id_, source in items:
        key = (type_, id_)
        allowed = raw[key] == every[key] <= listed[key]
        if key in seen and not allowed:
            raise PluginError(
                f"{manifest.path}: {source} and {seen[key]} are both resource {type_} {id_}"
            )
        seen[key] = source
    names = [source for _, _, source in items]
    names += [name for spec in manifest.bitmaps for name in spec.members.values()]
    names += [spec.original for spec in manifest.bitmaps if spec.original is not None]
    for name in names:
        files.check(name)  # there, a regular file, and inside the folder


def info_bytes(info: dict[str, Any]) -> bytes:
    """The 'pINF' resource: the info mapping as UTF-8 YAML."""
    return yaml_text(info).encode("utf-8")


def yaml_text(data: Any) -> str:
    """YAML with readable non-ASCII text, escaped when that would not read back equal.

    (PyYAML's emitter mangles a few characters, such as U+0085, when it writes
    them unescaped.)
    """
    import yaml

    text = safeyaml.dump(data)
    # Only non-ASCII text can be mangled; skipping the check for pure ASCII
    # saves most of the time on big manifests (65,535 resources from `extract`).
    # libyaml when available: `extract` writes manifests of 65,535 entries.
    loader: Any = safeyaml.libyaml_or_python("SafeLoader")
    if not text.isascii() and yaml.load(text, Loader=loader) != data:
        text = safeyaml.dump(data, allow_unicode=False)
    return text


def _build_time() -> datetime:
    """Now, or SOURCE_DATE_EPOCH (reproducible builds) when set.

    Only for the dates a manifest does not give (manifest_exact.apply_header).
    """
    from datetime import datetime, timezone  # about 2 ms: not for `info` or `verify`

    epoch = os.environ.get("SOURCE_DATE_EPOCH", "")
    if epoch.isdigit():
        return datetime.fromtimestamp(int(epoch), timezone.utc).replace(tzinfo=None)
    return datetime.now().replace(microsecond=0)
