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

from palmish.device.storage import parse_json
from prc_tools.atomic import write_atomic
from prc_tools.files import FileProblem, read_regular

FOLDER = "network"
IDENTITY = "identity.json"
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
    """This device's secret for sitting as `name`, made once and kept: a
    joiner killed and started again with the same name and folder sends it
    again and gets its seat back."""
    path = data_dir / FOLDER / IDENTITY
    try:
        kept = _read(path)
    except ValueError:
        kept = None  # a damaged file: a new token (the old seat needs the host to wait)
    tokens = kept.get("tokens") if isinstance(kept, dict) else None
    if not isinstance(tokens, dict):
        tokens = {}
    token = tokens.get(name)
    if isinstance(token, str) and len(token) == 32 and all(c in "0123456789abcdef" for c in token):
        return token
    tokens[name] = secrets.token_hex(16)
    _write(path, {"tokens": tokens})
    return str(tokens[name])


def load_host_game(data_dir: Path) -> Any:
    """The host's saved table (see HostTable.snapshot), or None."""
    return _read(data_dir / FOLDER / HOST_GAME)


def save_host_game(data_dir: Path, snapshot: dict[str, Any]) -> None:
    _write(data_dir / FOLDER / HOST_GAME, snapshot)


def forget_host_game(data_dir: Path) -> None:
    (data_dir / FOLDER / HOST_GAME).unlink(missing_ok=True)
