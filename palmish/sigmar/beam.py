"""What Sigmar's Garden beams (docs/network.md, "Beam"; the descriptor's `beam`):
a random board by its number, and a level by its contents. A received level
is installed as `palmish install LEVEL.dat` installs it; a board opens."""

from __future__ import annotations

import tempfile
from pathlib import Path

from palmish.device.disk.storage import Storage
from palmish.device.exchange import BeamItem, Checked
from palmish.device.machine.app import App
from palmish.sigmar.descriptor import GAME
from palmish.sigmar.level import LEVEL_SUFFIX, MAX_FILE_BYTES, normalize_level_id, parse_level
from prc_tools.files import FileProblem, read_regular

BOARD, LEVEL = "board", "level"


class SigmarBeam:
    def kinds(self) -> tuple[str, ...]:
        return (BOARD, LEVEL)

    def number_kinds(self) -> tuple[str, ...]:
        return (BOARD,)

    def current_item(self, app: App) -> BeamItem | None:
        """A level by its contents (the friend may not have it), else the random
        board by its number."""
        from palmish.sigmar.app import SigmarApp

        if not isinstance(app, SigmarApp):
            return None
        game = app.game
        if game.level is not None:
            entry = next((e for e in app.levels if e.id == game.level), None)
            if entry is not None:
                return BeamItem(LEVEL, GAME.id, name=entry.id,
                                data=entry.level.text().encode("utf-8"))
        if game.seed is None:
            return None
        return BeamItem(BOARD, GAME.id, number=game.seed)

    def item_from_file(self, path: Path) -> BeamItem | None:
        if not path.name.lower().endswith(LEVEL_SUFFIX):
            return None
        level_id = _level_id(path.name)
        try:
            data = read_regular(path, MAX_FILE_BYTES)
        except FileProblem as exc:
            raise ValueError(f"{path}: {exc}") from None
        parse_level(data, str(path))  # a bad level is said here, before anything is sent
        return BeamItem(LEVEL, GAME.id, name=level_id, data=data)

    def check_database(self, data: bytes) -> Checked | None:
        from palmish.sigmar.level import LEVELS_DB_TYPE, levels_from_resources
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
        level_id = _level_id(item.name)
        level = parse_level(item.data, f"level {level_id}")
        return Checked(f"Level {level_id}: {level.name}", f"{GAME.name} level")

    def install(self, item: BeamItem, storage: Storage) -> str:
        from palmish.sigmar.install import install

        level_id = _level_id(item.name)
        with tempfile.TemporaryDirectory(prefix="palmish-beam-") as folder:
            path = Path(folder) / f"{level_id}{LEVEL_SUFFIX}"
            path.write_bytes(item.data)
            done = install(path, storage.files_dir(GAME.creator), storage.durable)
        if done is None:  # pragma: no cover - a .dat is always Sigmar's
            raise ValueError(f"level {level_id}: not installed")
        return done

    def open(self, app: App, item: BeamItem, ask: bool) -> None:
        from palmish.sigmar.app import SigmarApp
        from palmish.sigmar.game import Game

        if not isinstance(app, SigmarApp) or item.number is None:
            raise ValueError(f"a {item.kind} opens in {GAME.name}")
        number = item.number

        def open_board() -> None:
            app.start_game(Game.new(seed=number))

        if ask:
            app.confirm_discard("Open", open_board)
        else:
            open_board()


def _level_id(name: str) -> str:
    """The level id a name gives ("7.dat", "spiral"); ValueError when it names none."""
    level_id = normalize_level_id(name)  # LevelError is a ValueError
    if level_id is None:
        raise ValueError("'?' is not a level id")
    return level_id


BEAM = SigmarBeam()
