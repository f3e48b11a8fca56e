"""Hostile device skins (issue 15): bombs, huge pictures, pipes and links end in one line."""

from __future__ import annotations

import os
import struct
import zlib
from pathlib import Path

import pytest
from PIL import Image

from palmish.frontend.skin import MAX_IMAGE_SIDE, SkinError, load_skin

SKIN = """
configs: [square-low]
portrait:
  image: body.png
  lcd: [20, 20, 160, 160]
"""


def _png_header_only(path: Path, width: int, height: int) -> None:
    """A PNG that claims `width`x`height` (what Pillow checks before decoding)."""
    def chunk(kind: bytes, body: bytes) -> bytes:
        crc = zlib.crc32(kind + body)
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", crc)

    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    path.write_bytes(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", b"")
                     + chunk(b"IEND", b""))


def _fails_in_one_line(path: Path, match: str) -> None:
    with pytest.raises(SkinError, match=match) as caught:
        load_skin(str(path))
    assert "\n" not in str(caught.value)
    assert len(str(caught.value)) < 400


@pytest.mark.parametrize("side", [30000, 12000, MAX_IMAGE_SIDE + 1])
def test_a_huge_skin_picture_is_refused_before_decoding(tmp_path: Path, side: int) -> None:
    _png_header_only(tmp_path / "body.png", side, side)
    (tmp_path / "s.yaml").write_text(SKIN)
    _fails_in_one_line(tmp_path / "s.yaml", "too big for a skin|cannot load")


def test_an_alias_bomb_in_a_skin_is_refused(tmp_path: Path) -> None:
    lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
    lines += [f"a{i}: &a{i} [{', '.join(['*a' + str(i - 1)] * 10)}]" for i in range(1, 12)]
    (tmp_path / "s.yaml").write_text("\n".join(lines) + "\n")
    _fails_in_one_line(tmp_path / "s.yaml", "anchors and aliases")


def test_a_huge_skin_file_is_refused(tmp_path: Path) -> None:
    (tmp_path / "s.yaml").write_text("title: '" + "x" * 400_000 + "'\n")
    _fails_in_one_line(tmp_path / "s.yaml", "too big")


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_a_fifo_as_the_skin_or_its_picture_does_not_hang(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "body.png")
    (tmp_path / "s.yaml").write_text(SKIN)
    _fails_in_one_line(tmp_path / "s.yaml", "not a regular file")
    os.mkfifo(tmp_path / "fifo.yaml")
    _fails_in_one_line(tmp_path / "fifo.yaml", "not a regular file|no such skin file")


def test_a_skin_picture_outside_the_skin_folder_is_not_read(tmp_path: Path) -> None:
    outside = tmp_path / "secret.png"
    Image.new("RGBA", (200, 240)).save(outside)
    folder = tmp_path / "skin"
    folder.mkdir()
    (folder / "body.png").symlink_to(outside)
    (folder / "s.yaml").write_text(SKIN)
    _fails_in_one_line(folder / "s.yaml", "outside the folder")
    (folder / "s.yaml").write_text(SKIN.replace("body.png", "../secret.png"))
    _fails_in_one_line(folder / "s.yaml", "outside the folder")
