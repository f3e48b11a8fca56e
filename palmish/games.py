"""The game registry: one `GameDescriptor` per game, declared beside the game.

Each game package holds a small `descriptor.py` whose `GAME` says everything
the rest of the emulator needs before the game is imported: its id and names,
creator code, hard button, plugin schema, installer, command-line options,
art and screenshot scripts, where its App class is, and its network engine
when it offers network play. The launcher, the hard
buttons, the command line, `palmish install` and the tests read this registry;
nothing outside a game's package names the game (setup.cfg's entry point for
prc_tools excepted). docs/architecture.md, "Adding a game", walks through it;
`problems()` checks a descriptor at every start, palmish.gamecheck all the rest
a game needs.

The games found are the packages under palmish/ with a `descriptor.py`
(found by a folder scan: no entry-point scan, whose import alone costs a start
~20 ms), then any `register()`ed by the program that embeds the emulator (the
example game of docs/adding-a-game.md, in tests/test_registered_game.py). A
descriptor module imports nothing of its game, and each game's `__init__`
imports its engine lazily, so listing the games stays cheap.
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple, Protocol, runtime_checkable

HARD_BUTTON_COUNT = 3  # the fourth hard button is the launcher's, as on a Palm
DESCRIPTOR_MODULE = "descriptor"  # palmish/<game>/descriptor.py declares GAME


class GameOption(NamedTuple):
    """A command-line option of the window and screenshot modes that a game takes
    (`palmish --board 7`); the app gets the value through `TakesOptions`."""

    flag: str  # "--board"
    metavar: str  # "ID"
    help: str  # what it does in this game, for `palmish --help`


class GameDescriptor(NamedTuple):
    """Everything the emulator knows of a game without importing it (a NamedTuple,
    not a dataclass: every start makes the class, and that costs a dataclass more)."""

    id: str  # short lowercase id: `palmish --app ID`, the plugin schema's game key
    name: str  # the full name (title bars, --app, messages)
    creator: str  # four-character Palm creator code (plugins, storage)
    app: str  # "module:Class" of its App, imported the first time the game is used
    schema: Path  # its plugin-schema.yaml (prc_tools' entry point names the same file)
    icon_name: str = ""  # the launcher's label when `name` is too long ("" = the name)
    hard_button: int | None = None  # 1..3: the hard app button that starts it
    installer: str | None = None  # "module:function" for `palmish install FILE` (apps.py)
    options: tuple[GameOption, ...] = ()
    beam: str | None = None  # "module:name" of its Beamable (palmish.device.exchange)
    # "module:main" of the script that draws its bundled plugins (its plugins/ folder),
    # and of those that write its pictures in docs/screenshots/: main(argv) -> exit
    # status (docs/architecture.md, "Adding a game", says what they promise)
    art_script: str | None = None
    screenshot_script: str | None = None
    network: str | None = None  # "module:name" of its NetworkEngine (palmish/network/engine.py)
    network_screenshot_script: str | None = None  # docs/network.md's pictures of it

    def problems(self) -> list[str]:
        """What is wrong with the descriptor itself (empty when it is good)."""
        found = []
        if not (self.id.isascii() and self.id.isalpha() and self.id.islower()):
            found.append(f"id {self.id!r} is not short lowercase letters: give the word"
                         " `palmish --app` takes, a to z only")
        if not self.name:
            found.append("no name: give the name the launcher and title bars show")
        if len(self.creator) != 4 or not self.creator.isascii():
            found.append(f"creator {self.creator!r} is not four ASCII characters: give its"
                         " Palm creator code, four letters that no other game uses")
        found += [f"{what} {target!r} is not 'module:name': write the module's dotted name,"
                  " a colon and the name in it"
                  for what, target in (("app", self.app), ("installer", self.installer),
                                       ("network", self.network), ("beam", self.beam),
                                       ("art_script", self.art_script),
                                       ("screenshot_script", self.screenshot_script),
                                       ("network_screenshot_script",
                                        self.network_screenshot_script))
                  if target is not None and not _is_target(target)]
        if self.hard_button is not None and not 1 <= self.hard_button <= HARD_BUTTON_COUNT:
            found.append(f"hard button {self.hard_button} is not 1 to {HARD_BUTTON_COUNT}")
        found += [f"option {o.flag!r} is not --lowercase-words"
                  for o in self.options if not _is_flag(o.flag)]
        return found


def _is_target(text: str) -> bool:
    """Whether `text` is "package.module:name" (no regex: this runs at every start)."""
    module, colon, name = text.partition(":")
    return bool(colon) and name.isidentifier() and all(
        part.isidentifier() for part in module.split("."))


def _is_flag(text: str) -> bool:
    """Whether `text` is a long option of lowercase words: --board, --deal-number."""
    words = text[2:].split("-")
    return text.startswith("--") and all(w.isascii() and w.isalnum() and w.islower()
                                         for w in words) and words[0][:1].isalpha()


@runtime_checkable
class TakesOptions(Protocol):
    """An app whose descriptor declares command-line options."""

    def accept_option(self, flag: str, value: str) -> None:
        """Take `--flag value` before the app starts; ValueError (one line) for a bad value."""

    def option_problem(self) -> str | None:
        """Once started: why an accepted option could not be honoured, one line
        naming the option (`--board: no level 99`), or None."""


class RegistryError(ValueError):
    """A descriptor that is bad or clashes with another game's."""


_registered: list[GameDescriptor] = []
_found: list[GameDescriptor] | None = None


def games() -> tuple[GameDescriptor, ...]:
    """Every game, in launcher order: by hard button, then the others by id."""
    global _found
    if _found is None:
        _found = _check([*_bundled(), *_registered])
    return tuple(sorted(_found, key=lambda g: (g.hard_button or HARD_BUTTON_COUNT + 1, g.id)))


def network_games() -> tuple[GameDescriptor, ...]:
    """The games that offer network play (a `network` engine), in launcher order."""
    return tuple(g for g in games() if g.network is not None)


def register(game: GameDescriptor) -> None:
    """Add a game that is not a package under palmish/ (RegistryError if it is bad or
    clashes), before the device starts. Its schema joins prc_tools' registry for this
    process, as the entry point does for an installed game."""
    global _found
    from prc_tools import schema

    _check([*_bundled(), *_registered, game])
    try:
        loaded = schema.load_file(game.schema)
    except (OSError, schema.SchemaError) as exc:
        raise RegistryError(f"game {game.id!r}: {exc}") from None
    if (loaded.game, loaded.creator) != (game.id, game.creator):
        raise RegistryError(f"game {game.id!r}: its schema {game.schema} is for game"
                            f" {loaded.game!r}, creator {loaded.creator!r}")
    schema.add_file(game.schema)
    _registered.append(game)
    _found = None


def unregister(game_id: str) -> None:
    """Remove a `register()`ed game (for tests that add one for a while)."""
    global _found
    from prc_tools import schema

    for game in [g for g in _registered if g.id == game_id]:
        schema.remove_file(game.schema)
        _registered.remove(game)
    _found = None


def load(target: str) -> object:
    """The object a "module:name" target names, importing its module."""
    module, _, name = target.partition(":")
    return getattr(importlib.import_module(module), name)


def _bundled() -> list[GameDescriptor]:
    """The descriptors of the game packages under palmish/, found by a folder scan."""
    import palmish

    found = []
    for where in palmish.__path__:
        with os.scandir(where) as entries:
            names = sorted(e.name for e in entries if e.is_dir()
                           and os.path.isfile(os.path.join(e.path, f"{DESCRIPTOR_MODULE}.py")))
        for name in names:
            module = importlib.import_module(f"palmish.{name}.{DESCRIPTOR_MODULE}")
            game = getattr(module, "GAME", None)
            if not isinstance(game, GameDescriptor):
                raise RegistryError(f"{module.__name__}: GAME is not a GameDescriptor")
            found.append(game)
    return found


def _check(found: list[GameDescriptor]) -> list[GameDescriptor]:
    """The games, once each is good and none shares an id, creator or button."""
    problems = [f"game {g.id!r}: {p}" for g in found for p in g.problems()]
    keys: tuple[tuple[str, Callable[[GameDescriptor], object]], ...] = (
        ("id", lambda g: g.id), ("name", lambda g: g.name.casefold()),
        ("creator", lambda g: g.creator), ("hard button", lambda g: g.hard_button))
    for what, key in keys:
        seen: dict[object, str] = {}
        for game in found:
            value = key(game)
            if value is None:
                continue
            if value in seen:
                problems.append(f"games {seen[value]!r} and {game.id!r} share the {what}"
                                f" {value!r}")
            seen[value] = game.id
    if problems:
        raise RegistryError("; ".join(problems))
    return found
