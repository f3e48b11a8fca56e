"""The plugin folder's manifest.yaml: parsed and checked into plain specs.

docs/plugin-format.md is the user-facing description of every field here.
Every problem is a PluginError whose message starts with the manifest's path.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from prc_tools import safeyaml
from prc_tools.bitmap.encoding import MemberEncoding, compressions
from prc_tools.bitmap.header import DENSITIES, DEPTHS
from prc_tools.errors import PluginError
from prc_tools.files import FileProblem, inside, read_regular
from prc_tools.frozen import Frozen, field
from prc_tools.plugin.field_checks import FieldChecker, listed
from prc_tools.plugin.manifest_exact import (
    HEADER_FIELDS,
    VERSIONS,
    HeaderSpec,
    parse_header,
    parse_member,
)
from prc_tools.plugin.pinf import (
    ANCHOR_KINDS,
    GRID_KINDS,
    HeaderError,
    check_codes,
    check_fields,
)
from prc_tools.plugin.resource_codes import (
    BITMAP_TYPES,
    BITMAPS_SECTION,
    RESOURCES_SECTION,
    SOUND_TYPE,
    SOUNDS_SECTION,
)
from prc_tools.plugin_words import KINDS, SLOTS
from prc_tools.safeyaml import brief
from prc_tools.schema import Registry, Schema, registry
from prc_tools.sound import BITS, RATES

MANIFEST_NAMES = ("manifest.yaml", "manifest.yml")
DEFAULT_IF_NAMED = "default_if_named"  # info: NAME -> `default: true` while the name is NAME
CONFIGS = SLOTS  # the display slots a plugin may serve
# Room for 65,535 resources listed one by one (what `extract` can write); see
# docs/plugin-format.md, "Limits".
MAX_MANIFEST_BYTES = 16 * 1024 * 1024

_TOP_FIELDS = {
    "name", "game", "kind", "version", "author", "configs", "cell", "anchor", "lifted_anchor",
    "type", "creator", "attributes", "info", "defaults", "bitmaps", "sounds", "resources",
    "records", "app_info", "sort_info",
}
_TOP_FIELDS |= HEADER_FIELDS  # what an exact rebuild needs (manifest_exact)
_BITMAP_FIELDS = {
    "file", "pattern", "count", "id", "type", "densities", "depths", "compression", "dither",
    "size", "members", "version", "original",
}
_DEFAULT_FIELDS = {"densities", "depths", "compression", "dither", "version"}
_SOUND_FIELDS = {"file", "id", "rate", "bits"}
_RESOURCE_FIELDS = {"file", "type", "id"}
_RECORD_FIELDS = {"file", "attributes", "unique_id"}


class BitmapSpec(Frozen):
    """One bitmap family to build: its source picture(s) and how to encode it."""

    file: str
    type: str
    id: int
    densities: tuple[int, ...]
    depths: tuple[int, ...]
    compression: str
    dither: bool
    size: tuple[int, int] | None = None
    members: Mapping[tuple[int, int], str] = field(default_factory=dict)  # (density, depth)
    version: int | None = None  # None: each member's lowest possible version
    original: str | None = None  # the bitmap as extracted: unedited members are kept from it
    encodings: Mapping[tuple[int, int], MemberEncoding] = field(default_factory=dict)


class SoundSpec(Frozen):
    file: str
    id: int
    rate: int | None
    bits: int | None
    type: str = SOUND_TYPE


class RawSpec(Frozen):
    file: str
    type: str
    id: int


class RecordSpec(Frozen):
    file: str
    attributes: int
    unique_id: int


class Manifest(Frozen):
    """A checked manifest. `info` is the pINF mapping (None for a plain database)."""

    path: Path
    name: str
    type: str
    creator: str
    version: int
    attributes: int
    info: dict[str, Any] | None
    game: str | None  # the `game:` key, with or without an installed schema
    schema: Schema | None  # that game's schema, when one is installed
    kind: str | None
    bitmaps: list[BitmapSpec]
    sounds: list[SoundSpec]
    resources: list[RawSpec]
    records: list[RecordSpec]
    app_info: str | None
    sort_info: str | None
    is_records: bool  # a record database: the manifest has records/app_info/sort_info
    header: HeaderSpec = field(default_factory=HeaderSpec)

    def entries(self, section: str) -> list[BitmapSpec] | list[SoundSpec] | list[RawSpec]:
        """The entries of one of the manifest's resource lists (a resource type's `section`)."""
        lists: dict[str, list[BitmapSpec] | list[SoundSpec] | list[RawSpec]] = {
            BITMAPS_SECTION: self.bitmaps, SOUNDS_SECTION: self.sounds,
            RESOURCES_SECTION: self.resources}
        return lists[section]


def find_manifest(folder: Path) -> Path:
    if not folder.is_dir():
        raise PluginError(f"{folder}: not a folder")
    for name in MANIFEST_NAMES:
        candidate = folder / name
        if candidate.is_file():
            return candidate
    try:
        empty = next(folder.iterdir(), None) is None
    except OSError:
        empty = False
    if empty:  # emptied, say, while `palmish preview` watches it
        raise PluginError(f"{folder}: an empty folder: no manifest.yaml (prc-tools new"
                          " GAME KIND FOLDER makes a folder that builds)")
    raise PluginError(f"{folder}: no manifest.yaml in this folder")


def load(folder: Path, schemas: Registry | None = None) -> Manifest:
    """Read and check the manifest of a plugin folder (schemas: default the installed ones)."""
    path = find_manifest(folder)
    try:
        data = read_regular(inside(folder, path.name), MAX_MANIFEST_BYTES)
    except FileProblem as exc:
        raise PluginError(f"{path}: {exc}") from None
    return load_text(data, path, schemas)


def load_text(data: str | bytes, path: Path, schemas: Registry | None = None) -> Manifest:
    """Check a manifest's text; `path` is where it is (or will be), for messages."""
    try:
        document = safeyaml.load(data, MAX_MANIFEST_BYTES)
    except safeyaml.YamlError as exc:
        raise PluginError(f"{path}: {exc}") from None
    return parse(document, path, schemas)


def parse(document: Any, path: Path, schemas: Registry | None = None) -> Manifest:
    check = FieldChecker(path)
    schemas = registry() if schemas is None else schemas
    if document is None:
        raise PluginError(f"{path}: the manifest is empty")
    top = check.mapping(document, "top level", _TOP_FIELDS)
    if "name" not in top:
        raise check.fail("name", "missing (the plugin's name, at most 31 bytes)")
    # An empty name only with the whole name field given (as `extract` writes it).
    empty_ok = top.get("name") == "" and "name_field" in (top.get("layout") or {})
    name = "" if empty_ok else check.text(top["name"], "name")

    game: str | None = None
    schema: Schema | None = None
    kind: str | None = None
    if "game" in top or "kind" in top:
        if "game" not in top:
            raise check.fail("game", f"missing (one of {listed(schemas.games())})")
        if "kind" not in top:
            raise check.fail("kind", f"missing (one of {listed(KINDS)})")
        game = check.text(top["game"], "game")
        schema = schemas.get(game)
        kind = check.choice(top["kind"], "kind", schema.kinds if schema else KINDS)

    type_ = top.get("type") or (schema.types.get(kind) if schema and kind else None)
    creator = top.get("creator") or (schema.creator if schema else None)
    for field_name, value in (("type", type_), ("creator", creator)):
        if value is None and game is not None and schema is None:
            raise check.fail(field_name, f"missing ({brief(game)} is not one of the games with an"
                             f" installed schema: {listed(schemas.games()) or 'none'};"
                             " give type: and creator:, or --schema FILE)")
        if value is None:
            raise check.fail(field_name, "missing (needed when no game schema gives it)")
    type_ = check.code(type_, "type")
    creator = check.code(creator, "creator")
    version = check.integer(top.get("version", 1), "version", 0, 0xFFFF)
    attributes = check.integer(top.get("attributes", 0), "attributes", 0, 0xFFFF)

    info: dict[str, Any] | None = None
    configs: tuple[str, ...] = CONFIGS
    if game is not None and kind is not None:
        info, configs = _plugin_info(check, top, game, kind, name, version,
                                      schema.configs if schema else CONFIGS)
        try:  # the same checks verify and the device make on the finished header
            header = check_fields(info, schemas)
            check_codes(header, type_, creator, schemas)
        except HeaderError as exc:
            raise check.fail(exc.field, exc.problem) from None

    defaults = check.mapping(top.get("defaults", {}), "defaults", _DEFAULT_FIELDS)
    sound_ids = schema.sounds if schema else {}
    bitmaps: list[BitmapSpec] = []
    for index, entry in enumerate(_entries(check, top, "bitmaps")):
        bitmaps.extend(_bitmap_specs(check, entry, f"bitmaps[{index}]", defaults, configs,
                                     schema))
    sounds = [
        _sound_spec(check, entry, f"sounds[{index}]", sound_ids)
        for index, entry in enumerate(_entries(check, top, "sounds"))
    ]
    resources = [
        _raw_spec(check, entry, f"resources[{index}]")
        for index, entry in enumerate(_entries(check, top, "resources"))
    ]
    records = [
        _record_spec(check, entry, f"records[{index}]")
        for index, entry in enumerate(_entries(check, top, "records"))
    ]
    app_info = check.file(top["app_info"], "app_info") if "app_info" in top else None
    sort_info = check.file(top["sort_info"], "sort_info") if "sort_info" in top else None
    manifest = Manifest(
        path=path, name=name, type=type_, creator=creator, version=version,
        attributes=attributes, info=info, game=game, schema=schema, kind=kind, bitmaps=bitmaps,
        sounds=sounds, resources=resources, records=records, app_info=app_info,
        sort_info=sort_info,
        # Attribute 0x0001 makes a resource database even with appInfo/sortInfo.
        is_records=any(key in top for key in ("records", "app_info", "sort_info"))
        and not attributes & 0x0001,
        header=parse_header(check, top),
    )
    if manifest.is_records and (bitmaps or sounds or resources or info is not None):
        raise check.fail("records", "a database holds records or resources, not both")
    if attributes & 0x0001 and "records" in top:
        raise check.fail("records", "attribute 0x0001 makes a resource database: no records")
    return manifest


def _entries(check: FieldChecker, top: dict[str, Any], key: str) -> list[Any]:
    value = top.get(key, [])
    if value is None:
        return []
    if not isinstance(value, list):
        raise check.fail(key, "must be a list")
    return value


def _plugin_info(
    check: FieldChecker, top: dict[str, Any], game: str, kind: str, name: str, version: int,
    all_configs: tuple[str, ...],
) -> tuple[dict[str, Any], tuple[str, ...]]:
    """The header `build` writes; its rules are checked afterwards by pinf.check_fields."""
    if "author" not in top:
        raise check.fail("author", "missing (who made this plugin)")
    author = check.text(top["author"], "author")
    if "configs" in top:
        configs: tuple[str, ...] = check.choices(top["configs"], "configs", CONFIGS)
    elif kind not in GRID_KINDS:
        configs = all_configs  # sounds and the like fit every slot the game has
    else:
        raise check.fail("configs", f"missing (any of {listed(CONFIGS)})")
    info: dict[str, Any] = {
        "game": game, "kind": kind, "name": name, "version": version, "author": author,
        "configs": list(configs),
    }
    if kind in GRID_KINDS:
        if "cell" not in top:
            raise check.fail("cell", "missing (the cell size in 144-dpi pixels, e.g. [24, 40])")
        info["cell"] = list(check.pair(top["cell"], "cell", 1, 1000))
    if kind in ANCHOR_KINDS:
        anchor = check.pair(top.get("anchor", [0, 0]), "anchor", -1000, 1000)
        info["anchor"] = list(anchor)
        info["lifted_anchor"] = list(
            check.pair(top.get("lifted_anchor", list(anchor)), "lifted_anchor", -1000, 1000)
        )
    else:
        for key in ("anchor", "lifted_anchor"):
            if key in top:
                raise check.fail(key, "only Pieces plugins have anchors")
    if kind not in GRID_KINDS and "cell" in top:
        raise check.fail("cell", f"{kind} plugins have no cell size (only board and pieces)")
    extra = top.get("info", {})
    if not isinstance(extra, dict) or not all(isinstance(k, str) for k in extra):
        raise check.fail("info", "must be a mapping of field: value")
    info.update(extra)
    if DEFAULT_IF_NAMED in info:
        # `extract` writes a bundled default plugin's `default: true` this way: it holds
        # (in its place) only while the name stays, so a renamed remix is no default.
        kept = info[DEFAULT_IF_NAMED] == name
        info = {("default" if k == DEFAULT_IF_NAMED else k): (True if k == DEFAULT_IF_NAMED else v)
                for k, v in info.items() if k != DEFAULT_IF_NAMED or kept}
    return info, configs


def _resource_id(check: FieldChecker, value: Any, where: str, names: Mapping[str, int]) -> int:
    if isinstance(value, str):
        if value not in names:
            known = listed(tuple(names)) if names else "none for this game"
            raise check.fail(where, f"unknown resource name {brief(value)} (known: {known})")
        return names[value]
    return check.integer(value, where, 0, 0xFFFF)


def _bitmap_specs(
    check: FieldChecker,
    value: Any,
    where: str,
    defaults: dict[str, Any],
    configs: tuple[str, ...],
    schema: Schema | None,
) -> list[BitmapSpec]:
    entry = check.mapping(value, where, _BITMAP_FIELDS)
    names = schema.bitmaps if schema else {}
    settings = {**defaults, **entry}
    if "id" not in entry:
        raise check.fail(f"{where}.id", "missing (a number or a name like 'board')")
    base_id = _resource_id(check, entry["id"], f"{where}.id", names)
    type_ = check.choice(entry.get("type", BITMAP_TYPES[0]), f"{where}.type", BITMAP_TYPES)
    default_densities = [144, 72] if "square" in configs else [144]
    densities = tuple(
        sorted(check.choices(settings.get("densities", default_densities),
                             f"{where}.densities", DENSITIES), reverse=True)
    )
    depths = tuple(
        sorted(check.choices(settings.get("depths", [16, 8]), f"{where}.depths", DEPTHS),
               reverse=True)
    )
    compression = check.choice(settings.get("compression", "best"), f"{where}.compression",
                               compressions())
    dither = check.flag(settings.get("dither", False), f"{where}.dither")
    version = None
    if "version" in settings:
        version = check.choice(settings["version"], f"{where}.version", VERSIONS)
    size = check.pair(entry["size"], f"{where}.size", 1, 4096) if "size" in entry else None
    members: dict[tuple[int, int], str] = {}
    encodings: dict[tuple[int, int], MemberEncoding] = {}
    raw_members = entry.get("members", {})
    if not isinstance(raw_members, dict):
        raise check.fail(f"{where}.members", "must be a mapping like {\"72x8\": small.png}")
    for key, value in raw_members.items():
        member = _member_key(check, key, f"{where}.members")
        if member[0] not in densities or member[1] not in depths:
            raise check.fail(f"{where}.members", f"{brief(key)} is not one of the members built")
        file, encoding = parse_member(check, value, f"{where}.members.{key}",
                                      MemberEncoding(version, compression, False))
        if file is not None:
            members[member] = file
        if not isinstance(value, str):
            encodings[member] = encoding
    original = check.file(entry["original"], f"{where}.original") if "original" in entry else None

    if ("file" in entry) == ("pattern" in entry):
        raise check.fail(where, "needs either file or pattern")
    common = {"type": type_, "densities": densities, "depths": depths,
              "compression": compression, "dither": dither, "size": size, "version": version}
    if "file" in entry:
        if "count" in entry:
            raise check.fail(f"{where}.count", "goes with pattern, not file")
        file = check.file(entry["file"], f"{where}.file")
        return [BitmapSpec(file=file, id=base_id, members=members, original=original,
                           encodings=encodings, **common)]

    if members or encodings:
        raise check.fail(f"{where}.members", "goes with file, not pattern")
    if original is not None:
        raise check.fail(f"{where}.original", "goes with file, not pattern")
    pattern = check.file(entry["pattern"], f"{where}.pattern")
    fields = tuple(schema.placeholders) if schema else ()
    used = [f for f in fields if "{" + f + "}" in pattern]
    if "{n}" not in pattern and not used:
        also = f", or {' and '.join('{' + f + '}' for f in fields)}" if fields else ""
        raise check.fail(f"{where}.pattern", f"needs {{n}}{also}")
    if used and len(used) != len(fields) and "{n}" not in pattern:
        raise check.fail(f"{where}.pattern",
                         f"needs all of {' and '.join('{' + f + '}' for f in fields)}")
    if "count" in entry:
        count = check.integer(entry["count"], f"{where}.count", 1, 0x10000)
    elif used and schema is not None:
        count = schema.placeholder_count
    else:
        raise check.fail(f"{where}.count", "missing (how many files {n} numbers)")
    if base_id + count - 1 > 0xFFFF:
        raise check.fail(f"{where}.id", "the pattern's ids run past 65535")
    specs = []
    for n in range(count):
        file = pattern.replace("{n}", str(n))
        if schema is not None and used:
            for key, digit in schema.placeholder_values(n).items():
                file = file.replace("{" + key + "}", str(digit))
        specs.append(BitmapSpec(file=file, id=base_id + n, **common))
    return specs


def _member_key(check: FieldChecker, key: Any, where: str) -> tuple[int, int]:
    parts = str(key).lower().split("x")
    if len(parts) != 2 or not all(p.isdigit() for p in parts):
        raise check.fail(where, f"{brief(key)} must be density x depth, e.g. 72x8")
    return int(parts[0]), int(parts[1])


def _sound_spec(check: FieldChecker, value: Any, where: str, names: Mapping[str, int]) -> SoundSpec:
    entry = check.mapping(value, where, _SOUND_FIELDS)
    for key in ("file", "id"):
        if key not in entry:
            raise check.fail(f"{where}.{key}", "missing")
    rate = entry.get("rate")
    bits = entry.get("bits")
    return SoundSpec(
        file=check.file(entry["file"], f"{where}.file"),
        id=_resource_id(check, entry["id"], f"{where}.id", names),
        rate=None if rate is None else check.choice(rate, f"{where}.rate", RATES),
        bits=None if bits is None else check.choice(bits, f"{where}.bits", BITS),
    )


def _raw_spec(check: FieldChecker, value: Any, where: str) -> RawSpec:
    entry = check.mapping(value, where, _RESOURCE_FIELDS)
    for key in ("file", "type", "id"):
        if key not in entry:
            raise check.fail(f"{where}.{key}", "missing")
    return RawSpec(
        file=check.file(entry["file"], f"{where}.file"),
        type=check.code(entry["type"], f"{where}.type"),
        id=check.integer(entry["id"], f"{where}.id", 0, 0xFFFF),
    )


def _record_spec(check: FieldChecker, value: Any, where: str) -> RecordSpec:
    entry = check.mapping(value, where, _RECORD_FIELDS)
    if "file" not in entry:
        raise check.fail(f"{where}.file", "missing")
    return RecordSpec(
        file=check.file(entry["file"], f"{where}.file"),
        attributes=check.integer(entry.get("attributes", 0), f"{where}.attributes", 0, 0xFF),
        unique_id=check.integer(entry.get("unique_id", 0), f"{where}.unique_id", 0, 0xFF_FFFF),
    )
