"""The benchmarks' folder holds no file named like a module they import.

Running `python benchmarks/x.py` puts benchmarks/ first on sys.path, so a file
there named like a package (benchmarks/prc_tools.py once was) would be imported
in its place, by the benchmark and by everything it loads; mypy would read it
for the package too. No timings here: the benchmarks measure, tests never do.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.process  # every test here starts another program

BENCHMARKS = Path(__file__).resolve().parents[1] / "benchmarks"

# Which names a plain interpreter of this environment can import (the stdlib, the
# dependencies, palmish and prc_tools), asked in a child: the test run's own
# sys.path holds test folders that no benchmark run has.
FIND = """
import importlib.util, sys

for name in sys.argv[1:]:
    if name in sys.stdlib_module_names or importlib.util.find_spec(name) is not None:
        print(name)
"""


def test_no_benchmark_shadows_an_importable_module(tmp_path: Path) -> None:
    names = sorted(p.stem for p in BENCHMARKS.glob("*.py"))
    assert {"felt_speed", "pieces_plugin"} <= set(names)
    done = subprocess.run([sys.executable, "-I", "-c", FIND, *names, "prc_tools"],
                          capture_output=True, text=True, check=True, cwd=tmp_path)
    assert done.stdout.split() == ["prc_tools"]  # the check itself finds a package
