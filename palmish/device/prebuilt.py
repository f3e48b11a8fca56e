"""The bundled plugins built when palmish is packaged: skins/prebuilt/, one .prc a folder.

    python -m palmish.device.prebuilt [PLUGINS PREBUILT]

Building the bundled plugin folders (skins/plugins/) gives the same bytes on
every machine, so it is done once, when the package is built: setup.py builds
them into the wheel (palmish/skins/prebuilt/), and `make` into the checkout's
skins/prebuilt/ (a build product, not tracked by git). The device reads a
prebuilt database in place of building its folder into the data folder's
cache, so a first start does no building; a folder without a usable
prebuilt file (a source tree never built, a source file edited since) is
built on first use as before (docs/architecture.md, "Start").

Without arguments: the skins folder palmish uses now (palmish.device.resources).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from palmish.device.storage import safe_file_stem

FOLDER = "prebuilt"  # beside skins/plugins/
MANIFESTS = ("manifest.yaml", "manifest.yml")


def has_manifest(folder: Path) -> bool:
    """Whether `folder` is a plugin (or data) source folder the packer can build."""
    return any((folder / name).is_file() for name in MANIFESTS)


def prebuilt_folder(plugins: Path) -> Path:
    """Where the prebuilt databases of the plugin folders under `plugins` are kept."""
    return plugins.parent / FOLDER


def prebuilt_name(folder: Path) -> str:
    """The file name of a source folder's prebuilt database."""
    return f"{safe_file_stem(folder.name)}.prc"


def source_folders(plugins: Path) -> list[Path]:
    """The buildable folders under `plugins`, by name."""
    return sorted(p for p in plugins.iterdir() if p.is_dir() and has_manifest(p))


def build_all(plugins: Path, target: Path) -> list[Path]:
    """Build every folder under `plugins` into `target`; the files written.

    Each database is a plain Palm database with its seal beside it (NAME.sum,
    palmish.device.kept), so the device uses only a file that reads back whole,
    written by this palmish version. A build of a folder that is gone is removed.
    """
    from palmish.device import kept
    from prc_tools import plugin

    target.mkdir(parents=True, exist_ok=True)
    written = []
    for folder in source_folders(plugins):
        path = target / prebuilt_name(folder)
        if not kept.write_beside(path, plugin.build_folder(folder).to_bytes()):
            raise OSError(f"cannot write {path}")
        written.append(path)
    keep = {*written, *map(kept.sum_path, written)}
    for old in [*target.glob("*.prc"), *target.glob("*.prc" + kept.SUM_SUFFIX)]:
        if old not in keep:
            old.unlink()
    return written


def main(argv: list[str]) -> int:
    from prc_tools import PrcError

    if argv and len(argv) != 2:
        print("usage: python -m palmish.device.prebuilt [PLUGINS PREBUILT]", file=sys.stderr)
        return 2
    if argv:
        plugins, target = Path(argv[0]), Path(argv[1])
    else:
        from palmish.device.resources import bundled_plugins_dir

        found = bundled_plugins_dir()
        if found is None:
            print("palmish: no bundled plugins folder found", file=sys.stderr)
            return 1
        plugins, target = found, prebuilt_folder(found)
    try:
        written = build_all(plugins, target)
    except (PrcError, OSError) as exc:
        print(f"palmish: cannot prebuild the bundled plugins: {exc}", file=sys.stderr)
        return 1
    print(f"{len(written)} bundled plugins built into {os.fspath(target)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
