"""`palmish` with hostile plugins and folders (issue 15): terminal-safe output, locked folders."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from palmish import cli
from palmish.device.datalock import DataDirLock
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
