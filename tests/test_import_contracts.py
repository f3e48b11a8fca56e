"""The project's own import-linter contract type (tests/import_contracts.py): it finds
a private name used outside its package, in each form, and allows it inside."""

from __future__ import annotations

from pathlib import Path

from tests.import_contracts import crossings


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

