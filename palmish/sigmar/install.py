"""`palmish install FILE` for Sigmar's Garden: a `.dat` level, a Levels database, or a
`.hgl` level of the hexagonal garden.

The file is checked with the engine's reader first; a bad one is one line and
nothing is installed. Installed levels live in the app's files folder on the
device, where the app reads them at start (palmish.sigmar.catalog).
"""

from __future__ import annotations

import time
from pathlib import Path

from palmish.device.disk.resources import GAME_PLUGINS
from palmish.sigmar import garden, solver
from palmish.sigmar.catalog import levels_from_resources, levels_in_folder
from palmish.sigmar.game import Game
from palmish.sigmar.hexagonal.game import HexGame
from palmish.sigmar.hexagonal.level import LEVEL_SUFFIX as HEX_SUFFIX
from palmish.sigmar.hexagonal.level import HexLevel, bundled_levels, parse_hex_level
from palmish.sigmar.level import (
    LEVEL_SUFFIX,
    LEVELS_DB_TYPE,
    MAX_FILE_BYTES,
    Level,
    LevelError,
    normalize_level_id,
    parse_level,
)
from palmish.sigmar.schema import SCHEMA
from palmish.sigmar.solver import SearchBudget
from prc_tools import Database, PrcError
from prc_tools.atomic import write_atomic
from prc_tools.files import FileProblem, read_regular

MAX_DATABASE_BYTES = 1 << 20
# The bundled Levels database's source folder, among the game's bundled plugins.
BUNDLED_LEVELS = Path(__file__).parent / GAME_PLUGINS / "sigmar-levels"
CHECK_SECONDS = 0.3  # the unclearable check's time cap: installing never waits on the solver


def _read(path: Path, limit: int) -> bytes:
    """At most `limit` bytes of a regular file: its size is checked before reading."""
    try:
        return read_regular(path, limit)
    except FileProblem as exc:
        raise LevelError(f"{path}: {exc}") from None


def install(path: Path, folder: Path, durable: bool = True) -> str | None:
    """Install a Sigmar level file into `folder`; the line to print, or None if the file
    is not one of Sigmar's (a plugin, say). LevelError (one line) for a bad level file."""
    if path.name.lower().endswith(HEX_SUFFIX):
        return _install_hex(path, folder, durable)
    if path.name.lower().endswith(LEVEL_SUFFIX):  # `.dat` alone too (its suffix is empty)
        try:
            level_id = normalize_level_id(path.name)
        except LevelError as exc:
            raise LevelError(f"{path}: the file name is not a level id (like 7.dat or "
                             f"test.dat): {exc}") from None
        if level_id is None:
            raise LevelError(f"{path}: the file name is not a level id (like 7.dat or test.dat)")
        level = parse_level(_read(path, MAX_FILE_BYTES), str(path))
        target = folder / f"{level_id}{LEVEL_SUFFIX}"
        note = " (replacing the one installed before)" if target.exists() else ""
        _write(target, level.text().encode("utf-8"), durable)
        return f"installed Sigmar's Garden level {level_id} {level.name!r}{note}" \
            + _shadow_notes([level_id]) + _unclearable_note(level)
    if path.suffix.lower() not in (".prc", ".pdb"):
        return None
    try:
        db = Database.read(_read(path, MAX_DATABASE_BYTES))
    except (PrcError, LevelError):
        return None  # not readable as a database here: the plugin installer says why
    if db.type != LEVELS_DB_TYPE or db.creator != SCHEMA.creator:
        return None
    levels, problems = levels_from_resources(db.resources, str(path))
    if problems:
        raise LevelError(problems[0])
    if not levels:
        raise LevelError(f"{path}: a Levels database without levels")
    stem = "".join(ch if ch.isalnum() or ch in "-_ " else "_" for ch in db.name).strip()
    _write(folder / f"{stem or 'levels'}.prc", db.to_bytes(), durable)
    ids = ", ".join(e.id for e in levels)
    return f"installed Sigmar's Garden levels {db.name!r}: {ids}" \
        + _shadow_notes([e.id for e in levels])


def _install_hex(path: Path, folder: Path, durable: bool) -> str:
    """A `.hgl` level of the hexagonal garden, checked and installed as `.dat` levels are."""
    stem = path.name[: -len(HEX_SUFFIX)]
    try:
        level_id = normalize_level_id(stem) if stem else None
    except LevelError as exc:
        raise LevelError(f"{path}: the file name is not a level id (like 7.hgl or "
                         f"ring.hgl): {exc}") from None
    if level_id is None:
        raise LevelError(f"{path}: the file name is not a level id (like 7.hgl or ring.hgl)")
    level = parse_hex_level(_read(path, MAX_FILE_BYTES), str(path))
    target = folder / f"{level_id}{HEX_SUFFIX}"
    note = " (replacing the one installed before)" if target.exists() else ""
    _write(target, level.text().encode("utf-8"), durable)
    names = dict(bundled_levels())
    shadow = (f"\nnote: it takes the place of the bundled hexagonal level {level_id} "
              f"{names[level_id].name!r} in the Levels list; remove it there "
              "(Levels... > Remove) to get that back") if level_id in names else ""
    return (f"installed Sigmar's Garden hexagonal level {level_id} {level.name!r}{note}"
            + shadow + _unclearable_note(level))


def _shadow_notes(level_ids: list[str]) -> str:
    """Say so for each level that takes the place of a bundled one of the same id
    (the bundled folder is read once, however many levels were installed)."""
    bundled, _ = levels_in_folder(BUNDLED_LEVELS)
    names = {e.id: e.name for e in reversed(bundled)}  # the first of an id, as before
    return "".join(f"\nnote: it takes the place of the bundled level {level_id} "
                   f"{names[level_id]!r} in the Levels list; remove it there "
                   "(Levels... > Remove) to get that back"
                   for level_id in level_ids if level_id in names)


def _unclearable_note(level: Level | HexLevel) -> str:
    """A warning when the solver proves the level cannot be cleared (an odd Fire, a
    metal without quicksilver): it installs all the same, as the seed plays any board."""
    if not proven_unclearable(level):
        return ""
    return "\nwarning: this level cannot be cleared (no sequence of reactions empties it)"


def proven_unclearable(level: Level | HexLevel) -> bool:
    """Whether the solver proves the level cannot be cleared. The search runs in
    slices and stops after CHECK_SECONDS, as the Hint does (False: cleared, or too
    big to decide quickly)."""
    game = HexGame.from_level(level) if isinstance(level, HexLevel) else Game.from_level(level)
    steps = garden.solving(game, solver.HINT_MAX_NODES)
    deadline = time.monotonic() + CHECK_SECONDS
    try:
        while time.monotonic() < deadline:
            next(steps)
    except StopIteration as done:
        return done.value is None
    except SearchBudget:
        pass  # too big to decide quickly: say nothing
    steps.close()
    return False


def _write(target: Path, data: bytes, durable: bool) -> None:
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        write_atomic(target, data, durable)
    except OSError as exc:
        raise LevelError(f"{target}: cannot write: {exc.strerror or exc}") from None
