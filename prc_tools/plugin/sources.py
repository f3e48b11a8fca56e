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
MAX_SOURCE_PIXELS = 4096 * 4096  # far beyond any Palm screen, still cheap to hold
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
        raise PluginError(f"{path}: not a picture that can be read (not a PNG file)")
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)
            image = Image.open(io.BytesIO(data), formats=["PNG"])
        with image:
            width, height = image.size
            if width * height > MAX_SOURCE_PIXELS:  # checked before decoding the pixels
                raise PluginError(
                    f"{path}: {width}x{height} is too big for a plugin picture"
                    f" (at most {MAX_SOURCE_PIXELS} pixels)"
                )
            image.load()
            rgba: Image.Image = image.convert("RGBA")
            return rgba
    except (OSError, ValueError, SyntaxError, Image.DecompressionBombError) as exc:
        problem = " ".join(plain_message(str(exc)).split())[:200]
        raise PluginError(f"{path}: not a picture that can be read ({problem})") from None
