"""`palmish`'s entry point: the console script (setup.cfg), `python -m palmish`, and
a program that embeds the emulator (docs/architecture.md, "Adding a game").
The command line itself is the package palmish/commands/."""

from palmish.commands.main import build_parser, main

__all__ = ["build_parser", "main"]
