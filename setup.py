"""Build hook: ship the skins/ folder (device skins and bundled plugin sources) inside the
package as palmish/skins, so a regular (non-editable) install finds them with
importlib.resources. Editable installs and checkouts use skins/ in place.
Also the optional C speedups of prc_tools: built when a compiler is there,
skipped (the pure-Python code runs instead) when not.
Everything else is declared in setup.cfg.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_py import build_py

SKIN_FILES = ("*.yaml", "*.yml", "*.png", "*.wav", "*.bin", "*.txt", "*.md", "*.dat")
# Screenshots of the window, for people reading the repository: not needed at run time.
NOT_SHIPPED = "previews"


class BuildPyWithSkins(build_py):
    def run(self) -> None:
        super().run()
        if getattr(self, "editable_mode", False):
            return  # an editable install reads the checkout's skins/ directly
        source = Path(__file__).resolve().parent / "skins"
        target = Path(self.build_lib) / "palmish" / "skins"
        if target.exists():
            shutil.rmtree(target)
        for path in sorted(source.rglob("*")):
            relative = path.relative_to(source)
            wanted = any(path.match(p) for p in SKIN_FILES) and NOT_SHIPPED not in relative.parts
            if path.is_file() and wanted:
                dest = target / relative
                dest.parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(path, dest)


# optional: a failed compile is a warning, and prc_tools falls back to Python.
SPEEDUPS = Extension("prc_tools._speedups", ["prc_tools/_speedups.c"], optional=True)

setup(cmdclass={"build_py": BuildPyWithSkins}, ext_modules=[SPEEDUPS])
