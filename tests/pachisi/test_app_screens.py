"""Pachisi on every display configuration: the cross where the layout says, drawn
from the chosen plugins (pixel checks), the corners, the marker and the panel;
and gremlins with the app installed."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from PIL import Image, ImageChops

from palmish.apps import installed_apps
from palmish.device.display import CONFIGS, ConfigName
from palmish.device.events import Key, KeyDown
from palmish.device.geometry import Rect
from palmish.device.machine.system import Device
from palmish.device.scripting.gremlins import run_gremlins
from palmish.pachisi import Game, Player
from palmish.pachisi.app import PachisiApp
from palmish.pachisi.pictures import home_squares, track_squares
from palmish.pachisi.rules import GRID

MakeDevice = Callable[..., tuple[Device, PachisiApp]]
PLAYERS = (Player("Ann"), Player("Silicon", True), Player("Silicon1", True),
           Player("Bob"))
# Ann (South) on 10 and a double on 21 (safe); Silicon (West) shares that safe square.
POSITIONS = [[10, 21, 21, 0], [4, 0, 0, 76], [0, 0, 0, 0], [30, 76, 76, 0]]


def crop(img: Image.Image, r: Rect) -> Image.Image:
    return img.crop(r.box()).convert("RGB")


def same(a: Image.Image, b: Image.Image) -> bool:
    return ImageChops.difference(a.convert("RGB"), b.convert("RGB")).getbbox() is None


def ink_in(img: Image.Image, r: Rect, colour: tuple[int, int, int] | None) -> int:
    """Pixels of this colour in the rect (None: any yellow, as the palette gives it)."""
    part = crop(img, r)
    px = part.load()
    assert px is not None
    found = 0
    for y in range(part.height):
        for x in range(part.width):
            p = px[x, y]
            assert isinstance(p, tuple)
            if p == colour or (colour is None and p[0] > 200 and p[1] > 180 and p[2] < 100):
                found += 1
    return found


@pytest.mark.parametrize("name", list(ConfigName), ids=lambda n: n.value)
def test_the_cross_the_corners_and_the_marker(name: ConfigName,
                                              make_device: MakeDevice) -> None:
    device, app = make_device(name.value)
    app.load_game(Game.from_position(PLAYERS, POSITIONS, throws=[4]))
    device.post(KeyDown(Key.SELECT))  # Ann throws 4: the marker on her piece on 21
    lay, view = app.layout, app.view
    assert lay is not None and view is not None
    shot = device.screen.image
    assert shot.size == (CONFIGS[name].width, CONFIGS[name].height)
    cell = 8 if name is ConfigName.SQUARE_LOW else 16
    assert lay.cell == cell and lay.board.w == lay.board.h == GRID * cell
    art = view.art
    board = art.board
    taken = {app.game.square(pl, pc) for pl in range(4) for pc in range(4)}
    mark = app.scene.mark
    assert mark is not None and mark.frm == 21
    marked = app.game.square(0, 1)
    target = view.target_rect(app.game, mark)
    # Every free square of the cross is exactly the board plugin's picture.
    for xy in sorted(track_squares() - taken):
        r = lay.square_rect(xy)
        if r == target or xy == marked:
            continue
        bx, by = r.x - lay.board.x, r.y - lay.board.y
        assert same(crop(shot, r), board.crop((bx, by, bx + r.w, by + r.h))), xy
    # Ann's single on 10 is the pieces plugin's red pawn over the board; it can move
    # too, so it carries the mark of every movable piece.
    r = lay.square_rect(app.game.square(0, 0) or (0, 0))
    bx, by = r.x - lay.board.x, r.y - lay.board.y
    expect = board.crop((bx, by, bx + r.w, by + r.h)).convert("RGBA")
    expect.alpha_composite(art.piece("pawn", "red"))
    expect.alpha_composite(art.movable)
    assert same(crop(shot, r), expect)
    # The marker (yellow) on the double, its target marked too.
    yellow = None
    assert ink_in(shot, view.mark_rect(app.game, mark), yellow) > 0
    assert ink_in(shot, target, yellow) > 0
    # Names in the corners, in the board's text colour; Bob's corner shows two finished.
    for pl in range(4):
        seat = app.game.seats[pl]
        assert ink_in(shot, lay.name_rect(seat), art.text_colour) > 0, pl
    assert app.game.finished(3) == 2
    # The four home stretches are light green like the safe squares.
    assert len(home_squares()) == 28
    green = board.getpixel((lay.square_rect((9, 12)).x - lay.board.x + cell // 2,
                            lay.square_rect((9, 12)).y - lay.board.y + cell // 2))
    assert isinstance(green, tuple) and green[1] > max(green[0], green[2]) + 40
    if name in (ConfigName.TALL, ConfigName.WIDE):
        assert lay.panel is not None
        assert lay.panel.rect.w >= 150 and lay.panel.rect.h >= 150
        assert ink_in(shot, lay.panel.text, art.panel_text) > 0
    else:
        assert lay.panel is None


def test_the_dos_board_and_contrast_pieces_can_be_chosen(make_device: MakeDevice) -> None:
    device, app = make_device("tall")
    plugins = app.plugins()
    assert plugins is not None
    names = {i.name for i in plugins.plugins(None, "tall")}
    assert {"Sandalwood Board", "DOS Board", "Classic Pieces", "High Contrast Pieces",
            "Shells Sounds"} <= names
    wide = {i.name for i in plugins.plugins(None, "wide")}
    assert {"Sandalwood Board Wide", "DOS Board Wide", "Classic Pieces Wide",
            "High Contrast Pieces Wide", "Shells Sounds"} <= wide
    plugins.choose_plugin("board", "tall", "DOS Board")
    plugins.choose_plugin("pieces", "tall", "High Contrast Pieces")
    app.relayout()
    assert app.view is not None and app.layout is not None
    assert app.view.art.text_colour == (255, 255, 255)
    corner = app.layout.corner(1)  # West's corner: EGA blue where nothing is drawn
    pixel = device.screen.image.getpixel((corner.right - 2, corner.bottom - 2))
    assert isinstance(pixel, tuple)  # 16-bit colour: within a step of the EGA blue
    assert all(abs(a - b) <= 8 for a, b in zip(pixel, (0, 0, 170), strict=True))
    assert device.messages == []


@pytest.mark.parametrize("config", ["square-low", "wide"])
def test_gremlins_with_pachisi_running(config: str, tmp_path: Path, built_plugins: Path) -> None:
    device = Device(CONFIGS[ConfigName(config)], tmp_path, installed_apps(), "pachisi",
                    report=lambda message: None, durable=False, cache_dir=built_plugins)
    result = run_gremlins(device, 1500, seed=13)
    assert result.ok, f"seed {result.seed}, event {result.events}: {result.problem}\n" \
                      f"{result.detail}"


def test_the_third_app_button_opens_pachisi(tmp_path: Path, built_plugins: Path) -> None:
    from palmish.apps import hard_buttons

    device = Device(CONFIGS[ConfigName.SQUARE], tmp_path, installed_apps(), "launcher",
                    report=lambda message: None, durable=False, cache_dir=built_plugins,
                    buttons=hard_buttons())
    device.post(KeyDown(Key.APP3))
    assert device.running_app.id == "pachisi" and device.running_app.name == "Pachisi"
    assert device.running_app.creator == "PPch"
    device.shutdown()
