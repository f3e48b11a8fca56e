"""`prc-tools verify --sheet`: every bitmap member drawn, warned-about ones outlined red."""

from __future__ import annotations

from pathlib import Path

import pytest
from PIL import Image

from prc_tools import cli, plugin
from tests.prc_tools.conftest import MakeFolder, tile_image


def test_the_sheet_shows_every_member_and_outlines_problems(
    pieces_folder: MakeFolder, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = pieces_folder(lifted=False)
    tile_image(2, 3, (25, 41)).save(folder / "tiles" / "t23.png")  # bigger: a warning
    database = tmp_path / "p.prc"
    database.write_bytes(plugin.build_folder(folder).to_bytes())
    sheet = tmp_path / "sheet.png"
    assert cli.main(["verify", str(database), "--sheet", str(sheet)]) == 0
    out, err = capsys.readouterr()
    assert f"{sheet}: contact sheet of 36 bitmaps" in out and "warning: Tbmp 1015" in err
    with Image.open(sheet) as picture:
        rgba = picture.convert("RGBA")
    reds = sum(1 for p in rgba.getdata() if p == (220, 30, 30, 255))
    assert reds > 4 * 40  # the flagged tile's members, outlined; no other is
    assert rgba.height > 36 * 40  # a row per bitmap


def test_build_draws_the_sheet_with_each_source_beside_what_was_built(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "board"
    assert cli.main(["new", "ishido", "board", "--config", "square", str(folder)]) == 0
    Image.new("RGB", (288, 320), (0, 90, 255)).save(folder / "board.png")  # a colour 8 bits lose
    capsys.readouterr()
    sheet = tmp_path / "sheet.png"
    assert cli.main(["build", "-q", str(folder), "-o", str(tmp_path / "b.prc"),
                     "--sheet", str(sheet)]) == 0
    out = capsys.readouterr().out
    assert f"{sheet}: contact sheet of 3 bitmaps" in out
    assert out.rstrip().endswith(f"install it: palmish install {tmp_path / 'b.prc'}")
    with Image.open(sheet) as picture:
        rgb = picture.convert("RGB")
    # The source row: the painted colour itself, then the 16-bit member (the same) and
    # the 8-bit one (the palette's nearest), both members also halved for 160x160.
    assert rgb.getpixel((6 + 100, 6 + 12 + 100)) == (0, 90, 255)
    assert rgb.width >= 288 * 3 + 144 * 2  # no member cut off


def test_info_says_how_to_see_the_pictures(tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "board"
    assert cli.main(["new", "ishido", "board", "--config", "square", str(folder)]) == 0
    built = tmp_path / "b.prc"
    assert cli.main(["build", "-q", str(folder), "-o", str(built)]) == 0
    capsys.readouterr()
    assert cli.main(["info", str(built)]) == 0
    assert f"Pictures:      prc-tools verify --sheet OUT.png {built}" in capsys.readouterr().out
