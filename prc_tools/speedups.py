"""The one place that decides whether prc_tools' C speedups run.

``prc_tools/_speedups.c`` holds C versions of the ScanLine, RLE and PackBits
encoders and decoders, of the pixel-to-palette-index mapping and of the
RGB to RGB565 conversion. It is optional: an install
without a compiler has no ``_speedups`` module, and the pure-Python code runs
instead, giving the same bytes. ``PRC_TOOLS_PURE=1`` in the environment forces
the pure-Python code even when the module is built; tests switch by setting
``native`` to None.
"""

from __future__ import annotations

import os
from collections.abc import Sequence

PURE_VARIABLE = "PRC_TOOLS_PURE"
# Set (to anything but "" or "0") where the module must have been built: CI
# (.ci/run) sets it, so the tests fail there instead of skipping the C code.
REQUIRED_VARIABLE = "PRC_TOOLS_REQUIRE_SPEEDUPS"


def required() -> bool:
    """Whether this environment insists that the C module is built."""
    return os.environ.get(REQUIRED_VARIABLE, "") not in ("", "0")


# Not `from typing import TYPE_CHECKING`: typing costs a quick command 3 ms to load.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Protocol

    from typing_extensions import Buffer

    class Native(Protocol):
        """What prc_tools uses of the C module (the stub prc_tools/_speedups.pyi)."""

        def packbits_encode(self, rows: Sequence[Buffer], unit: int) -> bytes: ...
        def rle_encode(self, rows: Sequence[Buffer]) -> bytes: ...
        def scanline_encode(self, rows: Sequence[Buffer]) -> bytes: ...
        def distinct_keys(self, pixels: Buffer) -> bytes: ...
        def map_keys(self, pixels: Buffer, keys: Buffer, values: Buffer) -> bytes: ...
        def rgb_to_565(self, rgb: Buffer) -> bytes: ...
        def decode(
            self, type_code: int, data: Buffer, pos: int, row_bytes: int, rows: int, unit: int
        ) -> tuple[bytes | None, int, int]: ...


def built() -> Native | None:
    """The C module if this install has it, whatever the environment says."""
    try:
        from prc_tools import _speedups
    except ImportError:
        return None
    return _speedups


def chosen() -> Native | None:
    """The C module unless it is missing or PRC_TOOLS_PURE asks for the pure code:
    what a new process runs."""
    if os.environ.get(PURE_VARIABLE, "") not in ("", "0"):
        return None
    return built()


# None: the pure-Python code runs. Read at each call, so tests can switch it.
native: Native | None = chosen()


def version_note() -> str:
    """What `--version` adds after the version: whether the C module runs and, when it
    is missing, how to get it (a user who finds decoding slow learns why there)."""
    if chosen() is not None:
        return "(C speedups)"
    if built() is not None:
        return f"(pure Python: {PURE_VARIABLE} is set, the C speedups are not used)"
    return ("(pure Python: the C speedups are not built, so decoding and building are"
            " slower; to build them, install a C compiler and the Python headers"
            " (gcc, python3-dev) and reinstall)")
