"""Plugins: folders (manifest.yaml, PNG, WAV) built into Palm databases, and back.

`build_folder` (prc_tools/plugin/build.py) makes the database a folder
describes (docs/plugin-format.md); `read_info` and `verify`
(prc_tools/plugin/check.py) read one back; prc_tools/plugin/extract.py turns a
database into a folder. The names below load with their module when first
asked for, so `from prc_tools.plugin import pinf` (the emulator's start) does
without the building code.
"""

from __future__ import annotations

# Not `from typing import TYPE_CHECKING`: typing costs a quick command 3 ms to load.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from prc_tools.plugin.bitmaps import STALE_AFTER_S, MemberKey, encode_bitmap, stale_members
    from prc_tools.plugin.build import (
        Progress,
        Warn,
        build_files,
        build_folder,
        info_bytes,
        yaml_text,
    )
    from prc_tools.plugin.check import may_be_plugin, read_info, verify

# Where each name lives (loaded when first asked for).
_HOMES = {
    "build_files": "build", "build_folder": "build", "info_bytes": "build",
    "yaml_text": "build", "Progress": "build", "Warn": "build",
    "may_be_plugin": "check", "read_info": "check", "verify": "check",
    "STALE_AFTER_S": "bitmaps", "MemberKey": "bitmaps", "encode_bitmap": "bitmaps",
    "stale_members": "bitmaps",
}
__all__ = [
    "STALE_AFTER_S",
    "MemberKey",
    "Progress",
    "Warn",
    "build_files",
    "build_folder",
    "encode_bitmap",
    "info_bytes",
    "may_be_plugin",
    "read_info",
    "stale_members",
    "verify",
    "yaml_text",
]


def __getattr__(name: str) -> object:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from importlib import import_module

    return getattr(import_module(f"{__name__}.{home}"), name)
