"""Decoded plugin bitmaps kept across runs: <cache>/pixels/.

Decoding a game's art is most of what a warm start does besides importing
(~14 ms for PalmIshido's board, panel and 36 tiles in pure Python). A bitmap,
once decoded at a density, is kept here as raw RGBA with what it was decoded
from: the plugin file's path, size and modification time, the 'Tbmp' id and
the density. A later run reads it back instead of decoding when all of those
still match; anything else (a changed or replaced plugin, a damaged, short or
foreign file) means decoding again, and the kept copy is rewritten.

One small file per bitmap and density, written when the bitmap is first
decoded. The folder is derived data: deleting it only costs decoding again.
"""

from __future__ import annotations

import contextlib
import json
import os
from pathlib import Path

from PIL import Image

from palmish.device.storage import parse_json, safe_file_stem
from prc_tools.atomic import write_atomic
from prc_tools.bitmap import MAX_FILE_PIXELS
from prc_tools.files import FileProblem, read_regular

FOLDER = "pixels"
MAGIC = b"palmish-pixels 1\n"
MAX_HEADER = 4096
# A kept picture is never larger than a plugin file may decode to: a bigger file
# (or a FIFO, a folder) in its place is not read, it is decoded again.
MAX_KEPT_BYTES = len(MAGIC) + MAX_HEADER + 4 * MAX_FILE_PIXELS


class PixelCache:
    """The kept pictures of one plugin file, as it is now (see the module docstring)."""

    def __init__(self, cache_dir: Path, plugin: Path, stat: os.stat_result) -> None:
        self.folder = cache_dir / FOLDER
        self.plugin = plugin
        self.stamp = [str(plugin), stat.st_size, stat.st_mtime_ns]
        self._prefix = f"{safe_file_stem(plugin.parent.name)}-{safe_file_stem(plugin.stem)}"
        self.hits = 0  # for tests and benchmarks

    def _path(self, id_: int, density: int) -> Path:
        return self.folder / f"{self._prefix}-{id_}-{density}.rgba"

    def get(self, id_: int, density: int) -> Image.Image | None:
        """The kept picture of 'Tbmp' `id_` at `density`, or None (decode it, then `put`)."""
        try:
            data = read_regular(self._path(id_, density), MAX_KEPT_BYTES)
        except (OSError, FileProblem):
            return None
        if not data.startswith(MAGIC):
            return None
        end = data.find(b"\n", len(MAGIC), len(MAGIC) + MAX_HEADER)
        if end < 0:
            return None
        try:
            header = parse_json(data[len(MAGIC):end], MAX_HEADER)
        except ValueError:
            return None
        if not isinstance(header, dict) or header.get("from") != [*self.stamp, id_, density]:
            return None
        size = header.get("size")
        pixels = data[end + 1:]
        if (not isinstance(size, list) or len(size) != 2
                or not all(isinstance(v, int) and v > 0 for v in size)
                or len(pixels) != size[0] * size[1] * 4):
            return None
        self.hits += 1
        return Image.frombytes("RGBA", (size[0], size[1]), pixels)

    def put(self, id_: int, density: int, image: Image.Image) -> None:
        """Keep a picture just decoded (RGBA); a cache that cannot be written is not used."""
        if image.mode != "RGBA" or image.width < 1 or image.height < 1:
            return
        header = json.dumps({"from": [*self.stamp, id_, density], "size": list(image.size)})
        with contextlib.suppress(OSError):
            self.folder.mkdir(parents=True, exist_ok=True)
            write_atomic(self._path(id_, density),
                         MAGIC + header.encode() + b"\n" + image.tobytes(), durable=False)
