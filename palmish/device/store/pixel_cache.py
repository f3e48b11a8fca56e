"""Decoded plugin bitmaps kept across runs: <cache>/pixels/.

Decoding a game's art is most of what a warm start does besides importing
(~14 ms for PalmIshido's board, panel and 36 tiles in pure Python). A bitmap,
once decoded at a density, is kept here as raw RGBA with what it was decoded
from: the plugin file's path, size and modification time, the 'Tbmp' id and
the density. A later run reads it back instead of decoding when all of those
still match; anything else (a changed or replaced plugin, a damaged, short or
foreign file, a flipped bit: palmish.device.disk.kept seals each file with a
checksum) means decoding again, and the kept copy is rewritten.

One small file per bitmap and density. A picture decoded while a frame is
being made is only noted then; the files are written in idle time (the
device's warm-up after the first frame, and at shutdown), so a first start
does not pay for writing the next start's cache. The folder is derived data:
deleting it only costs decoding again.
"""

from __future__ import annotations

import os
from pathlib import Path

from PIL import Image

from palmish.device.disk import kept
from palmish.device.disk.storage import safe_file_stem
from palmish.device.store.shipped_pixels import ShippedPixels
from prc_tools.bitmap import MAX_FILE_PIXELS

FOLDER = "pixels"
# A kept picture is never larger than a plugin file may decode to: a bigger file
# (or a FIFO, a folder) in its place is not read, it is decoded again.
MAX_KEPT_BYTES = kept.OVERHEAD + 4 * MAX_FILE_PIXELS


class PixelCache:
    """The kept pictures of one plugin file, as it is now (see the module docstring)."""

    def __init__(self, cache_dir: Path, plugin: Path, stat: os.stat_result,
                 shipped: ShippedPixels | None = None) -> None:
        self.folder = cache_dir / FOLDER
        self.shipped = shipped  # a prebuilt plugin's pictures decoded when packaged
        self.plugin = plugin
        self.stamp = [str(plugin), stat.st_size, stat.st_mtime_ns]
        self._prefix = f"{safe_file_stem(plugin.parent.name)}-{safe_file_stem(plugin.stem)}"
        self.hits = 0  # for tests and benchmarks
        self._pending: list[tuple[int, int, Image.Image]] = []  # put, not written yet

    def _path(self, id_: int, density: int) -> Path:
        return self.folder / f"{self._prefix}-{id_}-{density}.rgba"

    def get(self, id_: int, density: int) -> Image.Image | None:
        """The kept picture of 'Tbmp' `id_` at `density`, or None (decode it, then `put`):
        the shipped one first (one file per density), then this data folder's."""
        if self.shipped is not None:
            image = self.shipped.get(id_, density)
            if image is not None:
                self.hits += 1
                return image
        found = kept.read(self._path(id_, density), [*self.stamp, id_, density], MAX_KEPT_BYTES)
        if found is None:
            return None
        pixels, meta = found
        size = meta.get("size")
        if (not isinstance(size, list) or len(size) != 2
                or not all(isinstance(v, int) and v > 0 for v in size)
                or len(pixels) != size[0] * size[1] * 4):
            return None
        self.hits += 1
        return Image.frombytes("RGBA", (size[0], size[1]), pixels)

    def put(self, id_: int, density: int, image: Image.Image) -> None:
        """Keep a picture just decoded (RGBA), when `write_pending` is next called."""
        if image.mode != "RGBA" or image.width < 1 or image.height < 1:
            return
        self._pending.append((id_, density, image))

    @property
    def pending(self) -> int:
        """How many pictures are put but not written yet."""
        return len(self._pending)

    def write_pending(self, limit: int | None = None) -> int:
        """Write up to `limit` (None: all) of the pictures put; how many were written.
        A cache that cannot be written is not used (the next run decodes again)."""
        count = len(self._pending) if limit is None else min(limit, len(self._pending))
        for id_, density, image in self._pending[:count]:
            kept.write(self._path(id_, density), image.tobytes(), [*self.stamp, id_, density],
                       {"size": list(image.size)})
        del self._pending[:count]
        return count
