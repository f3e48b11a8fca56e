"""`prc-tools` loads only what a command needs (docs/prc-tools.md: quick commands).

No timings here (benchmarks/cli_start.py has them): which modules a fresh
interpreter holds after a command is what decides its start-up time.
"""

from __future__ import annotations

import functools
import json
import subprocess
import sys
from pathlib import Path

import pytest
from PIL import Image

from palmish.device.disk.resources import bundled_plugins
from prc_tools import Database, PrcError, Resource, bitmap, database, plugin, speedups

ROOT = Path(__file__).resolve().parents[2]
HEAVY = ("PIL", "yaml", "importlib.metadata", "prc_tools.plugin.manifest",
         "prc_tools.bitmap.encoding")
# Loaded by no quick command: each costs a start 2 ms or more (`info` writes its
# dates from the stored numbers, and `verify` never makes a date).
SLOW_STDLIB = ("typing", "shutil", "json", "datetime")


def _modules_after(*argv: str) -> set[str]:
    """The modules loaded by `prc-tools ARGV` in a fresh interpreter."""
    script = (
        "import contextlib, io, sys\n"
        "from prc_tools.cli import main\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        "    try:\n"
        f"        main({list(argv)!r})\n"
        "    except SystemExit:\n"
        "        pass\n"
        "print(' '.join(sorted(sys.modules)))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True
    )
    return set(done.stdout.splitlines()[-1].split())


@functools.cache
def _pillow_brings() -> tuple[str, ...]:
    """What the pure-Python codecs may load when they check bitmaps: Pillow and the
    standard modules Pillow itself imports (typing among them), which a fresh
    interpreter shows. With the C module running, none of it (docs/prc-tools.md)."""
    if speedups.chosen() is not None:
        return ()
    done = subprocess.run(
        [sys.executable, "-c", "import sys; import PIL.Image; print(' '.join(sys.modules))"],
        capture_output=True, text=True, check=True,
    )
    return ("PIL", *(name for name in SLOW_STDLIB if name in done.stdout.split()))


def _loaded(modules: set[str], name: str) -> bool:
    return any(m == name or m.startswith(name + ".") for m in modules)


@pytest.mark.process
def test_help_loads_no_database_code_pillow_or_yaml() -> None:
    modules = _modules_after("--help")
    unwanted = (*HEAVY, *SLOW_STDLIB, "prc_tools.database")
    assert not [name for name in unwanted if _loaded(modules, name)]


@pytest.mark.process
def test_info_of_a_database_without_plugin_info_needs_no_yaml(tmp_path: Path) -> None:
    db = Database("Plain", "data", "Test", attributes=database.ATTR_RESOURCE)
    picture = Image.new("RGB", (4, 4), (200, 30, 30))
    db.resources.append(Resource("Tbmp", 1000, bitmap.encode(picture, depth=8, density=72)))
    path = tmp_path / "plain.prc"
    db.write(path)
    modules = _modules_after("info", str(path))
    assert _loaded(modules, "prc_tools.database")
    # Bitmaps are checked, not made into images: Pillow only for the pure-Python codecs.
    allowed = _pillow_brings()
    unwanted = (*HEAVY, *SLOW_STDLIB)
    assert not [name for name in unwanted if name not in allowed and _loaded(modules, name)]


@pytest.mark.process
@pytest.mark.parametrize("command", [("info",), ("verify",)])
def test_the_python_codecs_load_only_for_the_compressions_they_run(
    tmp_path: Path, command: tuple[str, ...]
) -> None:
    """The codec table loads with the first bitmap; a codec's Python code only when it
    runs: never with the C module, else only the codecs the file uses."""
    db = Database("Plain", "data", "Test", attributes=database.ATTR_RESOURCE)
    picture = Image.new("RGB", (4, 4), (200, 30, 30))
    data = bitmap.encode(picture, depth=8, density=72, compression="scanline")
    db.resources.append(Resource("Tbmp", 1000, data))
    path = tmp_path / "scanline.prc"
    db.write(path)
    modules = _modules_after(*command, str(path))
    assert _loaded(modules, "prc_tools.bitmap.compression")
    expected = set() if speedups.chosen() is not None else {"prc_tools.bitmap.scanline"}
    python_codecs = {f"prc_tools.bitmap.{name}" for name in ("scanline", "rle", "packbits")}
    assert modules & python_codecs == expected


@pytest.mark.process
@pytest.mark.parametrize("command", [("info",), ("info", "--json"), ("verify",)])
def test_a_record_database_needs_no_codecs(tmp_path: Path, command: tuple[str, ...]) -> None:
    db = Database("Memos", "DATA", "memo", records=[database.Record(b"Buy milk\0")])
    path = tmp_path / "memos.pdb"
    db.write(path)
    _modules_after("verify", str(path))  # keeps the games' codes (the suite's cache folder)
    modules = _modules_after(*command, str(path))
    assert _loaded(modules, "prc_tools.database")
    allowed = ("json",) if "--json" in command else ()
    unwanted = (*HEAVY, *SLOW_STDLIB, "prc_tools.bitmap.compression", "prc_tools.sound", "PIL")
    assert not [name for name in unwanted if name not in allowed and _loaded(modules, name)]


@pytest.mark.process
def test_a_broken_bitmap_shows_in_info_as_in_decode(tmp_path: Path) -> None:
    """`info` checks bitmaps without making images, and still finds every broken one."""
    picture = Image.new("RGB", (24, 9), (10, 200, 30))
    good = bitmap.encode(picture, depth=8, density=72, compression="scanline")
    cut = good[: len(good) - 5]
    with pytest.raises(PrcError) as decoding:
        bitmap.decode(cut)
    db = Database("Broken", "data", "Test", attributes=database.ATTR_RESOURCE)
    db.resources.append(Resource("Tbmp", 1000, cut))
    path = tmp_path / "broken.prc"
    db.write(path)
    done = subprocess.run([sys.executable, "-m", "prc_tools.cli", "info", "--json", str(path)],
                          capture_output=True, text=True, check=True)
    assert json.loads(done.stdout)["resources"][0]["error"] == str(decoding.value)


@pytest.mark.parametrize("name", ["Database", "Record", "Resource"])
def test_the_package_still_offers_its_classes(name: str) -> None:
    import prc_tools

    assert getattr(prc_tools, name) is getattr(database, name)
    with pytest.raises(AttributeError):
        prc_tools.NoSuchName  # noqa: B018


@pytest.mark.process
def test_verify_of_a_database_that_is_no_plugin_loads_no_schema_once_codes_are_kept(
    tmp_path: Path,
) -> None:
    db = Database("Plain", "data", "Test", attributes=database.ATTR_RESOURCE)
    picture = Image.new("RGB", (4, 4), (30, 30, 200))
    db.resources.append(Resource("Tbmp", 1000, bitmap.encode(picture, depth=8, density=72)))
    path = tmp_path / "plain.prc"
    db.write(path)
    _modules_after("verify", str(path))  # keeps the games' codes (the suite's cache folder)
    modules = _modules_after("verify", str(path))
    assert _loaded(modules, "prc_tools.database")
    allowed = _pillow_brings()
    unwanted = (*HEAVY, *SLOW_STDLIB, "palmish", "prc_tools.schema.requirements")
    assert not [name for name in unwanted if name not in allowed and _loaded(modules, name)]


@pytest.mark.process
@pytest.mark.parametrize("command", [("verify",), ("info",), ("info", "--json")])
def test_a_bundled_plugin_needs_no_yaml_once_the_schemas_are_kept(
    tmp_path: Path, command: tuple[str, ...]
) -> None:
    """Its 'pINF' is read by prc_tools/plugin/plain_yaml.py, its game's schema is the kept one."""
    path = tmp_path / "slate.prc"
    plugin.build_folder(bundled_plugins().folder("sigmar-board-slate")).write(path)
    _modules_after("verify", str(path))  # keeps the schemas (the suite's cache folder)
    modules = _modules_after(*command, str(path))
    assert _loaded(modules, "prc_tools.plugin.pinf") and _loaded(modules, "prc_tools.schema")
    allowed = ("json",) if "--json" in command else ()
    allowed += _pillow_brings()
    unwanted = (*HEAVY, *SLOW_STDLIB, "palmish", "prc_tools.sound")  # it has no sounds
    assert not [name for name in unwanted if name not in allowed and _loaded(modules, name)]
