"""The device's storage: a folder of Palm databases in the user's data directory.

Everything that must survive lives here as a database, as on a real Palm:
installed plugins (.prc), each app's preferences and each app's saved state
(.pdb). Writes are atomic (temporary file in the same folder, fsync, rename,
fsync of the folder), so an interrupted save leaves the old or the new file.
A damaged file is moved aside as NAME.corrupt-<time> and reported in one
line; the caller goes on with defaults. A file the system will not let us read
(permissions) is left alone and never overwritten. docs/storage.md has the
layout and the limits.
"""

from __future__ import annotations

import errno
import json
import os
import re
import sys
import time
import zlib
from collections.abc import Callable
from pathlib import Path

from prc_tools import Database, PrcError, Record
from prc_tools.atomic import write_atomic
from prc_tools.files import MAX_INPUT_BYTES, FileProblem, read_regular
from prc_tools.text import plain_message, printable

Reporter = Callable[[str], None]
_DISK_WORDS = {"ENOSPC": "the disk is full", "EDQUOT": "the disk quota is used up",
               "EROFS": "the disk is read-only"}

PREFS_TYPE = "pref"
STATE_TYPE = "save"
# Record 0 of a prefs database: the app's own preferences; record 1: the
# plugin choices the device manages for it (kept apart so neither clobbers the other).
APP_PREFS_RECORD = 0
PLUGIN_CHOICES_RECORD = 1

# Limits on what a hand-edited prefs or state record may hold (docs/storage.md).
MAX_JSON_BYTES = 1024 * 1024
MAX_JSON_DEPTH = 64
MAX_JSON_INT_DIGITS = 100

# The temporary files of write_atomic: `.NAME.prc.XXXXXXXX.tmp` (mkstemp's 8 characters).
_TEMPORARY = re.compile(r"^\..+\.(prc|pdb|pinf|sum)\.[a-z0-9_]{8}\.tmp$", re.IGNORECASE)
_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.DOTALL)
_BRACKET = re.compile(r"[\[\]{}]")


def disk_problem(err: OSError) -> str:
    """What a refused write means for a person: "the disk is full" (ENOSPC), "the
    disk is read-only", or the system's own words."""
    for name, words in _DISK_WORDS.items():
        if err.errno is not None and err.errno == getattr(errno, name, None):
            return words
    return err.strerror or str(err) or type(err).__name__


def parse_json(data: bytes, max_bytes: int = MAX_JSON_BYTES) -> object:
    """A JSON value from a file a user may have edited; ValueError (one line) if unusable.

    Bounded before parsing: size, nesting depth (the stdlib parser recurses
    once per level) and the digits of an integer.
    """
    if len(data) > max_bytes:
        raise ValueError(f"{len(data)} bytes of JSON is too big (at most {max_bytes})")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise ValueError("not UTF-8 text") from None
    depth = deepest = 0
    # No deeper than its opening brackets: most texts need no scan (a beamed chunk's
    # 43 KB of base64 took 1.8 ms to strip of its strings for nothing).
    if text.count("[") + text.count("{") > MAX_JSON_DEPTH:
        for match in _BRACKET.finditer(_STRING.sub('""', text)):
            depth += 1 if match.group() in "[{" else -1
            deepest = max(deepest, depth)
    if deepest > MAX_JSON_DEPTH:
        raise ValueError(f"JSON nested more than {MAX_JSON_DEPTH} levels deep")
    try:
        return json.loads(text, parse_int=_bounded_int)
    except json.JSONDecodeError as exc:
        raise ValueError(f"not JSON ({exc})") from None
    except RecursionError:  # not reached after the depth check; kept for safety
        raise ValueError("JSON nested too deeply") from None


def _bounded_int(digits: str) -> int:
    if len(digits.lstrip("-")) > MAX_JSON_INT_DIGITS:
        raise ValueError(f"a number of {len(digits)} digits (at most {MAX_JSON_INT_DIGITS})")
    return int(digits)


def default_data_dir() -> Path:
    """$XDG_DATA_HOME/palmish when that is set, on any platform; otherwise the
    platform's folder for a user's application data (platformdirs):
    ~/.local/share/palmish on Linux, ~/Library/Application Support/palmish on
    macOS, %LOCALAPPDATA%\\palmish on Windows (docs/storage.md)."""
    xdg = os.environ.get("XDG_DATA_HOME")
    if xdg:
        return Path(xdg) / "palmish"
    import platformdirs  # on first use, not at import

    return Path(platformdirs.user_data_dir("palmish", appauthor=False, roaming=False))


def usable_dir(path: Path) -> str | None:
    """Why `path` cannot be the storage folder, or None if it can (made if missing)."""
    if path.exists() and not path.is_dir():
        return f"{path}: not a folder"
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        return f"{path}: cannot create the data folder: {exc.strerror or exc}"
    return None


def report_to_stderr(message: str) -> None:
    """A notice on stderr; names in it may come from files, so controls are escaped."""
    print(f"palmish: {printable(plain_message(message))}", file=sys.stderr)


def safe_file_stem(text: str) -> str:
    """A file name stem for any database name or creator code: odd characters become %XX."""
    out = []
    for ch in text:
        if ch.isascii() and (ch.isalnum() or ch in "-_ ."):
            out.append(ch)
        else:
            out.extend(f"%{b:02X}" for b in ch.encode("utf-8"))
    stem = "".join(out).strip(" .")
    return stem or "%00"


def exact_file_stem(text: str) -> str:
    """Like safe_file_stem, but different texts never share a stem.

    Nothing is stripped: a leading or trailing dot or space becomes %2E or %20
    ("My Stuff." and "My Stuff" stay apart), as does every other character
    outside letters, digits, '-', '_' and inner dots and spaces.
    """
    last = len(text) - 1
    out = []
    for index, ch in enumerate(text):
        inner = 0 < index < last
        if ch.isascii() and (ch.isalnum() or ch in "-_" or (inner and ch in " .")):
            out.append(ch)
        else:
            out.extend(f"%{b:02X}" for b in ch.encode("utf-8"))
    return "".join(out) or "%"


def installed_file_name(name: str, db_type: str, creator: str) -> str:
    """The file an installed plugin is kept in: one per (name, type, creator).

    `NAME [TYPE-CREATOR].prc`; the codes escape '-' and ']' too, so the part
    in brackets reads back unambiguously.
    """

    def code(text: str) -> str:
        return "".join(
            ch if ch.isascii() and ch.isalnum() else "".join(
                f"%{b:02X}" for b in ch.encode("utf-8")) for ch in text
        )

    return f"{exact_file_stem(name)} [{code(db_type)}-{code(creator)}].prc"


class Storage:
    """The folder of databases, with per-app preferences and saved state."""

    def __init__(
        self,
        data_dir: Path,
        report: Reporter = report_to_stderr,
        durable: bool = True,
        cache_dir: Path | None = None,
    ) -> None:
        self.data_dir = Path(data_dir)
        self.databases_dir = self.data_dir / "databases"
        # Derived files (built bundled plugins); tests may share one between devices.
        self.cache_dir = Path(cache_dir) if cache_dir is not None else self.data_dir / "cache"
        self.report = report
        self.durable = durable
        self._write_failures: set[Path] = set()
        self.write_error: OSError | None = None  # the last save the disk refused, if any
        # Why nothing may be saved here, once known: the folder cannot be written, or
        # another device may have started on it (the lock is no longer ours).
        self.read_only: str | None = None
        self.lock_lost: Callable[[], bool] = lambda: False
        # Files that exist but could not be read (permissions): never replaced,
        # since we could not keep a copy of what they hold.
        self._unreadable: set[Path] = set()

    # ------------------------------------------------------------ databases

    def database_paths(self) -> list[Path]:
        """Every .prc/.pdb in storage, sorted by file name."""
        try:
            entries = list(os.scandir(self.databases_dir))
        except FileNotFoundError:
            return []
        except OSError as exc:  # not a folder, or not ours to list (permissions)
            if self.databases_dir not in self._unreadable:
                self._unreadable.add(self.databases_dir)
                self.report(f"{self.databases_dir}: cannot list: {exc.strerror or exc};"
                            " no installed plugins")
            return []
        return sorted(
            Path(entry.path)
            for entry in entries
            if Path(entry.name).suffix.lower() in (".prc", ".pdb") and _is_file(entry)
        )

    def write_database(self, path: Path, db: Database) -> bool:
        """Save a database atomically; a disk problem is reported (once per file), not raised.

        The device keeps running on a full or read-only disk; the old file stays.
        A file that could not be read is not replaced either.
        """
        if self._refuse_saving():
            return False
        if path in self._unreadable:
            if path not in self._write_failures:
                self._write_failures.add(path)
                self.report(f"{path}: not saved: the file there could not be read, so it"
                            " is left as it is")
            return False
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            write_atomic(path, db.to_bytes(), self.durable)
        except OSError as exc:
            self.write_error = exc
            if path not in self._write_failures:
                self._write_failures.add(path)
                self.report(f"{path}: cannot save: {exc.strerror or exc}")
            return False
        self._write_failures.discard(path)
        return True

    def refuse_saves(self, why: str) -> None:
        """From now on nothing is saved into this folder; `why` is said once, now."""
        if self.read_only is None:
            self.read_only = why
            self.report(f"{self.data_dir}: {why}")

    def _refuse_saving(self) -> bool:
        """True when no save may be written into this folder at all (said once)."""
        if self.read_only is None and self.lock_lost():
            self.refuse_saves("its lock file was removed or replaced, so another palmish"
                              " may be using the folder: nothing more is saved")
        return self.read_only is not None

    def read_database(self, path: Path, then: str = "using defaults") -> Database | None:
        """The database at `path`; None when absent, damaged (then moved aside) or unreadable.

        Damaged: not a Palm database, too big, not a regular file (a FIFO would
        block). Unreadable: the system refuses to open it; it stays where it is
        and is never overwritten.
        """
        try:
            data = read_regular(path, MAX_INPUT_BYTES)
        except FileProblem as exc:
            if exc.missing:
                return None
            if exc.unreadable:
                if path not in self._unreadable:
                    self._unreadable.add(path)
                    self.report(f"{path}: {exc}; left as it is, {then}")
                return None
            self.quarantine(path, str(exc), then)
            return None
        self._unreadable.discard(path)
        try:
            return Database.read(data)
        except PrcError as exc:
            self.quarantine(path, str(exc), then)
            return None

    def quarantine(self, path: Path, problem: str, then: str = "using defaults") -> Path | None:
        """Move a bad file aside as NAME.corrupt-<time> and report it in one line."""
        stamp = time.strftime("%Y%m%dT%H%M%S")
        target = path.with_name(f"{path.name}.corrupt-{stamp}")
        counter = 1
        while target.exists():
            counter += 1
            target = path.with_name(f"{path.name}.corrupt-{stamp}-{counter}")
        try:
            os.replace(path, target)
        except OSError as exc:
            self.report(f"{path}: {problem}; could not move it aside ({exc.strerror or exc})")
            return None
        self.report(f"{path}: {problem}; moved aside to {target.name}, {then}")
        return target

    def set_aside_state(self, creator: str, problem: str, then: str = "starting afresh") -> None:
        """Move the app's saved state aside when the app cannot use the record inside.

        For a record that is damaged or from a newer version: the database is
        fine, so only the app can tell; the file is kept as NAME.corrupt-<time>
        before the app's next save could replace it.
        """
        path = self.state_path(creator)
        if path.exists() and path not in self._unreadable:
            self.quarantine(path, problem, then)
        else:
            self.report(f"{path}: {problem}")

    def remove_stale_temporaries(self) -> list[Path]:
        """Delete the leftovers of interrupted saves (write_atomic's own naming only).

        Only safe while no other process writes here: the device calls it
        after taking the data directory's lock.
        """
        removed = []
        for folder in (self.databases_dir, self.cache_dir / "bundled"):
            try:
                entries = list(os.scandir(folder))
            except OSError:
                continue
            for entry in entries:
                if _TEMPORARY.match(entry.name) and entry.is_file(follow_symlinks=False):
                    try:
                        os.unlink(entry.path)
                    except OSError:
                        continue
                    removed.append(Path(entry.path))
        return removed

    def files_dir(self, creator: str) -> Path:
        """Files an app keeps besides its databases (Sigmar's Garden's user levels)."""
        return self.data_dir / "files" / safe_file_stem(creator)

    # ---------------------------------------------------- prefs and app state

    def prefs_path(self, creator: str) -> Path:
        return self.databases_dir / f"{safe_file_stem(creator)}-prefs.pdb"

    def state_path(self, creator: str) -> Path:
        return self.databases_dir / f"{safe_file_stem(creator)}-state.pdb"

    def load_prefs(self, creator: str) -> dict[str, object]:
        return self._load_json_record(creator, APP_PREFS_RECORD)

    def save_prefs(self, creator: str, prefs: dict[str, object]) -> None:
        self._save_json_record(creator, APP_PREFS_RECORD, prefs)

    def load_plugin_choices(self, creator: str) -> dict[str, object]:
        return self._load_json_record(creator, PLUGIN_CHOICES_RECORD)

    def save_plugin_choices(self, creator: str, choices: dict[str, object]) -> None:
        self._save_json_record(creator, PLUGIN_CHOICES_RECORD, choices)

    def load_state(self, creator: str) -> bytes | None:
        path = self.state_path(creator)
        db = self.read_database(path)
        if db is None:
            return None
        if db.is_resource or db.type != STATE_TYPE or not db.records:
            self.quarantine(path, "not a saved-state database")
            return None
        data = db.records[0].data
        if not _checksum_matches(db.app_info, data):
            self.quarantine(path, "the saved game does not match its checksum (damaged)",
                            "starting afresh")
            return None
        return data

    def save_state(self, creator: str, data: bytes) -> None:
        db = Database(
            name=_db_name(creator, "State"),
            type=STATE_TYPE,
            creator=_code(creator),
            records=[Record(bytes(data), unique_id=1)],
            attributes=_ATTR_BACKUP,
            app_info=_checksum(bytes(data)),
        )
        self.write_database(self.state_path(creator), db)

    # ------------------------------------------------------------- internals

    def _prefs_records(self, creator: str) -> list[bytes]:
        path = self.prefs_path(creator)
        db = self.read_database(path)
        if db is None:
            return []
        if db.is_resource or db.type != PREFS_TYPE:
            self.quarantine(path, "not a preferences database")
            return []
        return [r.data for r in db.records]

    def _load_json_record(self, creator: str, index: int) -> dict[str, object]:
        records = self._prefs_records(creator)
        if index >= len(records) or not records[index]:
            return {}
        try:
            value = parse_json(records[index])
        except ValueError as exc:
            self.quarantine(self.prefs_path(creator), f"record {index}: {exc}")
            return {}
        if not isinstance(value, dict):
            self.quarantine(self.prefs_path(creator), f"record {index} is not a JSON object")
            return {}
        return value

    def _save_json_record(self, creator: str, index: int, value: dict[str, object]) -> None:
        records = self._prefs_records(creator)
        encoded = json.dumps(value, sort_keys=True, separators=(",", ":")).encode("utf-8")
        while len(records) <= index:
            records.append(b"")
        records[index] = encoded
        db = Database(
            name=_db_name(creator, "Prefs"),
            type=PREFS_TYPE,
            creator=_code(creator),
            records=[Record(data, unique_id=i + 1) for i, data in enumerate(records)],
            attributes=_ATTR_BACKUP,
        )
        self.write_database(self.prefs_path(creator), db)


_ATTR_BACKUP = 0x0008
# The saved game's app info: this tag and the CRC-32 of record 0 (docs/storage.md).
# A save without it (written before the checksum) loads as before.
_CHECKSUM_TAG = b"CRC1"


def _checksum(data: bytes) -> bytes:
    return _CHECKSUM_TAG + zlib.crc32(data).to_bytes(4, "big")


def _checksum_matches(app_info: bytes | None, data: bytes) -> bool:
    if app_info is None or len(app_info) != 8 or not app_info.startswith(_CHECKSUM_TAG):
        return True  # an older save, or one from another tool: nothing to check against
    return app_info == _checksum(data)


def _is_file(entry: os.DirEntry[str]) -> bool:
    try:
        return entry.is_file()
    except OSError:
        return False


def _code(creator: str) -> str:
    """A creator usable as a 4-byte code (apps always have one; be lenient for tests)."""
    raw = creator.encode("latin-1", "replace")[:4].ljust(4, b" ")
    return raw.decode("latin-1")


def _db_name(creator: str, what: str) -> str:
    return f"{safe_file_stem(creator)[:20]} {what}"
