"""`prc-tools new GAME KIND FOLDER` for a kind of data (a game's levels): the sample
files the game's schema names (its `samples:`, prc_tools/schema/samples.py), a
manifest that builds them into a plain database of the kind's type, one raw
resource each, and the schema's note on their format as README.txt.
"""

from __future__ import annotations

from pathlib import Path

from prc_tools.atomic import write_atomic
from prc_tools.errors import PluginError
from prc_tools.files import FileProblem, read_regular
from prc_tools.plugin.build import yaml_text
from prc_tools.schema import Schema
from prc_tools.schema.samples import Sample

MAX_SAMPLE_BYTES = 1024 * 1024  # a level is a few hundred bytes; a resource at most 64 KB
README = "README.txt"


def new_data_folder(schema: Schema, kind: str, folder: Path) -> list[Path]:
    """Write the sample folder; PluginError if `folder` is not empty or a sample
    cannot be read. Returns the files written, the manifest first."""
    sample = schema.samples[kind]
    if folder.exists() and (not folder.is_dir() or any(folder.iterdir())):
        raise PluginError(f"{folder}: already exists and is not an empty folder")
    files = [(item.path.name, item.id, _read(schema, item.path)) for item in sample.files]
    about = _read(schema, sample.about) if sample.about is not None else None
    folder.mkdir(parents=True, exist_ok=True)
    written = [folder / "manifest.yaml"]
    write_atomic(written[0], manifest_text(schema, kind, sample).encode("utf-8"))
    for name, _, data in files:
        write_atomic(folder / name, data)
        written.append(folder / name)
    if about is not None:
        write_atomic(folder / README, about)
        written.append(folder / README)
    return written


def manifest_text(schema: Schema, kind: str, sample: Sample) -> str:
    code = schema.types[kind]
    first = sample.files[0]
    lines = [
        f"# {schema.title} {kind} made by `prc-tools new` ({README} says their format).",
        f"# One {sample.what} a file, each a resource of type {code} with its own id: add one",
        f"# as a line like - {{file: {first.path.name}, type: {code}, id: {first.id}}}.",
        "# Then: prc-tools build FOLDER -o OUT.prc, and palmish install OUT.prc",
        yaml_text({"name": f"My {kind.title()}", "type": code, "creator": schema.creator,
                   "version": 1}).rstrip("\n"),
        "resources:",
    ]
    lines += [f"  - {{file: {item.path.name}, type: {code}, id: {item.id}}}"
              for item in sample.files]
    return "\n".join(lines) + "\n"


def _read(schema: Schema, path: Path) -> bytes:
    try:
        return read_regular(path, MAX_SAMPLE_BYTES)
    except FileProblem as exc:
        raise PluginError(f"{schema.source}: samples: {path}: {exc}") from None
