"""PalmIshido's plugin resource ids: the one place they are looked up (the schema's
named bitmap and sound ids)."""

from __future__ import annotations

from prc_tools.manifest import GAMES

BITMAP_IDS: dict[str, int] = dict(GAMES["ishido"].bitmap_ids)
SOUND_IDS: dict[str, int] = dict(GAMES["ishido"].sound_ids)
