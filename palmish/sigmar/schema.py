"""Where Sigmar's Garden's plugin schema is (registered for prc_tools in setup.cfg)."""

from pathlib import Path

SCHEMA_PATH = Path(__file__).with_name("plugin-schema.yaml")
