"""The hostile files of issues 15 and 22, each run as the user would, under a 2 GB
memory limit (1 GB for the scripted menus).

    .venv/bin/python benchmarks/hostile.py

Builds the reported cases in a temporary folder (a 9.6 MB memory-bomb Pieces
plugin, a 'pINF' alias bomb, 65,535 empty resources, 60 s of 384 kHz stereo,
a 200 M-event drag script, /dev/zero and a FIFO as input, deep JSON prefs;
issue 22: a FIFO and a 3 GB file in cache/bundled/, bit flips in every kept
file, cache/ as a file, 3 GB .prc and .dat installs, a symlinked lock file,
terminal escapes through info, info --json and verify, 20,000 scripted
`menu prefs`) and prints, per command: wall time, exit status, the lines on
stderr and the first of them. Every case should end in well under 30 s with
one line or success; the cache cases with exit 0 and no line.
"""

from __future__ import annotations

import importlib.util
import os
import resource
import shutil
import struct
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

from prc_tools import Database, Record, Resource, sound

ROOT = Path(__file__).resolve().parents[1]


def _test_cases() -> ModuleType:
    """tests/prc_tools/hostile.py, the cases the tests build, loaded by its path: it
    has this script's name, so an import by name would find this script."""
    spec = importlib.util.spec_from_file_location(
        "hostile_cases", ROOT / "tests" / "prc_tools" / "hostile.py")
    assert spec is not None and spec.loader is not None
    cases = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(cases)
    return cases


_CASES = _test_cases()
empty_resources: Callable[[], Database] = _CASES.empty_resources
memory_bomb_pieces: Callable[[], Database] = _CASES.memory_bomb_pieces

LIMIT = 2 << 30
BOARD = "ishido-board-square.prc"  # the kept build the first screen draws
LAUGHS = "\n".join(
    ["a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]"]
    + [f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 10)}]" for i in range(1, 12)]
)


def limited() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (LIMIT, LIMIT))


def limited_1gb() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))


def run(label: str, argv: list[str], limit: Callable[[], None] = limited) -> None:
    start = time.perf_counter()
    try:
        done = subprocess.run(argv, capture_output=True, text=True, timeout=120,
                              preexec_fn=limit, check=False)
        took = time.perf_counter() - start
        first = (done.stderr.strip().splitlines() or done.stdout.strip().splitlines() or [""])[0]
        lines = len(done.stderr.strip().splitlines())
        raw = any(not (ch.isprintable() or ch in "\n") for ch in done.stdout + done.stderr)
        print(f"{label:34} {took:6.2f} s  exit {done.returncode}  stderr lines {lines}"
              f"{'  RAW CONTROL CHARACTERS' if raw else ''}: {first[:110]}")
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
        issue_22(t, palmish, prc)


def issue_22(t: Path, palmish: list[str], prc: list[str]) -> None:
    """The cases of issue 22 (cache, installs, lock, terminal text, scripted menus)."""
    warm = t / "warm"
    for _ in range(2):  # the second start resumes what the first saved, as later ones do
        run("warm start (reference)", [*palmish, "--screenshot", str(t / "ref.png"),
                                       "--data-dir", str(warm)])
    reference = (t / "ref.png").read_bytes()

    def cache_case(label: str, damage: Callable[[Path], None]) -> None:
        data = t / label.replace(" ", "-")
        shutil.copytree(warm, data)
        damage(data / "cache")
        run(label, [*palmish, "--screenshot", str(t / "out.png"), "--data-dir", str(data)])
        same = (t / "out.png").exists() and (t / "out.png").read_bytes() == reference
        print(f"{'':34} screen {'the undamaged one' if same else 'DIFFERENT'}")

    # With the bundled plugins prebuilt, a warm folder may have no cache/bundled/:
    # the hostile file is put where the fallback build would keep the plugin.
    def bundled_board(cache: Path) -> Path:
        (cache / "bundled").mkdir(parents=True, exist_ok=True)
        return cache / "bundled" / BOARD

    def fifo(cache: Path) -> None:
        board = bundled_board(cache)
        board.unlink(missing_ok=True)
        os.mkfifo(board)

    def huge(cache: Path) -> None:
        with bundled_board(cache).open("ab") as handle:
            handle.truncate(3 << 30)

    def flips(cache: Path) -> None:
        for path in cache.rglob("*"):
            if path.is_file() and path.stat().st_size:
                data = bytearray(path.read_bytes())
                for n in range(8):
                    data[len(data) * (2 * n + 1) // 16] ^= 1 << n
                path.write_bytes(bytes(data))

    cache_case("FIFO in cache/bundled", fifo)
    cache_case("3 GB file in cache/bundled", huge)
    cache_case("bit flips in every kept file", flips)
    cache_file = t / "cache-is-a-file"
    shutil.copytree(warm, cache_file)
    shutil.rmtree(cache_file / "cache")
    (cache_file / "cache").write_text("a file")
    run("cache/ is a file", [*palmish, "--screenshot", str(t / "out.png"), "--data-dir",
                             str(cache_file)])
    for name in ("huge.prc", "huge.dat"):
        with (t / name).open("wb") as handle:
            handle.truncate(3 << 30)
        run(f"install 3 GB sparse {name[-4:]}", [*palmish, "install", str(t / name),
                                                 "--data-dir", str(t / "d3")])
    locked = t / "locked"
    locked.mkdir()
    (t / "precious.txt").write_text("mine\n")
    (locked / "palmish.lock").symlink_to(t / "precious.txt")
    run("symlinked palmish.lock", [*palmish, "--screenshot", str(t / "out.png"),
                                   "--data-dir", str(locked)])
    kept = (t / "precious.txt").read_text() == "mine\n"
    print(f"{'':34} the link's target {'unchanged' if kept else 'CHANGED'}")
    evil = Database(name="\x1b]8;;x\x07N\x81\x1b[31m", type="IsBd", creator="PIsh",
                    attributes=1)
    evil.resources.append(Resource("pINF", 0, b'name: N\ngame: ishido\nkind: board\n'
                                   b'version: 1\nauthor: "\\e[5m\\u202eevil\\a"\n'
                                   b"configs: [square]\n"))
    (t / "evil.prc").write_bytes(evil.to_bytes())
    for command in (["info"], ["info", "--json"], ["verify"]):
        run(f"escapes through {' '.join(command)}", [*prc, *command, str(t / "evil.prc")])
    (t / "menus.txt").write_text("menu prefs\n" * 20_000)
    run("20,000 scripted menu prefs (1 GB)", [*palmish, "--screenshot", str(t / "out.png"),
                                              "--events", str(t / "menus.txt"), "--data-dir",
                                              str(t / "d4")], limited_1gb)


if __name__ == "__main__":
    main()
