"""Sizes checked against the games' schemas (issue 42): every case of the issue is
refused or warned about, naming the file, its size and the size expected."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from PIL import Image

from prc_tools import plugin
from prc_tools.database import Database
from prc_tools.errors import PluginError
from prc_tools.plugin.hints import depth_hints
from tests.prc_tools.conftest import MakeFolder, tile_image

Warnings = list[str]


def build(folder: Path) -> tuple[Database, Warnings]:
    said: Warnings = []
    return plugin.build_folder(folder, warn=said.append), said


def error(folder: Path) -> str:
    with pytest.raises(PluginError) as caught:
        plugin.build_folder(folder)
    return str(caught.value)


def retile(folder: Path, size: tuple[int, int], only: str | None = None) -> None:
    for colour in range(6):
        for shape in range(6):
            name = f"t{colour}{shape}.png"
            if only is None or name == only:
                tile_image(colour, shape, size).save(folder / "tiles" / name)


def test_wide_tiles_in_a_square_plugin_are_refused(pieces_folder: MakeFolder) -> None:
    folder = pieces_folder(lifted=False)
    retile(folder, (34, 40))
    message = error(folder)
    assert message.startswith(f"{folder / 'tiles' / 't00.png'}: 34x40 pixels is the Wide size;"
                              " tile red disc is 24x40 in Square and Tall")


def test_tiles_smaller_than_the_cell_are_refused(pieces_folder: MakeFolder) -> None:
    folder = pieces_folder(lifted=False)
    retile(folder, (20, 36))
    assert "t00.png: 20x36 pixels; tile red disc is at least 24x40" in error(folder)
    folder = pieces_folder("one", lifted=False)
    retile(folder, (22, 38), only="t23.png")
    assert "t23.png: 22x38 pixels;" in error(folder)
    assert "leaves gaps between the cells" in error(folder)


def test_one_bigger_tile_among_the_others_is_warned_about(pieces_folder: MakeFolder) -> None:
    folder = pieces_folder(lifted=False)
    retile(folder, (25, 41), only="t23.png")
    _, said = build(folder)
    t23 = str(folder / "tiles" / "t23.png")
    assert any(line.startswith(f"{t23}: 25x41 pixels, not the usual 24x40 in Square and Tall")
               for line in said)
    assert f"{t23}: 25x41 pixels, but the other tiles are 24x40" in said
    assert any("halve to 12x20" in line for line in said)  # odd: the 160x160 screen loses
    # verify warns too, from the database's members
    lines = plugin.verify(build(folder)[0])
    assert any(line.startswith("warning: Tbmp 1015 (tile green diamond): 25x41 pixels")
               for line in lines)


@pytest.mark.parametrize(("configs", "cell", "said"), [
    ("[square]", "[34, 40]", "cell: [34, 40], but PalmIshido cells are 24x40 in Square"),
    ("[wide]", "[24, 40]", "cell: [24, 40], but PalmIshido cells are 34x40 in Wide"),
    ("[square]", "[25, 40]", "cell: [25, 40], but PalmIshido cells are 24x40 in Square"),
])
def test_a_cell_the_game_does_not_draw_is_refused(
    pieces_folder: MakeFolder, configs: str, cell: str, said: str
) -> None:
    folder = pieces_folder(lifted=False)
    manifest = folder / "manifest.yaml"
    text = manifest.read_text().replace("[square, tall]", configs).replace("[24, 40]", cell)
    manifest.write_text(text.replace("Test Pieces", "Test Pieces Wide"))
    message = error(folder)
    assert message.startswith(f"{manifest}: cell: ") and said in message


def board_folder(tmp_path: Path, board: tuple[int, int] = (288, 320),
                 mark: tuple[int, int] = (24, 40), cell: str = "[24, 40]") -> Path:
    folder = tmp_path / "board"
    folder.mkdir(exist_ok=True)
    Image.new("RGB", board, (20, 90, 40)).save(folder / "board.png")
    Image.new("RGBA", mark, (255, 255, 255, 255)).save(folder / "mark.png")
    (folder / "manifest.yaml").write_text(
        "name: Felt Board\ngame: ishido\nkind: board\nauthor: me\nconfigs: [square]\n"
        f"cell: {cell}\nbitmaps:\n  - {{file: board.png, id: board}}\n"
        "  - {file: mark.png, id: cell_mark}\n")
    return folder


def test_a_board_of_another_size_and_a_huge_cell_mark_are_refused(tmp_path: Path) -> None:
    folder = board_folder(tmp_path, board=(300, 320))
    assert error(folder) == (f"{folder / 'board.png'}: 300x320 pixels; the board is 288x320"
                             " in Square (12x8 cells of 24x40) — see the template"
                             " (prc-tools new ishido board)")
    folder = board_folder(tmp_path, mark=(300, 300))
    assert f"{folder / 'mark.png'}: 300x300 pixels; the cell mark is 24x40 in Square" in (
        error(folder))


def test_optional_art_left_out_is_said_at_build_time(tmp_path: Path) -> None:
    _, said = build(board_folder(tmp_path))
    assert said == [f"{tmp_path / 'board' / 'manifest.yaml'}: optional art not given: the panel"
                    " (Tbmp 2002): the game fills the panel with a plain colour"]


def test_a_pachisi_board_without_turn_is_said(tmp_path: Path) -> None:
    folder = tmp_path / "pachisi"
    folder.mkdir()
    Image.new("RGB", (304, 304), (200, 180, 120)).save(folder / "board.png")
    for name in ("mark", "target"):
        Image.new("RGBA", (16, 16), (255, 255, 0, 255)).save(folder / f"{name}.png")
    (folder / "manifest.yaml").write_text(
        "name: Cloth Board\ngame: pachisi\nkind: board\nauthor: me\nconfigs: [square, tall]\n"
        "cell: [16, 16]\nbitmaps:\n  - {file: board.png, id: board}\n"
        "  - {file: mark.png, id: mark}\n  - {file: target.png, id: target}\n")
    _, said = build(folder)
    assert any("optional art not given: the turn frame (Tbmp 2003): the game draws a plain"
               " yellow frame and shows a Note" in line for line in said)


def test_a_missing_sigmar_atom_is_named(tmp_path: Path) -> None:
    folder = tmp_path / "atoms"
    folder.mkdir()
    digits = [d for d in range(16) if d != 5 and d != 14]  # no fire (e)
    for d in digits:
        Image.new("RGBA", (26, 26), (10 * d, 100, 100, 255)).save(folder / f"a{d}.png")
    entries = "".join(f"  - {{file: a{d}.png, id: {1000 + d}}}\n" for d in digits)
    (folder / "manifest.yaml").write_text(
        "name: My Atoms\ngame: sigmar\nkind: pieces\nauthor: me\nconfigs: [square]\n"
        f"cell: [26, 26]\nbitmaps:\n{entries}")
    assert error(folder) == (f"{folder / 'manifest.yaml'}: fire (Tbmp 1014) is missing (1 of"
                             " the 10 atoms 6-f (silver to Mors) are; Sigmar's Garden needs"
                             " them all)")


def test_verify_refuses_a_database_drawn_for_another_cell(pieces_folder: MakeFolder) -> None:
    db = plugin.build_folder(pieces_folder(lifted=False))
    pinf = db.resource("pINF", 0)
    assert pinf is not None
    pinf.data = pinf.data.replace(b"cell:\n- 24\n- 40", b"cell:\n- 34\n- 40")
    assert b"- 34" in pinf.data
    with pytest.raises(PluginError, match=r"'pINF' cell: \[34, 40\], but PalmIshido cells are"
                                          " 24x40 in Square and Tall"):
        plugin.verify(db)


def test_a_72_dpi_member_of_the_wrong_size_is_refused(pieces_folder: MakeFolder) -> None:
    from prc_tools import bitmap

    folder = pieces_folder(lifted=False)
    db = plugin.build_folder(folder)
    tile = db.resource("Tbmp", 1000)
    assert tile is not None
    wrong = tile_image(0, 0, (24, 40))
    members = {(72, 16): tile_image(0, 0, (10, 20)), (72, 8): tile_image(0, 0, (10, 20))}
    tile.data = bitmap.encode_family(wrong, densities=(144, 72), depths=(16, 8),
                                     members=members)
    with pytest.raises(PluginError, match=r"Tbmp 1000 \(tile red disc\): 10x20"
                                          " pixels; tile red disc is at least 12x20"
                                          " at 72 dpi"):
        plugin.verify(db)


Hint = Callable[[Image.Image], list[str]]


def test_a_photo_at_one_bit_without_dither_gets_a_hint() -> None:
    photo = Image.new("RGB", (64, 64))
    photo.putdata([(x * 4, y * 4, (x + y) * 2) for y in range(64) for x in range(64)])
    [hint] = depth_hints(photo, (1,), dither=False)
    assert "at 1 bit per pixel without dithering" in hint and "dither: true" in hint
    assert depth_hints(photo, (1,), dither=True) == []
    assert depth_hints(photo, (16, 8), dither=False) == []
    flat = Image.new("RGB", (64, 64), (200, 10, 10))
    assert depth_hints(flat, (1,), dither=False) == []


def test_soft_alpha_that_will_vanish_is_said(tmp_path: Path, pieces_folder: MakeFolder) -> None:
    shadow = Image.new("RGBA", (24, 40), (0, 0, 0, 90))
    [hint] = depth_hints(shadow, (16, 8), dither=False)
    assert hint.startswith("100% of the pixels are partly transparent (alpha 1..127)")
    folder = pieces_folder(lifted=False)
    shadow.save(folder / "tiles" / "t00.png")
    _, said = build(folder)
    assert any(line.startswith(f"{folder / 'tiles' / 't00.png'}: 100% of the pixels")
               for line in said)


def test_the_bundled_plugins_pass_without_a_warning() -> None:
    root = Path(__file__).resolve().parents[2]
    for folder in sorted(root.glob("palmish/*/plugins/*")):
        db, said = build(folder)
        said = [line for line in said if "optional art not given" not in line]
        assert said == [], folder
        assert not [line for line in plugin.verify(db) if line.startswith("warning: ")]
