"""Pachisi's plugin schema: the file prc_tools reads, and its ids for the app.

setup.cfg registers SCHEMA_PATH in the entry-point group prc_tools.plugin_schemas;
the app and its art take their resource ids from SCHEMA (never parse the YAML).
"""

from __future__ import annotations

from palmish.pachisi.descriptor import GAME
from prc_tools.schema import Schema, load_file

SCHEMA_PATH = GAME.schema  # the descriptor says where it is
SCHEMA: Schema = load_file(SCHEMA_PATH)
