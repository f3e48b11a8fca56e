"""`palmish plugins [--data-dir DIR]`: the bundled and installed plugins, one row each."""

from __future__ import annotations

import argparse
from pathlib import Path

from palmish.commands.args import EXIT_OK, add_data_dir, data_dir
from palmish.commands.output import fail
from palmish.device.disk.resources import bundled_plugins
from palmish.device.disk.storage import Storage, report_to_stderr, usable_dir
from palmish.device.store.plugins import PluginRegistry
from prc_tools.text import printable

COLUMNS = ("NAME", "GAME", "KIND", "CONFIGS", "VERSION", "AUTHOR", "WHERE")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_data_dir(parser)


def plugin_registry(folder: Path) -> PluginRegistry | str:
    """The plugins of a data folder, or a one-line problem with that folder."""
    problem = usable_dir(folder)
    if problem:
        return problem
    storage = Storage(folder, report=report_to_stderr)
    return PluginRegistry(storage, bundled_plugins(), storage.report)


def run(args: argparse.Namespace) -> int:
    registry = plugin_registry(data_dir(args))
    if isinstance(registry, str):
        return fail(registry)
    plugins = registry.all()
    if not plugins:
        print("no plugins")
        return EXIT_OK
    rows: list[tuple[str, ...]] = [COLUMNS]
    rows += [
        tuple(printable(cell) for cell in (
            p.name, p.game, p.kind, ",".join(p.configs), str(p.version), p.author, p.source
        ))
        for p in plugins
    ]
    widths = [max(len(row[i]) for row in rows) for i in range(len(COLUMNS))]
    for row in rows:
        print("  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)).rstrip())
    return EXIT_OK
