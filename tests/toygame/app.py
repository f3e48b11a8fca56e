"""Lamps: tap a lamp on the 3x3 board to switch it and its neighbours; light all nine.

The smallest game on BoardGameApp: a new game, a saved record, a layout that
draws the Board plugin's lamps (plain squares without one), the pen, one
menu command and one command-line option.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from palmish.boardgame import BoardGameApp, Command
from palmish.boardgame.grid import Grid
from palmish.device.screen import BLACK
from prc_tools.schema import load_file
from tests.toygame.descriptor import GAME

SIZE = 3
LIT, UNLIT = (250, 210, 40), (60, 60, 90)  # without a plugin
IDS = load_file(GAME.schema).bitmaps  # the Board plugin's lamps by name


class LampsApp(BoardGameApp, descriptor=GAME):

    def __init__(self) -> None:
        super().__init__()
        self.lit: set[int] = set()
        self.moves = 0
        self.grid: Grid | None = None
        self.first_lit: set[int] | None = None  # `palmish --lit`, used at start

    # The command-line option of the descriptor (palmish.games.TakesOptions).
    def accept_option(self, flag: str, value: str) -> None:
        try:
            cells = {int(c) for c in value.split(",")}
        except ValueError:
            raise ValueError(f"{value!r} is not cell numbers such as 0,4,8") from None
        if not cells <= set(range(SIZE * SIZE)):
            raise ValueError(f"cells are 0 to {SIZE * SIZE - 1}")
        self.first_lit = cells

    def option_problem(self) -> str | None:
        return None

    # BoardGameApp's hooks.
    def new_game(self) -> None:
        self.lit, self.moves = set(self.first_lit or ()), 0

    def game_fields(self) -> dict[str, object] | None:
        return {"lit": sorted(self.lit), "moves": self.moves}

    def resume(self, fields: Mapping[str, object], version: int) -> None:
        lit, moves = fields.get("lit"), fields.get("moves")
        if not isinstance(lit, list) or not isinstance(moves, int):
            raise ValueError("not a Lamps record")
        self.lit, self.moves = {c for c in lit if isinstance(c, int)}, moves
        if self.first_lit is not None:
            self.new_game()

    def game_menus(self) -> Sequence[tuple[str, Sequence[Command]]]:
        return (("Game", (Command("New Game", "new", self.restart, "N"),)),)

    def restart(self) -> None:
        self.first_lit = None
        self.new_game()
        self.save()
        self.lay_out()

    def in_progress(self) -> bool:
        return self.moves > 0 and len(self.lit) < SIZE * SIZE

    def lay_out(self) -> None:
        if self.ctx is None:
            return
        area = self.ctx.bounds
        cell = 20 * self.ctx.config.scale
        self.grid = Grid(area.x + (area.w - SIZE * cell) // 2, area.y + 8 * self.ctx.config.scale,
                         SIZE, SIZE, cell, cell)
        self.draw()

    def pen_down(self, x: int, y: int) -> None:
        at = self.grid.cell_at(x, y) if self.grid is not None else None
        if at is None or len(self.lit) == SIZE * SIZE:
            return
        row, col = at
        for r, c in ((row, col), (row - 1, col), (row + 1, col), (row, col - 1), (row, col + 1)):
            if 0 <= r < SIZE and 0 <= c < SIZE:
                self.lit ^= {r * SIZE + c}
        self.moves += 1
        self.save()
        self.draw()

    def draw(self) -> None:
        if self.ctx is None or self.grid is None:
            return
        screen, board = self.ctx.screen, self.media.plugin("board")
        screen.fill(self.ctx.bounds, (255, 255, 255))
        for cell in range(SIZE * SIZE):
            rect = self.grid.cell_rect(*divmod(cell, SIZE))
            on = cell in self.lit
            lamp = IDS["lamp_on" if on else "lamp_off"]
            picture = board.bitmap(lamp, self.ctx.config.density) if board else None
            if picture is None:
                screen.fill(rect, LIT if on else UNLIT)
            else:
                screen.blit(picture, rect.x, rect.y)
        done = " - all lit!" if len(self.lit) == SIZE * SIZE else ""
        screen.text(self.grid.x, self.grid.rect.bottom + 4 * self.ctx.config.scale,
                    f"{len(self.lit)} lit, {self.moves} moves{done}", BLACK)
        self.ctx.invalidate()
