"""Where `build` reads a plugin folder's files: the folder on disk, or bytes in memory.

`extract` checks that the folder it is about to write builds back to the same
database before writing it, from the very bytes it will write (docs/prc-tools.md).
"""

from __future__ import annotations

import io
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING, BinaryIO

if TYPE_CHECKING:
    from prc_tools.bitmap import Member


class FolderFiles:
    """The files of a plugin folder on disk; names are relative POSIX paths."""

    def __init__(self, folder: Path) -> None:
        self.folder = Path(folder)

    def path(self, name: str) -> Path:
        """The path a message names for `name`."""
        return self.folder / name

    def is_file(self, name: str) -> bool:
        return self.path(name).is_file()

    def read(self, name: str) -> bytes:
        return self.path(name).read_bytes()

    def open(self, name: str) -> BinaryIO:
        return self.path(name).open("rb")

    def manifest_text(self) -> tuple[str, Path] | None:
        """The manifest's text and path when it is held here, else None (read it from disk)."""
        return None

    def decoded(self, name: str) -> list[Member] | None:
        """The members of bitmap file `name` when they were decoded already, else None."""
        return None


class MemoryFiles(FolderFiles):
    """A folder not written yet: its files' bytes by relative name, and its manifest text."""

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

    def is_file(self, name: str) -> bool:
        return normal(name) in self.files

    def read(self, name: str) -> bytes:
        try:
            return self.files[normal(name)]
        except KeyError:
            raise FileNotFoundError(str(self.path(name))) from None

    def open(self, name: str) -> BinaryIO:
        return io.BytesIO(self.read(name))

    def manifest_text(self) -> tuple[str, Path] | None:
        name, text = self.manifest
        return text, self.folder / name

    def decoded(self, name: str) -> list[Member] | None:
        return self.members.get(normal(name))


def normal(name: str) -> str:
    """A relative name as a manifest's file fields give it ('./a.bin' -> 'a.bin')."""
    return PurePosixPath(name.replace("\\", "/")).as_posix()
