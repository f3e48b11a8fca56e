"""Where the shipped skins and the bundled plugins are, installed or not.

The device skins live in one skins folder: a regular install carries it inside
the package (palmish/skins, copied there by the build step in setup.py); an
editable install or a source checkout uses the repository's skins/ folder beside
the package. The bundled plugins' source folders live beside their games, in
each game package's `plugins/` folder (palmish/<game>/plugins/<game>-board/, ...),
installed or not; the plugins built from them at packaging time are in the
skins folder's `prebuilt/` (palmish.device.store.prebuilt).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import NamedTuple

import palmish

GAME_PLUGINS = "plugins"  # palmish/<game>/plugins/: a game's bundled plugin source folders
PREBUILT = "prebuilt"  # the skins folder's prebuilt/: their builds (palmish.device.store.prebuilt)
MANIFESTS = ("manifest.yaml", "manifest.yml")


class Bundled(NamedTuple):
    """Where the bundled plugins are: the folders that hold their source folders (one
    per game) and the folder of the builds made from them at packaging time."""

    roots: tuple[Path, ...]
    prebuilt: Path | None

    @classmethod
    def of(cls, where: Bundled | Path | None) -> Bundled | None:
        """`where` as a Bundled: a single folder of source folders has its builds in
        the `prebuilt` folder beside it (a test's fixtures, a copied tree)."""
        if where is None or isinstance(where, Bundled):
            return where
        return cls((where,), where.parent / PREBUILT)

    def folders(self) -> list[Path]:
        """Every buildable source folder (one with a manifest), by folder name."""
        found = [p for root in self.roots if root.is_dir() for p in root.iterdir()
                 if p.is_dir() and has_manifest(p)]
        return sorted(found, key=lambda p: (p.name, p))

    def folder(self, name: str) -> Path:
        """The source folder called `name` (FileNotFoundError when there is none)."""
        for root in self.roots:
            if has_manifest(root / name):
                return root / name
        raise FileNotFoundError(f"no bundled plugin folder {name}")


def has_manifest(folder: Path) -> bool:
    """Whether `folder` is a plugin (or data) source folder the packer can build."""
    return any((folder / name).is_file() for name in MANIFESTS)


def skins_dir() -> Path | None:
    """The skins folder: $PALMISH_SKINS, the installed package data, or the checkout's."""
    override = os.environ.get("PALMISH_SKINS")
    if override:
        return Path(override)
    # The package's own folder (importlib.resources.files says the same for a package
    # on disk, at ~7 ms a start; a zipped package has no skins folder to use anyway).
    packaged = Path(palmish.__file__).resolve().parent / "skins"
    if packaged.is_dir():
        return packaged
    checkout = Path(__file__).resolve().parents[2] / "skins"
    if checkout.is_dir():
        return checkout
    return None


def game_plugin_folders() -> tuple[Path, ...]:
    """Each game package's plugins/ folder, by package name (a folder scan of the
    palmish package, as the game registry finds the games' descriptors)."""
    found = []
    for where in palmish.__path__:
        with os.scandir(where) as entries:
            found += [Path(e.path, GAME_PLUGINS) for e in entries
                      if e.is_dir() and os.path.isdir(os.path.join(e.path, GAME_PLUGINS))]
    return tuple(sorted(found, key=lambda p: p.parent.name))


def bundled_plugins() -> Bundled:
    """The bundled plugins of this palmish: every game's plugins/ folder, and the
    skins folder's prebuilt/ (None without a skins folder: each is built when used)."""
    skins = skins_dir()
    return Bundled(game_plugin_folders(), skins / PREBUILT if skins is not None else None)



def packaged(path: Path) -> bool:
    """Whether `path` lies inside the installed palmish package (whose files only an
    install changes), not in a source tree or a folder named by $PALMISH_SKINS."""
    package = Path(palmish.__file__).resolve().parent
    return path.resolve().is_relative_to(package)
