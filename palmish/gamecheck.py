"""Everything a game must have, checked from its descriptor: each missing or wrong
thing is one sentence saying what to add (docs/architecture.md, "Adding a game").

`GameDescriptor.problems()` checks the descriptor alone, at every start; `check`
goes further and so is for the tests and for the author, never for a start: it
imports the game, loads its schema, builds and verifies its bundled plugins.

    .venv/bin/python skins/game_scripts.py check [GAME ...]
"""

from __future__ import annotations

import importlib
from pathlib import Path

from palmish.device.disk.resources import GAME_PLUGINS, game_plugin_folders, has_manifest
from palmish.device.machine.app import App
from palmish.games import GameDescriptor, TakesOptions, load
from prc_tools import PrcError
from prc_tools.schema import Schema, SchemaError, load_file, registry

# The word a bundled plugin folder's name takes for each kind every game may have:
# <id>-board..., <id>-pieces..., <id>-sounds... (a game's own kinds: the kind itself).
FOLDER_WORDS = {"board": "board", "pieces": "pieces", "sound": "sounds"}
GUIDE = "docs/architecture.md, \"Adding a game\""


def check(game: GameDescriptor) -> list[str]:
    """What `game` lacks, each as what to add (empty when it has everything)."""
    found = list(game.problems())
    if found:  # the rest reads what the descriptor names
        return found
    schema = _schema(game, found)
    _app(game, found)
    _scripts(game, found)
    if schema is not None:  # the plugins are checked against it
        _plugins(game, found)
    return found


def package_of(game: GameDescriptor) -> str:
    """The game's package: that of its app's module ("palmish.<id>")."""
    return game.app.partition(":")[0].rpartition(".")[0]


def plugins_folder(game: GameDescriptor) -> Path | None:
    """The game's plugins/ folder, where its bundled plugins' sources are (None: none)."""
    try:
        package = importlib.import_module(package_of(game))
    except ImportError:
        return None
    where = getattr(package, "__path__", [])  # a module, not a package: none
    folder = Path(where[0], GAME_PLUGINS) if where else None
    return folder if folder is not None and folder.is_dir() else None


def _schema(game: GameDescriptor, found: list[str]) -> Schema | None:
    """Its plugin schema: the file, its codes, prc_tools' registry, the schema module."""
    try:
        schema = load_file(game.schema)
    except (OSError, SchemaError) as exc:
        found.append(f"its plugin schema cannot be read ({exc}): write the plugin-schema.yaml"
                     " the descriptor names (docs/plugin-format.md, \"Plugin schemas\")")
        return None
    if (schema.game, schema.creator) != (game.id, game.creator):
        found.append(f"its schema is for game {schema.game!r}, creator {schema.creator!r}:"
                     f" write `game: {game.id}` and `creator: {game.creator}` in"
                     f" {game.schema.name}")
    if not schema.types:
        found.append(f"its schema gives no plugin type: add `types: {{board: XXXX}}` to"
                     f" {game.schema.name}, a four-character Palm type per kind of plugin")
    known = registry().get(game.id)
    if known is None or Path(known.source) != game.schema.resolve():
        found.append(f"prc_tools does not know its schema: add `{game.id} ="
                     f" {package_of(game)}.schema:SCHEMA_PATH` under prc_tools.plugin_schemas"
                     " in setup.cfg and reinstall (make), or register() a game kept elsewhere")
    module = f"{package_of(game)}.schema"
    try:
        ids = importlib.import_module(module)
        given = (getattr(ids, "SCHEMA_PATH", None), getattr(ids, "SCHEMA", None))
        why = "" if given == (game.schema, schema) else " as SCHEMA_PATH and SCHEMA"
    except ImportError as exc:
        why = f" ({exc})"
    if why:
        found.append(f"{module} does not give its schema{why}: write it with"
                     " `SCHEMA_PATH = GAME.schema` and `SCHEMA = load_file(SCHEMA_PATH)`")
    return schema


def _app(game: GameDescriptor, found: list[str]) -> None:
    """Its app class: importable, an App, declared from this descriptor, taking its options."""
    try:
        made = load(game.app)
    except (ImportError, AttributeError) as exc:
        found.append(f"its app {game.app} cannot be loaded ({exc}): write that class")
        return
    if not (isinstance(made, type) and issubclass(made, App)):
        found.append(f"its app {game.app} is not an App class: subclass"
                     " palmish.boardgame.BoardGameApp")
        return
    if made.descriptor != game:
        found.append(f"{made.__name__} is not declared from the descriptor: write"
                     f" `class {made.__name__}(BoardGameApp, descriptor=GAME)`")
    if game.options and not issubclass(made, TakesOptions):
        flags = ", ".join(o.flag for o in game.options)
        found.append(f"it declares {flags} but {made.__name__} does not take options: give"
                     " it accept_option(flag, value) and option_problem()"
                     " (palmish.games.TakesOptions)")


def _scripts(game: GameDescriptor, found: list[str]) -> None:
    """The scripts it names load; a game with bundled plugins names the art script."""
    for what, target in (("art_script", game.art_script),
                         ("screenshot_script", game.screenshot_script),
                         ("network_screenshot_script", game.network_screenshot_script)):
        if target is None:
            continue
        try:
            if not callable(load(target)):
                found.append(f"its {what} {target} is not a function: give main(argv) -> int")
        except (ImportError, AttributeError) as exc:
            found.append(f"its {what} {target} cannot be loaded ({exc}): write it ({GUIDE})")
    if game.network_screenshot_script is not None and game.network is None:
        found.append("it names a network_screenshot_script but no network engine: add"
                     " network, or leave the script out")
    folder = plugins_folder(game)
    if folder is not None and game.art_script is None:
        found.append(f"it has bundled plugins ({GAME_PLUGINS}/) but no art_script: add"
                     f" art_script=\"{package_of(game)}.make_art:main\", the script that"
                     f" draws them ({GUIDE})")
    if folder is None and game.art_script is not None:
        found.append(f"its art_script draws no bundled plugin yet: run it"
                     f" (python -m {game.art_script.partition(':')[0]}) to fill"
                     f" {package_of(game).replace('.', '/')}/{GAME_PLUGINS}/")


def _plugins(game: GameDescriptor, found: list[str]) -> None:
    """Its bundled plugin folders: found by the device, named by kind, built and verified."""
    from prc_tools import plugin

    folder = plugins_folder(game)
    if folder is None:
        return
    if folder.resolve() not in {f.resolve() for f in game_plugin_folders()}:
        found.append(f"its {GAME_PLUGINS}/ folder is not bundled (only palmish/<game>/"
                     f"{GAME_PLUGINS}/ are): move the game under palmish/, or install its"
                     " plugins with palmish install")
    sources = sorted(p for p in folder.iterdir() if p.is_dir() and has_manifest(p))
    if not sources:
        found.append(f"{GAME_PLUGINS}/ holds no plugin folder: run its art_script")
    for source in sources:
        where = f"{GAME_PLUGINS}/{source.name}"
        try:
            db = plugin.build_folder(source)
            plugin.verify(db)
            info = plugin.read_info(db) if db.resource("pINF", 0) is not None else None
        except PrcError as exc:
            found.append(f"{where} does not build: {exc}")
            continue
        if info is None:  # data (levels, say): the game's codes, any name of the game's
            if db.creator != game.creator:
                found.append(f"{where} is data of creator {db.creator!r}: give its manifest"
                             f" `creator: {game.creator}`")
            elif not source.name.startswith(f"{game.id}-"):
                found.append(f"{where}: name the folder {game.id}-<what it holds>")
            continue
        if info["game"] != game.id:
            found.append(f"{where} is a plugin of game {info['game']!r}: write"
                         f" `game: {game.id}` in its manifest")
            continue
        word = FOLDER_WORDS.get(info["kind"], info["kind"])
        if source.name != f"{game.id}-{word}" and not source.name.startswith(f"{game.id}-{word}-"):
            found.append(f"{where} holds a {info['kind']} plugin: name the folder"
                         f" {game.id}-{word} or {game.id}-{word}-<variant>")
