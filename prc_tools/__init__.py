"""prc_tools: Palm OS databases, bitmaps and sounds, read and written.

``Database``, ``Record`` and ``Resource`` are imported when first asked for, so
that a command that needs none of them (``prc-tools --help``) starts quickly.
"""

from prc_tools.errors import BitmapError, DatabaseError, PluginError, PrcError, SoundError

# Not `from typing import TYPE_CHECKING`: typing costs a quick command 3 ms to load.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from prc_tools.database import Database, Record, Resource

__version__ = "0.1.0"

__all__ = [
    "BitmapError",
    "Database",
    "DatabaseError",
    "PluginError",
    "PrcError",
    "Record",
    "Resource",
    "SoundError",
]


def __getattr__(name: str) -> object:
    if name in ("Database", "Record", "Resource"):
        from prc_tools import database

        return getattr(database, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
