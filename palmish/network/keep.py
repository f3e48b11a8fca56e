"""What the network commands keep in the data folder (docs/network.md,
"Files"): the joiner's own seat tokens and the host's game. Both are written
by this device from values it made or validated; nothing received is ever
used as a path or written as a file of its own.
"""

from __future__ import annotations

import json
import secrets
from pathlib import Path
from typing import Any

from palmish.device.disk.storage import exact_file_stem, parse_json
from prc_tools.atomic import write_atomic
from prc_tools.files import FileProblem, read_regular

FOLDER = "network"
SEATS = "seats"
MAX_FILE = 4 << 20


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


def seat_token(data_dir: Path, name: str) -> str:
    """This device's secret for sitting as `name`, made once and kept (one file
    per name, so two joiners sharing a folder never overwrite each other's): a
    joiner killed and started again with the same name and folder sends it
    again and gets its seat back."""
    return kept_token(data_dir / FOLDER / SEATS / f"{exact_file_stem(name)}.token")


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


def host_game_file(app: str) -> str:
    """The host's kept game of app `app` (a registry id, never a received text)."""
    return f"host-{app}.json"


def load_host_game(data_dir: Path, app: str) -> Any:
    """The host's saved table (see Table.snapshot), or None."""
    return read_json(data_dir / FOLDER / host_game_file(app))


def save_host_game(data_dir: Path, app: str, snapshot: dict[str, Any]) -> None:
    write_json(data_dir / FOLDER / host_game_file(app), snapshot)


def forget_host_game(data_dir: Path, app: str) -> None:
    (data_dir / FOLDER / host_game_file(app)).unlink(missing_ok=True)
