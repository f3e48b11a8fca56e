"""Draws PalmIshido: board, tiles, the selected-cell mark, the panel and a dragged tile.

Every drawing goes through `paint(region)`, which redraws all layers that
touch the region, in order, clipped to it: the app asks for exactly the
rectangles that changed, and the framebuffer records them as damage.
"""

from __future__ import annotations

from PIL import Image

from palmish.boardgame.paint import fill_tiled
from palmish.device.geometry import Rect
from palmish.device.graphics.screen import Framebuffer
from palmish.ishido import Game, roman
from palmish.ishido.art import Art
from palmish.ishido.layout import IshidoLayout
from palmish.ishido.rules import COLS, ROWS
from prc_tools.frozen import Frozen

PLAIN_BOARD = (200, 196, 180)
PLAIN_EDGE = (176, 170, 150)
PLAIN_LINE = (120, 114, 100)
PLAIN_PANEL = (255, 255, 255)
REFUSED = (220, 20, 20)  # the brief mark on a cell where a move was refused
DIM = (128, 128, 128, 150)  # laid over the well's tile once the game is over


class Scene(Frozen, frozen=False):
    """What the view shows besides the game itself."""

    game: Game
    mark: tuple[int, int] | None = None  # the selected legal cell
    drag: tuple[int, int] | None = None  # native top-left of the dragged tile's cell box
    refused: tuple[int, int] | None = None  # a cell an illegal move was just tried on
    notice: str | None = None  # a brief line in the panel (why a move was refused)


class IshidoView:
    def __init__(self, layout: IshidoLayout, art: Art) -> None:
        self.layout = layout
        self.art = art
        self._zoomed: dict[tuple[int, int], Image.Image] = {}
        # The art never changes for a view, so neither does the well's extent,
        # nor how far a tile's picture sticks out of its cell (left, top, right, bottom).
        self._well_rect = self._measure_well()
        self._overhang = self._measure_overhang()

    # ---------------------------------------------------------------- geometry

    def tile_rect(self, row: int, col: int, scene: Scene) -> Rect:
        """Where the tile on (row, col) is drawn (it may stick out of its cell)."""
        cell = self.layout.cell_rect(row, col)
        t = scene.game.tile_at(row, col)
        if t is None:
            return cell
        img = self.art.tile(t.color, t.shape)
        dx, dy = self.art.offset(t.color, t.shape)
        return Rect(cell.x + dx, cell.y + dy, img.width, img.height).union(cell)

    def drag_rect(self, scene: Scene) -> Rect | None:
        t = scene.game.current
        if scene.drag is None or t is None:
            return None
        img = self.art.tile(t.color, t.shape, lifted=True)
        dx, dy = self.art.offset(t.color, t.shape, lifted=True)
        x, y = scene.drag
        return Rect(x + dx, y + dy, img.width, img.height)

    def well_rect(self) -> Rect:
        """The current tile's well including its frame and any overhang of the tile."""
        return self._well_rect

    def _measure_well(self) -> Rect:
        well = self.layout.tile_well
        u = self.layout.scale
        z = self.layout.well_zoom
        dx, dy = self.art.anchor
        frame = Rect(well.x - u, well.y - u, well.w + 2 * u, well.h + 2 * u)
        for img in self.art.tiles.values():
            frame = frame.union(Rect(well.x + z * dx, well.y + z * dy, z * img.width,
                                     z * img.height))
        return frame

    def _measure_overhang(self) -> tuple[int, int, int, int]:
        dx, dy = self.art.anchor
        grid = self.layout.grid
        widest = max((img.width for img in self.art.tiles.values()), default=0)
        tallest = max((img.height for img in self.art.tiles.values()), default=0)
        return (max(0, -dx), max(0, -dy), max(0, dx + widest - grid.cell_w),
                max(0, dy + tallest - grid.cell_h))

    def _cells_near(self, area: Rect) -> tuple[list[int], list[int]]:
        """The rows and columns whose tiles may touch `area` (a drag repaints a few, not 96)."""
        grid = self.layout.grid
        left, top, right, bottom = self._overhang
        rows = [r for r in range(ROWS)
                if grid.y + r * grid.cell_h - top < area.bottom
                and grid.y + (r + 1) * grid.cell_h + bottom > area.y]
        cols = [c for c in range(COLS)
                if grid.x + c * grid.cell_w - left < area.right
                and grid.x + (c + 1) * grid.cell_w + right > area.x]
        return rows, cols

    def well_tile(self, colour: int, shape: int) -> Image.Image:
        """The tile as the well shows it (enlarged pixel for pixel in Tall)."""
        img = self.art.tile(colour, shape)
        z = self.layout.well_zoom
        if z == 1:
            return img
        key = (colour, shape)
        if key not in self._zoomed:
            self._zoomed[key] = img.resize((img.width * z, img.height * z),
                                           Image.Resampling.NEAREST)
        return self._zoomed[key]

    # ---------------------------------------------------------------- painting

    def paint(self, fb: Framebuffer, scene: Scene, region: Rect | None = None) -> None:
        """Redraw everything that touches `region` (default: the whole app area)."""
        lay = self.layout
        area = lay.bounds if region is None else region.intersect(lay.bounds)
        if area is None:
            return
        self._paint_board(fb, scene, area)
        self._paint_panel(fb, scene, area)
        drag = self.drag_rect(scene)
        if drag is not None and drag.intersect(area) is not None:
            t = scene.game.current
            assert t is not None  # drag_rect() is None without a current tile
            fb.blit(self.art.tile(t.color, t.shape, lifted=True), drag.x, drag.y, clip=area)

    def _paint_board(self, fb: Framebuffer, scene: Scene, area: Rect) -> None:
        lay = self.layout
        for filler in lay.fillers:
            fill_tiled(fb, filler, area, self.art.panel, PLAIN_PANEL)
        # Tiles may stick out of their cells: every tile whose picture touches the region
        # is drawn again (clipped), in row order, so overlaps come out as on a full redraw.
        board_area = area.intersect(lay.board)
        if board_area is not None:
            if self.art.board is not None:
                fb.blit(self.art.board, lay.board.x, lay.board.y, clip=board_area)
            else:
                self._plain_board(fb, board_area)
        rows, cols = self._cells_near(area)
        for row in rows:
            for col in cols:
                t = scene.game.tile_at(row, col)
                if t is None:
                    continue
                cell = lay.cell_rect(row, col)
                dx, dy = self.art.offset(t.color, t.shape)
                img = self.art.tile(t.color, t.shape)
                target = Rect(cell.x + dx, cell.y + dy, img.width, img.height)
                if target.intersect(area) is not None:
                    fb.blit(img, target.x, target.y, clip=area)
        if scene.mark is not None:
            cell = lay.cell_rect(*scene.mark)
            clip = area.intersect(cell)
            if clip is not None:
                if self.art.mark is not None:
                    fb.blit(self.art.mark, cell.x, cell.y, clip=clip)
                else:
                    u = lay.scale
                    for i in range(u * 2):
                        inner = Rect(cell.x + i, cell.y + i, cell.w - 2 * i, cell.h - 2 * i)
                        fb.rectangle(inner, (255, 220, 0) if i < u else (0, 0, 0), clip=clip)
        if scene.refused is not None:
            cell = lay.cell_rect(*scene.refused)
            clip = area.intersect(cell)
            if clip is not None:  # a red frame and cross: "not here"
                u = lay.scale
                for i in range(u * 2):
                    inner = Rect(cell.x + i, cell.y + i, cell.w - 2 * i, cell.h - 2 * i)
                    fb.rectangle(inner, REFUSED, clip=clip)
                if clip == cell:
                    m = 4 * u
                    fb.line(cell.x + m, cell.y + m, cell.right - 1 - m, cell.bottom - 1 - m,
                            REFUSED, width=u)
                    fb.line(cell.right - 1 - m, cell.y + m, cell.x + m, cell.bottom - 1 - m,
                            REFUSED, width=u)

    def _plain_board(self, fb: Framebuffer, area: Rect) -> None:
        lay = self.layout
        rows, cols = self._cells_near(area)
        for row in rows:
            for col in cols:
                cell = lay.cell_rect(row, col)
                clip = cell.intersect(area)
                if clip is None:
                    continue
                edge = row in (0, ROWS - 1) or col in (0, COLS - 1)
                fb.fill(clip, PLAIN_EDGE if edge else PLAIN_BOARD)
                fb.rectangle(cell, PLAIN_LINE, clip=clip)

    def _paint_panel(self, fb: Framebuffer, scene: Scene, area: Rect) -> None:
        lay = self.layout
        if lay.panel.intersect(area) is None:
            return
        fill_tiled(fb, lay.panel, area, self.art.panel, PLAIN_PANEL)
        game = scene.game
        ink = self.art.text_colour
        u = lay.scale
        well = lay.tile_well
        clip = area.intersect(lay.panel) or area
        frame = Rect(well.x - u, well.y - u, well.w + 2 * u, well.h + 2 * u)
        dark, light = (0, 0, 0), (255, 255, 255)
        if frame.intersect(clip) is not None:
            # A sunken well: dark above and left, light below and right.
            fb.rectangle(frame, dark, clip=clip)
            for side in (Rect(frame.x + 1, frame.bottom - 1, frame.w - 1, 1),
                         Rect(frame.right - 1, frame.y + 1, 1, frame.h - 1)):
                part = side.intersect(clip)
                if part is not None:
                    fb.fill(part, light)
        t = game.current if scene.drag is None else None
        if t is None and game.over:
            t = game.stuck_tile
        if t is not None:
            dx, dy = self.art.offset(t.color, t.shape)
            z = lay.well_zoom
            fb.blit(self.well_tile(t.color, t.shape), well.x + z * dx, well.y + z * dy, clip=clip)
        if game.over:  # the game is finished: the well is dimmed
            fb.blit(self._dimmer(frame.w, frame.h), frame.x, frame.y, clip=clip)
        if lay.vertical_text:
            self._narrow_texts(fb, game, clip, ink, scene.notice)
        else:
            self._wide_texts(fb, game, clip, ink, scene.notice)

    def _dimmer(self, w: int, h: int) -> Image.Image:
        key = (-w, -h)  # shares the cache of zoomed tiles, with keys no tile has
        if key not in self._zoomed:
            self._zoomed[key] = Image.new("RGBA", (w, h), DIM)
        return self._zoomed[key]

    def _narrow_texts(self, fb: Framebuffer, game: Game, clip: Rect,
                      ink: tuple[int, int, int], notice: str | None) -> None:
        """The narrow strip (Square, Wide): each value turned on its side with a label."""
        lay = self.layout
        self._vertical_score(fb, game, clip, ink)
        if game.over and notice is None:
            # In the room of the count and the four-ways (the dialog has both).
            self._vertical_phrase(fb, lay.tiles_left.union(lay.ancient), clip, ink, [
                [("Game", "bold"), ("over", "bold")], [("Over", "bold")]])
            return
        if notice is not None:  # a refused move: said where the count of tiles is
            self._vertical_phrase(fb, lay.tiles_left, clip, REFUSED, [
                [("Not", "bold"), ("there", "std")], [("No!", "bold")]])
        else:
            left = str(game.remaining)
            self._vertical_phrase(fb, lay.tiles_left, clip, ink, [
                [(left, "bold"), ("left", "std")], [(left, "bold")]])
        if game.fourways:
            numerals = roman(game.fourways)
            self._vertical_phrase(fb, lay.ancient, clip, ink, [
                [(numerals, "bold"), ("4-way", "std")], [(numerals, "bold")]])
        else:
            self._vertical_phrase(fb, lay.ancient, clip, ink, [[("no", "std"), ("4-way", "std")]])

    def _vertical_phrase(self, fb: Framebuffer, box: Rect, clip: Rect,
                         ink: tuple[int, int, int], choices: list[list[tuple[str, str]]]
                         ) -> None:
        """The first of `choices` (words in fonts) that fits, reading bottom-to-top from
        the bottom of `box`: the value first, then its label ("120 pts")."""
        part = box.intersect(clip)
        if part is None:
            return
        gap = fb.text_width(" ", "std")

        def length(words: list[tuple[str, str]]) -> int:
            return sum(fb.text_width(t, f) for t, f in words) + gap * (len(words) - 1)

        words = next((c for c in choices if length(c) <= box.h), choices[-1])
        bottom = box.bottom
        for text, font in words:
            h = fb.line_height(font)
            n = fb.text_width(text, font)
            fb.text_vertical(box.x + (box.w - h) // 2, bottom - n, text, ink, font, clip=part)
            bottom -= n + gap

    def _vertical_score(self, fb: Framebuffer, game: Game, clip: Rect,
                        ink: tuple[int, int, int]) -> None:
        # Reads bottom-to-top, ending at the bottom of its box, like the original; the
        # label goes when the number needs the room.
        text = str(game.score)
        self._vertical_phrase(fb, self.layout.modern, clip, ink, [
            [(text, "large"), ("pts", "std")], [(text, "bold"), ("pts", "std")],
            [(text, "large")], [(text, "bold")]])

    def _wide_texts(self, fb: Framebuffer, game: Game, clip: Rect,
                    ink: tuple[int, int, int], notice: str | None) -> None:
        lay = self.layout
        scoring = "Scored variant" if game.scoring == "scored" else "Modern scoring"
        rows: list[tuple[Rect | None, str, str, tuple[int, int, int]]] = [
            (lay.deal, f"Deal {game.seed}", "std", ink),
            # The second line tells why a move was refused, or that the game is over.
            (lay.scoring, notice, "bold", REFUSED) if notice is not None
            else (lay.scoring, "Game over", "bold", ink) if game.over
            else (lay.scoring, scoring, "std", ink),
            (lay.tiles_left, f"Tiles left: {game.remaining}", "std", ink),
            (lay.ancient, f"Four-ways: {roman(game.fourways) if game.fourways else '-'}", "std",
             ink),
        ]
        for box, text, face, colour in rows:
            if box is None:
                continue
            part = box.intersect(clip)
            if part is not None:
                font = fb.font(face)
                fb.text(box.x, box.y, font.fit(text, box.w), colour, font, clip=part)
        self._vertical_score(fb, game, clip, ink)
