"""Hostile plugin folders and databases for prc-tools (issue 15 items 1, 2, 3, 13).

Every case ends quickly with one line (or succeeds), reads nothing outside
the named folder and writes nothing but the named output.
"""

from __future__ import annotations

import os
import shutil
import stat
from pathlib import Path

import pytest
from PIL import Image

from prc_tools import Database, PluginError, Resource, bitmap, cli, plugin

from .hostile import empty_resources, memory_bomb_pieces

FIXTURES = Path(__file__).resolve().parents[1] / "device" / "fixtures" / "plugins"
LAUGHS = "\n".join(
    ["a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]"]
    + [f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 10)}]" for i in range(1, 12)]
)


@pytest.fixture
def board(tmp_path: Path) -> Path:
    folder = tmp_path / "board"
    shutil.copytree(FIXTURES / "test-board", folder)
    return folder


@pytest.fixture
def secret(tmp_path: Path) -> Path:
    """A file outside every plugin folder that must never end up in a database."""
    path = tmp_path / "secret.png"
    Image.new("RGBA", (48, 32), (1, 2, 3, 255)).save(path)
    return path


def run_cli(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = cli.main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def one_line_failure(argv: list[str], capsys: pytest.CaptureFixture[str], match: str) -> str:
    code, _, err = run_cli(argv, capsys)
    assert code == 1, err
    assert err.count("\n") == 1 and "Traceback" not in err, err
    assert match in err, err
    return err


def build_fails(folder: Path, match: str) -> None:
    with pytest.raises(PluginError, match=match) as caught:
        plugin.build_folder(folder)
    assert "\n" not in str(caught.value)


# ------------------------------------------------------------- item 3: symlinks


def test_a_picture_linked_outside_the_folder_is_refused(board: Path, secret: Path) -> None:
    (board / "mark.png").unlink()
    (board / "mark.png").symlink_to(secret)
    build_fails(board, "outside the folder")


def test_a_linked_sub_folder_is_refused(board: Path, tmp_path: Path, secret: Path) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    shutil.move(str(board / "mark.png"), elsewhere / "mark.png")
    (board / "art").symlink_to(elsewhere)
    text = (board / "manifest.yaml").read_text().replace("file: mark.png", "file: art/mark.png")
    (board / "manifest.yaml").write_text(text)
    build_fails(board, "outside the folder")


def test_a_raw_resource_linked_to_a_system_file_is_refused(board: Path) -> None:
    target = Path("/etc/hostname") if Path("/etc/hostname").exists() else Path("/etc/passwd")
    (board / "blob.bin").symlink_to(target)
    with (board / "manifest.yaml").open("a") as manifest:
        manifest.write("resources:\n  - {file: blob.bin, type: DATA, id: 1}\n")
    build_fails(board, "outside the folder")


def test_a_record_file_linked_outside_is_refused(tmp_path: Path, secret: Path) -> None:
    folder = tmp_path / "records"
    folder.mkdir()
    (folder / "r0.bin").symlink_to(secret)
    (folder / "manifest.yaml").write_text(
        "name: Recs\ntype: DATA\ncreator: test\nrecords:\n  - {file: r0.bin}\n"
    )
    build_fails(folder, "outside the folder")


def test_a_linked_manifest_is_refused(tmp_path: Path, board: Path) -> None:
    folder = tmp_path / "linked"
    folder.mkdir()
    (folder / "manifest.yaml").symlink_to(board / "manifest.yaml")
    build_fails(folder, "outside the folder")


def test_a_link_inside_the_folder_is_fine(board: Path) -> None:
    (board / "mark.png").rename(board / "real-mark.png")
    (board / "mark.png").symlink_to("real-mark.png")
    assert plugin.build_folder(board).resource("Tbmp", 2001) is not None


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_a_fifo_in_the_folder_does_not_hang(board: Path) -> None:
    os.mkfifo(board / "blob.bin")
    with (board / "manifest.yaml").open("a") as manifest:
        manifest.write("resources:\n  - {file: blob.bin, type: DATA, id: 1}\n")
    build_fails(board, "not a regular file")  # before: waited for a writer forever


# ------------------------------------------------------- item 3: PNG means PNG


@pytest.mark.parametrize("fmt", ["JPEG", "GIF", "BMP", "TIFF", "ICO", "PPM", "WEBP"])
def test_pictures_named_png_must_be_png(board: Path, fmt: str) -> None:
    image = Image.new("RGB", (48, 32), (9, 9, 9))
    try:
        image.save(board / "board.png", format=fmt)
    except (KeyError, OSError):
        pytest.skip(f"this Pillow cannot write {fmt}")
    build_fails(board, "not a PNG file")


# ------------------------------------------------------------ item 2: YAML bombs


def test_an_alias_bomb_in_a_manifest_is_refused(board: Path) -> None:
    text = (board / "manifest.yaml").read_text()
    (board / "manifest.yaml").write_text(text + "info:\n" + "\n".join(
        "  " + line for line in LAUGHS.splitlines()) + "\n")
    build_fails(board, "anchors and aliases")


def test_a_huge_manifest_is_refused(board: Path) -> None:
    text = (board / "manifest.yaml").read_text()
    (board / "manifest.yaml").write_text(text + "info: {x: '" + "x" * (20 << 20) + "'}\n")
    build_fails(board, "too big")


def alias_bomb_plugin(tmp_path: Path) -> Path:
    db = plugin.build_folder(FIXTURES / "test-board")
    pinf = db.resource("pINF", 0)
    assert pinf is not None
    pinf.data = pinf.data + b"\nextra:\n" + "\n".join(
        "  " + line for line in LAUGHS.splitlines()).encode() + b"\n"
    path = tmp_path / "laughs.prc"
    path.write_bytes(db.to_bytes())
    return path


def test_an_alias_bomb_in_pinf_is_one_line_everywhere(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = alias_bomb_plugin(tmp_path)
    one_line_failure(["verify", str(path)], capsys, "anchors and aliases")
    code, out, err = run_cli(["info", "--json", str(path)], capsys)
    assert code == 0 and '"plugin": null' in out and len(out) < 20_000, err
    code, _, err = run_cli(["extract", str(path), "-o", str(tmp_path / "out")], capsys)
    assert code == 0 and "Traceback" not in err
    assert "&a" not in (tmp_path / "out" / "manifest.yaml").read_text()


# ------------------------------------------------------ item 1: memory bombs


def test_a_memory_bomb_plugin_is_refused_by_verify_and_extract(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "bomb.prc"
    path.write_bytes(memory_bomb_pieces().to_bytes())
    # Refused from the members' headers: the tiles are not the size of a cell.
    one_line_failure(["verify", str(path)], capsys,
                     "5792x5792 pixels; tile red disc is at most 48x80")
    code, _, err = run_cli(["info", str(path)], capsys)
    assert code == 0, err
    code, _, err = run_cli(["extract", str(path), "-o", str(tmp_path / "out")], capsys)
    assert code == 0, err  # over the budget: the bitmaps are kept as raw resources
    raw = {p.name for p in (tmp_path / "out" / "resources").iterdir()}
    assert {f"Tbmp-{1000 + n}.bin" for n in range(36)} <= raw


def test_the_decode_budget_holds_for_a_game_without_size_rules(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bomb = memory_bomb_pieces()
    bomb.type, bomb.creator = "DATA", "xxxx"  # no schema: only the per-file budget applies
    bomb.resources = bomb.resources[1:]  # not a plugin either
    path = tmp_path / "bomb.prc"
    path.write_bytes(bomb.to_bytes())
    one_line_failure(["verify", str(path)], capsys, "more than 16777216 pixels")


def test_verify_keeps_decoded_members_only_when_asked() -> None:
    db = memory_bomb_pieces(tiles=36, side=40)  # tiles within 2x2 cells of 24x40
    lines = plugin.verify(db)
    assert len([line for line in lines if not line.startswith("warning: ")]) == 37
    assert "not the usual 24x40 in Square and Tall" in lines[1]  # bigger than a cell
    kept: dict[int, list[bitmap.Member]] = {}
    plugin.verify(db, kept)
    assert sorted(kept) == list(range(1000, 1036))


# ------------------------------------------------------------- item 13: misc


def test_many_empty_resources_extract_and_build_back(tmp_path: Path) -> None:
    # The reported case has 65,535 (110 s before, ~3 s of CPU now:
    # benchmarks/hostile.py); a smaller one checks the round trip here.
    from prc_tools.plugin.extract import equivalent, extract

    db = empty_resources(3000)
    extract(db, tmp_path / "out")
    assert len(list((tmp_path / "out" / "resources").iterdir())) == 3000
    assert equivalent(db, plugin.build_folder(tmp_path / "out")) == []


@pytest.mark.skipif(os.name != "posix", reason="POSIX permissions")
def test_build_output_is_0644_under_the_usual_umask(
    board: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    old = os.umask(0o022)
    try:
        code, _, err = run_cli(["build", str(board), "-o", str(tmp_path / "b.prc"), "-q"], capsys)
    finally:
        os.umask(old)
    assert code == 0, err
    assert stat.S_IMODE((tmp_path / "b.prc").stat().st_mode) == 0o644


def test_databases_from_pipes_and_devices_are_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    if Path("/dev/zero").exists():
        one_line_failure(["verify", "/dev/zero"], capsys, "not a regular file")
    if hasattr(os, "mkfifo"):
        os.mkfifo(tmp_path / "fifo.prc")
        one_line_failure(["info", str(tmp_path / "fifo.prc")], capsys, "not a regular file")


def test_an_ordinary_database_still_verifies() -> None:
    db = Database(name="x", type="DATA", creator="test", attributes=1,
                  resources=[Resource("DATA", 1, b"abc")])
    assert plugin.verify(db) == []
