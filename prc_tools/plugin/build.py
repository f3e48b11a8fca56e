"""Plugin folders (manifest.yaml + PNG + WAV) <-> plugin databases.

`build_folder` makes the database a folder describes (docs/plugin-format.md),
`read_info` parses and checks a plugin's 'pINF', and `verify` checks that
everything in a database decodes. The way back, database to folder, is in
prc_tools/plugin/extract.py.
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Callable
from pathlib import Path

from prc_tools import bitmap, safeyaml
from prc_tools.database import ATTR_RESOURCE, Database, Record, Resource
from prc_tools.errors import PluginError, PrcError
from prc_tools.plugin.pinf import INFO_ID, INFO_TYPE

# What only building needs is imported there, and the schemas where they are
# read: `info` of a database that is no plugin never loads them.

# Not `from typing import TYPE_CHECKING`: typing costs a quick command 3 ms to load.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from datetime import datetime
    from typing import Any

    from PIL import Image

    from prc_tools.plugin.folder import FolderFiles
    from prc_tools.plugin.manifest import BitmapSpec, Manifest
    from prc_tools.schema import Registry

Progress = Callable[[int, int], None]
Warn = Callable[[str], None]
STALE_AFTER_S = 2.0  # a member picture this much older than its main picture is stale
MemberKey = tuple[int, int]  # (density, depth)

WAVE_TYPE = "wave"


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
    from prc_tools import sound
    from prc_tools.plugin.manifest import load, load_text
    from prc_tools.plugin.manifest_exact import apply_header, in_order
    from prc_tools.schema.requirements import check_folder_ids

    held = files.manifest_text()
    manifest = load(files.folder, schemas) if held is None else load_text(*held, schemas)
    if manifest.schema is not None and manifest.kind is not None:
        check_folder_ids(
            manifest.schema, manifest.kind,
            {spec.id for spec in manifest.bitmaps if spec.type == "Tbmp"},
            {spec.id for spec in manifest.sounds}, manifest.path,
        )
    total = (len(manifest.bitmaps) + len(manifest.sounds) + len(manifest.resources)
             + len(manifest.records))
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
    for spec in manifest.bitmaps:
        add(spec.type, spec.id, _build_bitmap(files, manifest, spec, warn))
        step()
    for sound_spec in manifest.sounds:
        path = files.folder / sound_spec.file
        data = files.read(sound_spec.file)
        try:
            wave = sound.convert(data, sound_spec.rate, sound_spec.bits)
        except PrcError as exc:
            raise PluginError(f"{path}: {exc}") from None
        add(WAVE_TYPE, sound_spec.id, wave)
        step()
    for raw in manifest.resources:
        add(raw.type, raw.id, files.read(raw.file))
        step()
    if manifest.header.order:
        keys = [(res.type, res.id) for res in db.resources]
        db.resources = in_order(db.resources, keys, manifest.header.order)
    return db


def _check_sources(files: FolderFiles, manifest: Manifest) -> None:
    """Before any slow work: no resource twice, and every file named is there."""
    seen: dict[tuple[str, int], str] = {}
    if manifest.info is not None:
        seen[(INFO_TYPE, INFO_ID)] = "the plugin info"
    items = (
        [(s.type, s.id, s.file) for s in manifest.bitmaps]
        + [(WAVE_TYPE, s.id, s.file) for s in manifest.sounds]
        + [(r.type, r.id, r.file) for r in manifest.resources]
    )
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


def _build_bitmap(files: FolderFiles, manifest: Manifest, spec: BitmapSpec,
                  warn: Warn | None = None) -> bytes:
    from PIL import Image

    from prc_tools.bitmap import splice

    path = files.folder / spec.file
    image = files.png(spec.file)
    if spec.size is not None and image.size != spec.size:
        image = image.resize(spec.size, Image.Resampling.LANCZOS)
    _check_bitmap_size(manifest, spec, image, path)
    members = {key: files.png(name) for key, name in spec.members.items()}
    if warn is not None:
        for message in stale_members(files.folder, spec, image, members):
            warn(message)
    try:
        if spec.original is not None:
            original = files.read(spec.original)
            return splice.rebuild(original, image, members, spec.encodings, spec.dither,
                                         files.decoded(spec.original))
        return encode_bitmap(image, spec, members)
    except PrcError as exc:
        raise PluginError(f"{path}: {exc}") from None


def stale_members(folder: Path, spec: BitmapSpec, image: Image.Image,
                  members: dict[MemberKey, Image.Image]) -> list[str]:
    """Why low-density member pictures (the 160x160 screen's) may not show what the main
    picture now does: unchanged since `extract` although the main one was edited, or
    (in a folder without the original bytes) older than the main picture."""
    from prc_tools.bitmap import splice
    from prc_tools.plugin.sources import read_source

    top = max(spec.densities)
    low = {key: name for key, name in spec.members.items() if key[0] < top}
    if not low:
        return []
    main = folder / spec.file
    stale: dict[str, str] = {}
    if spec.original is not None:
        try:
            original = {(m.density, m.depth): m for m in bitmap.decode(
                read_source(folder, spec.original))}
        except PrcError:
            return []
        first = max(original.values(), key=lambda m: (m.density, m.depth))
        if first.image.size == image.size and splice.visible_pixels(
                first.image) == splice.visible_pixels(image):
            return []  # the main picture is as extracted
        for key, name in low.items():
            was = original.get(key)
            if was is not None and splice.visible_pixels(
                    was.image) == splice.visible_pixels(members[key]):
                stale[name] = f"was not edited although {main} was"
    else:
        main_time = main.stat().st_mtime
        for name in low.values():
            if (folder / name).stat().st_mtime < main_time - STALE_AFTER_S:
                stale[name] = f"is older than {main}"
    return [f"{folder / name}: {why}: this low-density member (what a 160x160"
            " screen shows) keeps the old picture; edit it too, or drop it from the bitmap's"
            " members so that build derives it from the main picture"
            for name, why in stale.items()]


def encode_bitmap(
    image: Image.Image, spec: BitmapSpec, members: dict[MemberKey, Image.Image] | None = None
) -> bytes:
    """A bitmap family as `spec` asks, with optional exact pictures for single members."""
    return bitmap.encode_family(
        image,
        densities=spec.densities,
        depths=spec.depths,
        compression=spec.compression,
        dither=spec.dither,
        members=members,
        version=spec.version,
        encodings=spec.encodings,
    )


def _check_bitmap_size(
    manifest: Manifest, spec: BitmapSpec, image: Image.Image, path: Path
) -> None:
    from prc_tools.schema.requirements import check_picture_size

    if manifest.schema is None or manifest.kind is None or spec.type != "Tbmp":
        return
    cell = manifest.info.get("cell") if manifest.info is not None else None
    check_picture_size(manifest.schema, manifest.kind, spec.id,
                       tuple(cell) if isinstance(cell, list) else None, image.size, path)
