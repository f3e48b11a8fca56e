"""The levels the player can choose: the bundled Levels database and the installed ones.

The device hands over raw data (its bundled data databases and the files
`palmish install` put on it); this module reads them with the engine's level
reader. An installed level shadows a bundled one of the same id; a bad file
is one line in `problems`, never a failure.
"""

from __future__ import annotations

from collections.abc import Iterable

from palmish.sigmar.level import (
    LEVEL_SUFFIX,
    LevelEntry,
    LevelError,
    ResourceLike,
    level_id_of,
    levels_from_resources,
    merge_levels,
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
