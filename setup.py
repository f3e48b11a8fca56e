"""Build hook: ship the skins/ folder (the device skins) inside the package as
palmish/skins, so a regular (non-editable) install finds them beside its modules.
Editable installs and checkouts use skins/ in place. The bundled plugin sources
live in each game's package (palmish/<game>/plugins/, package data in setup.cfg);
they are built here, into palmish/skins/prebuilt (an editable install: the
checkout's skins/prebuilt, as `make` does), so that no install builds them on
its first start (palmish.device.store.prebuilt).
Also the optional C speedups of prc_tools: built when a compiler is there,
skipped (the pure-Python code runs instead) when not.
Everything else is declared in setup.cfg.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_py import build_py

SKIN_FILES = ("*.yaml", "*.yml", "*.png", "*.wav", "*.bin", "*.txt", "*.md", "*.dat")
# Screenshots of the window, for people reading the repository: not needed at run time.
NOT_SHIPPED = "previews"


HERE = Path(__file__).resolve().parent


def prebuild_plugins(target: Path) -> None:
    """The bundled plugins of this tree built into `target` by its packer (same bytes
    on every machine); when that fails the device builds them on first use."""
    done = subprocess.run([sys.executable, "-m", "palmish.device.store.prebuilt", str(target)],
                          cwd=HERE, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        why = (done.stderr.strip().splitlines() or ["no reason given"])[-1]
        print(f"warning: bundled plugins not prebuilt ({why})", file=sys.stderr)


class BuildPyWithSkins(build_py):
    def run(self) -> None:
        super().run()
        if getattr(self, "editable_mode", False):
            # an editable install reads the checkout's skins/ directly
            prebuild_plugins(HERE / "skins" / "prebuilt")
            return
        source = HERE / "skins"
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
        prebuild_plugins(target / "prebuilt")


# optional: a failed compile is a warning, and prc_tools falls back to Python.
SPEEDUPS = Extension("prc_tools._speedups", ["prc_tools/_speedups.c"], optional=True)

setup(cmdclass={"build_py": BuildPyWithSkins}, ext_modules=[SPEEDUPS])
