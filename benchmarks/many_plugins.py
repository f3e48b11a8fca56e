"""How the device copes with many installed plugins (issue 15 item 8).

    .venv/bin/python benchmarks/many_plugins.py [--plugins 1000]

Builds a data folder with N installed Pieces plugins (copies of the bundled
one under new names, about 224 KB each), then times, as separate
`palmish --screenshot` runs: the first start (the index of installed plugins
is built), a second start (served from the index), opening Preferences and
opening the Plugin Manager in PalmIshido.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from palmish.device.disk.resources import bundled_plugins
from prc_tools import safeyaml
from prc_tools.plugin import build_folder

PIECES = bundled_plugins().folder("ishido-pieces")


def make_folder(data: Path, count: int) -> None:
    source = build_folder(PIECES)
    folder = data / "databases"
    folder.mkdir(parents=True)
    pinf = source.resource("pINF", 0)
    assert pinf is not None
    fields = safeyaml.load(pinf.data, 1 << 16)
    fields.pop("default", None)
    for n in range(count):
        name = f"Many Pieces {n:04d}"
        fields["name"] = name
        pinf.data = safeyaml.dump(fields).encode("utf-8")
        source.name = name
        (folder / f"{name}.prc").write_bytes(source.to_bytes())


def run(data: Path, events: str) -> float:
    with tempfile.TemporaryDirectory() as tmp:
        script = Path(tmp) / "events.txt"
        script.write_text(events)
        start = time.perf_counter()
        done = subprocess.run(
            [sys.executable, "-m", "palmish", "--data-dir", str(data), "--screenshot",
             str(Path(tmp) / "shot.png"), "--events", str(script)],
            capture_output=True, text=True, timeout=600, check=False,
        )
        took = time.perf_counter() - start
    if done.returncode != 0:
        raise RuntimeError(f"palmish failed (exit {done.returncode}): {done.stderr.strip()}")
    return took


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--plugins", type=int, default=1000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        data = Path(tmp) / "data"
        make_folder(data, args.plugins)
        size = sum(p.stat().st_size for p in (data / "databases").iterdir())
        print(f"{args.plugins} installed plugins, {size / 1e6:.0f} MB")
        start = run(data, "")
        print(f"  first start                 {start:6.2f} s")
        again = run(data, "")
        print(f"  second start                {again:6.2f} s")
        prefs = run(data, "menu prefs\n")
        print(f"  start + Preferences         {prefs:6.2f} s  (Preferences {prefs - again:.2f} s)")
        manager = run(data, "menu plugins\n")
        print(f"  start + Plugin Manager      {manager:6.2f} s  (manager {manager - again:.2f} s)")


if __name__ == "__main__":
    main()
