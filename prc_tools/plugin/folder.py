"""Where `build` reads a plugin folder's files: the folder on disk, or bytes in memory.

`extract` checks that the folder it is about to write builds back to the same
database before writing it, from the very bytes it will write (docs/prc-tools.md),
so it writes one folder and reads nothing back.
"""

from __future__ import annotations

from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING, Protocol

from PIL import Image

from prc_tools.errors import PluginError
from prc_tools.plugin.sources import (
    MAX_SOURCE_BYTES,
    load_png,
    png_image,
    read_source,
    source_path,
)

if TYPE_CHECKING:
    from prc_tools.bitmap import DecodeBudget, Member


class FolderWriter(Protocol):
    """What `extract` offers a resource type writing its resources into the folder
    (`ResourceType.folder_entry`, plugin/resources.py)."""

    budget: DecodeBudget  # the file's, for every bitmap decoded
    members_of: dict[str, list[Member]]  # a bitmap's decoded members, by its original

    def write(self, subdir: str, stem: str, suffix: str, data: bytes) -> str:
        """Keep `data` as a new file of the folder; its name, relative."""


class FolderFiles:
    """The files of a plugin folder on disk (plugin/sources.py checks each); relative names."""

    def __init__(self, folder: Path) -> None:
        self.folder = Path(folder)
        # The size of each game bitmap's picture by id, as built (for the run checks).
        self.sizes: dict[int, tuple[str, tuple[int, int]]] = {}

    def check(self, name: str) -> None:
        """PluginError unless `name` is a file `build` may read."""
        source_path(self.folder, name)

    def read(self, name: str) -> bytes:
        return read_source(self.folder, name)

    def png(self, name: str) -> Image.Image:
        return load_png(self.folder, name)

    def manifest_text(self) -> tuple[bytes, Path] | None:
        """The manifest's bytes and path when they are held here, else None (on disk)."""
        return None

    def decoded(self, name: str) -> list[Member] | None:
        """The members of bitmap file `name` when they were decoded already, else None."""
        return None


class MemoryFiles(FolderFiles):
    """A folder not written yet: its files' bytes by relative name, and its manifest."""

    def __init__(
        self,
        folder: Path,
        files: dict[str, bytes],
        manifest: tuple[str, str],
        decoded: dict[str, list[Member]] | None = None,
    ) -> None:
        super().__init__(folder)
        self.files = {normal(name): data for name, data in files.items()}
        self.manifest = manifest  # (file name, text)
        self.members = {normal(name): m for name, m in (decoded or {}).items()}

    def check(self, name: str) -> None:
        self.read(name)

    def read(self, name: str) -> bytes:
        data = self.files.get(normal(name))
        if data is None:
            raise PluginError(f"{self.folder / name}: no such file")
        if len(data) > MAX_SOURCE_BYTES:  # as on disk
            raise PluginError(f"{self.folder / name}: bigger than {MAX_SOURCE_BYTES} bytes")
        return data

    def png(self, name: str) -> Image.Image:
        return png_image(self.folder / name, self.read(name))

    def manifest_text(self) -> tuple[bytes, Path] | None:
        name, text = self.manifest
        return text.encode("utf-8"), self.folder / name

    def decoded(self, name: str) -> list[Member] | None:
        return self.members.get(normal(name))


def normal(name: str) -> str:
    """A relative name as a manifest's file fields give it ('./a.bin' -> 'a.bin')."""
    if name and "\\" not in name and "//" not in name and "./" not in name and not name.endswith(
        ("/", "/.")
    ):
        return name  # nothing PurePosixPath would change: most names, and it is slow
    return PurePosixPath(name.replace("\\", "/")).as_posix()
