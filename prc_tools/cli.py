"""`prc-tools ...`: build, inspect, extract and verify Palm databases."""

from __future__ import annotations

import argparse


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="prc-tools")
    parser.parse_args(argv)
    return 0
