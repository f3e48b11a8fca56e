"""The levels the player can choose: the bundled Levels database and the installed ones,
and the hexagonal garden's (its bundled `.hgl` levels and the installed ones).

The device hands over raw data (its bundled data databases and the files
`palmish install` put on it); this module reads them with the engines' level
readers. An installed level shadows a bundled one of the same id in its garden
(level 3 of the square garden and level 3 of the hexagon are two levels); a bad
file is one line in `problems`, never a failure.
"""

from __future__ import annotations

from collections.abc import Iterable

from palmish.sigmar.hexagonal.level import LEVEL_SUFFIX as HEX_SUFFIX
from palmish.sigmar.hexagonal.level import bundled_levels, parse_hex_level
from palmish.sigmar.level import (
    LEVEL_SUFFIX,
    LevelEntry,
    LevelError,
    ResourceLike,
    level_id_of,
    levels_from_resources,
    merge_levels,
    normalize_level_id,
    parse_level,
)
from prc_tools import Database, PrcError

DATABASE_SUFFIXES = (".prc", ".pdb")


def installed_levels(files: Iterable[tuple[str, bytes]]) -> tuple[list[LevelEntry], list[str]]:
    """The levels in installed files: `.dat` levels and Levels databases."""
    found: list[LevelEntry] = []
    problems: list[str] = []
    for name, data in files:
        lower = name.lower()
        if lower.endswith(LEVEL_SUFFIX):
            level_id = level_id_of(name)
            if level_id is None:
                continue
            try:
                found.append(LevelEntry(level_id, f"installed {name}",
                                        parse_level(data, f"installed {name}"), name))
            except LevelError as exc:
                problems.append(str(exc))
        elif lower.endswith(DATABASE_SUFFIXES):
            try:
                db = Database.read(data)
            except PrcError as exc:
                problems.append(f"installed {name}: {exc}")
                continue
            entries, bad = levels_from_resources(db.resources, f"installed {db.name}")
            found.extend(e._replace(file=name) for e in entries)
            problems.extend(bad)
    return merge_levels(found), problems


def hex_levels(files: Iterable[tuple[str, bytes]]) -> tuple[list[LevelEntry], list[str]]:
    """The hexagonal garden's levels: the bundled ones shadowed by installed `.hgl` files."""
    bundled = [LevelEntry(level_id, f"hexagonal level {level_id}", level)
               for level_id, level in bundled_levels()]
    found: list[LevelEntry] = []
    problems: list[str] = []
    for name, data in files:
        if not name.lower().endswith(HEX_SUFFIX):
            continue
        try:
            level_id = normalize_level_id(name[: -len(HEX_SUFFIX)])
        except LevelError:
            continue
        if level_id is None:
            continue
        try:
            found.append(LevelEntry(level_id, f"installed {name}",
                                    parse_hex_level(data, f"installed {name}"), name))
        except LevelError as exc:
            problems.append(str(exc))
    return merge_levels(bundled, found), problems


def all_levels(bundled: Iterable[Iterable[ResourceLike]],
               files: Iterable[tuple[str, bytes]]) -> tuple[list[LevelEntry], list[str]]:
    """Bundled levels (each item: one database's resources) shadowed by installed ones."""
    entries: list[LevelEntry] = []
    problems: list[str] = []
    for resources in bundled:
        found, bad = levels_from_resources(resources)
        entries.extend(found)
        problems.extend(bad)
    mine, bad = installed_levels(files)
    return merge_levels(entries, mine), problems + bad
