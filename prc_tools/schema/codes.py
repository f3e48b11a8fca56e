"""The installed games' codes and plugin schemas, kept across runs.

`verify` must know whether a database without plugin info carries a game's
codes, and finding out loads every installed schema: PyYAML, the schema files
and the games' modules their entry points name, most of a `verify` of a small
file. What `verify` and `info` need from them (each game's creator and types,
and for a plugin the schemas themselves) is kept in the user's cache
folder under a stamp of everything it came from: `sys.path`, the entry points
of the group, and the size and modification time of each `entry_points.txt`,
entry-point module and schema file. Any difference, a missing, damaged or
foreign file, or a cache folder that cannot be written means the full load, as
without a cache (docs/prc-tools.md, "Command line").
"""

from __future__ import annotations

import os
import sys
import zlib
from pathlib import Path

from prc_tools import __version__, safeyaml, schema
from prc_tools.errors import PluginError
from prc_tools.files import FileProblem, read_regular
from prc_tools.schema import ENTRY_POINT_GROUP, Registry, data_line, entry_point_sources

# Not `from typing import TYPE_CHECKING`: typing costs a quick command 3 ms to load.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable

CACHE_ENV = "PRC_TOOLS_CACHE_DIR"  # a folder for the cache; empty: keep nothing
FORMAT = f"prc-tools schema codes 2 {__version__}"
MAX_BYTES = 1024 * 1024  # a few kB per game (its schema document)


class GameCodes:
    """Each game's creator and plugin types: enough to tell whether codes are a game's.

    `registry()` gives the schemas themselves, for a database that is a plugin.
    """

    def __init__(
        self,
        games: Iterable[tuple[str, str, frozenset[str]]],
        schemas: Registry | None = None,
        kept: Iterable[tuple[str, str, str]] | None = None,
    ) -> None:
        self.games = tuple(games)
        self._schemas = schemas
        self._kept = None if kept is None else tuple(kept)  # (game, source, document line)

    def serve(self, creator: str, type_: str) -> bool:
        """Whether these are a game's creator and one of its plugin types
        (as `Registry.by_codes` finds them)."""
        return any(creator == c and type_ in types for _, c, types in self.games)

    @classmethod
    def of(cls, registry: Registry) -> GameCodes:
        return cls(((s.game, s.creator, frozenset(s.types.values())) for s in registry), registry)

    def registry(self) -> Registry:
        """The installed schemas: from the kept documents when they check (no YAML, no
        game module imported), else the full load. SchemaError as `schema.registry()`."""
        if self._schemas is None:
            kept = self._from_kept()
            self._schemas = kept if kept is not None else schema.registry()
        return self._schemas

    def _from_kept(self) -> Registry | None:
        if self._kept is None:
            return None
        try:
            schemas = [schema.parse(data_line.read(document, safeyaml.MAX_DEPTH), source)
                       for _, source, document in self._kept]
            found = Registry(schemas)
        except (ValueError, PluginError):  # not a kept document, not a schema
            return None
        named = [game for game, _, _ in self._kept]
        codes = {s.game: (s.creator, frozenset(s.types.values())) for s in schemas}
        if named != [s.game for s in schemas] or len(self.games) != len(codes) or any(
            codes.get(game) != (creator, types) for game, creator, types in self.games
        ):
            return None  # not the games whose codes are kept
        return found


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
    if lines[: len(stamp)] != stamp or lines[-1] != _end(lines[:-1]):
        return None
    games = []
    kept: list[tuple[str, str, str]] | None = []
    try:
        for line in lines[len(stamp):-1]:
            word, _, rest = line.partition(" ")
            # A schema line ends with its document, words parted by spaces.
            fields = rest.split(" ", 2 if word == "schema" else -1) if rest else []
            if word == "file":
                if _file_line(bytes.fromhex(fields[0])) != line:
                    return None  # changed or gone
            elif word == "game" and len(fields) >= 2:
                game, creator = bytes.fromhex(fields[0]).decode(), _decoded_code(fields[1])
                types = frozenset(_decoded_code(field) for field in fields[2:])
                games.append((game, creator, types))
            elif word == "schema" and len(fields) == 3 and kept is not None:
                source = os.fsdecode(bytes.fromhex(fields[1]))
                kept.append((bytes.fromhex(fields[0]).decode(), source, fields[2]))
            elif word == "schemas-not-kept" and not fields:
                kept = None
            else:
                return None
    except (ValueError, IndexError):  # not hex, not UTF-8 (UnicodeError is one)
        return None
    return GameCodes(games, kept=kept)


def _end(lines: list[str]) -> str:
    """The last line: `end` and a checksum of the lines before, so damage anywhere shows."""
    return f"end {zlib.crc32(chr(10).join(lines).encode('ascii')):08x}"


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
    lines = [*stamp, *(line for line in files if line), *games, *_schema_lines(registry)]
    text = "\n".join([*lines, _end(lines)])
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        write_atomic(path, text.encode("ascii"), durable=False)
    except OSError:
        pass


def _schema_lines(registry: Registry) -> list[str]:
    """Each schema's YAML document on a line (prc_tools/schema/data_line.py), if all of them
    read back as the very schema loaded; else one line saying they are not kept (a
    plugin then loads them)."""
    lines = []
    for found in registry:
        try:
            document = data_line.write(schema.read_document(found.source))
            if schema.parse(data_line.read(document, safeyaml.MAX_DEPTH), found.source) != found:
                raise ValueError("reads back otherwise")  # changed since it was loaded
        except (ValueError, PluginError):
            return ["schemas-not-kept"]
        lines.append(f"schema {_hex(found.game)} {_hex(found.source)} {document}")
    return lines
