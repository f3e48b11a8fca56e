"""The project's own import-linter contract type (tests/import_contracts.py): it finds
a private name used outside its package, in each form, and allows it inside. And the
no-cycles contract (.importlinter) covers every package of palmish and prc_tools,
counting the imports made only for types or inside a function."""

from __future__ import annotations

import configparser
from pathlib import Path

import grimp
import pytest

from tests.import_contracts import crossings

ROOT = Path(__file__).resolve().parent.parent


def write(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = root / "pkg" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return root / "pkg"


def test_a_private_name_is_found_outside_its_package_only(tmp_path: Path) -> None:
    folder = write(tmp_path, {
        "__init__.py": "",
        "a.py": "_hidden = 1\nshown = 2\n",
        "b.py": "from pkg.a import _hidden\nfrom . import a\nx = a._hidden\n",  # its package
        "sub/__init__.py": "from pkg.a import _hidden\n",  # pkg.sub: another package
        "sub/c.py": (
            "from pkg import a\n"
            "import pkg.a as alias\n"
            "import pkg.a\n"
            "from ..a import shown, _hidden as h\n"
            "x = (a._hidden, alias._hidden, pkg.a._hidden, a.__name__, shown, h)\n"
        ),
        "sub/d.py": "from pkg.sub.c import _mine\n_x = 1\nclass K:\n    _y = 2\n",
        "sub/e.py": "from .d import _x\nfrom pkg.sub import d\ny = d._x\n",  # pkg.sub's own
    })
    assert sorted(crossings(folder, "pkg")) == sorted([
        "pkg.sub:1 uses pkg.a._hidden",
        "pkg.sub.c:4 uses pkg.a._hidden",
        "pkg.sub.c:5 uses pkg.a._hidden",
        "pkg.sub.c:5 uses pkg.a._hidden",
        "pkg.sub.c:5 uses pkg.a._hidden",
    ])



def test_no_package_is_left_out_of_the_no_cycles_contract() -> None:
    config = configparser.ConfigParser()
    config.read(ROOT / ".importlinter")
    contract = config["importlinter:contract:no-cycles"]
    assert contract["type"] == "acyclic_siblings"
    assert contract["ancestors"].split() == ["palmish", "prc_tools"]
    assert "skip_descendants" not in contract  # a cycle is mended, never skipped


def test_an_import_for_types_only_or_inside_a_function_is_an_import(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # What the contract reads (grimp's graph) has both, so neither hides a cycle.
    folder = tmp_path / "cycle_probe"
    folder.mkdir()
    (folder / "__init__.py").write_text("")
    (folder / "top.py").write_text("from cycle_probe import low\n")
    (folder / "low.py").write_text(
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n"
        "    from cycle_probe.top import thing\n"
        "def later() -> None:\n"
        "    from cycle_probe import other\n"
    )
    (folder / "other.py").write_text("import cycle_probe.low\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    graph = grimp.build_graph("cycle_probe", cache_dir=None)
    assert graph.direct_import_exists(importer="cycle_probe.low", imported="cycle_probe.top")
    assert graph.direct_import_exists(importer="cycle_probe.low", imported="cycle_probe.other")
