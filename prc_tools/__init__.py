"""prc_tools: Palm OS databases, bitmaps and sounds, read and written."""

__version__ = "0.1.0"
