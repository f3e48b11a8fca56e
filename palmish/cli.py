"""`palmish ...`: the command line of the emulator."""

from __future__ import annotations

import argparse
import sys

from palmish import __version__


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="palmish", description="A Palm OS-style handheld running retro games."
    )
    parser.add_argument("--version", action="version", version=f"palmish {__version__}")
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    parser.parse_args(argv)
    print("palmish: the emulator window is not built yet", file=sys.stderr)
    return 0
