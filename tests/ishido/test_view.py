"""The PalmIshido view on its own: plain stand-in art, clipped repaints, tile overhang."""

from __future__ import annotations

from PIL import Image

from palmish.device.display import CONFIGS, ConfigName
from palmish.device.geometry import Rect
from palmish.device.graphics.screen import Framebuffer
from palmish.ishido import Game
from palmish.ishido.art import load_art
from palmish.ishido.layout import layout_for
from palmish.ishido.view import IshidoView, Scene


def screen(name: ConfigName) -> Framebuffer:
    config = CONFIGS[name]
    return Framebuffer(config.width, config.height, config.density)


def test_without_plugins_the_game_is_drawn_plainly() -> None:
    fb = screen(ConfigName.SQUARE)
    layout = layout_for(CONFIGS[ConfigName.SQUARE])
    art = load_art(layout, None, None)
    view = IshidoView(layout, art)
    game = Game.new(seed=5)
    view.paint(fb, Scene(game))
    for row, col in [(0, 0), (3, 5), (7, 11)]:
        t = game.tile_at(row, col)
        assert t is not None
        cell = layout.cell_rect(row, col)
        shown = fb.image.crop(cell.box())
        assert shown.tobytes() == art.tile(t.color, t.shape).convert("RGB").tobytes()
    # 36 distinct stand-in tiles.
    assert len({img.tobytes() for img in art.tiles.values()}) == 36


def test_paint_touches_only_the_region_asked_for() -> None:
    fb = screen(ConfigName.SQUARE)
    layout = layout_for(CONFIGS[ConfigName.SQUARE])
    view = IshidoView(layout, load_art(layout, None, None))
    scene = Scene(Game.new(seed=5))
    view.paint(fb, scene)
    fb.take_damage()
    before = fb.image.copy()
    cell = layout.cell_rect(2, 2)
    fb.image.paste((255, 0, 255), (0, 0, fb.width, fb.height))  # scribble everywhere
    view.paint(fb, scene, cell)
    damage = fb.take_damage()
    assert damage and all(cell.intersect(r) == r for r in damage)
    assert fb.image.crop(cell.box()).tobytes() == before.crop(cell.box()).tobytes()
    assert fb.image.getpixel((cell.right + 1, cell.y)) == (255, 0, 255)


class _Info:
    def __init__(self, fields: dict[str, object]) -> None:
        self.fields = fields


class _Pieces:
    """A Pieces plugin whose tiles stick out 4 pixels up and left of their cells."""

    def __init__(self) -> None:
        self.info = _Info({"cell": [24, 40], "anchor": [-4, -4]})

    def bitmap(self, id_: int, density: int = 144) -> Image.Image | None:
        if not 1000 <= id_ < 1036:
            return None
        return Image.new("RGBA", (28, 44), (10 * (id_ - 1000), 0, 0, 255))


def test_overhanging_tiles_use_the_anchor_and_cover_their_neighbours() -> None:
    fb = screen(ConfigName.SQUARE)
    layout = layout_for(CONFIGS[ConfigName.SQUARE])
    art = load_art(layout, _Pieces(), None)
    assert art.anchor == (-4, -4)
    game = Game.new(seed=5)
    view = IshidoView(layout, art)
    scene = Scene(game)
    view.paint(fb, scene)
    t = game.tile_at(4, 6)
    assert t is not None
    cell = layout.cell_rect(4, 6)
    # The tile starts 4 px above and left of its cell, over the neighbouring cells.
    assert fb.image.getpixel((cell.x - 4, cell.y - 4)) == (10 * (6 * t.color + t.shape), 0, 0)
    assert view.tile_rect(4, 6, scene) == Rect(cell.x - 4, cell.y - 4, 28, 44)


def test_low_density_halves_plugin_offsets() -> None:
    layout = layout_for(CONFIGS[ConfigName.SQUARE_LOW])
    art = load_art(layout, _Pieces(), None)
    assert art.anchor == (-2, -2)
    assert art.cell == (12, 20)


def test_a_repaint_of_any_region_matches_a_full_paint_with_overhanging_tiles() -> None:
    """Repaints visit only the cells near the region; the pixels must not notice."""
    import random

    layout = layout_for(CONFIGS[ConfigName.SQUARE])
    view = IshidoView(layout, load_art(layout, _Pieces(), None))
    game = Game.new(seed=5)
    for row, col in game.legal_moves()[:1]:
        game.place(row, col)
    scene = Scene(game, mark=(3, 3))
    full = screen(ConfigName.SQUARE)
    view.paint(full, scene)
    rng = random.Random(9)
    for _ in range(40):
        fb = screen(ConfigName.SQUARE)
        fb.image.paste((255, 0, 255), (0, 0, fb.width, fb.height))
        x, y = rng.randrange(layout.bounds.w), rng.randrange(layout.bounds.h)
        region = Rect(x, y, rng.randint(1, 60), rng.randint(1, 60))
        view.paint(fb, scene, region)
        area = region.intersect(layout.bounds)
        assert area is not None
        assert fb.image.crop(area.box()).tobytes() == full.image.crop(area.box()).tobytes()
