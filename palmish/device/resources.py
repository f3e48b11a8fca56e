"""Where the shipped skins and bundled plugin sources are, installed or not.

A regular install carries them inside the package (palmish/skins, copied there
by the build step in setup.py); an editable install or a source checkout uses
the repository's skins/ folder beside the package.
"""

from __future__ import annotations

import os
from pathlib import Path

import palmish


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


def bundled_plugins_dir() -> Path | None:
    """The folder holding one source folder per bundled plugin."""
    root = skins_dir()
    return root / "plugins" if root is not None else None



def packaged(path: Path) -> bool:
    """Whether `path` lies inside the installed palmish package (whose files only an
    install changes), not in a source tree or a folder named by $PALMISH_SKINS."""
    package = Path(palmish.__file__).resolve().parent
    return path.resolve().is_relative_to(package)
