"""Where the Pachisi plugin schema lives (read by prc_tools.schema via an entry point)."""

from pathlib import Path

SCHEMA_PATH = Path(__file__).with_name("plugin-schema.yaml")
