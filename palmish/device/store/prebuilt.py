"""The bundled plugins built when palmish is packaged: prebuilt/, one .prc a source folder.

    python -m palmish.device.store.prebuilt [PREBUILT [PLUGINS ...]]

Building the bundled plugin folders (each game's plugins/, palmish.device.disk.resources)
gives the same bytes on every machine, so it is done once, when the package is
built: setup.py builds them into the wheel (palmish/skins/prebuilt/), and `make`
into the checkout's skins/prebuilt/ (a build product, not tracked by git). The
device reads a prebuilt database in place of building its folder into the data
folder's cache, so a first start does no building; a folder without a usable
prebuilt file (a source tree never built, a source file edited since) is
built on first use as before (docs/performance.md, "Start-up").

Without PREBUILT: the skins folder's prebuilt/ of the palmish that runs it; without
PLUGINS (folders of source folders): every game's plugins/ folder.
"""

from __future__ import annotations

import base64
import binascii
import contextlib
import json
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from palmish.device.disk import kept
from palmish.device.disk.resources import Bundled, bundled_plugins
from palmish.device.disk.storage import safe_file_stem
from palmish.device.store import shipped_pixels
from palmish.device.store.loaded import decode_bitmap
from prc_tools.plugin.resource_codes import GAME_BITMAP_TYPE

if TYPE_CHECKING:
    from prc_tools import Database

# What a start needs of every prebuilt database (its header and 'pINF'), in one
# sealed file, so that listing the bundled plugins reads one small file, not 27.
HEADERS = "headers.kept"
HEADERS_SOURCE = [HEADERS, 1]
MAX_HEADERS_BYTES = 1 << 22


def prebuilt_name(folder: Path) -> str:
    """The file name of a source folder's prebuilt database."""
    return f"{safe_file_stem(folder.name)}.prc"


def build_all(plugins: Bundled | Path, target: Path | None = None) -> list[Path]:
    """Build every source folder of `plugins` into `target` (by default its prebuilt
    folder); the files written.

    Each database is a plain Palm database with its seal beside it (NAME.sum,
    palmish.device.disk.kept), so the device uses only a file that reads back whole,
    written by this palmish version; their headers go into HEADERS. A build of
    a folder that is gone is removed.
    """
    from prc_tools import plugin

    bundled = Bundled.of(plugins)
    assert bundled is not None
    target = target if target is not None else bundled.prebuilt
    if target is None:
        raise OSError("no folder to build the bundled plugins into")
    folders = bundled.folders()
    names = [f.name for f in folders]
    clash = sorted({name for name in names if names.count(name) > 1})
    if clash:
        raise OSError(f"two bundled plugin folders are called {', '.join(clash)}")
    target.mkdir(parents=True, exist_ok=True)
    written = []
    written_pixels: list[Path] = []
    headers: dict[str, object] = {}
    for folder in folders:
        path = target / prebuilt_name(folder)
        db = plugin.build_folder(folder)
        data = db.to_bytes()
        if not kept.write_beside(path, data):
            raise OSError(f"cannot write {path}")
        written.append(path)
        header = base64.b64encode(header_of(db).to_bytes()).decode("ascii")
        headers[path.name] = {"size": len(data), "header": header}
        written_pixels += write_pixels(target, path.name, db, data)
    if not kept.write(target / HEADERS, json.dumps(headers, sort_keys=True).encode(),
                      HEADERS_SOURCE):
        raise OSError(f"cannot write {target / HEADERS}")
    keep = {*written, *map(kept.sum_path, written), *written_pixels}
    for old in [*target.glob("*.prc"), *target.glob("*.prc" + kept.SUM_SUFFIX),
                *(target / shipped_pixels.FOLDER).glob("*")]:
        if old not in keep:
            old.unlink()
    return written


def write_pixels(target: Path, name: str, db: Database, data: bytes) -> list[Path]:
    """Decode every bitmap of the database `db` (its bytes: `data`, its file: `name`)
    at each density into the shipped pixels (palmish.device.store.shipped_pixels); the
    files written. A bitmap that does not decode is left for the device to report."""
    from prc_tools import PrcError, bitmap

    families = {}
    for res in db.resources if db.is_resource else []:
        if res.type == GAME_BITMAP_TYPE and res.id not in families:
            with contextlib.suppress(PrcError):
                families[res.id] = (res.data, bitmap.headers(res.data))
    if not families:
        return []
    paths = []
    for density in shipped_pixels.DENSITIES:
        pictures = {}
        for id_, (bits, members) in families.items():
            with contextlib.suppress(PrcError):
                pictures[id_] = decode_bitmap(bits, members, density)
        paths.append(shipped_pixels.write(target, name, data, density, pictures))
    return paths


def header_of(db: Database) -> Database:
    """`db` with only what describing it needs: name, type, creator, attributes, 'pINF'."""
    from prc_tools import Database

    info = db.resource("pINF", 0) if db.is_resource else None
    return Database(db.name, db.type, db.creator, attributes=db.attributes,
                    resources=[info] if info is not None else [])


def read_headers(target: Path) -> dict[str, tuple[int, Database]]:
    """File name -> (size, header database) of the builds in `target`, as HEADERS says;
    empty when it is missing, damaged or from another palmish version."""
    from prc_tools import Database, PrcError

    raw = kept.read_json(target / HEADERS, HEADERS_SOURCE, MAX_HEADERS_BYTES)
    if raw is None:
        return {}
    headers = {}
    for name, entry in raw.items():
        if not isinstance(entry, dict):
            continue
        size, header = entry.get("size"), entry.get("header")
        if not isinstance(size, int) or not isinstance(header, str):
            continue
        try:
            headers[name] = (size, Database.read(base64.b64decode(header, validate=True)))
        except (binascii.Error, ValueError, PrcError):
            continue
    return headers


def main(argv: list[str]) -> int:
    from prc_tools import PrcError

    found = bundled_plugins()
    target = Path(argv[0]) if argv else found.prebuilt
    if len(argv) > 1:  # given folders of source folders instead of the games' own
        found = Bundled(tuple(Path(folder) for folder in argv[1:]), target)
    if target is None:
        print("palmish: no skins folder to build the bundled plugins into", file=sys.stderr)
        return 1
    try:
        missing = [os.fspath(root) for root in found.roots if not root.is_dir()]
        if missing:
            raise OSError(f"{missing[0]} is not a folder")
        written = build_all(found, target)
    except (PrcError, OSError) as exc:
        print(f"palmish: cannot prebuild the bundled plugins: {exc}", file=sys.stderr)
        return 1
    print(f"{len(written)} bundled plugins built into {os.fspath(target)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
