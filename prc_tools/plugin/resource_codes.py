"""What a manifest and the resource-type table (plugin/resources.py) must agree on:
the type codes of the built-in resource types and the manifest lists they are
built from (docs/plugin-format.md). The table's handlers declare themselves
with these; the manifest (plugin/manifest.py) and the bitmap builder
(plugin/bitmaps.py) read them here, below the table, so that neither imports
the table back, and the device's plugin store reads a plugin's pictures and
sounds by them. Imports nothing.
"""

BITMAP_TYPES = ("Tbmp", "tAIB")  # bitmap families; the first is an entry's default
GAME_BITMAP_TYPE = "Tbmp"  # the bitmaps a game's schema names (its rules and sizes); not icons
SOUND_TYPE = "wave"  # a Palm sound: what a game plays
SOUND_TYPES = (SOUND_TYPE,)

BITMAPS_SECTION = "bitmaps"  # the manifest's lists, one per handler that builds
SOUNDS_SECTION = "sounds"
RESOURCES_SECTION = "resources"  # raw resources: any type no handler claims
