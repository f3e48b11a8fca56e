"""A regular (non-editable) install carries the skins, the bundled plugin sources (in their
games' packages) and the plugins built from them at packaging time, which its first start
uses as they are."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import pytest

from palmish.device.disk.resources import bundled_plugins
from prc_tools import speedups
from prc_tools.schema import registry

pytestmark = pytest.mark.process  # every test here starts another program

ROOT = Path(__file__).resolve().parents[1]


def _build_wheel(tmp_path_factory: pytest.TempPathFactory, env: dict[str, str]) -> Path:
    """A wheel built from a copy of the tracked files (the build leaves the checkout alone)."""
    source = tmp_path_factory.mktemp("source")
    tracked = subprocess.run(
        ["git", "ls-files", "-z"], cwd=ROOT, check=True, capture_output=True
    ).stdout.decode().split("\0")
    for name in filter(None, tracked):
        if (ROOT / name).is_file():
            (source / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, source / name)
    out = tmp_path_factory.mktemp("wheel")
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-build-isolation",
         "-w", str(out), str(source)],
        check=True, capture_output=True, env=env,
    )
    (built,) = out.glob("palmish-*.whl")
    return built


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _build_wheel(tmp_path_factory, dict(os.environ))


def _install(wheel: Path, target: Path) -> dict[str, str]:
    """``wheel`` installed into ``target``; the environment that imports it from there."""
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--target",
         str(target), str(wheel)],
        check=True, capture_output=True,
    )
    env = {**os.environ, "PYTHONPATH": str(target)}
    env.pop("PALMISH_SKINS", None)
    env.pop("PRC_TOOLS_PURE", None)
    return env


def test_the_wheel_carries_skins_and_plugin_sources(wheel: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    assert "palmish/skins/devices/t3.yaml" in names
    assert "palmish/skins/devices/classic.png" in names
    # Every bundled plugin's source files, where they are in the tree: in their game's package.
    sources = {f.relative_to(ROOT).as_posix() for folder in bundled_plugins().folders()
               for f in folder.iterdir()}
    assert sources and sources <= names
    assert any(n.endswith(".wav") for n in sources) and not any("skins/plugins" in n for n in names)
    # prc_tools with its sub-packages
    assert {"prc_tools/bitmap/__init__.py", "prc_tools/plugin/build.py",
            "prc_tools/schema/codes.py"} <= names
    assert "palmish/pachisi/hard-weights.json" in names  # the hard player's learned weights
    # The sample files the schemas' samples: name (`prc-tools new sigmar levels`).
    samples = {item.relative_to(ROOT).as_posix() for schema in registry()
               for sample in schema.samples.values()
               for item in (*(f.path for f in sample.files), sample.about) if item is not None}
    assert samples and samples <= names
    # The C speedups, compiled where this install compiled them (CI insists), with their stub.
    if speedups.built() is not None or speedups.required():
        assert any(n.startswith("prc_tools/_speedups.") and n.endswith(".so") for n in names)
    assert "prc_tools/_speedups.pyi" in names
    assert "prc_tools/_speedups.c" not in names


# Encodes the tall Ishido panel; prints whether C ran and a digest of the bytes.
ENCODE_PANEL = """
import hashlib, sys
from PIL import Image
from prc_tools import bitmap, speedups

panel = Image.open(sys.argv[1])
data = bitmap.encode(panel, depth=8, compression="packbits")
print(speedups.native is not None, hashlib.sha256(data).hexdigest())
"""


def test_without_a_compiler_the_wheel_builds_and_the_pure_python_code_runs(
    tmp_path_factory: pytest.TempPathFactory, tmp_path: Path
) -> None:
    # CC=false: every compile fails, as on a machine with no compiler.
    plain = _build_wheel(tmp_path_factory, {**os.environ, "CC": "false"})
    assert not any("_speedups." in n and n.endswith(".so")
                   for n in zipfile.ZipFile(plain).namelist())
    env = _install(plain, tmp_path / "site")
    # -S and site-packages on the path by hand: the editable install's import
    # hook (a .pth file) would otherwise find the checkout's compiled module.
    env["PYTHONPATH"] += os.pathsep + sysconfig.get_paths()["purelib"]
    panel = bundled_plugins().folder("ishido-board-tall") / "panel.png"
    shown = subprocess.run(
        [sys.executable, "-S", "-c", ENCODE_PANEL, str(panel)],
        cwd=tmp_path, env=env, capture_output=True, text=True, check=True,
    ).stdout.split()
    here = {k: v for k, v in os.environ.items() if k != "PRC_TOOLS_PURE"}
    with_c = subprocess.run(
        [sys.executable, "-c", ENCODE_PANEL, str(panel)],
        cwd=tmp_path, env=here, capture_output=True, text=True, check=True,
    ).stdout.split()
    assert shown[0] == "False"
    # The checkout's own install ran C when it has the module (always in CI).
    assert with_c[0] == str(speedups.built() is not None or speedups.required())
    assert shown[1] == with_c[1]


def test_the_wheel_carries_every_bundled_plugin_prebuilt_as_the_packer_builds_it(
    wheel: Path,
) -> None:
    from prc_tools import Database, plugin

    folders = bundled_plugins().folders()
    shipped = zipfile.ZipFile(wheel)
    names = {n for n in shipped.namelist()
             if n.startswith("palmish/skins/prebuilt/") and n.endswith(".prc")}
    assert names == {f"palmish/skins/prebuilt/{f.name}.prc" for f in folders}
    assert "palmish/skins/prebuilt/headers.kept" in shipped.namelist()
    # Their pictures decoded (palmish.device.store.shipped_pixels), at both densities.
    for name in ("ishido-board-wide", "ishido-pieces-wide", "sigmar-pieces-classic"):
        for density in (72, 144):
            assert f"palmish/skins/prebuilt/pixels/{name}-{density}.kept" in shipped.namelist()
    for folder in folders:
        ours = Database.read(shipped.read(f"palmish/skins/prebuilt/{folder.name}.prc"))
        built = plugin.build_folder(folder)
        # The same bytes but for the build dates (SOURCE_DATE_EPOCH fixes those too).
        ours.created = ours.modified = built.created = built.modified = None
        assert ours.to_bytes() == built.to_bytes(), folder.name


def test_an_installed_copy_uses_its_prebuilt_plugins_on_first_start(
    wheel: Path, tmp_path: Path
) -> None:
    target = tmp_path / "site"
    env = _install(wheel, target)
    data = tmp_path / "data"
    shot = tmp_path / "shot.png"
    for app in ("ishido", "sigmar", "pachisi"):
        run = subprocess.run(
            [sys.executable, "-m", "palmish", "--screenshot", str(shot), "--data-dir",
             str(data), "--app", app],
            cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300,
        )
        assert run.returncode == 0 and run.stderr == "", run.stderr
        assert shot.stat().st_size > 0
    # Nothing was built: every plugin (and Sigmar's levels) came from the package.
    assert list((data / "cache" / "bundled").glob("*.prc")) == []
    # ... and no picture was decoded: all came decoded with the package.
    assert list((data / "cache" / "pixels").glob("*")) == []
    where = subprocess.run(
        [sys.executable, "-c",
         "from palmish.device.disk.resources import skins_dir; print(skins_dir())"],
        cwd=tmp_path, env=env, capture_output=True, text=True, check=True,
    ).stdout.strip()
    assert Path(where).is_relative_to(target)
