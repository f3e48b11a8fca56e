"""The example game of docs/adding-a-game.md, read from the document itself: its files
(each fenced block whose first line names one), its setup.cfg entry points and its
commands. tests/test_guide.py builds it as written; tests/test_registered_game.py and
tests/network/test_engine_registry.py register it as a program that embeds the
emulator would, under another package name (`embedded`)."""

from __future__ import annotations

import configparser
import importlib
import re
import shlex
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import NamedTuple

import pytest

from palmish.games import GameDescriptor
from prc_tools import schema

ROOT = Path(__file__).resolve().parents[1]
GUIDE = ROOT / "docs" / "adding-a-game.md"
PACKAGE = "palmish.lamps"  # where the document puts the game
FENCE = re.compile(r"^```(\w*)\n(.*?)^```$", re.MULTILINE | re.DOTALL)


class Guide(NamedTuple):
    files: dict[str, str]  # path from the repository root -> the whole file
    entry_points: dict[str, list[tuple[str, str]]]  # setup.cfg: group -> (name, target)
    commands: list[list[str]]  # the shell commands, in order, each split into words


def read_guide(text: str | None = None) -> Guide:
    """The document's blocks: every one is a file, the setup.cfg lines or the commands
    (AssertionError for any other: an example the test does not run could drift)."""
    files: dict[str, str] = {}
    entry_points: dict[str, list[tuple[str, str]]] = {}
    commands: list[list[str]] = []
    for language, body in FENCE.findall(GUIDE.read_text(encoding="utf-8") if text is None
                                        else text):
        first, _, rest = body.partition("\n")
        named = first.removeprefix("# ").split(":")[0].strip()
        if language == "sh":
            commands += [shlex.split(line, comments=True) for line in body.splitlines()]
        elif named == "setup.cfg":
            entry_points.update(_entry_points(rest))
        elif first.startswith("# ") and "/" in named:
            files[named] = rest
        else:
            raise AssertionError(f"a block of {GUIDE.name} that is neither a file nor the"
                                 f" commands: {first!r}")
    return Guide(files, entry_points, [c for c in commands if c])


def _entry_points(text: str) -> dict[str, list[tuple[str, str]]]:
    """`group =` lines, each followed by indented `name = target` lines."""
    found: dict[str, list[tuple[str, str]]] = {}
    group = None
    for line in text.splitlines():
        name, _, target = line.partition("=")
        if not line.startswith(" "):
            group = name.strip()
            found[group] = []
        elif group is not None:
            found[group].append((name.strip(), target.strip()))
    return found


def write_files(guide: Guide, root: Path, package: str = PACKAGE) -> None:
    """The guide's files under `root`, the game's package renamed to `package` (its
    folder and every dotted or slashed mention) when that is not where the guide puts it."""
    for path, text in guide.files.items():
        if package != PACKAGE:
            if not path.startswith(PACKAGE.replace(".", "/") + "/"):
                continue  # only the package itself goes elsewhere
            path = path.replace(PACKAGE.replace(".", "/"), package.replace(".", "/"), 1)
            text = text.replace(PACKAGE, package).replace(
                PACKAGE.replace(".", "/"), package.replace(".", "/"))
        target = root / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text + "\n", encoding="utf-8")


def forget(package: str) -> None:
    """Take the package and its modules out of sys.modules (a later test writes it anew)."""
    for name in [m for m in sys.modules if m == package or m.startswith(f"{package}.")]:
        del sys.modules[name]


def embedded(root: Path, package: str = "lampsgame") -> Iterator[GameDescriptor]:
    """The guide's game as a top-level package under `root` (on sys.path while the
    generator runs), its plugin drawn into `root/plugins` by its own art script:
    the descriptor, for a test to register. For a fixture: `yield from`."""
    write_files(read_guide(), root, package)
    sys.path.insert(0, str(root))
    try:
        importlib.import_module(f"{package}.make_art").main(["--out", str(root / "plugins")])
        yield importlib.import_module(f"{package}.descriptor").GAME
    finally:
        sys.path.remove(str(root))
        forget(package)


def as_written(root: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Guide]:
    """The guide's files under `root`, laid out as in the repository, with `root`'s
    palmish/ folder part of the palmish package (as a new palmish/lamps/ would be) and
    `root` the working folder. For a fixture: `yield from`; afterwards the game is
    gone again (its modules, and its schema if a test added it)."""
    import palmish
    from palmish import games as registry

    guide = read_guide()
    write_files(guide, root)
    monkeypatch.setattr(palmish, "__path__", [*palmish.__path__, str(root / "palmish")])
    monkeypatch.setattr(registry, "_found", None)  # found again, with the new game
    monkeypatch.chdir(root)
    try:
        yield guide
    finally:
        forget(PACKAGE)
        if hasattr(palmish, PACKAGE.rpartition(".")[2]):  # set by importing the game
            delattr(palmish, PACKAGE.rpartition(".")[2])
        for path in schema.added_files():
            if path.is_relative_to(root.resolve()):
                schema.remove_file(path)


def reinstall(guide: Guide) -> None:
    """What `make` does with the guide's setup.cfg lines, for prc_tools: its schema
    entry points, loaded as prc_tools loads an installed one, join the registry."""
    setup = configparser.ConfigParser()
    setup.read(ROOT / "setup.cfg", encoding="utf-8")
    for group, entries in guide.entry_points.items():
        assert group == schema.ENTRY_POINT_GROUP, group
        assert group in setup["options.entry_points"]  # where the guide says to add it
        for _, target in entries:
            module, _, name = target.partition(":")
            schema.add_file(getattr(importlib.import_module(module), name))
