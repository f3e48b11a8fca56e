"""Items to beam in the tests: a real plugin and hostile variants of it, a level."""

from __future__ import annotations

from pathlib import Path

from palmish.device.disk.resources import bundled_plugins
from prc_tools import Database, Resource
from prc_tools.plugin import build_folder

ROOT = Path(__file__).resolve().parents[2]
CHERRY = bundled_plugins().folder("ishido-board-square-cherry")
LEVEL_7 = bundled_plugins().folder("sigmar-levels") / "7.dat"


def cherry() -> bytes:
    """The Cherry Board plugin for PalmIshido, built (about 81 KB)."""
    return build_folder(CHERRY).to_bytes()


def _with_resources(data: bytes, change: dict[str, bytes]) -> bytes:
    """The database with the data of its resources of the given types replaced."""
    db = Database.read(data)
    db.resources = [Resource(r.type, r.id, change[r.type]) if r.type in change else r
                    for r in db.resources]
    return db.to_bytes()


def renamed(data: bytes, name: str) -> bytes:
    """The plugin with another name in its header (which `build` would refuse)."""
    db = Database.read(data)
    info = next(r.data for r in db.resources if r.type == "pINF")
    escaped = name.encode("unicode_escape").decode("ascii").replace('"', '\\"')
    new = info.replace(b"name: Cherry Board", f'name: "{escaped}"'.encode("ascii"))
    assert new != info
    return _with_resources(data, {"pINF": new})


def broken_bitmap(data: bytes) -> bytes:
    """A database whose header is good but whose bitmaps do not decode (verify fails)."""
    db = Database.read(data)
    bitmaps = {r.type for r in db.resources if r.type != "pINF"}
    return _with_resources(data, {kind: b"\x00\x10\x00\x10" + b"\xff" * 40 for kind in bitmaps})
