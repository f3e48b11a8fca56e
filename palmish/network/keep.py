"""What the network commands keep in the data folder (docs/network.md,
"Files"): the host's game (with its dice secret, so 0600 among the keys,
palmish/network/session/secretfiles.py), and for Beam the JSON helpers and
its key. All are written by this device from values it made or validated;
nothing received is ever used as a path or written as a file of its own.
A joiner's seats need no file: its seat keys come from the data folder's
identity (palmish/network/session/identity.py); a window keeps the table it
joined (address, code, name; 0600) until it leaves, so a restarted window
offers to rejoin it.
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Callable
from pathlib import Path
from typing import Any, NamedTuple

from palmish.device.addresses import is_port, parse_address
from palmish.device.disk.storage import disk_problem, parse_json
from palmish.network.engine import CANNOT_SAVE, SAVED_AGAIN
from palmish.network.session.identity import keys_folder
from palmish.network.session.secretfiles import FILE_MODE, private_folder, read_secret
from prc_tools.atomic import write_atomic
from prc_tools.files import FileProblem, read_regular

FOLDER = "network"
MAX_FILE = 4 << 20
PORT_FIELD = "listening_port"  # beside a host's snapshot: where it listened
MAX_TABLE = 64  # a kept table's name and player name, at most (they are shorter)


def _quiet(line: str) -> None:
    """No log (a caller that has none)."""


def read_json(path: Path) -> Any:
    """The JSON in `path`, or None when it is missing; ValueError when unusable."""
    try:
        data = read_regular(path, MAX_FILE)
    except FileProblem as err:
        if err.missing:
            return None
        raise ValueError(f"{path}: {err}") from None
    try:
        return parse_json(data, MAX_FILE)
    except ValueError as err:
        raise ValueError(f"{path}: {err}") from None


def write_json(path: Path, value: Any) -> None:
    # Atomic without fsync: a killed process leaves the old or the new file,
    # and a save after every step stays cheap.
    path.parent.mkdir(parents=True, exist_ok=True)
    write_atomic(path, json.dumps(value, indent=1).encode("utf-8") + b"\n", durable=False)


def kept_token(path: Path) -> str:
    """The 32 hex digits kept in `path`, made (and written) the first time."""
    try:
        kept = read_regular(path, 64).decode("ascii").strip()
    except (FileProblem, UnicodeDecodeError):
        kept = ""  # none yet, or damaged: a new one (the old seat then waits for Silicon)
    if len(kept) == 32 and all(c in "0123456789abcdef" for c in kept):
        return kept
    token = secrets.token_hex(16)
    path.parent.mkdir(parents=True, exist_ok=True)
    write_atomic(path, token.encode("ascii") + b"\n", durable=False)
    return token


def host_game_path(data_dir: Path, app: str) -> Path:
    """The host's kept game of app `app` (a registry id, never a received text)."""
    return keys_folder(data_dir) / f"host-{app}.json"


def load_host_game(data_dir: Path, app: str, log: Callable[[str], None] = _quiet) -> Any:
    """The host's saved table (see Table.snapshot), or None (tightened first)."""
    path = host_game_path(data_dir, app)
    data = read_secret(path, MAX_FILE, log)
    if data is None:
        return None
    try:
        return parse_json(data, MAX_FILE)
    except ValueError as err:
        raise ValueError(f"{path}: {err}") from None


def save_host_game(data_dir: Path, app: str, snapshot: dict[str, Any],
                   log: Callable[[str], None] = _quiet, port: int | None = None) -> None:
    """The table's snapshot, and the port it listens on (so that a host started
    again takes the same one when it can, and joiners' retries find it)."""
    # 0600 from the first byte, atomic without fsync: a killed process leaves the
    # old or the new file, and a save after every step stays cheap.
    path = host_game_path(data_dir, app)
    private_folder(path.parent, log)
    value = snapshot if port is None else {**snapshot, PORT_FIELD: port}
    write_atomic(path, json.dumps(value, indent=1).encode("utf-8") + b"\n", durable=False,
                 mode=FILE_MODE)


def kept_port(saved: Any) -> int | None:
    """The port a kept game was hosted on (load_host_game's), or None."""
    port = saved.get(PORT_FIELD) if isinstance(saved, dict) else None
    return port if is_port(port) else None


def forget_host_game(data_dir: Path, app: str) -> None:
    host_game_path(data_dir, app).unlink(missing_ok=True)


class HostSaves:
    """A host's saves after every change, which a refusing disk does not stop
    (docs/network.md, "Trouble"): the first failure is said once (`save`
    returns the line for the host's log and, through `error`, the players),
    the table plays on from memory, and the old save stays as it was; the
    first save that works again is said too."""

    def __init__(self, data_dir: Path, app: str, log: Callable[[str], None] = _quiet) -> None:
        self.data_dir, self.app, self.log = data_dir, app, log
        self.failing: str | None = None  # why the saves fail now, or None

    def save(self, snapshot: dict[str, Any], port: int | None = None) -> str | None:
        """Save `snapshot` (and the port listened on); a line for everyone when the
        saves start or stop failing."""
        try:
            save_host_game(self.data_dir, self.app, snapshot, self.log, port)
        except OSError as err:
            problem = disk_problem(err)
            if problem == self.failing:
                return None
            self.failing = problem
            return f"{CANNOT_SAVE}{problem}; it goes on from memory (the last save is kept)"
        if self.failing is None:
            return None
        self.failing = None
        return SAVED_AGAIN


class KeptTable(NamedTuple):
    """The table this device's window last joined and did not leave (a crash, a
    window closed mid-game): offered again on start, "Rejoin Kitchen's game?"."""

    table: str  # the host's table name ("" until it welcomed this device)
    address: str  # HOST:PORT
    code: str  # the join code (four digits): 0600, among the keys
    name: str | None  # the name sat under; None: watching


def joined_path(data_dir: Path, app: str) -> Path:
    """The table a window joined of app `app` (a registry id, never a received text)."""
    return keys_folder(data_dir) / f"joined-{app}.json"


def load_joined(data_dir: Path, app: str, log: Callable[[str], None] = _quiet
                ) -> KeptTable | None:
    """The kept table, or None (missing, or not what save_joined writes: one log line)."""
    path = joined_path(data_dir, app)
    data = read_secret(path, MAX_FILE, log)
    if data is None:
        return None
    try:
        value: Any = parse_json(data, MAX_FILE)
        kept = KeptTable(value["table"], value["address"], value["code"], value["name"])
        parse_address(kept.address)
    except (ValueError, KeyError, TypeError) as err:
        log(f"{path}: not a kept table ({err}); it is not offered")
        return None
    def short(text: object) -> bool:
        return isinstance(text, str) and len(text) <= MAX_TABLE

    if not (short(kept.table) and short(kept.code) and len(kept.code) == 4
            and kept.code.isdigit() and (kept.name is None or short(kept.name))):
        log(f"{path}: not a kept table; it is not offered")
        return None
    return kept


def save_joined(data_dir: Path, app: str, kept: KeptTable,
                log: Callable[[str], None] = _quiet) -> None:
    path = joined_path(data_dir, app)
    private_folder(path.parent, log)
    write_atomic(path, json.dumps(kept._asdict()).encode("utf-8") + b"\n", durable=False,
                 mode=FILE_MODE)


def forget_joined(data_dir: Path, app: str) -> None:
    joined_path(data_dir, app).unlink(missing_ok=True)
