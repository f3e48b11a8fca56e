"""The words a plugin header and a game's schema share: the display slots a plugin
may serve and the kinds of plugin every game may have (docs/plugin-format.md).

The plugin header (plugin/pinf.py) checks a plugin against them and a game's
schema (schema/) adds its own kinds after them, so both import them from here,
below both, and neither imports the other for them. Imports nothing.
"""

SLOTS = ("square", "tall", "wide")  # the display slots
KINDS = ("board", "pieces", "sound")  # the kinds every game's plugins may have
