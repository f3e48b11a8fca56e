"""`palmish beam` and `palmish receive` given bad input: one line, exit 1 (2 for an
option), never a traceback (docs/network.md, "Beam", "Headless commands")."""

from __future__ import annotations

from pathlib import Path

import pytest

from palmish.cli import main
from tests.network.processes import free_port


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    try:
        status = main(list(argv))
    except SystemExit as exit_:  # argparse's usage errors
        status = int(exit_.code or 0)
    out, err = capsys.readouterr()
    return status, out, err


def test_bad_items_and_addresses(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    port = free_port()  # nothing listens there
    to = ["--to", f"127.0.0.1:{port}", "--data-dir", str(tmp_path / "s")]
    (tmp_path / "bad.dat").write_text("junk\n")
    (tmp_path / "notes.txt").write_text("hello")
    cases = {
        "missing.prc": f"palmish: {tmp_path / 'missing.prc'}: No such file or directory",
        "bad.dat": f"palmish: {tmp_path / 'bad.dat'}: no atoms (hex digits 0-f other than 5)"
                   " below the name",
        "notes.txt": f"palmish: {tmp_path / 'notes.txt'}: not a plugin (.prc) or a file a game"
                     " beams",
    }
    for name, line in cases.items():
        assert run(capsys, "beam", str(tmp_path / name), *to) == (1, "", line + "\n")
    status, _, err = run(capsys, "beam", "--deal", "3", *to)
    assert (status, err) == (1, f"palmish: cannot reach 127.0.0.1:{port}: nothing receives"
                                " there\n")
    for bad in (["--board", "-1"], ["--deal", "99999999999"], ["--to", "nowhere"],
                ["--code", "12a4"], ["--name", "a\x1bb"]):
        status, _, err = run(capsys, "beam", "--board", "1", *to, *bad)
        assert status == 2 and "Traceback" not in err and err.count("error:") == 1


def test_pairing_commands_and_a_damaged_pairings_file(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = ["--data-dir", str(tmp_path)]
    assert run(capsys, "receive", "--paired", *data) == (0, "", "")
    assert run(capsys, "receive", "--forget", "Den", *data) == (
        1, "", "palmish: no handheld named 'Den' is paired\n")
    paired = tmp_path / "network" / "keys" / "beam-senders"
    paired.parent.chmod(0o755)
    paired.write_text('{"paired": 7}')
    paired.chmod(0o644)
    status, out, err = run(capsys, "receive", "--paired", *data)
    assert (status, out) == (0, "")
    assert err.splitlines() == [  # widened modes tightened, a damaged list read as empty
        f"palmish receive: {paired.parent}: a folder of secrets others could read (mode 0755);"
        " now 0700",
        f"palmish receive: {paired}: a secret others could read (mode 0644); now 0600",
        f"palmish receive: {paired}: not a list of paired handhelds; none is paired"]
    assert paired.stat().st_mode & 0o777 == 0o600
    assert run(capsys, "receive", "--forget-all", *data)[:2] == (0, "forgot 0 paired handhelds\n")
    assert paired.stat().st_mode & 0o777 == 0o600
    assert run(capsys, "receive", "--paired", *data) == (0, "", "")


def test_version_1_files_are_removed_with_one_line_each(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    old = tmp_path / "network" / "beam"
    old.mkdir(parents=True)
    (old / "key").write_text("ab" * 16 + "\n")
    (old / "paired.json").write_text('{"v":1,"paired":[]}')
    status, out, err = run(capsys, "receive", "--paired", "--data-dir", str(tmp_path))
    assert (status, out) == (0, "")
    assert err.splitlines() == [
        f"palmish receive: {old / 'key'}: version 1's pairing key (it was sent in clear), no"
        " longer used; removed",
        f"palmish receive: {old / 'paired.json'}: version 1's pairings, no longer used; removed"]
    assert not old.exists()


@pytest.mark.process
def test_a_game_host_is_not_a_receiver(tmp_path: Path, capsys: pytest.CaptureFixture[str]
                                       ) -> None:
    """A beam sent to a network game's host: one line, not a hang or a traceback."""
    from tests.network.processes import host

    process, port, _ = host(tmp_path / "h")
    try:
        status, _, err = run(capsys, "beam", "--deal", "3", "--to", f"127.0.0.1:{port}",
                             "--code", "1234", "--data-dir", str(tmp_path / "s"))
    finally:
        process.kill()
    # a host of version 1 (until `palmish host` speaks version 2), or of version 2
    assert (status, err) in (
        (1, f"palmish: 127.0.0.1:{port} speaks network version 1; this handheld speaks version"
            " 2: update palmish there\n"),
        (1, f"palmish: 127.0.0.1:{port}: this is a palmish pachisi, not a beam\n"))
