"""Sigmar's Garden's plugin schema: the file prc_tools reads (registered in setup.cfg
under prc_tools.plugin_schemas), and its ids for the app and the art script."""

from __future__ import annotations

from palmish.sigmar.descriptor import GAME
from prc_tools.schema import Schema, load_file

SCHEMA_PATH = GAME.schema  # the descriptor says where it is
SCHEMA: Schema = load_file(SCHEMA_PATH)
