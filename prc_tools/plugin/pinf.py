"""The plugin header, resource 'pINF' id 0: parsed and checked here and only here.

`build` runs its generated header through `check_fields` and `check_codes`,
`verify` and the device read a database's with `read`, so all three agree on
what a plugin is. SLOTS, the one list of display slots a plugin may serve, and
KINDS, the kinds every game's plugins may have, are prc_tools/plugin_words.py's
(shared with the games' schemas); they are named here too.
"""

from __future__ import annotations

from collections.abc import Mapping

from prc_tools import safeyaml
from prc_tools.database import Database
from prc_tools.errors import PluginError
from prc_tools.frozen import Frozen, field
from prc_tools.plugin import plain_yaml
from prc_tools.plugin_words import KINDS, SLOTS
from prc_tools.safeyaml import brief

# Not `from typing import TYPE_CHECKING`: typing costs a quick command 3 ms to load.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from prc_tools.schema import Registry, Schema

INFO_TYPE = "pINF"
INFO_ID = 0
LANDSCAPE = ("wide",)  # cells there have another shape than in the portrait slots
GRID_KINDS = ("board", "pieces")  # drawn on the board's grid: they give a `cell`
ANCHOR_KINDS = ("pieces",)

MAX_INFO_BYTES = 64 * 1024  # a header is a few hundred bytes


class HeaderError(PluginError):
    """A header field that is wrong; `field` lets a manifest report it as its own field."""

    def __init__(self, field: str, problem: str, in_info: bool = True) -> None:
        super().__init__(f"'pINF' {field}: {problem}" if in_info else f"{field} {problem}")
        self.field = field
        self.problem = problem


class Header(Frozen):
    """A checked plugin header. `fields` is the whole mapping, defaults filled in."""

    game: str
    kind: str
    name: str
    version: int
    author: str
    configs: tuple[str, ...]
    cell: tuple[int, int] | None
    default: bool  # `default: true`: preferred among the bundled fallbacks
    fields: dict[str, Any] = field(compare=False)


def decode(data: bytes) -> dict[str, Any]:
    """The header's YAML mapping; PluginError if it is not UTF-8 YAML of a mapping.

    A header as `build` writes it is read without PyYAML (prc_tools/plugin/plain_yaml.py);
    PyYAML reads any other, and words every problem.
    """
    parsed = plain_yaml.read(data, MAX_INFO_BYTES)
    if parsed is not None:
        return parsed
    try:
        parsed = safeyaml.load(bytes(data), MAX_INFO_BYTES)
    except safeyaml.YamlError as exc:
        raise PluginError(f"'pINF' is not UTF-8 YAML: {exc}") from None
    if not isinstance(parsed, dict):
        found = type(parsed).__name__
        raise PluginError(f"'pINF' is not a YAML mapping: found a {found},"
                          " not a mapping of field: value")
    return {str(k): v for k, v in parsed.items()}


def check_fields(info: Mapping[str, Any], schemas: Registry | None = None) -> Header:
    """Check a header mapping (not changed); HeaderError naming the first bad field."""
    fields = dict(info)

    def text(key: str) -> str:
        value = fields.get(key)
        if not isinstance(value, str) or not value.strip():
            raise HeaderError(key, "missing or not a text")
        return value

    game = text("game")
    schema = schemas.get(game) if schemas is not None else None
    kinds = schema.kinds if schema is not None else KINDS
    kind = text("kind")
    if kind not in kinds:
        raise HeaderError("kind", f"unknown kind {brief(kind)} (one of {', '.join(kinds)})")
    name = text("name")
    version = fields.get("version")
    if isinstance(version, bool) or not isinstance(version, int) or version < 0:
        raise HeaderError("version", "missing or not a whole number")
    author = text("author")
    configs = fields.get("configs")
    if not isinstance(configs, list) or not configs or any(c not in SLOTS for c in configs):
        raise HeaderError("configs", f"{brief(configs)} is not a list of {', '.join(SLOTS)}")
    if len(set(configs)) != len(configs):
        raise HeaderError("configs", "lists a slot twice")
    if schema is not None:
        for slot in configs:
            if slot not in schema.configs:
                raise HeaderError("configs", f"{schema.title} plugins do not serve {brief(slot)}"
                                  f" (only {', '.join(schema.configs)})")
    for key in ("cell", "anchor", "lifted_anchor"):
        if key in fields:
            _pair(fields[key], key, positive=key == "cell")
    cell: tuple[int, int] | None = None
    if kind in GRID_KINDS:
        cell = _pair(fields.get("cell"), "cell", positive=True)
        _grid_rules(kind, name, tuple(configs), schema)
        _cell_rule(cell, tuple(configs), schema)
    if kind in ANCHOR_KINDS:
        fields.setdefault("anchor", [0, 0])
        fields.setdefault("lifted_anchor", list(fields["anchor"]))
    return Header(game=game, kind=kind, name=name, version=version, author=author,
                  configs=tuple(configs), cell=cell, default=fields.get("default") is True,
                  fields=fields)


def _grid_rules(kind: str, name: str, configs: tuple[str, ...], schema: Schema | None) -> None:
    """Board and Pieces art is drawn for one cell shape, so for one orientation (unless
    the game's cells have one shape everywhere)."""
    landscape = [c for c in configs if c in LANDSCAPE]
    one_shape = schema is not None and schema.one_cell_shape
    if landscape and len(landscape) != len(configs) and not one_shape:
        raise HeaderError("configs", f"a {landscape[0]} plugin cannot also serve"
                          f" {' or '.join(c for c in configs if c not in LANDSCAPE)}")
    if schema is None:
        return
    for slot, word in schema.config_names.items():
        if slot in configs and word not in name:
            raise HeaderError(
                "name", f"{brief(name)}: a {slot} plugin carries {brief(word)} in its name"
            )


def _cell_rule(cell: tuple[int, int], configs: tuple[str, ...], schema: Schema | None) -> None:
    """The cell is the one the game draws in every slot the plugin serves (its schema's
    `cell_sizes`): art drawn for another cell overhangs or leaves gaps on the device."""
    if schema is None or not schema.cell_sizes:
        return
    wrong = [slot for slot in configs if schema.cell_sizes.get(slot, cell) != cell]
    if not wrong:
        return
    want = schema.cell_sizes[wrong[0]]
    same = [s.title() for s in configs if schema.cell_sizes.get(s) == want]
    others = sorted({f"{w}x{h} in {s.title()}" for s, (w, h) in schema.cell_sizes.items()
                     if (w, h) != want})
    also = f" ({', '.join(others)})" if others else ""
    raise HeaderError("cell", f"[{cell[0]}, {cell[1]}], but {schema.title} cells are"
                      f" {want[0]}x{want[1]} in {' and '.join(same)}{also}:"
                      f" use cell: [{want[0]}, {want[1]}]")


def _pair(value: Any, key: str, positive: bool) -> tuple[int, int]:
    ok = (isinstance(value, list) and len(value) == 2
          and all(isinstance(v, int) and not isinstance(v, bool) for v in value)
          and (not positive or all(v > 0 for v in value)))
    if not ok:
        kind = "positive integers" if positive else "integers"
        raise HeaderError(key, f"missing or not a list of two {kind}")
    return value[0], value[1]


def check_codes(header: Header, type_: str, creator: str, schemas: Registry | None) -> None:
    """A plugin of a game with a schema carries that game's creator and type for its kind."""
    schema = schemas.get(header.game) if schemas is not None else None
    if schema is None:
        return
    if creator != schema.creator:
        raise HeaderError("creator", f"{creator!r} is not {schema.creator!r} of game"
                          f" {header.game}", in_info=False)
    want = schema.types.get(header.kind)
    if want is not None and type_ != want:
        raise HeaderError("type", f"{type_!r} is not {want!r} of a {header.game}"
                          f" {header.kind} plugin", in_info=False)


def find(db: Database) -> bytes | None:
    res = db.resource(INFO_TYPE, INFO_ID)
    return None if res is None else res.data


def read(db: Database, schemas: Registry | None = None) -> Header:
    """A database's checked header, codes included; PluginError (one line) if it has none."""
    if not db.is_resource:
        raise PluginError("not a resource database (a plugin is a .prc)")
    data = find(db)
    if data is None:
        raise PluginError(f"no '{INFO_TYPE}' id {INFO_ID} resource: not a plugin")
    header = check_fields(decode(data), schemas)
    check_codes(header, db.type, db.creator, schemas)
    return header
