"""`prc-tools`: every command's happy path and every error path (one line, right exit code)."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from prc_tools import Database, Resource, cli
from prc_tools.cli import main

MakeFolder = Callable[..., Path]


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    try:
        code = main(argv)
    except SystemExit as exc:  # argparse: --help and bad usage
        code = int(exc.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


def one_error_line(err: str, *parts: str) -> None:
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("prc-tools: ")
    for part in parts:
        assert part in lines[0]
    assert "Traceback" not in err


@pytest.fixture
def built(pieces_folder: MakeFolder, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    out = tmp_path / "pieces.prc"
    code, stdout, err = run(["build", str(pieces_folder(lifted=False)), "-o", str(out)], capsys)
    assert code == 0, err
    assert "'Test Pieces', 37 items" in stdout
    return out


def test_build_info_verify_extract(
    built: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run(["info", str(built)], capsys)
    assert code == 0
    assert "Name:          Test Pieces" in out and "'IsPc' / 'PIsh'" in out
    assert "Plugin:        ishido pieces, version 2 by Test Author, serves square, tall" in out
    assert "bitmap 12x20 72dpi" in out

    code, out, _ = run(["info", "--json", str(built)], capsys)
    report = json.loads(out)
    assert report["type"] == "IsPc" and report["plugin"]["cell"] == [24, 40]
    assert len(report["resources"]) == 37
    assert report["resources"][1]["bitmap"][0]["density"] in (72, 144)

    code, out, _ = run(["verify", "-v", str(built)], capsys)
    assert code == 0 and out.strip().endswith("OK (37 resources)")
    assert len(out.strip().splitlines()) == 38

    folder = tmp_path / "extracted"
    code, out, _ = run(["extract", str(built), "-o", str(folder)], capsys)
    assert code == 0 and (folder / "manifest.yaml").is_file()
    again = tmp_path / "again.prc"
    assert run(["build", str(folder), "-o", str(again), "-q"], capsys)[0] == 0
    assert len(Database.read(again).resources) == 37


def test_info_of_a_record_database(
    pdb: Database, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "r.pdb"
    pdb.write(path)
    code, out, _ = run(["info", str(path)], capsys)
    assert code == 0 and "Records:       3" in out and "appInfo:       14 bytes" in out


@pytest.mark.process
def test_python_m_prc_tools_is_the_command(pdb: Database, tmp_path: Path) -> None:
    path = tmp_path / "r.pdb"
    pdb.write(path)
    script = Path(sys.executable).with_name("prc-tools")
    for argv in (["info", str(path)], ["verify", "nothing.prc"], ["--nope"]):
        ours = subprocess.run([sys.executable, "-m", "prc_tools", *argv],
                              capture_output=True, text=True, check=False)
        theirs = subprocess.run([str(script), *argv], capture_output=True, text=True, check=False)
        assert (ours.returncode, ours.stdout, ours.stderr) == (
            theirs.returncode, theirs.stdout, theirs.stderr)


@pytest.mark.parametrize("argv", [[], ["frobnicate"], ["build", "x"], ["info"],
                                  ["extract", "f.prc"], ["verify", "a", "b"], ["info", "--nope"]])
def test_bad_usage_exits_2(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(argv, capsys)
    assert code == 2 and "usage:" in err and "Traceback" not in err


@pytest.mark.parametrize("argv", [["--help"], ["build", "--help"], ["info", "-h"],
                                  ["extract", "--help"], ["verify", "--help"]])
def test_help_everywhere(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(argv, capsys)
    assert code == 0 and "usage: prc-tools" in out


def test_bad_databases(prc: Database, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = prc.to_bytes()
    cases = {
        "missing.prc": None,
        "truncated.prc": data[:60],
        "short-list.prc": data[:90],
        "empty.prc": b"",
    }
    for name, content in cases.items():
        path = tmp_path / name
        if content is not None:
            path.write_bytes(content)
        for command in ("info", "verify", "extract"):
            extra = ["-o", str(tmp_path / f"out-{name}")] if command == "extract" else []
            code, _out, err = run([command, str(path), *extra], capsys)
            assert code == 1, (command, name)
            one_error_line(err, str(path))
    assert not any(p.name.startswith("out-") for p in tmp_path.iterdir())


def test_verify_names_the_broken_resource(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = Database("Broken", "DATA", "test", resources=[
        Resource("Tbmp", 1000, b"\x7f\xff\x7f\xff" + bytes(12)),  # 32767x32767 in 16 bytes
    ])
    path = tmp_path / "broken.prc"
    db.write(path)
    code, _, err = run(["verify", str(path)], capsys)
    assert code == 1
    one_error_line(err, str(path), "Tbmp 1000")
    code, out, _ = run(["info", str(path)], capsys)
    assert code == 0 and "BROKEN" in out  # info still shows what it can


def test_bad_plugin_folders(
    pieces_folder: MakeFolder, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "out.prc"
    code, _, err = run(["build", str(tmp_path / "nothing"), "-o", str(out)], capsys)
    assert code == 1
    one_error_line(err, "nothing", "not a folder")
    folder = pieces_folder()
    (folder / "tiles" / "t12.png").write_bytes(b"garbage")
    code, _, err = run(["build", str(folder), "-o", str(out)], capsys)
    assert code == 1
    one_error_line(err, "t12.png", "not a PNG file")
    (folder / "manifest.yaml").write_text("name: x\ngame: ishido\nkind: pieces\n")
    code, _, err = run(["build", str(folder), "-o", str(out)], capsys)
    one_error_line(err, "manifest.yaml", "author: missing")
    assert not out.exists()


def test_build_keeps_the_old_output_on_failure(
    pieces_folder: MakeFolder, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "out.prc"
    out.write_bytes(b"previous build")
    folder = pieces_folder()
    (folder / "tiles" / "t55.png").unlink()
    assert run(["build", str(folder), "-o", str(out)], capsys)[0] == 1
    assert out.read_bytes() == b"previous build"


def test_unwritable_output(
    pieces_folder: MakeFolder, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = tmp_path / "no" / "such" / "dir" / "out.prc"
    code, _, err = run(["build", str(pieces_folder(lifted=False)), "-o", str(target)], capsys)
    assert code == 1
    one_error_line(err, "No such file or directory")


def test_extract_into_a_non_empty_folder(
    built: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    busy = tmp_path / "busy"
    busy.mkdir()
    (busy / "precious.txt").write_text("keep me")
    code, _, err = run(["extract", str(built), "-o", str(busy)], capsys)
    assert code == 1
    one_error_line(err, str(busy), "not an empty folder")
    assert (busy / "precious.txt").read_text() == "keep me"


@pytest.mark.process
def test_console_script_runs_without_traceback(tmp_path: Path) -> None:
    garbage = tmp_path / "garbage.prc"
    garbage.write_bytes(b"\xff" * 100)
    result = subprocess.run(
        [sys.executable, "-m", "prc_tools.cli", "info", str(garbage)],
        capture_output=True, text=True, timeout=60, check=False,
    )
    assert result.returncode == 1
    assert result.stderr.count("\n") == 1 and result.stderr.startswith("prc-tools: ")


def test_unsupported_wav(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "sounds"
    folder.mkdir()
    (folder / "odd.wav").write_bytes(b"RIFF\x24\0\0\0WAVEfmt \x10\0\0\0\x11\0\x01\0"
                                     b"\x11\x2b\0\0\x11\x2b\0\0\x01\0\x04\0data\0\0\0\0")
    (folder / "manifest.yaml").write_text(
        "name: S\ngame: ishido\nkind: sound\nauthor: a\nsounds: [{file: odd.wav, id: place}]\n"
    )
    code, _, err = run(["build", str(folder), "-o", str(tmp_path / "s.prc")], capsys)
    assert code == 1
    one_error_line(err, "odd.wav", "unsupported WAV encoding 0x0011")


def test_info_json_with_yaml_types_json_lacks(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    info = (b"game: ishido\nkind: sound\nname: S\nversion: 1\nauthor: a\nconfigs: [wide]\n"
            b"released: 2001-02-03\nblob: !!binary aGVsbG8=\n")
    path = tmp_path / "s.prc"
    Database("S", "IsSd", "PIsh", resources=[Resource("pINF", 0, info)]).write(path)
    code, out, _ = run(["info", "--json", str(path)], capsys)
    assert code == 0
    assert json.loads(out)["plugin"]["released"] == "2001-02-03"


def test_impossible_yaml_values_are_one_line_errors(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "manifest.yaml").write_text("name: x\nversion: 2001-13-45\n")
    code, _, err = run(["build", str(tmp_path), "-o", str(tmp_path / "x.prc")], capsys)
    assert code == 1
    one_error_line(err, "manifest.yaml", "YAML error", "month must be in 1..12")
    (tmp_path / "manifest.yaml").write_text("[" * 5000)
    code, _, err = run(["build", str(tmp_path), "-o", str(tmp_path / "x.prc")], capsys)
    one_error_line(err, "manifest.yaml", "nested too deeply")


HOSTILE_NAME = "\x1b]8;;x\x07N\x812J\x1b[31m"  # OSC link, BEL, a C1 control, colour
HOSTILE_AUTHOR = "\x1b[5m\u202eevil\x85\x07\U000e0041"  # blink, RLO, NEL, BEL, a tag


def _terminal_safe(text: str) -> bool:
    return all(ch.isprintable() or ch == "\n" for ch in text)


def test_info_and_verify_escape_text_from_the_file(
    built: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = Database.read(built)
    db.name = HOSTILE_NAME
    pinf = db.resource("pINF", 0)
    assert pinf is not None
    fields = yaml.safe_load(pinf.data)
    fields["author"] = HOSTILE_AUTHOR
    pinf.data = yaml.safe_dump(fields).encode()
    evil = tmp_path / "evil\x1b[2J.prc"
    evil.write_bytes(db.to_bytes())

    code, out, err = run(["info", str(evil)], capsys)
    assert code == 0 and err == ""
    assert _terminal_safe(out)
    assert "Name:          \\x1b]8;;x\\x07N\\x812J\\x1b[31m" in out
    assert "by \\x1b[5m\\u202eevil\\x85\\x07\\U000e0041, serves" in out

    code, out, err = run(["info", "--json", str(evil)], capsys)
    assert code == 0 and _terminal_safe(out)
    report = json.loads(out)  # still the very text, once JSON is read
    assert report["name"] == HOSTILE_NAME and report["plugin"]["author"] == HOSTILE_AUTHOR

    code, out, err = run(["verify", "-v", str(evil)], capsys)
    assert code == 0 and _terminal_safe(out) and "\\x1b[2J.prc: OK" in out

    broken = tmp_path / "broken\x1b[31m.prc"
    broken.write_bytes(b"\x9b\x1b" * 10)
    code, out, err = run(["verify", str(broken)], capsys)
    assert code == 1 and _terminal_safe(err)
    one_error_line(err, "broken\\x1b[31m.prc")


def test_python_s_wording_stays_out_of_messages(
    pieces_folder: MakeFolder, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = pieces_folder(lifted=False)
    (folder / "tiles" / "t00.png").write_bytes(b"\x89PNG\r\n\x1a\n\0\0\0\x0dXXXX" + bytes(30))
    _, _, err = run(["build", str(folder), "-o", str(tmp_path / "x.prc")], capsys)
    one_error_line(err, "t00.png", "a damaged or unusual PNG that cannot be read")
    assert "object at 0x" not in err and "BytesIO" not in err
    manifest = folder / "manifest.yaml"
    manifest.write_text(manifest.read_text().replace("version: 2", "version: " + "9" * 5000))
    _, _, err = run(["build", str(folder), "-o", str(tmp_path / "x.prc")], capsys)
    one_error_line(err, "a number of 5000 digits is too long")
    assert "set_int_max_str_digits" not in err


# ---------------------------------------------------------------- the command line


@pytest.mark.parametrize("argv", [
    ["info", "x.prc"], ["info", "--json", "x.prc"], ["info", "x.prc", "--json"],
    ["info", "--json", "--json", "x.prc"], ["info", ""], ["info", "verify"],
    ["verify", "x.prc"], ["verify", "-v", "x.prc"], ["verify", "x.prc", "--verbose"],
    ["verify", "-v", "--verbose", "a b.prc"], ["verify", "ü=.prc"],
])
def test_the_commonest_command_lines_read_as_argparse_reads_them(argv: list[str]) -> None:
    plain = cli._plain_arguments(argv)
    assert plain is not None
    assert vars(plain) == vars(cli.build_parser().parse_args(argv))


@pytest.mark.parametrize("argv", [
    [], ["--help"], ["-h"], ["--version"], ["info"], ["info", "a", "b"], ["info", "-"],
    ["info", "--js", "x"], ["info", "-h", "x"], ["info", "-v", "x"], ["info", "--", "x"],
    ["info", "-1"], ["verify", "--schema", "s.yaml", "x"], ["verify", "-vv", "x"],
    ["verify", "--json", "x"], ["verify", "--verb", "x"], ["extract", "x", "-o", "y"],
    ["build", "f", "-o", "x"], ["inf", "x"], ["INFO", "x"],
])
def test_every_other_command_line_goes_to_argparse(argv: list[str]) -> None:
    assert cli._plain_arguments(argv) is None


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(["info", "verify", "--json", "-v", "--verbose", "-", "--",
                                 "x.prc", "y", "-x", "--schema", "--js", ""]), max_size=5))
def test_any_command_line_reads_as_argparse_reads_it_or_goes_to_argparse(
    argv: list[str],
) -> None:
    plain = cli._plain_arguments(argv)
    if plain is None:
        return
    assert vars(plain) == vars(cli.build_parser().parse_args(argv))  # exits if it is wrong


@pytest.mark.parametrize(("type_", "good"), [("SgLv", True), ("SgBd", False), ("SgSd", False)])
def test_a_games_own_kind_without_plugin_info_is_data(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], type_: str, good: bool
) -> None:
    """Sigmar's levels (its own kind) are data without a 'pINF'; its board or sound
    codes without one are a plugin that lacks it (docs/plugin-format.md)."""
    db = Database("Levels", type_, "PSgm", attributes=1,
                  resources=[Resource(type_, 1, b"level bytes")])
    path = tmp_path / "coded.prc"
    db.write(path)
    code, out, err = run(["verify", str(path)], capsys)
    if good:
        assert (code, err) == (0, "") and out.endswith("coded.prc: OK (1 resources)\n")
    else:
        assert code == 1
        one_error_line(err, "no 'pINF' id 0 resource: not a plugin")


@pytest.mark.parametrize(
    ("running", "present", "said"),
    [(True, True, "(C speedups)"),
     (False, True, "PRC_TOOLS_PURE is set"),
     (False, False, "install a C compiler and the Python headers")],
)
def test_version_says_in_one_line_whether_the_c_speedups_run(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
    running: bool, present: bool, said: str,
) -> None:
    from prc_tools import speedups

    monkeypatch.setattr(speedups, "chosen", lambda: object() if running else None)
    monkeypatch.setattr(speedups, "built", lambda: object() if present else None)
    monkeypatch.setenv("COLUMNS", "40")  # argparse's own version action would wrap here
    with pytest.raises(SystemExit) as done:
        cli.main(["--version"])
    assert done.value.code == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 1 and lines[0].startswith("prc-tools ") and said in lines[0]


@pytest.mark.process
def test_version_of_this_install_names_the_path_that_runs() -> None:
    from prc_tools import speedups

    done = subprocess.run([sys.executable, "-m", "prc_tools.cli", "--version"],
                          capture_output=True, text=True, check=True)
    expected = "(C speedups)" if speedups.chosen() is not None else "(pure Python:"
    assert expected in done.stdout and done.stdout.count("\n") == 1
