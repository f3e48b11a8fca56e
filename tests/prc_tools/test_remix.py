"""Issue 14, item 17: remixing an extracted plugin. Low-density members that no longer
follow an edited main picture are warned about; `default: true` is not handed on to a
renamed remix (while an unrenamed folder still rebuilds byte for byte)."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
import yaml
from PIL import Image, ImageDraw

from palmish.device.disk.resources import bundled_plugins
from prc_tools import cli
from prc_tools.plugin import build_folder, read_info
from prc_tools.plugin.extract import extract

SKINS = bundled_plugins()


def extracted(tmp_path: Path, folder: str) -> tuple[Path, bytes]:
    data = build_folder(SKINS.folder(folder)).to_bytes()
    from prc_tools import Database

    out = extract(Database.read(data), tmp_path / "remix")
    return out, data


def paint(path: Path) -> None:
    image = Image.open(path).convert("RGBA")
    ImageDraw.Draw(image).rectangle((4, 4, 30, 30), fill=(255, 0, 0, 255))
    image.save(path)


def build(folder: Path, out: Path, capsys: pytest.CaptureFixture[str]) -> str:
    code = cli.main(["build", str(folder), "-o", str(out), "-q"])
    assert code == 0
    return capsys.readouterr().err


def test_editing_the_main_picture_warns_of_unedited_low_density_members(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder, _ = extracted(tmp_path, "ishido-board-square")
    assert build(folder, tmp_path / "same.prc", capsys) == ""  # nothing edited: quiet
    manifest = yaml.safe_load((folder / "manifest.yaml").read_text())
    board = next(b for b in manifest["bitmaps"] if b["id"] == 2000)
    paint(folder / board["file"])
    err = build(folder, tmp_path / "edited.prc", capsys)
    low = [f for key, m in board["members"].items() if key.startswith("72x")
           for f in [m["file"]]]
    assert low and all(f"{folder / name}: was not edited although" in err for name in low)
    assert err.count("warning:") == len(low)  # the 144-dpi members are not low density
    for name in low:  # edited too: quiet again
        paint(folder / name)
    assert build(folder, tmp_path / "all.prc", capsys) == ""


def test_dropping_the_member_derives_it_from_the_main_picture(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder, _ = extracted(tmp_path, "ishido-board-square")
    path = folder / "manifest.yaml"
    manifest = yaml.safe_load(path.read_text())
    board = next(b for b in manifest["bitmaps"] if b["id"] == 2000)
    paint(folder / board["file"])
    for key in [k for k in board["members"] if k.startswith("72x")]:
        del board["members"][key]["file"]
    path.write_text(yaml.safe_dump(manifest, sort_keys=False))
    assert build(folder, tmp_path / "derived.prc", capsys) == ""


def test_a_hand_made_folder_warns_of_an_older_low_density_picture(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "board"
    shutil.copytree(SKINS.folder("ishido-board-square"), folder)
    now = (folder / "board.png").stat().st_mtime
    os.utime(folder / "board-low.png", (now - 3600, now - 3600))  # edited board.png later
    err = build(folder, tmp_path / "b.prc", capsys)
    assert f"{folder / 'board-low.png'}: is older than {folder / 'board.png'}" in err
    assert err.count("warning:") == 1  # one file, although two members use it


def test_default_true_is_not_handed_on_to_a_renamed_remix(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder, original = extracted(tmp_path, "ishido-sounds")
    text = (folder / "manifest.yaml").read_text()
    assert "default: true" not in text and "default_if_named: Chimes Sounds" in text
    # Unrenamed, it rebuilds byte for byte (and is the default it was).
    build(folder, tmp_path / "same.prc", capsys)
    assert (tmp_path / "same.prc").read_bytes() == original
    manifest = yaml.safe_load(text)
    manifest["name"] = "My Chimes"
    (folder / "manifest.yaml").write_text(yaml.safe_dump(manifest, sort_keys=False))
    build(folder, tmp_path / "mine.prc", capsys)
    from prc_tools import Database

    info = read_info(Database.read(tmp_path / "mine.prc"))
    assert info["name"] == "My Chimes" and "default" not in info
    assert "default_if_named" not in info
