"""The hostile files of issue 15, each run as the user would, under a 2 GB memory limit.

    .venv/bin/python benchmarks/hostile.py

Builds the reported cases in a temporary folder (a 9.6 MB memory-bomb Pieces
plugin, a 'pINF' alias bomb, 65,535 empty resources, 60 s of 384 kHz stereo,
a 200 M-event drag script, /dev/zero and a FIFO as input, deep JSON prefs)
and prints, per command: wall time, exit status
and the first line of stderr. Every case should end in well under 30 s with
one line or success.
"""

from __future__ import annotations

import os
import resource
import struct
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "prc_tools"))

from hostile import empty_resources, memory_bomb_pieces  # noqa: E402

from prc_tools import Database, Record, Resource, sound  # noqa: E402

LIMIT = 2 << 30
LAUGHS = "\n".join(
    ["a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]"]
    + [f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 10)}]" for i in range(1, 12)]
)


def limited() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (LIMIT, LIMIT))


def run(label: str, argv: list[str]) -> None:
    start = time.perf_counter()
    try:
        done = subprocess.run(argv, capture_output=True, text=True, timeout=120,
                              preexec_fn=limited, check=False)
        took = time.perf_counter() - start
        first = (done.stderr.strip().splitlines() or done.stdout.strip().splitlines() or [""])[0]
        lines = len(done.stderr.strip().splitlines())
        print(f"{label:34} {took:6.2f} s  exit {done.returncode}  stderr lines {lines}:"
              f" {first[:110]}")
    except subprocess.TimeoutExpired:
        print(f"{label:34} TIMEOUT after 120 s")


def main() -> None:
    prc = [sys.executable, "-m", "prc_tools.cli"]
    palmish = [sys.executable, "-m", "palmish"]
    with tempfile.TemporaryDirectory() as tmp:
        t = Path(tmp)
        (t / "bomb.prc").write_bytes(memory_bomb_pieces().to_bytes())
        (t / "empty.prc").write_bytes(empty_resources().to_bytes())
        laughs = Database(name="Laughs", type="IsBd", creator="PIsh", attributes=1)
        laughs.resources.append(Resource("pINF", 0, LAUGHS.encode()))
        (t / "laughs.prc").write_bytes(laughs.to_bytes())
        folder = t / "loud"
        folder.mkdir()
        frames = 60 * 384_000
        header = sound.wav_bytes(b"", 384_000, 16, channels=2)
        at = header.index(b"data") + 4
        (folder / "loud.wav").write_bytes(header[:at] + struct.pack("<I", frames * 4)
                                          + bytes(frames * 4))
        (folder / "manifest.yaml").write_text(
            "name: Loud\ngame: ishido\nkind: sound\nversion: 1\nauthor: probe\n"
            "sounds:\n  - {file: loud.wav, id: place}\n")
        (t / "drag.txt").write_text("drag 0 0 300 300 1000\n" * 200_000)
        os.mkfifo(t / "fifo.txt")
        data = t / "data"
        prefs = Database(name="PIsh Prefs", type="pref", creator="PIsh",
                         records=[Record(b"[" * 200_000 + b"]" * 200_000)])
        (data / "databases").mkdir(parents=True)
        (data / "databases" / "PIsh-prefs.pdb").write_bytes(prefs.to_bytes())
        shot = str(t / "shot.png")
        run("verify memory bomb", [*prc, "verify", str(t / "bomb.prc")])
        run("info memory bomb", [*prc, "info", str(t / "bomb.prc")])
        run("extract memory bomb", [*prc, "extract", str(t / "bomb.prc"), "-o", str(t / "o1")])
        run("install memory bomb", [*palmish, "install", str(t / "bomb.prc"), "--data-dir",
                                    str(t / "d1")])
        run("info --json pINF alias bomb", [*prc, "info", "--json", str(t / "laughs.prc")])
        run("verify pINF alias bomb", [*prc, "verify", str(t / "laughs.prc")])
        run("extract 65,535 empty resources", [*prc, "extract", str(t / "empty.prc"), "-o",
                                               str(t / "o2")])
        run("build 60 s of 384 kHz stereo", [*prc, "build", str(folder), "-o",
                                             str(t / "loud.prc"), "-q"])
        run("--events 200 M drag events", [*palmish, "--screenshot", shot, "--events",
                                          str(t / "drag.txt"), "--data-dir", str(t / "d2")])
        run("--events /dev/zero", [*palmish, "--screenshot", shot, "--events", "/dev/zero",
                                   "--data-dir", str(t / "d2")])
        run("--events FIFO", [*palmish, "--screenshot", shot, "--events", str(t / "fifo.txt"),
                              "--data-dir", str(t / "d2")])
        run("prefs nested 200,000 deep", [*palmish, "--screenshot", shot, "--data-dir",
                                          str(data)])
        # The 30000x30000 skin needs a window; tests/frontend/test_skin_hostile.py has it.


if __name__ == "__main__":
    main()
