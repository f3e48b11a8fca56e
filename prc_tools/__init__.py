"""prc_tools: Palm OS databases, bitmaps and sounds, read and written."""

from prc_tools.database import Database, Record, Resource
from prc_tools.errors import BitmapError, DatabaseError, PluginError, PrcError, SoundError

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
