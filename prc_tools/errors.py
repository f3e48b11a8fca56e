"""The one error type prc_tools raises for bad input.

Every problem a user's file can cause is a PrcError (or a subclass) whose
message is one line naming what is wrong and, when known, where.
"""

from __future__ import annotations


class PrcError(ValueError):
    """Malformed or unsupported input: a database, bitmap, sound, image or plugin folder."""


class DatabaseError(PrcError):
    """A PDB/PRC container that cannot be read."""


class BitmapError(PrcError):
    """A Palm bitmap that cannot be decoded or an image that cannot be encoded."""


class SoundError(PrcError):
    """A WAV file or 'wave' resource that cannot be read or converted."""


class PluginError(PrcError):
    """A plugin folder or manifest that cannot be built."""
