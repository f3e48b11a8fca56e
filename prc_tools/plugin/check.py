"""Plugin databases read and checked: `read_info` parses and checks a plugin's
'pINF', and `verify` checks that everything in a database decodes (and, for a
plugin, that it follows its game's schema).
"""

from __future__ import annotations

from prc_tools import bitmap
from prc_tools.database import Database
from prc_tools.errors import PluginError, PrcError
from prc_tools.plugin.pinf import INFO_ID, INFO_TYPE, check_fields, decode, find
from prc_tools.plugin.pinf import read as read_header
from prc_tools.plugin_words import KINDS
from prc_tools.safeyaml import brief

# Not `from typing import TYPE_CHECKING`: typing costs a quick command 3 ms to load.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from prc_tools.plugin.pinf import Header
    from prc_tools.schema import Registry, Schema
    from prc_tools.schema.codes import GameCodes


WARNING = "warning: "  # verify's lines about what is allowed but probably unmeant

# ---------------------------------------------------------------- plugin info


def read_info(db: Database, schemas: Registry | None = None) -> dict[str, Any]:
    """The parsed and checked 'pINF' of a plugin database (defaults filled in).

    PluginError if absent or bad. The database's codes are not compared with
    its game's schema here (`verify` does that), so `info` shows any plugin.
    `schemas` defaults to the installed ones.
    """
    data = find(db)
    if data is None:
        raise PluginError(f"no '{INFO_TYPE}' id {INFO_ID} resource: not a plugin")
    if schemas is None:
        from prc_tools.schema import registry

        schemas = registry()
    return check_fields(decode(data), schemas).fields


# ---------------------------------------------------------------- verifying


def may_be_plugin(db: Database, codes: GameCodes) -> bool:
    """Whether `verify` may read `db` as a plugin, and so needs the schemas: it has a
    'pINF', or a game's codes."""
    return find(db) is not None or codes.serve(db.creator, db.type)


def verify(
    db: Database,
    decoded: dict[int, list[bitmap.Member]] | None = None,
    schemas: Registry | None = None,
) -> list[str]:
    """Check every bitmap decodes and every 'wave' reads (plus 'pINF' for plugins).

    Returns one line per resource (and lines starting with WARNING for what builds
    but looks wrong: a tile bigger than its cell); raises PrcError naming the first
    bad one.
    A plugin of a game with a schema (`schemas`, default the installed ones)
    must also carry that game's codes and required resources.
    `decoded`, when given, receives the decoded members of every 'Tbmp' by id,
    so a caller that draws them does not decode them a second time.
    """
    if schemas is None:
        from prc_tools.schema import registry

        schemas = registry()
    lines: list[str] = []
    plugin = find(db) is not None or _coded_as_plugin(db, schemas)
    if plugin:
        header = read_header(db, schemas)
        lines.append(f"pINF {INFO_ID}: {header.game} {header.kind} plugin {brief(header.name)}")
        schema = schemas.get(header.game)
        if schema is not None:
            lines += [f"{WARNING}{line}" for line in _check_rules(db, schema, header)]
    if not db.resources:
        return lines  # records: nothing more to read (nor the resource-type table to load)
    from prc_tools.plugin.resources import Checking, handler_for

    checking = Checking(plugin, bitmap.DecodeBudget(), decoded)  # one budget for the database
    for res in db.resources:
        where = f"{res.type} {res.id}"
        try:
            line = handler_for(res.type, res.id).verify(res, checking)
        except PrcError as exc:
            raise type(exc)(f"{where}: {exc}") from None
        if line is not None:
            lines.append(f"{where}: {line}")
    return lines


def _check_rules(db: Database, schema: Schema, header: Header) -> list[str]:
    """What the plugin's game requires of it: its resources, and the sizes of its
    bitmaps, read from the members' headers first (a tile the size of a wall is
    refused before a single pixel of it is decoded)."""
    from prc_tools.plugin.resources import SOUNDS, handler_for
    from prc_tools.schema.requirements import check_database

    sounds = {res.id for res in db.resources if handler_for(res.type, res.id) is SOUNDS}
    return check_database(schema, header.kind, header.cell, _member_headers(db), sounds,
                          header.configs)


def _coded_as_plugin(db: Database, schemas: Registry) -> bool:
    """Whether `db` carries a game's creator and its type for a kind every game's plugins
    have (board, pieces, sound): then a missing 'pINF' is an error. A game's own kind
    (levels, say) may be plain data without one (docs/plugin-format.md)."""
    schema = schemas.by_codes(db.creator, db.type)
    return schema is not None and any(schema.types.get(kind) == db.type for kind in KINDS)


def _member_headers(db: Database) -> dict[int, list[bitmap.Header]]:
    """Each game bitmap family's member headers (the first of an id, as db.resource
    finds it)."""
    from prc_tools.plugin.resources import BITMAPS

    found: dict[int, list[bitmap.Header]] = {}
    for res in db.resources:
        if res.type == BITMAPS.game_type and res.id not in found:
            try:
                found[res.id] = bitmap.member_headers(res.data)
            except PrcError as exc:
                raise type(exc)(f"{res.type} {res.id}: {exc}") from None
    return found
