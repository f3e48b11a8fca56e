"""What `prc-tools new` prints: the games and kinds (`--list`), and the folder made."""

from __future__ import annotations

from pathlib import Path

from prc_tools.errors import PluginError
from prc_tools.plugin.pinf import GRID_KINDS, LANDSCAPE
from prc_tools.schema import Registry, Schema
from prc_tools.schema.sizes import slots_text
from prc_tools.studio.catalog import (
    cell_for,
    default_configs,
    kinds,
    pictures,
    sounds,
)
from prc_tools.studio.samples import README, new_data_folder
from prc_tools.studio.templates import new_folder


def kinds_text(schemas: Registry) -> str:
    """One line per game and kind: what it holds and its cell in each slot."""
    lines = []
    for schema in schemas:
        lines.append(f"{schema.game} ({schema.title}):")
        for kind in kinds(schema):
            sample = schema.samples.get(kind)
            if sample is not None:
                many = len(sample.files)
                lines.append(f"  {kind:8} {many} sample {sample.what}{'s' if many > 1 else ''}"
                             f" (a database of {schema.types[kind]} resources; every slot)")
                continue
            count = len(pictures(schema, kind))
            heard = len(sounds(schema, kind))
            what = ", ".join(part for part in (
                f"{count} pictures" if count else "", f"{heard} sounds" if heard else "") if part)
            cells = sorted({(cell_for(schema, kind, (slot,)), slot) for slot in schema.configs
                            if cell_for(schema, kind, (slot,)) is not None})
            grid = ""
            if cells:
                by_cell: dict[tuple[int, int], list[str]] = {}
                for cell, slot in cells:
                    assert cell is not None
                    by_cell.setdefault(cell, []).append(slot)
                grid = "; cell " + ", ".join(f"{c[0]}x{c[1]} in {slots_text(s)}"
                                              for c, s in by_cell.items())
            lines.append(f"  {kind:8} {what}{grid}")
    lines.append("Make one: prc-tools new GAME KIND [--config SLOT] FOLDER")
    return "\n".join(lines)


def new(schemas: Registry, game: str | None, kind: str | None, folder: Path,
        configs: tuple[str, ...], author: str) -> str:
    """Make the folder; the lines to print (what was made and the next steps)."""
    schema = schemas.get(game)
    if schema is None:
        raise PluginError(f"no game {game!r} (one of {', '.join(schemas.games())};"
                          " prc-tools new --list shows their kinds)")
    if kind is None or kind not in kinds(schema):
        raise PluginError(f"{schema.game} has no kind {kind!r} to make (one of"
                          f" {', '.join(kinds(schema))})")
    if kind in schema.samples:
        return _new_data(schema, kind, folder, configs)
    _one_orientation(schema, kind, configs)
    written = new_folder(schema, kind, folder, configs, author)
    served = default_configs(schema, kind, configs)
    cell = cell_for(schema, kind, served)
    grid = f", cells of {cell[0]}x{cell[1]}" if cell is not None else ""
    return (f"{folder}: a {schema.title} {kind} plugin for {slots_text(served)}{grid}:"
            f" {len(written) - 1} files and manifest.yaml\n"
            f"Paint over the pictures (keep their sizes), then see it live:"
            f" palmish preview {folder}\n"
            f"or build it: prc-tools build {folder} -o {_output_name(folder)}")


def _new_data(schema: Schema, kind: str, folder: Path, configs: tuple[str, ...]) -> str:
    """A folder of the kind's sample files (levels): data every slot uses alike."""
    if configs:
        raise PluginError(f"--config: {schema.title} {kind} are data for every"
                          " configuration (leave --config out)")
    written = new_data_folder(schema, kind, folder)
    sample = schema.samples[kind]
    names = ", ".join(p.name for p in written[1:] if p.name != README)
    return (f"{folder}: {schema.title} {kind}: {names}, {README} and manifest.yaml\n"
            f"Edit the {sample.what} ({README} says the format), then see it live:"
            f" palmish preview {folder}\n"
            f"or build it: prc-tools build {folder} -o {_output_name(folder)}")


def _one_orientation(schema: Schema, kind: str, configs: tuple[str, ...]) -> None:
    """Board and Pieces art has one cell shape: a folder serves the portrait slots or
    the landscape one (as build checks), so `new` never makes one that cannot build."""
    if kind not in GRID_KINDS or schema.one_cell_shape:
        return
    landscape = [c for c in configs if c in LANDSCAPE]
    if landscape and len(landscape) != len(configs):
        portrait = " or ".join(c for c in configs if c not in LANDSCAPE)
        raise PluginError(f"--config: a {landscape[0]} {kind} plugin cannot also serve"
                          f" {portrait} (its cells have another shape); make one folder"
                          " for each")


def _output_name(folder: Path) -> str:
    return f"{folder.name or 'plugin'}.prc"


__all__ = ["PluginError", "kinds_text", "new"]
