"""The saved game: one versioned JSON record in the app's state database.

The record is `{"v": VERSION, ...the game's fields..., "recorded": bool}`;
`recorded` says the game's result is already in the statistics, so a resumed
finished game is not counted twice. A record that is newer than this app
understands or that does not parse raises `SavedGameError`; the app then sets
the file aside (the device keeps it as `NAME.corrupt-<time>`) and starts anew.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field

from palmish.device.disk.storage import parse_json


class SavedGameError(ValueError):
    """A saved record this app cannot use (the message says why)."""


@dataclass(frozen=True)
class SavedRecord:
    """A saved game as read back: the game's fields, whether it was counted, its version."""

    fields: dict[str, object] = field(default_factory=dict)  # the game's own part
    recorded: bool = False
    version: int = 1


def encode(version: int, fields: dict[str, object], recorded: bool) -> bytes:
    state: dict[str, object] = {"v": version, **fields, "recorded": recorded}
    return json.dumps(state, separators=(",", ":")).encode("utf-8")


def decode(data: bytes, newest: int) -> SavedRecord:
    """Read a record written by `encode` of a version up to `newest`."""
    try:
        # Bounded: a hand-edited record nested 200,000 deep or holding a
        # 5,000-digit number is a damaged record, not a crash (issue 15).
        state = parse_json(data)
    except ValueError as exc:
        raise SavedGameError(f"not a saved-game record: {exc}") from None
    if not isinstance(state, dict):
        raise SavedGameError("not a saved-game record")
    version = state.pop("v", None)
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise SavedGameError("no version number")
    if version > newest:
        raise SavedGameError(f"written by a newer version (record v{version}, "
                             f"this app reads up to v{newest})")
    recorded = state.pop("recorded", False)
    return SavedRecord(state, recorded is True, version)
