"""Decoded bitmaps of the bundled plugins, made when palmish is packaged: prebuilt/pixels/.

Decoding a game's art on a fresh install (no cache/pixels/ yet) is most of a
first turn to Wide taken at once (~25 ms for PalmIshido's Wide board and 36
tiles in pure Python). The bundled plugins give the same pictures on every
machine, so the packaging step (palmish.device.store.prebuilt) decodes every
bitmap of every prebuilt database at each density once, and keeps them in
one file per database and density: a sealed file (palmish.device.disk.kept) whose
payload is a JSON line listing the bitmaps (id, width, height, flattened),
then their RGBA pixels one after the other, zlib-compressed (pixel art: ~0.26 MB for all
the bundled art at 144 dpi instead of 7.7 MB; a board and its pieces
decompress in ~1-2 ms).

A file is used only for the database it was made from (its name, size and
CRC-32) and this palmish version; anything else (missing, damaged, another
build) reads as nothing, and the bitmaps are decoded and kept in
cache/pixels/ as before (palmish.device.store.pixel_cache).
"""

from __future__ import annotations

import json
import zlib
from pathlib import Path

from PIL import Image

from palmish.device.disk import kept

FOLDER = "pixels"  # inside the prebuilt folder
DENSITIES = (72, 144)  # every density a device draws at (palmish.device.display)
# Bounds on what a shipped file may hold, checked before anything is decompressed.
MAX_FILE_BYTES = kept.OVERHEAD + (1 << 24)
MAX_PIXEL_BYTES = 1 << 27
MAX_INDEX_BYTES = 1 << 20


def file_path(prebuilt: Path, database: str, density: int) -> Path:
    """Where the pictures of the prebuilt database named `database` at `density` are."""
    return prebuilt / FOLDER / f"{Path(database).stem}-{density}.kept"


def _source(database: str, data: bytes, density: int) -> list[object]:
    return ["pixels", database, len(data), zlib.crc32(data), density]


def write(prebuilt: Path, database: str, data: bytes, density: int,
          pictures: dict[int, Image.Image]) -> Path:
    """Keep `pictures` ('Tbmp' id -> RGBA picture at `density`) of the database `data`
    named `database`; the file written. OSError when it cannot be written."""
    index: list[int] = []
    pixels = bytearray()
    for id_, image in sorted(pictures.items()):
        index += [id_, image.width, image.height]
        pixels += image.tobytes()
    path = file_path(prebuilt, database, density)
    payload = json.dumps(index).encode("ascii") + b"\n" + zlib.compress(bytes(pixels), 9)
    if not kept.write(path, payload, _source(database, data, density)):
        raise OSError(f"cannot write {path}")
    return path


class ShippedPixels:
    """The shipped pictures of one prebuilt database, each density's file read whole
    the first time a picture of it is asked for."""

    def __init__(self, prebuilt: Path, database: str, data: bytes) -> None:
        self._prebuilt = prebuilt
        self._database = database
        self._data = data
        # density -> (pixels, id -> (offset, width, height)); None: no usable file.
        self._files: dict[int, tuple[bytes, dict[int, tuple[int, int, int]]] | None] = {}

    def get(self, id_: int, density: int) -> Image.Image | None:
        """The shipped picture of 'Tbmp' `id_` at `density`, or None."""
        if density not in self._files:
            self._files[density] = self._read(density)
        found = self._files[density]
        if found is None or id_ not in found[1]:
            return None
        pixels, index = found
        offset, width, height = index[id_]
        size = width * height * 4
        return Image.frombytes("RGBA", (width, height), memoryview(pixels)[offset:offset + size])

    def _read(self, density: int) -> tuple[bytes, dict[int, tuple[int, int, int]]] | None:
        found = kept.read(file_path(self._prebuilt, self._database, density),
                          _source(self._database, self._data, density), MAX_FILE_BYTES)
        if found is None:
            return None
        end = found[0].find(b"\n", 0, MAX_INDEX_BYTES)
        try:
            flat = json.loads(found[0][:end]) if end > 0 else None
        except (ValueError, RecursionError):
            return None
        packed = found[0][end + 1:]
        if (not isinstance(flat, list) or len(flat) % 3
                or not all(isinstance(v, int) for v in flat)
                or not all(v > 0 for v in flat[1::3] + flat[2::3])):
            return None
        index: dict[int, tuple[int, int, int]] = {}
        offset = 0
        for at in range(0, len(flat), 3):
            id_, width, height = flat[at:at + 3]
            index[id_] = (offset, width, height)
            offset += width * height * 4
        if offset > MAX_PIXEL_BYTES:
            return None
        inflate = zlib.decompressobj()
        try:
            pixels = inflate.decompress(packed, offset)
        except zlib.error:
            return None
        if len(pixels) != offset or not inflate.eof:
            return None
        return pixels, index
