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
    from prc_tools.plugin.build import (
        STALE_AFTER_S,
        WAVE_TYPE,
        MemberKey,
        Progress,
        Warn,
        build_files,
        build_folder,
        encode_bitmap,
        info_bytes,
        stale_members,
        yaml_text,
    )
    from prc_tools.plugin.check import may_be_plugin, read_info, verify

__all__ = [
    "STALE_AFTER_S",
    "WAVE_TYPE",
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

_CHECKING = ("may_be_plugin", "read_info", "verify")


def __getattr__(name: str) -> object:
    if name in _CHECKING:
        from prc_tools.plugin import check

        return getattr(check, name)
    if name in __all__:
        from prc_tools.plugin import build

        return getattr(build, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
