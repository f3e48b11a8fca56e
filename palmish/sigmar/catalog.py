"""The levels the player can choose: the bundled Levels database and the installed ones,
and the hexagonal garden's (its bundled `.hgl` levels and the installed ones).

The device hands over raw data (its bundled data databases and the files
`palmish install` put on it); this module reads them with the engines' level
readers. An installed level shadows a bundled one of the same id in its garden
(level 3 of the square garden and level 3 of the hexagon are two levels); a bad
file is one line in `problems`, never a failure. A level of either garden in
such a list is a `LevelEntry`, so this module sits above both gardens' level
readers (level.py, hexagonal/level.py), which know nothing of each other's.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import NamedTuple, Protocol

from palmish.sigmar.hexagonal.level import LEVEL_SUFFIX as HEX_SUFFIX
from palmish.sigmar.hexagonal.level import HexLevel, bundled_levels, parse_hex_level
from palmish.sigmar.level import (
    LEVEL_RESOURCE_TYPE,
    LEVEL_SUFFIX,
    Level,
    LevelError,
    level_id_of,
    level_sort_key,
    normalize_level_id,
    parse_level,
    read_level,
)
from prc_tools import Database, PrcError

DATABASE_SUFFIXES = (".prc", ".pdb")


class LevelEntry(NamedTuple):
    """One level the player can choose: its id, where it comes from and the parsed board."""

    id: str
    source: str
    level: Level | HexLevel  # a `.dat` board, or a `.hgl` one of the hexagonal garden
    file: str | None = None  # the installed file it comes from (None: bundled)

    @property
    def name(self) -> str:
        return self.level.name


def cleared_key(entry: LevelEntry) -> str:
    """What the cleared list keeps for a level: a bundled level's id; an installed
    level's id with a digest of its board, so a level installed over a cleared one of
    the same number is not cleared (and the bundled one keeps its star when it comes
    back)."""
    if entry.file is None:
        return entry.id
    import hashlib

    digest = hashlib.sha256(entry.level.text().encode("utf-8")).hexdigest()[:12]
    return f"{entry.id}#{digest}"


class ResourceLike(Protocol):
    """What a Palm resource offers (prc_tools.Resource fits; no import needed here)."""

    @property
    def type(self) -> str: ...
    @property
    def id(self) -> int: ...
    @property
    def data(self) -> bytes: ...


def levels_from_resources(
    resources: Iterable[ResourceLike], source: str = "Levels"
) -> tuple[list[LevelEntry], list[str]]:
    """The levels of a Levels database (resource id = level number), and one line per bad one."""
    found: list[LevelEntry] = []
    problems: list[str] = []
    for res in resources:
        if res.type != LEVEL_RESOURCE_TYPE:
            continue
        where = f"{source} level {res.id}"
        try:
            found.append(LevelEntry(str(res.id), where, parse_level(res.data, where)))
        except LevelError as exc:
            problems.append(str(exc))
    found.sort(key=lambda e: level_sort_key(e.id))
    return found, problems


def levels_in_folder(folder: str | Path) -> tuple[list[LevelEntry], list[str]]:
    """The `.dat` levels of a folder (a boards/ folder), and one line per bad file."""
    found: list[LevelEntry] = []
    problems: list[str] = []
    root = Path(folder)
    if not root.is_dir():
        return found, [f"{root}: not a folder"]
    for path in sorted(root.iterdir()):
        level_id = level_id_of(path.name)
        if level_id is None or not path.is_file():
            continue
        try:
            found.append(LevelEntry(level_id, str(path), read_level(path)))
        except LevelError as exc:
            problems.append(str(exc))
    found.sort(key=lambda e: level_sort_key(e.id))
    return found, problems


def merge_levels(*groups: Iterable[LevelEntry]) -> list[LevelEntry]:
    """One list by id; a later group (installed levels) shadows an earlier one (bundled)."""
    by_id: dict[str, LevelEntry] = {}
    for group in groups:
        for entry in group:
            by_id[entry.id] = entry
    return sorted(by_id.values(), key=lambda e: level_sort_key(e.id))


def find_level(entries: Iterable[LevelEntry], level_id: str | int) -> LevelEntry:
    """The entry with that id; LevelError (one line) if there is none."""
    wanted = normalize_level_id(level_id)
    if wanted is None:
        raise LevelError("? is a random board, not a level")
    for entry in entries:
        if entry.id == wanted:
            return entry
    for entry in entries:  # a named level in any case: --board TEST opens test.dat
        if entry.id.casefold() == wanted.casefold():
            return entry
    raise LevelError(f"no level {wanted}")




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
