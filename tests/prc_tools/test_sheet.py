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
