"""PalmIshido, the app: the hooks of palmish.boardgame's BoardGameApp.

Play by pen (tap a cell, or drag the current tile) and keys (Up/Down mark the
legal cells, Select places). The base app saves the game record after every
move, resumes it, records the result once, loads the plugins for the current
configuration and provides Preferences, the Plugin Manager and Help.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Mapping, Sequence

from PIL import Image

from palmish.boardgame import BoardGameApp, Command, FormResult
from palmish.boardgame.beam_send import beam
from palmish.boardgame.sliced import TIMED_SLICE_MS, SlicedJob
from palmish.device.events import CharKey, Key, KeyDown, MenuCommand, PenDown
from palmish.device.exchange import BeamItem
from palmish.device.geometry import Rect
from palmish.device.machine.app import AppContext
from palmish.device.ui.alert import Alert
from palmish.device.ui.form import Field, PushButtons
from palmish.device.ui.modal import Modal
from palmish.ishido import Game, dialogs, rules
from palmish.ishido.art import load_art
from palmish.ishido.beam import DEAL
from palmish.ishido.descriptor import GAME
from palmish.ishido.icon import launcher_icon
from palmish.ishido.layout import IshidoLayout, layout_for
from palmish.ishido.rules import SCORINGS
from palmish.ishido.schema import SCHEMA
from palmish.ishido.scores import Entry, HighScores, high_scores
from palmish.ishido.view import IshidoView, Scene
from palmish.outcome import Outcome, Termination
from prc_tools.frozen import Frozen

# The Sound plugin's ids by name, from PalmIshido's plugin schema.
SOUND_IDS = dict(SCHEMA.sounds)
SOUND_PLACE = SOUND_IDS["place"]
SOUND_FOURWAY = SOUND_IDS["four_way"]
SOUND_ILLEGAL = SOUND_IDS["illegal"]
SOUND_GAME_OVER = SOUND_IDS["game_over"]
HINT_MS = 250  # thinking time for a hint
HINT_SLICE_MS = TIMED_SLICE_MS  # the hint thinks at most this long at a time
DEMO_STEP_MS = 600  # between the demo player's moves
NOTICE_MS = 1200  # how long an illegal move's mark and line stay


class Drag(Frozen, frozen=False):
    """The current tile held by the pen: where it was grabbed, relative to its cell box."""

    grab_dx: int
    grab_dy: int
    pen_x: int
    pen_y: int
    # After a display change the pen's position is a guess until it moves again; a pen
    # lifted before that (a window lifts it as it turns) puts the tile back, unplaced.
    settled: bool = True


class IshidoApp(BoardGameApp, descriptor=GAME):
    sound_ids = SOUND_IDS
    help_pages = dialogs.HELP_PAGES
    plugins_help = "help-plugins"

    def __init__(self) -> None:
        super().__init__()
        self.game = Game.new(seed=1)
        self.scene: Scene = Scene(self.game)
        self.layout: IshidoLayout | None = None
        self.view: IshidoView | None = None
        self.drag: Drag | None = None
        self.tap_cell: tuple[int, int] | None = None  # pen went down on the board here
        self.demo = False  # the computer is playing (Game > Demo); any pen or key stops it
        # The computer player thinking, in slices: for the Hint or the demo's next move.
        self.thinking: SlicedJob[tuple[int, int]] | None = None
        self.demo_move: tuple[int, int] | None = None  # what the demo plays next

    # ------------------------------------------------------------ saved game, prefs

    def start(self, ctx: AppContext) -> None:
        self.drag = None
        self.tap_cell = None
        self.demo = False  # a demo does not outlive the app's run
        super().start(ctx)

    def new_game(self) -> None:
        self.game = Game.new(scoring=self.scoring_pref())

    def showcase(self) -> bool:
        """Every tile on the board (6 rows of the 6 shapes, a colour a row, in the middle)
        and every tile again in the pouch, the first as the tile to place."""
        tiles = [rules.tile(colour, shape) for colour in range(rules.COLORS)
                 for shape in range(rules.SHAPES)]
        first_row, first_col = (rules.ROWS - rules.COLORS) // 2, (rules.COLS - rules.SHAPES) // 2
        board = {(first_row + t.color, first_col + t.shape): t for t in tiles}
        self.game = Game.from_position(board, tiles, scoring=self.scoring_pref())
        self.relayout()
        return True

    def resume_record(self, record: str, fields: Mapping[str, object]) -> None:
        self.game = Game.from_record(record)

    def game_fields(self) -> dict[str, object] | None:
        # A position set up by a test or puzzle has no record to keep.
        return None if self.game.seed is None else {"record": self.game.record()}

    def score_tables(self) -> HighScores:
        return high_scores()

    def in_progress(self) -> bool:
        return bool(self.game.moves) and not self.game.over

    def current_variant(self) -> str:
        return self.game.scoring

    def counts_as_win(self, outcome: Outcome) -> bool | None:
        return None  # scored by points: the tally counts games played, not won or lost

    def score_line(self, rank: int, entry: tuple[int, ...]) -> str:
        return dialogs.score_line(rank, Entry(*entry))

    @property
    def high_scores(self) -> HighScores:
        return self.scores if self.scores is not None else high_scores()

    def scoring_pref(self) -> str:
        return self.choice_pref("scoring", SCORINGS, "modern")

    def pref_fields(self) -> Sequence[Field]:
        return (PushButtons("scoring", "Scoring", ("Modern", "Scored"),
                            SCORINGS.index(self.scoring_pref())),)

    def apply_prefs(self, result: FormResult) -> None:
        # The scoring applies from the next game.
        self.prefs["scoring"] = result.choice("scoring", SCORINGS, self.scoring_pref())

    # ------------------------------------------------------------ layout and drawing

    def make_view(self, ctx: AppContext) -> IshidoView:
        old = self.layout
        self.layout = new = layout_for(ctx.config, ctx.bounds)
        art = load_art(new, self.media.plugin("pieces"), self.media.plugin("board"))
        self.media.report(art.notes)
        if self.drag is not None and old is not None:
            # Keep the tile under the pen: carry the pen over proportionally until the
            # next pen event reports where it really is in the new configuration.
            d = self.drag
            d.pen_x = new.bounds.x + (d.pen_x - old.bounds.x) * new.bounds.w // max(1, old.bounds.w)
            d.pen_y = new.bounds.y + (d.pen_y - old.bounds.y) * new.bounds.h // max(1, old.bounds.h)
            d.grab_dx = d.grab_dx * new.cell_w // max(1, old.cell_w)
            d.grab_dy = d.grab_dy * new.cell_h // max(1, old.cell_h)
            d.settled = False
        return IshidoView(new, art)

    def sync_scene(self) -> None:
        self.scene.game = self.game
        if self.scene.mark is not None and not self.game.is_legal(*self.scene.mark):
            self.scene.mark = None
        self.scene.drag = None
        if self.drag is not None:
            self.scene.drag = (self.drag.pen_x - self.drag.grab_dx,
                               self.drag.pen_y - self.drag.grab_dy)

    def _drag_rect(self) -> Rect | None:
        if self.view is None:
            return None
        self.sync_scene()
        return self.view.drag_rect(self.scene)

    # ------------------------------------------------------------ pen and keys

    def interrupt(self, event: PenDown | KeyDown | CharKey | MenuCommand) -> bool:
        self._stop_thinking()  # the player moved on: the hint would be for the past
        if not self.demo:
            return False
        self.demo = False
        self.turns.cancel("demo")
        return not isinstance(event, MenuCommand)  # a tap or key only stops the demo

    def pen_down(self, x: int, y: int) -> None:
        assert self.layout is not None and self.view is not None
        self.tap_cell = None
        if self.game.over:
            self.tap_cell = self.layout.cell_at(x, y)  # a tap on the board is answered
            return
        if self.view.well_rect().contains(x, y):
            # Hold the tile by the same point of it, also when the well shows it enlarged.
            well, z = self.layout.tile_well, self.layout.well_zoom
            self.drag = Drag((x - well.x) // z, (y - well.y) // z, x, y)
            self._paint(self.view.well_rect(), self._drag_rect())
            return
        self.tap_cell = self.layout.cell_at(x, y)

    def pen_move(self, x: int, y: int) -> None:
        if self.drag is None:
            return
        before = self._drag_rect()
        self.drag.pen_x, self.drag.pen_y = x, y
        self.drag.settled = True
        self._paint(before, self._drag_rect())

    def pen_up(self, x: int, y: int) -> None:
        lay, view = self.layout, self.view
        assert lay is not None and view is not None
        if self.drag is not None:
            before = self._drag_rect()
            settled = self.drag.settled
            box_x, box_y = x - self.drag.grab_dx, y - self.drag.grab_dy
            self.drag = None
            self._paint(before, view.well_rect())
            if not settled:
                return
            # The tile lands on the cell under its middle, where the player sees it.
            target = lay.cell_at(box_x + lay.cell_w // 2, box_y + lay.cell_h // 2)
            if target is not None:
                self.try_place(*target)
            elif not lay.panel.contains(x, y):
                self.refuse(None, "Off the board")  # back to the panel
            return
        down, self.tap_cell = self.tap_cell, None
        cell = lay.cell_at(x, y) if down is not None else None
        if cell is not None:
            if self.game.over:
                self.say_finished()
            else:
                self.try_place(*cell)

    def key(self, key: Key) -> None:
        if self.drag is not None:
            return
        if self.game.over:
            if key is Key.SELECT:
                self.say_finished()
            return
        legal = self.game.legal_moves()
        walked = self.cycle(legal, self.scene.mark, key)  # the arrows walk the legal cells
        if walked is not None:
            self._set_mark(walked)
        elif key is Key.SELECT:
            if self.scene.mark is not None:
                self.try_place(*self.scene.mark)
            elif legal:
                self._set_mark(legal[0])

    def _set_mark(self, cell: tuple[int, int] | None) -> None:
        assert self.layout is not None
        old, self.scene.mark = self.scene.mark, cell
        self._paint(*(self.layout.cell_rect(*c) for c in (old, cell) if c is not None))

    # ------------------------------------------------------------ moves

    def say_finished(self) -> None:
        """A tap or Select on a finished game: tell the player, not nothing."""
        self.open(dialogs.finished_alert(self.game))

    def refuse(self, cell: tuple[int, int] | None, line: str) -> None:
        """An illegal drop or tap: the buzz, a brief mark on the cell and a line in the panel."""
        assert self.layout is not None
        old = self.scene.refused
        self.scene.refused, self.scene.notice = cell, line
        self.play("illegal")
        self._paint(self.layout.panel, *(self.layout.cell_rect(*c) for c in (old, cell) if c))
        self.turns.after("notice", NOTICE_MS, self._clear_notice)

    def _clear_notice(self) -> None:
        if self.layout is None:
            return
        old = self.scene.refused
        self.scene.refused, self.scene.notice = None, None
        self._paint(self.layout.panel, self.layout.cell_rect(*old) if old else None)

    def try_place(self, row: int, col: int) -> None:
        assert self.layout is not None and self.view is not None
        if not self.game.is_legal(row, col):
            taken = self.game.tile_at(row, col) is not None
            self.refuse((row, col), "That cell is taken" if taken else "No match there")
            return
        if self.scene.notice is not None:
            self.turns.cancel("notice")
            self._clear_notice()
        old_mark = self.scene.mark
        placement = self.game.place(row, col)
        self.scene.mark = None
        self.save()
        self.sync_scene()
        self._paint(self.view.tile_rect(row, col, self.scene), self.layout.panel,
                    self.layout.cell_rect(*old_mark) if old_mark is not None else None)
        outcome = self.game.outcome()
        if outcome is not None:
            self.play("all_placed" if outcome.termination is Termination.COMPLETED
                      else "game_over")
            self._game_over(outcome)
        else:
            self.play("four_way" if placement.fourway else "place")

    def undo(self) -> None:
        assert self.layout is not None and self.view is not None
        if not self.game.can_undo:
            return
        before = self.view.tile_rect(*self.game.moves[-1], self.scene)
        self.game.undo()
        self.scene.mark = None
        self.save()
        self._paint(before, self.layout.panel)

    def deal(self, seed: int | None, scoring: str | None = None) -> None:
        """Start a game: deal `seed` (None: a random one) with the scoring (default: prefs)."""
        self.game = Game.new(seed=seed, scoring=scoring or self.scoring_pref())
        self.recorded = False
        self.scene.mark = self.scene.refused = self.scene.notice = None
        self.turns.cancel("notice")
        self.drag = None
        self.save()
        self._paint(self.layout.bounds if self.layout is not None else None)

    def _game_over(self, outcome: Outcome) -> None:
        game = self.game
        rank = None
        not_counted = self._why_not_counted()
        if game.seed is not None:
            rank = self.record_result(game.scoring, outcome, Entry(
                game.score, game.fourways, game.remaining, game.seed))

        def closed(result: FormResult) -> None:
            if result.button == "New Game":
                self.deal(None)
            else:  # Done (the default, also Select and Escape): the finished board stays
                self._paint(self.layout.bounds if self.layout is not None else None)

        self.open_form(dialogs.game_over_alert(game, self.high_scores, rank, not_counted),
                       closed)

    def _why_not_counted(self) -> str | None:
        """Why the game ending now will not enter the high scores (None: it will)."""
        if self.game.seed is None:
            return "A position set up by hand is not in the high scores."
        if self.recorded:  # only the Demo marks a game recorded before its end
            return "The Demo played in this game, so it is not in the high scores."
        return None

    # ------------------------------------------------------------ computer player

    def _think(self, name: str, then: Callable[[tuple[int, int]], None]) -> None:
        """Start the computer player's search for the current tile, in slices of
        HINT_SLICE_MS between frames (its HINT_MS count only the thinking), so the
        window draws and takes input meanwhile; `then` gets its cell, unless the
        game has moved on by then."""
        from palmish.ishido.ai import thinking

        self._stop_thinking()
        game, moves = self.game, len(self.game.moves)

        def thought(cell: tuple[int, int]) -> None:
            self.thinking = None
            if self.game is game and len(game.moves) == moves and game.is_legal(*cell):
                then(cell)

        self.thinking = SlicedJob(
            self.turns, name,
            thinking(game, "clear", time.perf_counter() + HINT_MS / 1000, random.Random(moves),
                     slice_ms=HINT_SLICE_MS),
            units=1, on_done=thought)
        self.thinking.start()

    def _stop_thinking(self) -> None:
        job, self.thinking = self.thinking, None
        if job is not None:
            job.cancel()

    def hint(self) -> None:
        """Mark the cell the computer player would choose; Select then places there.
        Any pen, key or command stops the thinking."""
        if not self.game.over and self.drag is None:
            self._think("hint", self._set_mark)

    def start_demo(self) -> None:
        if self.game.over or self.ctx is None:
            return
        self.demo = True
        self.recorded = True  # a game the computer finished does not enter the table
        self.save()
        self._demo_ahead()

    def _demo_ahead(self) -> None:
        """Think of the demo's next move now, between frames, and play it DEMO_STEP_MS
        from now (thinking ends long before, but for a slow or late step)."""
        self.demo_move = None
        self._think("demo-think", self._keep_demo_move)
        self.turns.after("demo", DEMO_STEP_MS, self._demo_step)

    def _keep_demo_move(self, cell: tuple[int, int]) -> None:
        self.demo_move = cell

    def _demo_step(self) -> None:
        if not self.demo or self.game.over or self.drag is not None:
            self.demo = False
            self._stop_thinking()
            return
        if self.demo_move is None and self.thinking is None:  # its search was stopped
            self._think("demo-think", self._keep_demo_move)
        if self.thinking is not None:  # not done yet: the rest of it now
            self.thinking.finish()
        assert self.demo_move is not None  # thought of for this very position
        self.try_place(*self.demo_move)
        if self.game.over:
            self.demo = False
        else:
            self._demo_ahead()

    # ------------------------------------------------------------ menus and dialogs

    def game_menus(self) -> Sequence[tuple[str, Sequence[Command]]]:
        return (("Game", (
            Command("New Game", "new",
                    lambda: self.confirm_discard("New Game", lambda: self.deal(None)), "N"),
            Command("Restart this deal", "restart",
                    lambda: self.confirm_discard(
                        "Restart", lambda: self.deal(self.game.seed, self.game.scoring)), "R"),
            Command("Undo", "undo", self.undo, "U"),
            Command("Hint", "hint", self.hint, "H"),
            Command("Demo", "demo", self.start_demo),
            Command("Deal number...", "deal", self._ask_deal, "D"),
            Command("Beam Deal", "beam", self._beam_deal),
        )),)

    def beam_item(self) -> BeamItem | None:
        """The deal by its number (palmish/ishido/beam.py); None for a game set up
        without a deal number, which cannot be dealt again."""
        seed = self.game.seed
        return None if seed is None else BeamItem(DEAL, GAME.id, number=seed)

    def open_beamed(self, item: BeamItem, ask: bool) -> None:
        """A received deal, dealt here (after asking, with `ask`)."""
        number = item.number
        if number is None:
            raise ValueError(f"a deal opens in {GAME.name}")

        def deal() -> None:
            self.deal(number)

        if ask:
            self.confirm_discard("Open", deal)
        else:
            deal()

    def _beam_deal(self) -> None:
        """Game > Beam Deal: the deal number, so a friend plays the same 72 tiles."""
        item = self.beam_item()
        if item is None:
            self.open(Alert("Beam Deal", "This game was not dealt by a number, so it "
                            "cannot be beamed.", icon="info"))
            return
        beam(item, f"Deal {item.number}", self.open, self.beams())

    def _ask_deal(self) -> None:
        self.open(dialogs.deal_entry(self.game.seed),
                  lambda n: self.deal(n) if isinstance(n, int) else None)

    def icon(self) -> Image.Image:
        return launcher_icon()

    def about(self) -> Modal:
        return dialogs.about_alert(self.game, self.high_scores)
