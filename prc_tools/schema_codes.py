"""The installed games' codes (creator and plugin types), kept across runs.

`verify` must know whether a database without plugin info carries a game's
codes, and finding out loads every installed schema: PyYAML, the schema files
and the games' modules their entry points name, most of a `verify` of a small
file. What `verify` needs from them (each game's creator and types) is kept in
the user's cache folder under a stamp of everything it came from: `sys.path`,
the entry points of the group, and the size and modification time of each
`entry_points.txt`, entry-point module and schema file. Any difference, a
missing, damaged or foreign file, or a cache folder that cannot be written
means the full load, as without a cache (docs/prc-tools.md, "Command line").
"""

from __future__ import annotations

import os
import sys
import zlib
from pathlib import Path

from prc_tools import __version__, schema
from prc_tools.files import FileProblem, read_regular
from prc_tools.schema import ENTRY_POINT_GROUP, Registry, entry_point_sources

# Not `from typing import TYPE_CHECKING`: typing costs a quick command 3 ms to load.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable

CACHE_ENV = "PRC_TOOLS_CACHE_DIR"  # a folder for the cache; empty: keep nothing
FORMAT = f"prc-tools schema codes 1 {__version__}"
MAX_BYTES = 256 * 1024  # a few hundred bytes per game


class GameCodes:
    """Each game's creator and plugin types: enough to tell whether codes are a game's."""

    def __init__(self, games: Iterable[tuple[str, str, frozenset[str]]]) -> None:
        self.games = tuple(games)

    def serve(self, creator: str, type_: str) -> bool:
        """Whether these are a game's creator and one of its plugin types
        (as `Registry.by_codes` finds them)."""
        return any(creator == c and type_ in types for _, c, types in self.games)

    @classmethod
    def of(cls, registry: Registry) -> GameCodes:
        return cls((s.game, s.creator, frozenset(s.types.values())) for s in registry)


def installed_codes() -> GameCodes:
    """The installed games' codes: kept ones when still true, else from the full load
    of the schemas (then kept). SchemaError as `schema.registry()` raises it."""
    if schema.added_files():  # this process's own schemas: not what the stamp describes
        return GameCodes.of(schema.registry())
    folder = cache_folder()
    if folder is None:
        return GameCodes.of(schema.registry())
    entries = entry_point_sources(ENTRY_POINT_GROUP)
    stamp = _stamp_lines(entries)
    # A file per stamp: several environments (venvs, checkouts) each keep their own.
    path = folder / f"schema-codes-{zlib.crc32(chr(10).join(stamp).encode()):08x}.txt"
    kept = _read(path, stamp)
    if kept is not None:
        return kept
    installed = schema.registry()
    codes = GameCodes.of(installed)
    _keep(path, stamp, entries, installed, codes)
    return codes


def cache_folder() -> Path | None:
    """`$PRC_TOOLS_CACHE_DIR`, else the platform's user cache folder + prc-tools
    (found as platformdirs finds it, whose import costs a quick command 10 ms)."""
    chosen = os.environ.get(CACHE_ENV)
    if chosen is not None:
        return Path(chosen) if chosen else None
    if sys.platform == "win32":
        base = os.environ.get("LOCALAPPDATA", "")
        return Path(base, "prc-tools", "Cache") if base else None
    home = os.path.expanduser("~")
    if sys.platform == "darwin":
        return Path(home, "Library", "Caches", "prc-tools")
    xdg = os.environ.get("XDG_CACHE_HOME", "")
    if os.path.isabs(xdg):
        return Path(xdg, "prc-tools")
    return Path(home, ".cache", "prc-tools") if os.path.isabs(home) else None


def _hex(text: str | bytes | os.PathLike[str]) -> str:
    return os.fsencode(text).hex()


def _code(code: str) -> str:
    return code.encode("latin-1").hex()


def _stamp_lines(entries: list[tuple[str, str, Path]]) -> list[str]:
    """What the kept codes must have been made under: the format, sys.path, the entries."""
    lines = [FORMAT]
    # '' (`python -c`, `-m`) is the working folder: another folder, another stamp.
    lines += [f"path {_hex(os.path.abspath(folder or os.curdir))}" for folder in sys.path]
    lines += [f"entry {_hex(name)} {_hex(value)}" for name, value, _ in entries]
    return lines


def _file_line(path: str | bytes | os.PathLike[str]) -> str | None:
    try:
        found = os.stat(path)
    except OSError:
        return None
    return f"file {_hex(path)} {found.st_size} {found.st_mtime_ns}"


def _read(path: Path, stamp: list[str]) -> GameCodes | None:
    """The kept codes if the file is whole and every file they came from is unchanged."""
    try:
        lines = read_regular(path, MAX_BYTES).decode("ascii").split("\n")
    except (FileProblem, UnicodeError):  # none yet, a FIFO, too big, not ours
        return None
    if lines[: len(stamp)] != stamp or lines[-1] != "end":
        return None
    games = []
    try:
        for line in lines[len(stamp):-1]:
            word, *fields = line.split(" ")
            if word == "file":
                if _file_line(bytes.fromhex(fields[0])) != line:
                    return None  # changed or gone
            elif word == "game" and len(fields) >= 2:
                game, creator = bytes.fromhex(fields[0]).decode(), _decoded_code(fields[1])
                types = frozenset(_decoded_code(field) for field in fields[2:])
                games.append((game, creator, types))
            else:
                return None
    except (ValueError, IndexError):  # not hex, not UTF-8 (UnicodeError is one)
        return None
    return GameCodes(games)


def _decoded_code(field: str) -> str:
    code = bytes.fromhex(field).decode("latin-1")
    if len(code) != 4:
        raise ValueError(f"not a four-character code: {code!r}")
    return code


def _keep(path: Path, stamp: list[str], entries: list[tuple[str, str, Path]],
          registry: Registry, codes: GameCodes) -> None:
    """Write the kept codes, if every file they came from can be named; a folder that
    cannot be written only means the full load next time too."""
    from prc_tools.atomic import write_atomic

    sources: list[str | os.PathLike[str]] = []
    for name, value, listed_in in entries:
        module = sys.modules.get(value.partition(":")[0].strip())
        found = registry.get(name)
        module_file = getattr(module, "__file__", None)
        if found is None or not isinstance(module_file, str):
            return  # what the entry point gives cannot be stamped
        sources += [listed_in, module_file, found.source]
    files = [_file_line(source) for source in dict.fromkeys(sources)]
    if None in files:
        return
    games = [
        " ".join(["game", _hex(game), _code(creator), *sorted(_code(t) for t in types)])
        for game, creator, types in codes.games
    ]
    text = "\n".join([*stamp, *(line for line in files if line), *games, "end"])
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        write_atomic(path, text.encode("ascii"), durable=False)
    except OSError:
        pass
