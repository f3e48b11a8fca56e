"""How long `prc-tools` takes for quick commands, against Perl and a bare Python start.

    .venv/bin/python benchmarks/cli_start.py [--rounds N] [--file SMALL.prc]
        [--plugin PLUGIN.prc] [--against DIR]

Each round runs, in turn: `perl -e 1`, `python -c pass` (this venv's Python),
`prc-tools --help`, `prc-tools info FILE`, `prc-tools info --json FILE`,
`prc-tools verify FILE`, and `info` and `verify` of a plugin database (its
'pINF' read and its game's schema checked). The rounds are interleaved, so a
change in the machine's load weighs on every command alike; a first round, not
counted, writes the byte code and the kept schemas (in a cache folder of the
run's own) as an install's first commands would. FILE defaults to a small
database made here (two bitmaps and a sound), PLUGIN to the bundled Sigmar
board "Slate" (its folder sigmar-board-slate, 7 bitmaps) built here with
`prc-tools build`. Printed for each command: the median and the range (best to
worst) over the rounds of its wall-clock and CPU time (the child's user + system
time, steadier on a shared machine), and its CPU time against bare Python's in the
same round: the ratio of the medians and the range of the rounds' ratios. With ``--against DIR`` (a
folder holding another version of the package, such as
`git archive main prc_tools | tar -x -C DIR`), each prc-tools command also runs
from there, in the same rounds: a before-and-after that the load cannot skew.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _shared import ms_span
from PIL import Image

_HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(_HERE.parent))  # the tree this script is in

from palmish.device.disk.resources import bundled_plugins  # noqa: E402
from prc_tools import Database, Resource, bitmap, database, sound  # noqa: E402
from prc_tools.schema.codes import CACHE_ENV  # noqa: E402


def small_database(path: Path) -> Path:
    """A resource database with two small bitmaps and a short sound."""
    db = Database("Start bench", "data", "Bnch", attributes=database.ATTR_RESOURCE)
    for id_, colour in ((1000, (200, 40, 40)), (1001, (40, 40, 200))):
        picture = Image.new("RGB", (32, 32), colour)
        data = bitmap.encode(picture, depth=8, density=72, compression="scanline")
        db.resources.append(Resource("Tbmp", id_, data))
    wav = sound.wav_bytes(bytes([128, 168, 208, 168, 128, 88, 48, 88]) * 200, rate=11025, bits=8)
    db.resources.append(Resource("wave", 2000, wav))
    path.write_bytes(db.to_bytes())
    return path


SLATE = bundled_plugins().folder("sigmar-board-slate")


def built_plugin(tool: Path, path: Path) -> Path:
    """The bundled Slate board plugin, built with `prc-tools build` (not timed)."""
    subprocess.run([str(tool), "build", "-q", str(SLATE), "-o", str(path)],
                   stdout=subprocess.DEVNULL, check=True)
    return path


# As installed: byte code cached (a first, untimed round writes it).
_ENV = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def timed(command: list[str]) -> tuple[float, float]:
    """Wall-clock and CPU seconds (user + system, from the child's rusage) of one run."""
    start, cpu = time.perf_counter(), _children_cpu()
    subprocess.run(
        command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True, env=_ENV
    )
    return time.perf_counter() - start, _children_cpu() - cpu


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--file", type=Path, help="the database for info and verify")
    parser.add_argument("--plugin", type=Path, help="the plugin database for info and verify")
    parser.add_argument("--against", type=Path, help="a folder holding another prc_tools")
    args = parser.parse_args()
    tool = Path(sys.executable).with_name("prc-tools")
    if not tool.exists():
        print(f"{tool} is missing: install the package (make .venv/.installed)")
        return 1
    with tempfile.TemporaryDirectory() as name:
        _ENV[CACHE_ENV] = str(Path(name) / "cache")
        file = args.file or small_database(Path(name) / "small.prc")
        plugin = args.plugin or built_plugin(tool, Path(name) / "slate.prc")
        commands: dict[str, list[str]] = {}
        perl = shutil.which("perl")
        if perl:
            commands["perl -e 1"] = [perl, "-e", "1"]
        commands["python -c pass"] = [sys.executable, "-c", "pass"]
        commands["prc-tools --help"] = [str(tool), "--help"]
        commands["prc-tools info"] = [str(tool), "info", str(file)]
        commands["prc-tools info --json"] = [str(tool), "info", "--json", str(file)]
        commands["prc-tools verify"] = [str(tool), "verify", str(file)]
        commands["prc-tools info PLUGIN"] = [str(tool), "info", str(plugin)]
        commands["prc-tools verify PLUGIN"] = [str(tool), "verify", str(plugin)]
        if args.against:
            launch = (
                f"import sys; sys.path.insert(0, {str(args.against.resolve())!r}); "
                "from prc_tools.cli import main; sys.argv[0] = 'prc-tools'; sys.exit(main())"
            )
            for label in [label for label in commands if label.startswith("prc-tools")]:
                other = [sys.executable, "-c", launch, *commands[label][1:]]
                commands[f"{label} [against]"] = other
        times: dict[str, list[tuple[float, float]]] = {label: [] for label in commands}
        for command in commands.values():
            timed(command)
        for _ in range(args.rounds):
            for label, command in commands.items():
                times[label].append(timed(command))
    bare = times["python -c pass"]
    print(f"{args.rounds} interleaved rounds; file: {args.file or 'a small database made here'};"
          f" plugin: {args.plugin or f'{SLATE} built here'}; {os.cpu_count()} cores,"
          f" load {os.getloadavg()[0]:.1f}")
    print("ms: median (best-worst) over the rounds; CPU = user + system; CPU against bare"
          " Python's: the medians' ratio (the rounds' ratios)")
    print(f"{'command':>34}  {'wall-clock':>20}  {'CPU':>20}  {'CPU/python':>18}")
    bare_cpu = statistics.median(t[1] for t in bare)
    for label, runs in times.items():
        walls, cpus = [t[0] for t in runs], [t[1] for t in runs]
        ratios = [t[1] / max(b[1], 1e-6) for t, b in zip(runs, bare, strict=True)]
        print(f"{label:>34}  {_ms_range(walls):>20}  {_ms_range(cpus):>20}"
              f"  {statistics.median(cpus) / bare_cpu:5.2f}x ({min(ratios):.2f}-{max(ratios):.2f})")
    return 0


def _ms_range(seconds: list[float]) -> str:
    """The median in ms and the range, as `41.2 (39.8-52.0)`."""
    return f"{statistics.median(seconds) * 1000:.1f} ({ms_span(seconds)})"


if __name__ == "__main__":
    raise SystemExit(main())
