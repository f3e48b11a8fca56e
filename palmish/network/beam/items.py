"""Beam items (docs/network.md, "Beam", "Items"): made from what the sender
names, checked by the receiver in memory, installed only after the person
accepts, and then only through `palmish install`'s path.

A plugin is the network's own kind (any game's database, checked as
`palmish install` checks it); every other kind belongs to the game whose
descriptor's `beam` Beamable declares it. Nothing here names a game.
"""

from __future__ import annotations

from pathlib import Path
from typing import cast

from palmish.apps import install_game_file
from palmish.device.disk.storage import Storage, disk_problem
from palmish.device.exchange import MAX_ITEM_BYTES, PLUGIN, BeamItem, Checked
from palmish.device.machine.beamable import Beamable
from palmish.device.store.info import (
    InvalidPlugin,
    NotADatabase,
    PluginInfo,
    check_contents,
    describe,
)
from palmish.device.store.plugins import PluginRegistry
from palmish.games import GameDescriptor, games, load
from palmish.network.beam.wire import too_large
from palmish.network.leftovers import BEAMED_FILE, beam_folder
from prc_tools import Database, PrcError
from prc_tools.files import FileProblem, read_regular
from prc_tools.text import printable

PLUGIN_SUFFIXES = (".prc", ".pdb")


def beamables() -> list[tuple[GameDescriptor, Beamable]]:
    """Every game that beams something, with its Beamable."""
    found: list[tuple[GameDescriptor, Beamable]] = []
    for game in games():
        if game.beam is not None:
            found.append((game, cast("Beamable", load(game.beam))))
    return found


def game_for(kind: str, app: str = "") -> tuple[GameDescriptor, Beamable] | None:
    """The game taking items of `kind` (of the game `app`, when given)."""
    for game, beamable in beamables():
        if kind in beamable.kinds() and app in ("", game.id):
            return game, beamable
    return None


def number_item(kind: str, number: int) -> BeamItem:
    """A board or a deal by its number; ValueError (one line) when no game has that kind."""
    found = game_for(kind)
    if found is None or kind not in found[1].number_kinds():
        raise ValueError(f"no game here beams a {kind} by its number")
    return BeamItem(kind, found[0].id, number=number)


def file_item(path: Path) -> BeamItem:
    """What the file is as a beam item: a plugin database, or a file a game
    beams (a level); ValueError (one line) for a file no one beams or
    one over the limit."""
    for _game, beamable in beamables():
        item = beamable.item_from_file(path)
        if item is not None:
            return item
    if path.suffix.lower() not in PLUGIN_SUFFIXES:
        raise ValueError(f"{path}: not a plugin (.prc) or a file a game beams")
    return BeamItem(PLUGIN, data=read_item_file(path))


def plugin_item(info: PluginInfo, plugins: PluginRegistry) -> BeamItem:
    """A plugin of the registry, bundled or installed, as an item: its database's
    bytes; ValueError (one line) when they cannot be had or are too many."""
    try:
        data = plugins.database_bytes(info)
    except (OSError, PrcError, FileProblem) as err:
        raise ValueError(f"{info.name}: cannot be read: {err}") from None
    problem = too_large(len(data))
    if problem is not None:
        raise ValueError(f"{info.name}: {problem}")
    return BeamItem(PLUGIN, data=data)


def read_item_file(path: Path) -> bytes:
    """The file's bytes; ValueError (one line) when it cannot be read or is larger
    than an item may be (the receiver's own words: `too large: 5 MB, at most 1 MB`)."""
    try:
        size = path.stat().st_size
        problem = too_large(size)
        if problem is not None:
            raise ValueError(f"{path}: {problem}")
        return read_regular(path, MAX_ITEM_BYTES)
    except FileProblem as err:
        raise ValueError(f"{path}: {err}") from None
    except OSError as err:
        raise ValueError(f"{path}: {err.strerror or err}") from None


def check(item: BeamItem) -> Checked:
    """Check a received item in memory; ValueError (one line) saying why it is refused.
    An item whose name holds terminal escapes or other unprintable characters is
    refused too: the person is never asked about a name that cannot be shown as is."""
    checked = _check(item)
    if not (checked.title.isprintable() and checked.what.isprintable()):
        raise ValueError(f"its name holds unprintable characters: '{printable(checked.title)}'")
    return checked


def _check(item: BeamItem) -> Checked:
    if item.kind == PLUGIN:
        return _check_plugin(item.data)
    found = game_for(item.kind, item.app)
    if found is None:
        raise ValueError(f"not something this handheld takes (a {item.kind} of {item.app!r})")
    numbers = item.kind in found[1].number_kinds()
    if numbers != (item.number is not None) or (numbers and item.data):
        raise ValueError(f"a {item.kind} is {'a number' if numbers else 'a file'}")
    return found[1].check(item)


def _check_plugin(data: bytes) -> Checked:
    for _game, beamable in beamables():  # a game's own database (its levels)
        checked = beamable.check_database(data)
        if checked is not None:
            return checked
    try:
        db = Database.read(data)
    except PrcError as exc:
        raise ValueError(f"not a Palm database: {str(exc).splitlines()[0][:120]}") from None
    try:
        info = describe(db, Path(BEAMED_FILE))
        check_contents(db)
    except InvalidPlugin as exc:
        raise ValueError(f"not a good plugin: {str(exc)[:160]}") from None
    game = next((g.name for g in games() if g.id == info.game), info.game)
    return Checked(info.name, f"{info.kind.capitalize()} plugin for {game}")


def install(item: BeamItem, storage: Storage, plugins: PluginRegistry) -> str:
    """Install an accepted file item as `palmish install FILE` does; the line it
    printed. ValueError (one line) when it cannot. Number items are opened, not
    installed (their game's Beamable.open opens them)."""
    if item.kind != PLUGIN:
        found = game_for(item.kind, item.app)
        if found is None:
            raise ValueError(f"no game here takes a {item.kind}")
        return found[1].install(item, storage)
    with beam_folder() as folder:  # a later start removes it if this process is killed
        path = Path(folder) / BEAMED_FILE
        path.write_bytes(item.data)
        try:
            done = install_game_file(path, storage)  # a game's database (Sigmar's Levels)
            if done is not None:
                return done
            info = plugins.install(path)
        except NotADatabase as exc:
            raise ValueError(f"not a Palm database: {exc}") from None
        except OSError as exc:
            raise ValueError(f"cannot install: {disk_problem(exc)}") from None
    return f"installed {info.name!r} ({info.game} {info.kind}) as {info.path}"
