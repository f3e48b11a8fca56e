"""What Sigmar's Garden beams (docs/network.md, "Beam"; the descriptor's `beam`):
a random board by its number, and a level by its contents, of either garden.
A hexagonal board has a kind of its own, "hexboard" (its numbers name other
boards than the square garden's); a hexagonal level is a "level" whose name
ends in `.hgl` (`ring.hgl`; a `.dat` level's name is its bare id). A received
level is installed as `palmish install LEVEL.dat` (or `.hgl`) installs it; a
board opens in its garden. What the running game beams and how a received board
opens are the app's own (`SigmarApp.beam_item` and `open_beamed`), so this
module knows no app class."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from palmish.device.disk.storage import Storage
from palmish.device.exchange import BeamItem, Checked
from palmish.device.machine.app import App
from palmish.sigmar.catalog import levels_from_resources
from palmish.sigmar.descriptor import GAME
from palmish.sigmar.hexagonal.level import LEVEL_SUFFIX as HEX_SUFFIX
from palmish.sigmar.hexagonal.level import HexLevel, parse_hex_level
from palmish.sigmar.level import (
    LEVEL_SUFFIX,
    LEVELS_DB_TYPE,
    MAX_FILE_BYTES,
    Level,
    normalize_level_id,
    parse_level,
)
from prc_tools.files import FileProblem, read_regular

BOARD, LEVEL = "board", "level"
HEX_BOARD = "hexboard"


class SigmarBeam:
    def kinds(self) -> tuple[str, ...]:
        return (BOARD, LEVEL, HEX_BOARD)

    def number_kinds(self) -> tuple[str, ...]:
        return (BOARD, HEX_BOARD)

    def current_item(self, app: App) -> BeamItem | None:
        return app.beam_item() if app.descriptor is GAME else None

    def item_from_file(self, path: Path) -> BeamItem | None:
        hexagonal = path.name.lower().endswith(HEX_SUFFIX)
        if not (hexagonal or path.name.lower().endswith(LEVEL_SUFFIX)):
            return None
        level_id = _level_id(path.name)
        try:
            data = read_regular(path, MAX_FILE_BYTES)
        except FileProblem as exc:
            raise ValueError(f"{path}: {exc}") from None
        _parse(hexagonal, data, str(path))  # a bad level is said here, before anything is sent
        return BeamItem(LEVEL, GAME.id, name=level_id + (HEX_SUFFIX if hexagonal else ""),
                        data=data)

    def check_database(self, data: bytes) -> Checked | None:
        from prc_tools import Database, PrcError

        try:
            db = Database.read(data)
        except PrcError:
            return None  # the plugin checks say what it is not
        if (db.type, db.creator) != (LEVELS_DB_TYPE, GAME.creator):
            return None
        levels, problems = levels_from_resources(db.resources, db.name)
        if problems:
            raise ValueError(problems[0])
        if not levels:
            raise ValueError(f"{db.name}: a Levels database without levels")
        return Checked(db.name, f"{GAME.name} levels ({len(levels)})")

    def check(self, item: BeamItem) -> Checked:
        if item.kind == BOARD:
            return Checked(f"Board {item.number}", f"{GAME.name} board")
        if item.kind == HEX_BOARD:
            return Checked(f"Hex Board {item.number}", f"{GAME.name} hexagonal board")
        level_id = _level_id(item.name)
        hexagonal = _hexagonal(item.name)
        level = _parse(hexagonal, item.data, f"level {level_id}")
        if hexagonal:
            return Checked(f"Hex Level {level_id}: {level.name}",
                           f"{GAME.name} hexagonal level")
        return Checked(f"Level {level_id}: {level.name}", f"{GAME.name} level")

    def install(self, item: BeamItem, storage: Storage) -> str:
        from palmish.sigmar.install import install

        level_id = _level_id(item.name)
        # named as palmish.network.leftovers cleans it should this process be killed
        with tempfile.TemporaryDirectory(prefix=f"palmish-beam-{os.getpid()}-") as folder:
            suffix = HEX_SUFFIX if _hexagonal(item.name) else LEVEL_SUFFIX
            path = Path(folder) / f"{level_id}{suffix}"
            path.write_bytes(item.data)
            done = install(path, storage.files_dir(GAME.creator), storage.durable)
        if done is None:  # pragma: no cover - a .dat is always Sigmar's
            raise ValueError(f"level {level_id}: not installed")
        return done

    def open(self, app: App, item: BeamItem, ask: bool) -> None:
        if app.descriptor is not GAME:
            raise ValueError(f"a {item.kind} opens in {GAME.name}")
        app.open_beamed(item, ask)  # SigmarApp.open_beamed: the board in its garden

def _hexagonal(name: str) -> bool:
    """A level item of the hexagonal garden: its name ends in .hgl."""
    return name.lower().endswith(HEX_SUFFIX)


def _parse(hexagonal: bool, data: bytes, source: str) -> Level | HexLevel:
    """The level an item or file carries; LevelError (a ValueError, one line) if bad."""
    return parse_hex_level(data, source) if hexagonal else parse_level(data, source)


def _level_id(name: str) -> str:
    """The level id a name gives ("7.dat", "ring.hgl", "spiral"); ValueError when it
    names none."""
    if name.lower().endswith(HEX_SUFFIX):
        name = name[: -len(HEX_SUFFIX)]
    level_id = normalize_level_id(name)  # LevelError is a ValueError
    if level_id is None:
        raise ValueError("'?' is not a level id")
    return level_id


BEAM = SigmarBeam()
