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
format or palmish version; each is sealed with a checksum by
palmish.device.disk.kept) means the skin is read from its files again and kept
anew; a cache that cannot be written is simply not used.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Protocol

from palmish.device.disk import kept
from palmish.device.disk.storage import safe_file_stem

RGB = tuple[int, int, int]

# A kept face picture: its size, and how to read its bezel (as `Face.bezel` gives it,
# for a background) when first shown; None when that kept copy cannot be used.
Picture = tuple[tuple[int, int], Callable[[RGB], bytes | None]]


class KeptFace(Protocol):
    """What is kept of a skin's face (palmish.frontend.skin.Face)."""

    @property
    def size(self) -> tuple[int, int]: ...

    def bezel(self, background: RGB) -> bytes: ...


FORMAT = 3
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
    raw = kept.read_json(kept_json, [FORMAT, _stamp(skin_path)], MAX_KEPT_JSON)
    if raw is None:
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
        png = _stamp(skin_path.parent / name)
        if entry.get("png") != png:
            return None  # the picture changed: read the skin again
        bezel = Path(f"{prefix}.{n}.bezel")
        width, height = size
        background = entry.get("background")
        if _size(bezel) is None or not isinstance(background, list):
            return None
        pictures[name] = ((width, height), _reader(bezel, width * height * 3, [png, background]))
    return raw.get("document"), pictures


def _size(path: Path) -> int | None:
    try:
        return path.stat().st_size
    except OSError:
        return None


def _reader(bezel: Path, length: int, source: list[object]
            ) -> Callable[[RGB], bytes | None]:
    def read(wanted: RGB) -> bytes | None:
        if list(wanted) != source[1]:
            return None
        # No more than the face's pixels; gone meanwhile, damaged or not what was
        # kept: the face uses its PNG.
        found = kept.read(bezel, source, length + kept.OVERHEAD)
        return found[0] if found is not None and len(found[0]) == length else None

    return read


def save(cache_dir: Path, skin_path: Path, document: object,
         faces: Mapping[str, KeptFace | None], background: RGB) -> None:
    """Keep a skin just read from `skin_path`: its YAML `document`, and its faces
    (by orientation, as the document names them) laid over its `background`."""
    try:
        same = json.loads(json.dumps(document)) == document
    except (TypeError, ValueError):
        same = False
    if not same or not isinstance(document, dict):
        return  # YAML values JSON would not give back as they are
    kept_json, prefix = _files(cache_dir, skin_path)
    by_image: dict[str, KeptFace] = {}
    for orientation, face in faces.items():
        part = document.get(orientation)
        if face is not None and isinstance(part, dict) and isinstance(part.get("image"), str):
            by_image[part["image"]] = face
    images = {}
    for n, (name, face) in enumerate(sorted(by_image.items())):  # unwritable: not kept
        png = _stamp(skin_path.parent / name)
        if png is None or not kept.write(Path(f"{prefix}.{n}.bezel"),
                                         face.bezel(background),
                                         [png, list(background)]):
            return
        images[name] = {"size": list(face.size), "png": png,
                        "background": list(background)}
    # Written last: a kept JSON names pixel files already in place.
    kept.write(kept_json, json.dumps({"images": images, "document": document},
                                     sort_keys=True).encode(), [FORMAT, _stamp(skin_path)])
