"""A device skin as read before, kept in the data folder: <cache>/skins/.

Reading a skin costs a YAML parse, Pillow's image plugins and two PNG decodes
(~25 ms), and laying a face over the background as GL takes it a few more; a
start shows one face only. So after a skin is read and checked, its YAML
document (as JSON) and each face's bezel as the window draws it (`Face.bezel`:
RGB rows, bottom row first, over the skin's background) are kept, with the
size and modification time of the YAML and of each PNG. A later start whose
files are unchanged re-runs the same checks on the kept document (cheap: no
YAML, no PNG) and reads a face's bezel only when the face is shown; its PNG is
decoded only if something asks for the picture itself.

Anything unexpected (files changed, a kept file missing, damaged or of another
format or palmish version) means the skin is read from its files again and
kept anew; a cache that cannot be written is simply not used.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from palmish import __version__
from palmish.device.storage import parse_json, safe_file_stem
from prc_tools.atomic import write_atomic
from prc_tools.files import FileProblem, read_regular

if TYPE_CHECKING:
    from palmish.frontend.skin import RGB, Picture, Skin

FORMAT = 2
FOLDER = "skins"
MAX_KEPT_JSON = 1024 * 1024
Stamp = list[object]  # [path, size, mtime_ns]


def _stamp(path: Path) -> Stamp | None:
    try:
        stat = path.stat()
    except OSError:
        return None
    return [str(path), stat.st_size, stat.st_mtime_ns]


def _files(cache_dir: Path, skin_path: Path) -> tuple[Path, str]:
    """The kept JSON file and the prefix of the kept pixel files for a skin."""
    stem = safe_file_stem(skin_path.stem)
    return cache_dir / FOLDER / f"{stem}.json", str(cache_dir / FOLDER / stem)


def load(cache_dir: Path, skin_path: Path) -> tuple[object, dict[str, Picture]] | None:
    """The kept YAML document and face pictures (by image file name), or None."""
    kept_json, prefix = _files(cache_dir, skin_path)
    try:
        raw = parse_json(read_regular(kept_json, MAX_KEPT_JSON), MAX_KEPT_JSON)
    except (FileProblem, ValueError):
        return None
    if (not isinstance(raw, dict) or raw.get("format") != FORMAT
            or raw.get("palmish") != __version__ or raw.get("yaml") != _stamp(skin_path)):
        return None
    images = raw.get("images")
    if not isinstance(images, dict):
        return None
    pictures: dict[str, Picture] = {}
    for n, (name, entry) in enumerate(sorted(images.items())):
        if not isinstance(entry, dict):
            return None
        size = entry.get("size")
        if (not isinstance(size, list) or len(size) != 2
                or not all(isinstance(v, int) and v > 0 for v in size)):
            return None
        if entry.get("png") != _stamp(skin_path.parent / name):
            return None  # the picture changed: read the skin again
        bezel = Path(f"{prefix}.{n}.bezel")
        width, height = size
        background = entry.get("background")
        if _size(bezel) != width * height * 3 or not isinstance(background, list):
            return None
        pictures[name] = ((width, height), _reader(bezel, width * height * 3, background))
    return raw.get("document"), pictures


def _size(path: Path) -> int | None:
    try:
        return path.stat().st_size
    except OSError:
        return None


def _reader(bezel: Path, length: int, background: list[object]
            ) -> Callable[[RGB], bytes | None]:
    def read(wanted: RGB) -> bytes | None:
        if list(wanted) != background:
            return None
        try:
            data = read_regular(bezel, length)  # no more than the face's pixels
        except (OSError, FileProblem):
            return None  # gone meanwhile, or not what was kept: the face uses its PNG
        return data if len(data) == length else None

    return read


def save(cache_dir: Path, skin_path: Path, document: object, skin: Skin) -> None:
    """Keep a skin just read from `skin_path` (its YAML `document`, its face pictures)."""
    try:
        same = json.loads(json.dumps(document)) == document
    except (TypeError, ValueError):
        same = False
    if not same or not isinstance(document, dict):
        return  # YAML values JSON would not give back as they are
    kept_json, prefix = _files(cache_dir, skin_path)
    faces = {}
    for orientation in ("portrait", "landscape"):
        face = getattr(skin, orientation)
        part = document.get(orientation)
        if face is not None and isinstance(part, dict) and isinstance(part.get("image"), str):
            faces[part["image"]] = face
    images = {}
    with contextlib.suppress(OSError):  # only a cache: unwritable means not kept
        kept_json.parent.mkdir(parents=True, exist_ok=True)
        for n, (name, face) in enumerate(sorted(faces.items())):
            png = _stamp(skin_path.parent / name)
            if png is None:
                return
            write_atomic(Path(f"{prefix}.{n}.bezel"), face.bezel(skin.background),
                         durable=False)
            images[name] = {"size": list(face.size), "png": png,
                            "background": list(skin.background)}
        kept = {"format": FORMAT, "palmish": __version__, "yaml": _stamp(skin_path),
                "images": images, "document": document}
        # Written last: a kept JSON names pixel files already in place.
        write_atomic(kept_json, json.dumps(kept, sort_keys=True).encode(), durable=False)
