"""The bundled levels: the seed's names, a Levels database, every one solvable."""

from __future__ import annotations

from pathlib import Path

import pytest

from palmish.device.disk.resources import bundled_plugins
from palmish.sigmar import Game, solver
from palmish.sigmar.catalog import levels_from_resources, levels_in_folder
from palmish.sigmar.level import LEVEL_RESOURCE_TYPE
from prc_tools import Database, plugin

FOLDER = bundled_plugins().folder("sigmar-levels")
SEED = next((Path(__file__).resolve().parents[3] / "shared" / "seeds").glob("002_*.txt"), None) \
    if (Path(__file__).resolve().parents[3] / "shared" / "seeds").is_dir() else None
CAUTION = "Caution\naa\ne e\n9ec\n 2e\n7a\n 7\n"
LEVELS, PROBLEMS = levels_in_folder(FOLDER)


def test_twelve_levels_named_as_the_seed_says() -> None:
    assert PROBLEMS == []
    assert [e.id for e in LEVELS] == [str(n) for n in range(1, 13)]
    names = {e.id: e.name for e in LEVELS}
    assert names["3"] == "Projection"
    assert names["7"] == "Caution"
    assert (FOLDER / "7.dat").read_text() == CAUTION
    if SEED is not None:  # the seed's own text of Caution, where the seeds are at hand
        assert CAUTION.rstrip("\n") in SEED.read_text()


@pytest.mark.parametrize("entry", LEVELS, ids=[e.id for e in LEVELS])
def test_every_bundled_level_is_solvable(entry: object) -> None:
    game = Game.from_level(entry.level, level=entry.id)  # type: ignore[attr-defined]
    takes = solver.solve(game)
    assert takes, f"level {game.level} has no solution"
    for t in takes:
        game.take(*t)
    assert game.won


def test_levels_get_bigger_from_first_to_last() -> None:
    sizes = [len(e.level.atoms) for e in LEVELS]
    assert sizes[0] < sizes[5] < sizes[7] <= sizes[-1]
    assert max(sizes) == sizes[-1]


def test_the_folder_builds_into_a_levels_database() -> None:
    db = Database.read(plugin.build_folder(FOLDER).to_bytes())
    assert (db.type, db.creator, db.name) == ("SgLv", "PSgm", "Sigmar Levels")
    assert all(r.type == LEVEL_RESOURCE_TYPE for r in db.resources)
    levels, problems = levels_from_resources(db.resources)
    assert problems == []
    assert [(e.id, e.level) for e in levels] == [(e.id, e.level) for e in LEVELS]
