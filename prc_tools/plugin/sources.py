"""The files a plugin folder names, read safely for `build`.

A manifest names files relative to its folder. Each must resolve inside that
folder (a symlink to /etc/shadow, or a linked sub-folder pointing elsewhere,
is refused), be a regular file (a FIFO would hang the build, /dev/zero would
fill memory) of bounded size, and a picture must really be a PNG, as
docs/plugin-format.md promises. Every problem is a PluginError naming the file.
"""

from __future__ import annotations

import functools
import io
import warnings
from pathlib import Path

from PIL import Image

from prc_tools.errors import PluginError
from prc_tools.files import FileProblem, inside, read_regular
from prc_tools.text import plain_message

MAX_SOURCE_BYTES = 64 * 1024 * 1024  # any one picture, sound or raw file
MAX_SIDE = 4096  # pixels each way: far beyond any Palm screen, still cheap to hold
MAX_SOURCE_PIXELS = MAX_SIDE * MAX_SIDE
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def source_path(folder: Path, name: str) -> Path:
    """`folder / name`, checked to lead to a regular file inside the folder."""
    try:
        path = inside(folder, name, _resolved(folder))
    except FileProblem as exc:
        problem = "no such file" if exc.missing else str(exc)
        raise PluginError(f"{folder / name}: {problem}") from None
    if not path.is_file():
        raise PluginError(f"{path}: not a regular file")
    return path


@functools.lru_cache(maxsize=16)
def _resolved(folder: Path) -> Path | None:
    """The folder with symlinks resolved, once per build (None: `inside` reports why)."""
    try:
        return folder.resolve(strict=True)
    except (OSError, RuntimeError):
        return None


def new_build() -> None:
    """Forget resolved folders: a folder swapped for a link between builds is seen anew."""
    _resolved.cache_clear()


def read_source(folder: Path, name: str, limit: int = MAX_SOURCE_BYTES) -> bytes:
    """The bytes of a file the manifest names (see the module comment for the checks)."""
    path = source_path(folder, name)
    try:
        return read_regular(path, limit)
    except FileProblem as exc:
        raise PluginError(f"{path}: {exc}") from None


def load_png(folder: Path, name: str) -> Image.Image:
    """A picture the manifest names, as RGBA; it must be a PNG of bounded size."""
    return png_image(folder / name, read_source(folder, name))


def png_image(path: Path, data: bytes) -> Image.Image:
    """The PNG file `data` (read from `path`, which messages name) as RGBA."""
    if not data.startswith(PNG_SIGNATURE):
        raise PluginError(f"{path}: not a PNG file (a picture must be saved as PNG)")
    size = png_size(data)
    if size is not None:  # from the header, before Pillow sees a pixel (or a bomb)
        _check_pixels(path, *size)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)
            image = Image.open(io.BytesIO(data), formats=["PNG"])
        with image:
            _check_pixels(path, *image.size)
            image.load()
            rgba: Image.Image = image.convert("RGBA")
            return rgba
    except PluginError:
        raise
    except (OSError, ValueError, SyntaxError, Image.DecompressionBombError) as exc:
        problem = " ".join(plain_message(str(exc)).split())[:200]
        raise PluginError(f"{path}: a damaged or unusual PNG that cannot be read ({problem})"
                          ) from None


def png_size(data: bytes) -> tuple[int, int] | None:
    """A PNG's width and height from its IHDR chunk (None if the header is not there)."""
    if len(data) < 24 or data[12:16] != b"IHDR":
        return None
    return int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")


def _check_pixels(path: Path, width: int, height: int) -> None:
    if width * height > MAX_SOURCE_PIXELS or width > MAX_SIDE or height > MAX_SIDE:
        raise PluginError(
            f"{path}: {width}x{height} pixels is too big for a plugin picture: at most"
            f" {MAX_SIDE}x{MAX_SIDE} (the biggest picture a game draws is its screen, 480x320)"
        )
