"""palmish.gamecheck: what a game lacks, each thing said as what to add. Every case
starts from the complete example game of docs/adding-a-game.md (tests/guide_game.py)
and takes one thing away or gets one thing wrong, as a new author might."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from palmish.boardgame.art_kit import synth, write_manifest, write_sounds
from palmish.gamecheck import check
from palmish.games import GameDescriptor, games, load
from tests.guide_game import Guide, as_written, reinstall

GAME = Path("palmish/lamps")


@pytest.fixture
def guide(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Guide]:
    yield from as_written(tmp_path, monkeypatch)


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, (path, old)
    path.write_text(text.replace(old, new), encoding="utf-8")


def lamps(guide: Guide, draw: bool = True, install: bool = True) -> GameDescriptor:
    """The example game once its files are as the test left them: registered with
    prc_tools as `make` would (unless not `install`), its art drawn (unless not `draw`)."""
    if install:
        reinstall(guide)
    game = next(g for g in games() if g.id == "lamps")
    if draw:
        assert load("palmish.lamps.make_art:main")([]) == 0
    return game


def test_the_example_as_written_lacks_nothing(guide: Guide) -> None:
    assert check(lamps(guide)) == []


SCHEMA_WITHOUT_TYPES = ("game: lamps\ncreator: PLmp\ntypes: {}\n"
                        "bitmaps: {lamp_off: 2000, lamp_on: 2001}\n")
# (what is wrong, the change, whether the art script can still draw, what check says)
CASES: list[tuple[str, Callable[[], None], bool, str]] = [
    ("no art script", lambda: edit(GAME / "descriptor.py",
                                   '    art_script="palmish.lamps.make_art:main",\n', ""), True,
     'it has bundled plugins (plugins/) but no art_script: add'
     ' art_script="palmish.lamps.make_art:main", the script that draws them'
     ' (docs/architecture.md, "Adding a game")'),
    ("an app class not declared from the descriptor",
     lambda: edit(GAME / "app.py", "class LampsApp(BoardGameApp, descriptor=GAME):\n",
                  'class LampsApp(BoardGameApp):\n    id, name, creator = "lamps", "Lamps",'
                  ' "PLmp"\n'), True,
     "LampsApp is not declared from the descriptor: write"
     " `class LampsApp(BoardGameApp, descriptor=GAME)`"),
    ("an option the app does not take",
     lambda: edit(GAME / "app.py", "    def accept_option(", "    def take_option("), True,
     "it declares --lit but LampsApp does not take options: give it"
     " accept_option(flag, value) and option_problem() (palmish.games.TakesOptions)"),
    ("a schema module without SCHEMA", lambda: edit(GAME / "schema.py", "SCHEMA: Schema", "IDS"),
     False,
     "palmish.lamps.schema does not give its schema as SCHEMA_PATH and SCHEMA: write it with"
     " `SCHEMA_PATH = GAME.schema` and `SCHEMA = load_file(SCHEMA_PATH)`"),
    ("a schema without Palm types",
     lambda: (GAME / "plugin-schema.yaml").write_text(SCHEMA_WITHOUT_TYPES), True,
     "its schema gives no plugin type: add `types: {board: XXXX}` to plugin-schema.yaml,"
     " a four-character Palm type per kind of plugin"),
    ("a schema of another creator", lambda: edit(GAME / "plugin-schema.yaml",
                                                 "creator: PLmp", "creator: PLmx"), True,
     "its schema is for game 'lamps', creator 'PLmx': write `game: lamps` and"
     " `creator: PLmp` in plugin-schema.yaml"),
]


@pytest.mark.parametrize(("change", "draw", "problem"), [c[1:] for c in CASES],
                         ids=[c[0] for c in CASES])
def test_each_thing_missing_is_said_as_what_to_add(
    guide: Guide, change: Callable[[], None], draw: bool, problem: str
) -> None:
    change()
    assert problem in check(lamps(guide, draw=draw))


def test_art_not_drawn_yet_says_to_run_the_art_script(guide: Guide) -> None:
    assert check(lamps(guide, draw=False)) == [
        "its art_script draws no bundled plugin yet: run it (python -m"
        " palmish.lamps.make_art) to fill palmish/lamps/plugins/"]


def test_a_schema_prc_tools_does_not_know_says_where_to_register_it(guide: Guide) -> None:
    assert "prc_tools does not know its schema: add `lamps = palmish.lamps.schema:SCHEMA_PATH`" \
           " under prc_tools.plugin_schemas in setup.cfg and reinstall (make), or register()" \
           " a game kept elsewhere" in check(lamps(guide, draw=False, install=False))


def test_plugin_folders_are_named_by_kind_sounds_in_the_plural(guide: Guide) -> None:
    edit(GAME / "plugin-schema.yaml", "types: {board: LmBd}", "types: {board: LmBd, sound: LmSd}")
    game = lamps(guide)
    (GAME / "plugins" / "lamps-board").rename(GAME / "plugins" / "lamps-lamps")
    sound = GAME / "plugins" / "lamps-sound"
    sound.mkdir()
    info: dict[str, object] = {"game": "lamps", "kind": "sound", "name": "Clicks", "version": 1,
                               "author": "palmish tests", "configs": ["square", "tall", "wide"]}
    entries = write_sounds(sound, [(3000, "click", lambda: synth(0.05, lambda t: 0.5))])
    write_manifest(sound, info, [], entries, ("game", "kind", "name", "version", "author",
                                              "configs"), "tests/test_gamecheck.py")
    assert check(game) == [
        "plugins/lamps-lamps holds a board plugin: name the folder lamps-board or"
        " lamps-board-<variant>",
        "plugins/lamps-sound holds a sound plugin: name the folder lamps-sounds or"
        " lamps-sounds-<variant>"]
    sound.rename(sound.with_name("lamps-sounds-clicks"))
    (GAME / "plugins" / "lamps-lamps").rename(GAME / "plugins" / "lamps-board-brass")
    assert check(game) == []


def test_a_plugin_that_does_not_build_is_named_with_the_packer_s_words(guide: Guide) -> None:
    game = lamps(guide)
    (GAME / "plugins" / "lamps-board" / "lamp_on.png").unlink()
    [problem] = check(game)
    assert problem.startswith("plugins/lamps-board does not build: ") and "lamp_on.png" in problem
