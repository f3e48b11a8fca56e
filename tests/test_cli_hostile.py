"""`palmish` with hostile plugins and folders (issue 15): terminal-safe output, locked folders."""

from __future__ import annotations

import errno
import os
import resource
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from palmish import cli
from palmish.device.disk.datalock import DataDirLock
from palmish.device.disk.resources import bundled_plugins
from prc_tools import atomic
from prc_tools.plugin import build_folder

FIXTURES = Path(__file__).parent / "device" / "fixtures" / "plugins"
EVIL = "Evil\n\x1b[31mRed\u202eBoard"


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = cli.main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def test_plugin_names_are_escaped_for_the_terminal(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = build_folder(FIXTURES / "test-board")
    pinf = db.resource("pINF", 0)
    assert pinf is not None
    fields = yaml.safe_load(pinf.data)
    fields["name"] = EVIL
    fields["author"] = "\x1b]0;title\x07me"
    pinf.data = yaml.safe_dump(fields).encode()
    plugin = tmp_path / "evil.prc"
    plugin.write_bytes(db.to_bytes())
    store = tmp_path / "store"
    code, out, err = run(["install", str(plugin), "--data-dir", str(store)], capsys)
    assert code == 0, err
    assert "\x1b" not in out and out.count("\n") == 1
    code, out, _ = run(["plugins", "--data-dir", str(store)], capsys)
    assert code == 0
    assert "\x1b" not in out and "\u202e" not in out
    line = next(line for line in out.splitlines() if line.startswith("Evil"))
    assert line.startswith("Evil\\n\\x1b[31mRed\\u202eBoard")
    assert "\\x1b]0;title\\x07me" in line


@pytest.mark.parametrize(
    "argv",
    [["--screenshot", "{tmp}/a.png"], ["gremlins", "--events", "5", "--seed", "1",
                                       "--data-dir", "{data}"]],
    ids=["screenshot", "gremlins"],
)
def test_a_folder_in_use_is_refused_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: list[str]
) -> None:
    data = tmp_path / "data"
    data.mkdir()
    lock = DataDirLock(data)
    lock.acquire()
    try:
        args = [a.replace("{tmp}", str(tmp_path)).replace("{data}", str(data)) for a in argv]
        code, _, err = run([*args, "--data-dir", str(data)], capsys)
    finally:
        lock.release()
    assert code == 1
    assert "in use by another palmish" in err and err.count("\n") == 1
    assert not (data / "databases").exists()  # nothing was written


# ------------------------------------------------------------- issue 22

MEMORY_LIMIT = 2 << 30
LEVEL = bundled_plugins().folder("sigmar-levels") / "1.dat"


def _limited() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))


@pytest.mark.process
@pytest.mark.parametrize("name", ["huge.prc", "huge.dat", "huge.pdb"])
def test_installing_a_3_gb_file_is_one_line_under_a_2_gb_limit(tmp_path: Path, name: str) -> None:
    huge = tmp_path / name
    with huge.open("wb") as handle:
        handle.truncate(3 << 30)  # sparse: nothing is written
    done = subprocess.run(
        [sys.executable, "-m", "palmish", "install", str(huge), "--data-dir", str(tmp_path / "d")],
        capture_output=True, text=True, timeout=120, preexec_fn=_limited, check=False)
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert len(done.stderr.splitlines()) == 1 and "too big" in done.stderr, done.stderr


def test_a_level_file_named_dat_alone_is_not_a_level_id(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bare = tmp_path / ".dat"
    bare.write_bytes(LEVEL.read_bytes())
    code, _, err = run(["install", str(bare), "--data-dir", str(tmp_path / "d")], capsys)
    assert code == 1 and "not a level id" in err and "truncated" not in err


def test_a_level_with_a_255_character_file_name_installs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    long_name = tmp_path / ("L" * 251 + ".dat")
    long_name.write_bytes(LEVEL.read_bytes())
    code, out, err = run(["install", str(long_name), "--data-dir", str(tmp_path / "d")], capsys)
    assert code == 0, err
    assert (tmp_path / "d" / "files" / "PSgm" / long_name.name).is_file()
    assert out.startswith("installed Sigmar's Garden level")


def test_an_escape_in_a_level_file_name_is_not_echoed_raw(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    evil = tmp_path / "\x1b]8;;x\x07bad\x1b[31m.dat"
    evil.write_text("not a level")
    code, _, err = run(["install", str(evil), "--data-dir", str(tmp_path / "d")], capsys)
    assert code == 1 and "\x1b" not in err and "\x07" not in err and "\\x1b" in err


@pytest.mark.process
def test_20000_scripted_menu_prefs_stay_bounded(tmp_path: Path) -> None:
    """Each scripted `menu prefs` used to open another Preferences over the last."""
    script = tmp_path / "prefs.events"
    script.write_text("menu prefs\n" * 20_000)
    limit = 1 << 30

    def limited() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))

    done = subprocess.run(
        [sys.executable, "-m", "palmish", "--screenshot", str(tmp_path / "out.png"), "--events",
         str(script), "--data-dir", str(tmp_path / "d")],
        capture_output=True, text=True, timeout=120, preexec_fn=limited, check=False)
    assert done.returncode == 0, done.stderr[-400:]


def test_a_screenshot_that_cannot_be_written_leaves_the_old_one_whole(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "out.png"
    assert run(["--screenshot", str(out), "--data-dir", str(tmp_path / "d")], capsys)[0] == 0
    before = out.read_bytes()
    real_fdopen = os.fdopen

    class FullDisk:
        def __init__(self, fd: int) -> None:
            self.handle = real_fdopen(fd, "wb")

        def __enter__(self) -> FullDisk:
            return self

        def __exit__(self, *exc: object) -> None:
            self.handle.close()

        def write(self, data: bytes) -> int:
            self.handle.write(data[: len(data) // 2])
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(atomic.os, "fdopen", lambda fd, mode: FullDisk(fd))
    code, _, err = run(["--screenshot", str(out), "--app", "sigmar", "--data-dir",
                        str(tmp_path / "d")], capsys)
    # The whole disk is full: the saves and the cache say so too, each in one line.
    assert code == 1 and "Traceback" not in err
    assert err.splitlines()[-1].endswith("out.png: cannot write: No space left on device")
    assert out.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir() if p.is_file()) == ["out.png"]


def test_a_menu_command_of_another_installed_app_passes_the_script_check(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """docs/events-format.md: refused only when no installed app has it (PalmIshido's
    High Scores, in a script that runs Sigmar's Garden)."""
    script = tmp_path / "scores.events"
    script.write_text("menu scores\n")
    code, _, err = run(["--screenshot", str(tmp_path / "a.png"), "--app", "sigmar", "--events",
                        str(script), "--data-dir", str(tmp_path / "d")], capsys)
    assert code == 0, err
    script.write_text("menu bogus\n")
    code, _, err = run(["--screenshot", str(tmp_path / "a.png"), "--app", "sigmar", "--events",
                        str(script), "--data-dir", str(tmp_path / "d")], capsys)
    assert code == 2 and "unknown menu command 'bogus'" in err
