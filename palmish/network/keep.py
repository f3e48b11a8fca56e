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

from palmish.device.storage import exact_file_stem, parse_json
from prc_tools.atomic import write_atomic
from prc_tools.files import FileProblem, read_regular

FOLDER = "network"
SEATS = "seats"
HOST_GAME = "host-pachisi.json"
MAX_FILE = 4 << 20


def _read(path: Path) -> Any:
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


def _write(path: Path, value: Any) -> None:
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


def load_host_game(data_dir: Path) -> Any:
    """The host's saved table (see HostTable.snapshot), or None."""
    return _read(data_dir / FOLDER / HOST_GAME)


def save_host_game(data_dir: Path, snapshot: dict[str, Any]) -> None:
    _write(data_dir / FOLDER / HOST_GAME, snapshot)


def forget_host_game(data_dir: Path) -> None:
    (data_dir / FOLDER / HOST_GAME).unlink(missing_ok=True)
