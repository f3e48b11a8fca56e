"""Plugin schemas: what each game's plugins are (codes, named ids, required resources).

prc_tools knows no game itself. A game ships a YAML schema (format in
docs/plugin-format.md, "Plugin schemas") and registers its path in the entry-point
group `prc_tools.plugin_schemas`; `prc-tools build/verify --schema FILE` adds
more. `registry()` is the process-wide set, loaded once.
"""

from __future__ import annotations

import functools
import importlib
import math
import os
import re
import sys
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from types import MappingProxyType

from prc_tools import safeyaml
from prc_tools.errors import PluginError
from prc_tools.files import FileProblem, read_regular
from prc_tools.frozen import Frozen, field
from prc_tools.plugin_words import KINDS, SLOTS
from prc_tools.safeyaml import brief
from prc_tools.schema.samples import Sample, parse_samples

# Not `from typing import TYPE_CHECKING`: typing costs a quick command 3 ms to load.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

ENTRY_POINT_GROUP = "prc_tools.plugin_schemas"
MAX_SCHEMA_BYTES = 1024 * 1024
_FIELDS = {"game", "title", "creator", "types", "configs", "bitmaps", "sounds", "required",
           "placeholders", "config_names", "one_cell_shape", "cell_sizes", "placeholder_names",
           "samples"}
_RULE_FIELDS = {"bitmaps", "sounds", "optional"}
_BITMAP_RULE_FIELDS = {"id", "count", "what", "cells", "size", "max_cells", "min_cells",
                       "usual_cells", "note", "like", "safe"}
_KEY = re.compile(r"[a-z][a-z0-9_]*\Z")


class SchemaError(PluginError):
    """A schema file that cannot be used; the message is one line naming the file."""


class BitmapRule(Frozen):
    """Bitmaps `id`..`id + count - 1` must exist; optionally at a fixed or cell-based size."""

    id: int
    count: int = 1
    name: str | None = None  # the schema's name for `id`, if it has one
    what: str | None = None  # how messages call it ("the board", "tiles")
    cells: tuple[int, int] | None = None  # size = cells x the plugin's cell (144 dpi)
    size: tuple[int, int] | None = None  # a fixed size in 144-dpi pixels
    # At most this many of the plugin's cells each way: a size the game can draw,
    # checked from a member's header before its pixels are decoded.
    max_cells: tuple[int, int] | None = None
    # At least this many cells each way: a smaller picture leaves gaps between cells.
    min_cells: tuple[int, int] | None = None
    # The size the game's own art has (cells each way); another size within the bounds
    # builds with a warning (a tile bigger than its cell overhangs its neighbours).
    usual_cells: tuple[int, int] | None = None
    # For optional art: what the game does without it (said at build time).
    note: str | None = None
    # Picture n is the `n`-th of the run at this id seen another way (a locked atom):
    # named after it in messages, templates and `extract`.
    like: int | None = None
    # Where the game draws over the picture: insets (left, top, right, bottom) at
    # 144 dpi of the area that stays seen (templates outline it).
    safe: tuple[int, int, int, int] | None = None

    def label(self) -> str:
        if self.what is not None:
            return self.what
        return f"'{self.name}'" if self.name is not None else f"Tbmp {self.id}"


class SoundRule(Frozen):
    """A 'wave' resource that must exist."""

    id: int
    name: str | None = None


class KindRules(Frozen):
    """What build and verify insist on for one kind of plugin."""

    bitmaps: tuple[BitmapRule, ...] = ()
    sounds: tuple[SoundRule, ...] = ()
    # Pictures the game uses when they are there, checked for size when they are.
    optional: tuple[BitmapRule, ...] = ()


_NO_RULES = KindRules()


class Schema(Frozen):
    """One game's plugins, as its schema file describes them."""

    game: str
    title: str
    creator: str
    types: Mapping[str, str]  # kind -> database type
    configs: tuple[str, ...]  # display slots its plugins may serve
    bitmaps: Mapping[str, int]  # names a manifest may use for bitmap ids
    sounds: Mapping[str, int]  # names a manifest may use for sound ids
    required: Mapping[str, KindRules] = field(default_factory=dict)
    # Pattern placeholders, most significant first: {a: 6, b: 6} -> n = 6*a + b.
    placeholders: Mapping[str, int] = field(default_factory=dict)
    # What each placeholder value means, in messages and file names: {colour: [red, ...]}.
    placeholder_names: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    # A Board or Pieces plugin serving this slot carries this word in its name.
    config_names: Mapping[str, str] = field(default_factory=dict)
    # True: the cell has one shape in every slot, so a Board or Pieces plugin may serve
    # portrait and wide slots at once (a game whose cells are square, say).
    one_cell_shape: bool = False
    # The cell (144-dpi pixels) the game draws in each display slot: a Board or Pieces
    # plugin's `cell` must be this for every slot it serves.
    cell_sizes: Mapping[str, tuple[int, int]] = field(default_factory=dict)
    # Kinds whose resources are data (levels), with the sample files `prc-tools new`
    # copies into a new folder (schema/samples.py).
    samples: Mapping[str, Sample] = field(default_factory=dict)
    source: str = ""  # the file it came from, for messages

    @property
    def kinds(self) -> tuple[str, ...]:
        """The kinds a manifest of this game may name: the generic ones and its own."""
        return (*KINDS, *(k for k in self.types if k not in KINDS))

    def data_kind(self, type_: str) -> str | None:
        """The kind whose type code `type_` is when that kind is the game's own data
        (levels, say: no board, pieces or sound plugin), else None."""
        return next((k for k, code in self.types.items() if code == type_ and k not in KINDS),
                    None)

    def rules(self, kind: str | None) -> KindRules:
        return self.required.get(kind, _NO_RULES) if kind is not None else _NO_RULES

    def placeholder_values(self, n: int) -> dict[str, int]:
        """Index `n` split into the placeholders' digits: {colour: 1, shape: 1} for 7.

        The first (most significant) one is not wrapped, so it keeps counting past the end.
        """
        names = list(self.placeholders)
        values: dict[str, int] = {}
        for name in reversed(names[1:]):
            values[name] = n % self.placeholders[name]
            n //= self.placeholders[name]
        if names:
            values[names[0]] = n
        return {name: values[name] for name in names}

    @property
    def placeholder_count(self) -> int:
        return math.prod(self.placeholders.values()) if self.placeholders else 0


# ---------------------------------------------------------------- reading


class _Check:
    def __init__(self, source: str) -> None:
        self.source = source

    def fail(self, where: str, problem: str) -> SchemaError:
        return SchemaError(f"{self.source}: {where}: {problem}")

    def mapping(self, value: Any, where: str, allowed: set[str] | None = None) -> dict[str, Any]:
        if not isinstance(value, dict) or not all(isinstance(k, str) for k in value):
            raise self.fail(where, "must be a mapping of name: value")
        if allowed is not None:
            unknown = sorted(k for k in value if k not in allowed)
            if unknown:
                raise self.fail(where, f"unknown field {brief(unknown[0])}")
        return value

    def text(self, value: Any, where: str) -> str:
        if not isinstance(value, str) or not value.strip():
            raise self.fail(where, "must be a non-empty text")
        return value

    def key(self, value: Any, where: str) -> str:
        if not isinstance(value, str) or not _KEY.match(value):
            raise self.fail(
                where, f"{brief(value)} must be a lower-case name like board or four_way"
            )
        return value

    def code(self, value: Any, where: str) -> str:
        if not isinstance(value, str) or len(value) != 4 or any(ord(c) > 255 for c in value):
            raise self.fail(where, f"must be a four-character code, not {brief(value)}")
        return value

    def integer(self, value: Any, where: str, low: int, high: int) -> int:
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise self.fail(where, f"must be an integer in {low}..{high}, not {brief(value)}")
        return value

    def pair(self, value: Any, where: str) -> tuple[int, int]:
        if not isinstance(value, list) or len(value) != 2:
            raise self.fail(where, "must be a list of two integers, e.g. [12, 8]")
        return self.integer(value[0], where, 1, 4096), self.integer(value[1], where, 1, 4096)

    def ids(self, value: Any, where: str) -> dict[str, int]:
        table = self.mapping(value, where)
        return {self.key(k, where): self.integer(v, f"{where}.{k}", 0, 0xFFFF)
                for k, v in table.items()}


def parse(document: Any, source: str) -> Schema:
    """A checked Schema from a YAML document; SchemaError naming `source` if it is not one."""
    check = _Check(source)
    top = check.mapping(document, "top level", _FIELDS)
    for needed in ("game", "creator", "types"):
        if needed not in top:
            raise check.fail(needed, "missing")
    game = check.key(top["game"], "game")
    types = {check.key(k, "types"): check.code(v, f"types.{k}")
             for k, v in check.mapping(top["types"], "types").items()}
    configs = top.get("configs", list(SLOTS))
    if (not isinstance(configs, list) or not configs
            or any(c not in SLOTS for c in configs) or len(set(configs)) != len(configs)):
        raise check.fail("configs", f"must be a list of {', '.join(SLOTS)}, each once")
    bitmaps = check.ids(top.get("bitmaps", {}), "bitmaps")
    sounds = check.ids(top.get("sounds", {}), "sounds")
    placeholders = {check.key(k, "placeholders"): check.integer(v, f"placeholders.{k}", 2, 256)
                    for k, v in check.mapping(top.get("placeholders", {}),
                                              "placeholders").items()}
    if "n" in placeholders:
        raise check.fail("placeholders", "'n' is the built-in placeholder")
    config_names = {}
    for slot, word in check.mapping(top.get("config_names", {}), "config_names").items():
        if slot not in configs:
            raise check.fail("config_names", f"{brief(slot)} is not one of the configs")
        config_names[slot] = check.text(word, f"config_names.{slot}")
    required = {}
    for kind, rules in check.mapping(top.get("required", {}), "required").items():
        if kind not in types:
            raise check.fail("required", f"{brief(kind)} is not one of the types' kinds")
        required[kind] = _kind_rules(check, rules, f"required.{kind}", bitmaps, sounds)
    placeholder_names = {}
    for key, words in check.mapping(top.get("placeholder_names", {}),
                                    "placeholder_names").items():
        if key not in placeholders:
            raise check.fail("placeholder_names", f"{brief(key)} is not one of the placeholders")
        if (not isinstance(words, list) or len(words) != placeholders[key]
                or len(set(map(str, words))) != len(words)):
            raise check.fail(f"placeholder_names.{key}",
                             f"must be a list of {placeholders[key]} different names")
        placeholder_names[key] = tuple(check.key(w, f"placeholder_names.{key}") for w in words)
    cell_sizes = {}
    for slot, size in check.mapping(top.get("cell_sizes", {}), "cell_sizes").items():
        if slot not in configs:
            raise check.fail("cell_sizes", f"{brief(slot)} is not one of the configs")
        cell_sizes[slot] = check.pair(size, f"cell_sizes.{slot}")
    samples = parse_samples(top.get("samples", {}), types, required, source, check.fail)
    return Schema(
        game=game,
        title=check.text(top.get("title", game), "title"),
        creator=check.code(top["creator"], "creator"),
        types=MappingProxyType(types),
        configs=tuple(configs),
        bitmaps=MappingProxyType(bitmaps),
        sounds=MappingProxyType(sounds),
        required=MappingProxyType(required),
        placeholders=MappingProxyType(placeholders),
        config_names=MappingProxyType(config_names),
        one_cell_shape=_flag(check, top.get("one_cell_shape", False), "one_cell_shape"),
        cell_sizes=MappingProxyType(cell_sizes),
        placeholder_names=MappingProxyType(placeholder_names),
        samples=MappingProxyType(samples),
        source=source,
    )


def _resolve(
    check: _Check, value: Any, where: str, names: Mapping[str, int]
) -> tuple[int, str | None]:
    if isinstance(value, str):
        if value not in names:
            raise check.fail(where, f"unknown name {brief(value)}")
        return names[value], value
    number = check.integer(value, where, 0, 0xFFFF)
    return number, next((k for k, v in names.items() if v == number), None)


def _kind_rules(
    check: _Check, value: Any, where: str, bitmaps: Mapping[str, int], sounds: Mapping[str, int]
) -> KindRules:
    table = check.mapping(value, where, _RULE_FIELDS)
    bitmap_rules = _bitmap_rules(check, table.get("bitmaps", []), f"{where}.bitmaps", bitmaps)
    optional = _bitmap_rules(check, table.get("optional", []), f"{where}.optional", bitmaps)
    sound_rules = [
        SoundRule(*_resolve(check, entry, f"{where}.sounds[{index}]", sounds))
        for index, entry in enumerate(_list(check, table.get("sounds", []), f"{where}.sounds"))
    ]
    return KindRules(bitmap_rules, tuple(sound_rules), optional)


def _bitmap_rules(
    check: _Check, value: Any, where: str, bitmaps: Mapping[str, int]
) -> tuple[BitmapRule, ...]:
    rules = []
    for index, entry in enumerate(_list(check, value, where)):
        at = f"{where}[{index}]"
        rule = check.mapping(entry, at, _BITMAP_RULE_FIELDS)
        if "id" not in rule:
            raise check.fail(f"{at}.id", "missing")
        id_, name = _resolve(check, rule["id"], f"{at}.id", bitmaps)
        count = check.integer(rule.get("count", 1), f"{at}.count", 1, 0x10000 - id_)
        if "cells" in rule and "size" in rule:
            raise check.fail(at, "gives cells or size, not both")

        def pair(key: str, at: str = at, rule: dict[str, Any] = rule) -> tuple[int, int] | None:
            return check.pair(rule[key], f"{at}.{key}") if key in rule else None

        rules.append(BitmapRule(
            id=id_, count=count, name=name,
            what=check.text(rule["what"], f"{at}.what") if "what" in rule else None,
            cells=pair("cells"), size=pair("size"), max_cells=pair("max_cells"),
            min_cells=pair("min_cells"), usual_cells=pair("usual_cells"),
            note=check.text(rule["note"], f"{at}.note") if "note" in rule else None,
            like=_resolve(check, rule["like"], f"{at}.like", bitmaps)[0] if "like" in rule
            else None,
            safe=_insets(check, rule["safe"], f"{at}.safe") if "safe" in rule else None,
        ))
    return tuple(rules)


def _insets(check: _Check, value: Any, where: str) -> tuple[int, int, int, int]:
    if not isinstance(value, list) or len(value) != 4:
        raise check.fail(where, "must be a list of four integers: left, top, right, bottom")
    left, top, right, bottom = (check.integer(v, where, 0, 4096) for v in value)
    return left, top, right, bottom


def _flag(check: _Check, value: Any, where: str) -> bool:
    if not isinstance(value, bool):
        raise check.fail(where, "must be true or false")
    return value


def _list(check: _Check, value: Any, where: str) -> list[Any]:
    if not isinstance(value, list):
        raise check.fail(where, "must be a list")
    return value


@functools.cache
def _load_resolved(path: Path) -> Schema:
    return parse(_read_document(path), str(path))


def _read_document(path: Path) -> Any:
    try:
        data = read_regular(path, MAX_SCHEMA_BYTES)
    except FileProblem as exc:
        raise SchemaError(f"{path}: cannot read the schema: {exc}") from None
    try:
        document = safeyaml.load(data, MAX_SCHEMA_BYTES)
    except safeyaml.YamlError as exc:
        raise SchemaError(f"{path}: {exc}") from None
    return document


def load_file(path: str | os.PathLike[str]) -> Schema:
    """The schema in a YAML file (read once per process); SchemaError if it is not one."""
    resolved = Path(path).resolve()
    return _PRELOADED.get(resolved) or _load_resolved(resolved)


# Schemas whose YAML a caller had already parsed (see `preload`), by resolved path.
_PRELOADED: dict[Path, Schema] = {}


def preload(path: str | os.PathLike[str], document: Any) -> Schema:
    """Give `load_file(path)` the file's YAML document, parsed earlier by the caller.

    For a caller that keeps the documents of unchanged schema files (the
    emulator's start needs no YAML parser then). The document is checked as if
    just read; SchemaError if it is not a schema.
    """
    resolved = Path(path).resolve()
    schema = parse(document, str(resolved))
    _PRELOADED[resolved] = schema
    return schema


def read_document(path: str | os.PathLike[str]) -> Any:
    """A schema file's YAML document, unchecked (for a caller to keep; see `preload`)."""
    return _read_document(Path(path).resolve())


# ---------------------------------------------------------------- the registry


class Registry:
    """Schemas by game key, each game at most once."""

    def __init__(self, schemas: Iterable[Schema] = ()) -> None:
        self._by_game: dict[str, Schema] = {}
        for schema in schemas:
            other = self._by_game.get(schema.game)
            if other is not None and other != schema:
                raise SchemaError(f"{schema.source}: game {schema.game!r} is already"
                                  f" described by {other.source}")
            self._by_game[schema.game] = schema

    def get(self, game: str | None) -> Schema | None:
        return self._by_game.get(game) if game is not None else None

    def games(self) -> tuple[str, ...]:
        return tuple(sorted(self._by_game))

    def __iter__(self) -> Iterator[Schema]:
        return iter([self._by_game[g] for g in self.games()])

    def by_codes(self, creator: str, type_: str) -> Schema | None:
        """The game whose creator and plugin types these codes are, if any."""
        for schema in self._by_game.values():
            if schema.creator == creator and type_ in schema.types.values():
                return schema
        return None

    def with_files(self, paths: Iterable[str | os.PathLike[str]]) -> Registry:
        """A copy with these schema files added; a file replaces its game's installed schema."""
        extra = Registry(load_file(p) for p in paths)
        kept = [s for s in self if extra.get(s.game) is None]
        return Registry([*kept, *extra])


def from_entry_points() -> Registry:
    """The schemas installed packages register in the group `prc_tools.plugin_schemas`."""
    schemas = []
    for name, value in entry_points(ENTRY_POINT_GROUP):
        where = f"entry point {name} ({value})"
        try:
            target = _load_entry_point(value)
        except Exception as exc:  # an installed package's import error: name it, one line
            raise SchemaError(f"{where}: cannot load: {exc}") from None
        if not isinstance(target, (str, os.PathLike)):
            raise SchemaError(f"{where}: gives {type(target).__name__}, not a schema file path")
        schema = load_file(target)
        if schema.game != name:
            raise SchemaError(f"{schema.source}: game {schema.game!r} is registered under"
                              f" the entry point name {name!r}")
        schemas.append(schema)
    return Registry(schemas)


def entry_points(group: str) -> list[tuple[str, str]]:
    """(name, value) of each entry point in `group`, as importlib.metadata finds them."""
    return [(name, value) for name, value, _ in entry_point_sources(group)]


def entry_point_sources(group: str) -> list[tuple[str, str, Path]]:
    """(name, value, the `entry_points.txt` it is in) of each entry point in `group`.

    Read here from the distributions' `entry_points.txt` (each sys.path folder's
    `*.dist-info` and `*.egg-info`; a distribution on the path twice counts once,
    the first), because importing importlib.metadata costs 10 to 30 ms, most of
    a `prc-tools verify` (tests/prc_tools/test_schema.py compares the two).
    Read once per process for a path and working folder: `verify` needs them both
    for the kept codes' stamp (schema.codes) and for the registry, a few ms each.
    """
    try:
        here: str | None = os.getcwd()  # what '' and relative folders on the path mean
    except OSError:
        here = None
    return list(_entry_point_sources(group, tuple(sys.path), here))


@functools.lru_cache(maxsize=8)
def _entry_point_sources(
    group: str, path: tuple[str, ...], here: str | None
) -> tuple[tuple[str, str, Path], ...]:
    found: list[tuple[str, str, Path]] = []
    seen: set[str] = set()
    for folder in path:
        try:
            names = sorted(os.listdir(folder or "."))
        except OSError:  # gone, not a folder, or a zip file
            continue
        for entry in names:
            stem, dot, suffix = entry.rpartition(".")
            if not dot or suffix not in ("dist-info", "egg-info"):
                continue
            distribution = _normalized(stem.partition("-")[0])
            if distribution in seen:
                continue
            seen.add(distribution)
            try:
                with open(os.path.join(folder or ".", entry, "entry_points.txt"),
                          encoding="utf-8") as file:
                    text = file.read()
            except OSError:  # a distribution without entry points
                continue
            if group in text:  # else no section of the group (most distributions)
                source = Path(folder or ".", entry, "entry_points.txt")
                found.extend((name, value, source)
                             for name, value in _group_entries(text, group))
    return tuple(found)


def _normalized(name: str) -> str:
    """A distribution's name as the packaging rules compare them: runs of -, _ and .
    as one _, lower case (without `re`, whose compiling is a quick command's time)."""
    name = name.translate(_SEPARATORS)
    while "__" in name:
        name = name.replace("__", "_")
    return name.lower()


_SEPARATORS = str.maketrans("-.", "__")


def _group_entries(text: str, group: str) -> Iterator[tuple[str, str]]:
    """The `name = value` lines of the INI section `[group]`."""
    section = None
    for line in text.splitlines():
        line = line.strip()
        if not line or line[0] in "#;":
            continue
        if line[0] == "[" and line[-1] == "]":
            section = line[1:-1].strip()
        elif section == group and "=" in line:
            name, _, value = line.partition("=")
            yield name.strip(), value.partition("[")[0].strip()  # extras do not matter here


def _load_entry_point(value: str) -> object:
    """What `module:attribute.path` names (the module imported)."""
    module, _, attributes = value.partition(":")
    target: object = importlib.import_module(module.strip())
    for attribute in filter(None, attributes.strip().split(".")):
        target = getattr(target, attribute)
    return target


# Schema files a program added for this process (`add_file`), besides the installed ones.
_ADDED: list[Path] = []


def add_file(path: str | os.PathLike[str]) -> None:
    """Add a schema file to `registry()` for this process: for a program that knows a
    game no installed package registers (as `--schema FILE` does for one command).
    It replaces an installed schema of the same game; SchemaError if it is not one."""
    load_file(path)
    _ADDED.append(Path(path).resolve())
    registry.cache_clear()


def remove_file(path: str | os.PathLike[str]) -> None:
    """Take back a file `add_file` added (nothing if it was not added)."""
    resolved = Path(path).resolve()
    _ADDED[:] = [p for p in _ADDED if p != resolved]
    registry.cache_clear()


@functools.lru_cache(maxsize=1)
def registry() -> Registry:
    """The installed schemas and those added (`add_file`), loaded once per process."""
    installed = from_entry_points()
    return installed.with_files(_ADDED) if _ADDED else installed


def added_files() -> tuple[Path, ...]:
    """The schema files `add_file` added to this process's registry."""
    return tuple(_ADDED)


def find(game: str | None) -> Schema | None:
    """The installed schema of `game`, or None."""
    return registry().get(game)
