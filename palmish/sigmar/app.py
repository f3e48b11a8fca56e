"""Sigmar's Garden, the app: the hooks of palmish.boardgame's BoardGameApp.

Two gardens, one app: the square remake and Opus Magnum's hexagon, chosen in
the Game menu or Preferences (docs/sigmar-app.md, "Two gardens"); the app plays
either through palmish/sigmar/garden.py. Play by pen (tap an atom to select
it, tap a partner to react, or drag from one to the other; gold goes with one
tap) and keys (Up/Down walk the selectable atoms, then the selection's
partners; Select selects, then takes). The base app saves after every take and
undo, resumes, loads the plugins for the configuration and provides
Preferences, the Plugin Manager and Help.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Generator, Mapping, Sequence
from typing import Any

from PIL import Image

from palmish.boardgame import BoardGameApp, Command, FormResult
from palmish.boardgame.beam_send import beam
from palmish.boardgame.prefs import KIND_TITLES
from palmish.boardgame.sliced import SlicedJob
from palmish.device.events import CharKey, Key, KeyDown, MenuCommand, PenDown
from palmish.device.exchange import BeamItem
from palmish.device.machine.app import AppContext
from palmish.device.ui.form import CheckBox, Field, PopupList
from palmish.device.ui.modal import Modal
from palmish.outcome import Outcome, Termination
from palmish.sigmar import (
    Atom,
    Game,
    IllegalMove,
    LevelError,
    SearchBudget,
    Take,
    dialogs,
    garden,
)
from palmish.sigmar.art import load_art
from palmish.sigmar.beam import BOARD, HEX_BOARD, LEVEL
from palmish.sigmar.catalog import (
    LevelEntry,
    all_levels,
    cleared_key,
    find_level,
    hex_levels,
    levels_from_resources,
)
from palmish.sigmar.descriptor import GAME
from palmish.sigmar.garden import GARDENS, HEXAGONAL, SQUARE, TITLES, Garden, garden_of
from palmish.sigmar.hexagonal.game import HexGame
from palmish.sigmar.hexagonal.level import LEVEL_SUFFIX as HEX_SUFFIX
from palmish.sigmar.hexagonal.level import HexLevel
from palmish.sigmar.hexart import load_hex_art
from palmish.sigmar.icon import launcher_icon
from palmish.sigmar.install import proven_unclearable
from palmish.sigmar.layout import SigmarLayout, layout_for
from palmish.sigmar.level import LEVELS_DB_TYPE, normalize_level_id
from palmish.sigmar.schema import SCHEMA
from palmish.sigmar.showcase import CHOSEN, showcase_game
from palmish.sigmar.view import Scene, SigmarView
from palmish.stepped import finish
from prc_tools import Database, PrcError

Cell = tuple[int, int]
# Each garden's statistics table; the square one keeps the name it had alone.
VARIANTS = {SQUARE: "garden", HEXAGONAL: "hexagonal"}
DIFFICULTIES = ("any", "easy", "normal", "hard")
NO_SOLUTION = "No solution from here: Undo"
NOT_IN_TIME = "No hint found in time: try Undo"
THINKING = "Thinking..."
HINT_CAP_MS = 270  # checked before each slice, so the answer comes within 300 ms
ANY = "any"  # self.dealt's key for New Game without a difficulty
DEAL_PLAYOUTS_PER_SLICE = 16  # random playouts of New Game's rating per slice (~15 ms)
MAX_RANDOM_BOARD = 999_999  # New Game draws board numbers short enough to share
LEVELS_KIND = "levels"  # the Levels database's kind in plugin-schema.yaml


class SigmarApp(BoardGameApp, descriptor=GAME):
    state_version = 1
    sound_ids = SCHEMA.sounds
    help_pages = dialogs.HELP_PAGES
    plugins_help = "help-plugins"
    # The hexagonal garden's board is a plugin kind of Sigmar's own (plugin-schema.yaml).
    plugin_kinds = (*KIND_TITLES, ("hexboard", "Hex Board"))

    def __init__(self) -> None:
        super().__init__()
        self.game: Garden = Game.new(seed=1)
        self.scene: Scene = Scene(self.game)
        self.layout: SigmarLayout | None = None
        self.view: SigmarView | None = None
        self.garden_levels: dict[str, list[LevelEntry]] = {g: [] for g in GARDENS}
        self.parked: dict[str, tuple[str, bool]] = {}  # the other garden's game and its Hint flag
        self.pending_garden: str | None = None  # `palmish --garden`, chosen at start
        self.assisted = False  # the Hint was used on this attempt
        self.focus: Cell | None = None  # the keys' cursor
        self.tap: Cell | None = None  # the pen went down on this cell
        self.pending_board: str | None = None  # `palmish --board`, opened at start
        self.board_problem: str | None = None  # why the pending board could not open
        self.told: set[str] = set()  # level problems already reported
        self.work: SlicedJob[Any] | None = None  # the Hint thinking or New Game dealing
        self.ahead: SlicedJob[int] | None = None  # the next New Game's number, dealt in idle time
        # A number ready for the next New Game (its board built), by (garden,
        # difficulty or ANY).
        self.dealt: dict[tuple[str, str], int] = {}
        self.showing: Garden | None = None  # the board of every atom, while it is played

    # ------------------------------------------------------------ life cycle, saving

    def start(self, ctx: AppContext) -> None:
        self.tap = None
        self._load_levels(ctx)
        super().start(ctx)
        if self.pending_garden is not None:
            wanted, self.pending_garden = self.pending_garden, None
            self.prefs["garden"] = wanted
            if garden_of(self.game) != wanted:
                self._switch_to(wanted)
        if self.pending_board is not None:
            board, self.pending_board = self.pending_board, None
            self.board_problem = self.open_board(board)
        self._deal_ahead()

    def stop(self) -> None:
        self._stop_work()
        if self.ahead is not None:
            self.ahead.cancel()
            self.ahead = None
        super().stop()

    def request_board(self, board: str) -> None:
        """Open this board (a level id, a number for a level, or ?) when the app starts."""
        normalize_level_id(board)  # LevelError now for an id that cannot be one
        self.pending_board = board

    def accept_option(self, flag: str, value: str) -> None:
        """`palmish --board ID` and `--garden NAME`, the options the descriptor declares
        (palmish.games.TakesOptions)."""
        if flag == "--garden":
            self.pending_garden = _garden_named(value)
        elif flag == "--board":
            self.request_board(value)
        else:
            raise ValueError(f"{self.name} has no {flag}")

    @property
    def levels(self) -> list[LevelEntry]:
        """The levels of the garden being played (Levels..., the win's Next, Beam)."""
        return self.garden_levels[garden_of(self.game)]

    def option_problem(self) -> str | None:
        return f"--board: {self.board_problem}" if self.board_problem else None

    def _load_levels(self, ctx: AppContext) -> None:
        self.garden_levels, problems = self._read_levels(ctx)
        fresh = [p for p in problems if p not in self.told]  # each problem told once
        self.told.update(fresh)
        if fresh:
            ctx.notify(f"{self.name}: " + "; ".join(fresh[:2])
                       + ("; ..." if len(fresh) > 2 else ""))

    @staticmethod
    def _read_levels(ctx: AppContext, without: str | None = None
                     ) -> tuple[dict[str, list[LevelEntry]], list[str]]:
        """Both gardens' levels (and the problems met), leaving out installed file
        `without` (what Remove would leave)."""
        databases = ctx.bundled_databases(LEVELS_DB_TYPE)
        files = [f for f in ctx.user_files() if f[0] != without]
        square, problems = all_levels((db.resources for db in databases), files)
        hexagonal, hex_problems = hex_levels(files)
        return {SQUARE: square, HEXAGONAL: hexagonal}, problems + hex_problems

    def new_game(self) -> None:
        self.game = self._random_board()
        self._reset_attempt()

    def _random_board(self, seed: int | None = None, which: str | None = None) -> Garden:
        """Board `seed` of a garden (default: the chosen one), or one New Game deals. The
        number alone names the board in its garden: the difficulty only chooses which
        numbers New Game deals (docs/sigmar-app.md)."""
        which = which or self.garden()
        if seed is None:
            seed = finish(self._dealing(self._difficulty(), which))
        return garden.new_game(which, seed)

    def garden(self) -> str:
        """The garden chosen in the Game menu or Preferences (New Game deals there)."""
        return self.choice_pref("garden", GARDENS, SQUARE)

    def showcase(self) -> bool:
        """The board of every atom (palmish/sigmar/showcase.py): each atom free,
        selected and locked, in the square garden; not saved as the game."""
        self._stop_work()
        self.game = self.showing = showcase_game()
        self._reset_attempt()
        self.relayout()
        return True

    def show_plugin(self, kind: str) -> bool:
        """A Hex Board plugin is seen in the hexagonal garden only: played there."""
        if kind != "hexboard":
            return super().show_plugin(kind)
        self.prefs["garden"] = HEXAGONAL
        self._switch_to(HEXAGONAL)
        self.relayout()
        return True

    def show_data(self, kind: str, data: bytes, index: int) -> tuple[int, str | None]:
        """`palmish preview` of a Levels folder: the database `data` (installed just
        before, so Game > Levels... lists it too) has its level `index` (wrapped)
        played from the start in the square garden. The number of levels it holds,
        and a warning when the solver proves that level cannot be cleared.
        LevelError (a ValueError, one line) for a kind it is not, or a bad level."""

        if kind != LEVELS_KIND:
            raise LevelError(f"{self.name} previews no {kind}")
        try:
            db = Database.read(data)
        except PrcError as exc:
            raise LevelError(f"not a Levels database: {exc}") from None
        entries, problems = levels_from_resources(db.resources, db.name)
        if problems:
            raise LevelError(problems[0])
        if not entries:
            raise LevelError(f"{db.name}: a Levels database without levels")
        if self.ctx is not None:
            self._load_levels(self.ctx)
        entry = entries[index % len(entries)]
        # As Levels... lists it (its installed file), when that is this very board.
        listed = [e for e in self.garden_levels[SQUARE]
                  if e.id == entry.id and e.level.text() == entry.level.text()]
        self.prefs["garden"] = SQUARE
        self._switch_to(SQUARE)
        self.start_game(_from_level(listed[0] if listed else entry))
        self.relayout()
        if proven_unclearable(entry.level):
            return len(entries), (f"level {entry.id} cannot be cleared (no sequence of"
                                  " reactions empties it)")
        return len(entries), None

    def game_fields(self) -> dict[str, object] | None:
        if self.game is self.showing:
            return None  # the preview's showcase: the saved game stays what it was
        fields: dict[str, object] = {"record": self.game.record(), "assisted": self.assisted}
        if self.parked:  # the other garden's game, resumed when the player goes back to it
            fields["parked"] = {g: {"record": r, "assisted": a}
                                for g, (r, a) in self.parked.items()}
        return fields

    def resume_record(self, record: str, fields: Mapping[str, object]) -> None:
        self.game = garden.game_from_record(record)
        self.assisted = fields.get("assisted") is True
        self.parked = {}
        parked = fields.get("parked")
        if isinstance(parked, dict):
            for which, saved in parked.items():
                if (which in GARDENS and which != garden_of(self.game) and isinstance(saved, dict)
                        and isinstance(saved.get("record"), str)):
                    self.parked[which] = (saved["record"], saved.get("assisted") is True)
        self._clear_marks()

    def _switch_to(self, which: str) -> None:
        """Play the other garden: this game is parked (saved) and that garden's parked
        game comes back, else a board of it is dealt."""
        current = garden_of(self.game)
        if which == current:
            return
        self._stop_work()
        self.parked[current] = (self.game.record(), self.assisted)
        back = self.parked.pop(which, None)
        game: Garden | None = None
        if back is not None:
            try:
                game = garden.game_from_record(back[0])
            except ValueError:
                game = None  # unreadable (cannot happen with our own records): deal anew
        recorded = game is not None and game.over
        rate = False
        if game is None:
            # A first board of that garden at once (never a freeze while a difficulty is
            # rated): the number dealt ahead, else any number, which New Game's rated
            # deal replaces in slices as soon as it is ready.
            difficulty = self._difficulty()
            ready = self.dealt.pop((which, difficulty or ANY), None)
            rate = difficulty is not None and ready is None
            draw = random.SystemRandom().randint(1, MAX_RANDOM_BOARD)
            self.game = garden.new_game(which, ready if ready is not None else draw)
            self._reset_attempt()
        else:
            self.game = game
            self._reset_attempt()
            self.assisted = back is not None and back[1]
            self.recorded = recorded  # a finished game parked was counted already
        self.save()
        self._paint_all()
        if rate and which == self.garden():
            self.new()
        else:
            self._deal_ahead()

    def choose_garden(self, which: str) -> None:
        """Game > Hexagonal (Opus Magnum) / Square (the remake)."""
        self.prefs["garden"] = which
        self.save_prefs()
        self._switch_to(which)
        self.say(f"{TITLES[which]} garden")

    def in_progress(self) -> bool:
        # A board with no take yet, or one already won or stuck, costs nothing to leave.
        return self.game.can_undo and not self.game.over

    def _variant(self) -> str:
        return VARIANTS[garden_of(self.game)]

    def _key(self, name: str) -> str:
        """A preference kept per garden ("cleared", "assisted"): the square garden's keep
        the names they had before the hexagonal garden came."""
        return name if garden_of(self.game) == SQUARE else f"{HEXAGONAL}_{name}"

    def _reset_attempt(self) -> None:
        self.recorded = False
        self.assisted = False
        self._clear_marks()
        self.scene.message = ""

    def _clear_marks(self) -> None:
        self.scene.selected = None
        self.scene.hint = ()
        self.focus = None

    # ------------------------------------------------------------ prefs

    def _difficulty(self) -> str | None:
        return self.choice_pref("difficulty", DIFFICULTIES[1:], None)

    def dim_locked(self) -> bool:
        return self.flag_pref("dim_locked")

    def pref_fields(self) -> Sequence[Field]:
        current = self._difficulty() or "any"
        return (
            PopupList("garden", "Garden", tuple(TITLES[g] for g in GARDENS),
                      GARDENS.index(self.garden())),
            CheckBox("dim_locked", "Dim locked atoms", self.dim_locked()),
            # A pop-up, not push buttons: four of those wrap onto two rows on 160x160.
            PopupList("difficulty", "Random", tuple(d.title() for d in DIFFICULTIES),
                      DIFFICULTIES.index(current)),
        )

    def apply_prefs(self, result: FormResult) -> None:
        self.prefs["dim_locked"] = result.flag("dim_locked", self.dim_locked())
        self.prefs["difficulty"] = result.choice("difficulty", DIFFICULTIES,
                                                 self._difficulty() or "any")
        which = result.choice("garden", GARDENS, self.garden())
        self.prefs["garden"] = which
        if which != garden_of(self.game):
            self._switch_to(which)  # the relayout after Preferences draws it
        self._deal_ahead()

    # ------------------------------------------------------------ layout and drawing

    def make_view(self, ctx: AppContext) -> SigmarView:
        hexagonal = isinstance(self.game, HexGame)
        self.layout = lay = layout_for(ctx.config, self.game.rows, self.game.cols, ctx.bounds,
                                       hexagonal=hexagonal)
        art = load_art(lay.cell, lay.density, self.media.plugin("pieces"),
                       self.media.plugin("board"))
        if hexagonal:  # the hexagonal garden's own board plugin (kind hexboard)
            art = art.with_hex(load_hex_art(lay.cell, lay.density,
                                            ctx.plugin("hexboard")))
        self.media.report(art.notes)
        return SigmarView(lay, art)

    def sync_scene(self) -> None:
        s, game = self.scene, self.game
        s.game = game
        s.title = self.title()
        s.dim_locked = self.dim_locked()
        tally = self.tallies.tally(self._variant())
        s.wins, s.streak = tally.won, max(0, tally.streak)
        if s.selected is not None and not game.is_selectable(*s.selected):
            s.selected = None
        s.partners = game.partners(*s.selected) if s.selected is not None else []
        if self.focus is not None and game.atom_at(*self.focus) is None:
            self.focus = None
        s.focus = self.focus if self.focus != s.selected else None
        s.showcase = (tuple(c for c in CHOSEN if game.atom_at(*c) is not None)
                      if game is self.showing else None)

    def title(self) -> str:
        game = self.game
        if game.level is not None:
            return f"{game.level}. {game.name}" if game.level.isdigit() else game.name
        if game.seed is None:  # a board of its own (the preview's board of every atom)
            return game.name
        if isinstance(game, HexGame):  # numbers of their own: the title says whose
            return f"Hex Board {game.seed}"
        # A game saved before boards were named by their number alone keeps its board,
        # which that number no longer gives: marked so nobody shares it as "Board N".
        tag = f" (old {game.difficulty})" if game.difficulty else ""
        return f"Board {game.seed}{tag}"

    def _paint_all(self) -> None:
        if self.layout is not None and self.ctx is not None:
            if ((self.layout.grid.rows, self.layout.grid.cols) != (self.game.rows, self.game.cols)
                    or self.layout.hexagonal != isinstance(self.game, HexGame)):
                self.lay_out()  # another board size or garden: the board moves in its field
                return
            self._paint(self.layout.bounds)

    def _paint_marks(self, *extra: Cell | None) -> None:
        """Repaint the cells that carry or carried marks, and the panel."""
        lay = self.layout
        if lay is None:
            return
        s = self.scene
        before = {c for c in (s.selected, s.focus, self.focus, *s.hint, *s.partners)
                  if c is not None}
        self.sync_scene()
        after = {c for c in (s.selected, s.focus, *s.hint, *s.partners) if c is not None}
        cells = before | after | {c for c in extra if c is not None}
        self._paint(*(lay.cell_rect(*c) for c in cells if self._on_grid(c)), lay.panel, lay.line)

    def _paint_metals(self) -> None:
        """Repaint the metals on the board: which one is current (undimmed) may change."""
        lay = self.layout
        if lay is not None:
            self._paint(*(lay.cell_rect(r, c) for r, c in lay.cells()
                          if (atom := self.game.atom_at(r, c)) is not None and atom.is_metal))

    def _on_grid(self, cell: Cell) -> bool:
        lay = self.layout
        return lay is not None and lay.on_board(cell)

    def _paint_around(self, *cells: Cell | None, middle: bool = False) -> None:
        """Repaint the neighbours of cells (and the cells, with `middle`): a take frees
        or locks them, so their dimming changes."""
        lay = self.layout
        if lay is None:
            return
        for cell in (c for c in cells if c is not None):
            around = [n for n in lay.geometry.neighbours(cell) if n is not None]
            self._paint(*(lay.cell_rect(*n) for n in ([cell, *around] if middle else around)))

    def say(self, message: str) -> None:
        """Show one line in the panel (replaced by the next action)."""
        self.scene.message = message
        if self.layout is not None:
            self._paint(self.layout.panel, self.layout.line)

    # ------------------------------------------------------------ pen and keys

    def pen_down(self, x: int, y: int) -> None:
        assert self.layout is not None
        self.tap = self.layout.cell_at(x, y)

    def pen_up(self, x: int, y: int) -> None:
        assert self.layout is not None
        down, self.tap = self.tap, None
        cell = self.layout.cell_at(x, y)
        if down is not None and cell == down:
            self.tap_cell(cell)
        elif down is not None and cell is not None and self._drag(down, cell):
            return
        elif down is None and any(r is not None and r.contains(x, y)
                                  for r in (self.layout.panel, self.layout.line)):
            self.open(dialogs.board_info(self.game, self.title(),
                                         self.tallies.tally(self._variant())))

    def _drag(self, start: Cell, end: Cell) -> bool:
        """A drag from one free atom to its partner takes the pair (as two taps would);
        False, doing nothing, when the pair does not react (a slip of the pen)."""
        if self.game.why_not(start, end) is not None:
            return False
        self.focus = None
        self._take(start, end)
        return True

    def tap_cell(self, cell: Cell) -> None:
        """A tap on the board: select, move the selection, react, or say why not."""
        game, s = self.game, self.scene
        self.focus = None
        s.message = ""
        atom = game.atom_at(*cell)
        if atom is None:
            if s.selected is not None or s.hint:
                old = (s.selected, *s.hint)  # their cells lose the marks: repaint them
                s.selected, s.hint = None, ()
                self._paint_marks(*old)
            return
        if s.selected is None or s.selected == cell:
            if s.selected == cell:
                s.selected = None
                self.play("select")
                self._paint_marks(cell)
                return
            self._select(cell)
            return
        if game.why_not(s.selected, cell) is None:
            self._take(s.selected, cell)
        elif game.is_selectable(*cell):
            self._select(cell)
        else:
            self._refuse(game.why_not(s.selected, cell) or game.why_unselectable(cell) or "")

    def _select(self, cell: Cell) -> None:
        game, s = self.game, self.scene
        atom = game.atom_at(*cell)
        reason = game.why_unselectable(cell)
        if atom == Atom.GOLD and game.why_not(cell) is None:
            self._take(cell, None)
            return
        if reason is not None:
            self._refuse(reason)
            return
        old, s.selected = s.selected, cell
        self.play("select")
        self._paint_marks(cell, old)  # the old selection's frame goes too

    def _refuse(self, reason: str) -> None:
        self.play("illegal")
        self.say(reason[:1].upper() + reason[1:])

    def key(self, key: Key) -> None:
        game, s = self.game, self.scene
        if key in (Key.UP, Key.DOWN):
            if s.selected is not None:
                ring = game.partners(*s.selected)
            else:
                ring = sorted({c for t in game.legal_takes() for c in (t.a, t.b) if c})
            if not ring:
                return
            self.focus = self.cycle(ring, self.focus, key)
            self.scene.message = ""
            self._paint_marks(self.focus)
        elif key is Key.SELECT:
            if s.hint:
                a, b = s.hint[0], (s.hint[1] if len(s.hint) > 1 else None)
                self._take(a, b)
            elif self.focus is not None:
                focus = self.focus
                self.focus = None
                self.tap_cell(focus)
            else:
                self.key(Key.DOWN)

    # ------------------------------------------------------------ moves

    def _take(self, a: Cell, b: Cell | None) -> None:
        game = self.game
        try:
            game.take(a, b)
        except IllegalMove as exc:
            self._refuse(str(exc))
            return
        atoms = {game.start_atom_at(*a), game.start_atom_at(*b) if b is not None else None}
        touched = [a, b, *self.scene.hint, self.scene.selected, self.focus]
        self._clear_marks()
        self.scene.message = ""
        self.save()
        self._paint_marks(*touched)
        # Taking atoms frees their neighbours: repaint around them (dimming changes).
        lay = self.layout
        if lay is not None:
            self._paint_around(a, b)
            self._paint_metals()
            self._paint(lay.panel, lay.line)
        outcome = game.outcome()
        if outcome is not None:
            self.play("win" if outcome.termination is Termination.COMPLETED else "stuck")
            self._finished(outcome)
        elif Atom.GOLD in atoms:
            self.play("gold")
        elif Atom.QUICKSILVER in atoms:
            self.play("transmute")
        else:
            self.play("react")

    def _finished(self, outcome: Outcome) -> None:
        game = self.game
        first = not self.recorded
        self.record_result(self._variant(), outcome)
        if outcome.termination is Termination.COMPLETED:
            if first and self.assisted:
                self.prefs[self._key("assisted")] = _count(self.prefs.get(
                    self._key("assisted"))) + 1
            if game.level is not None:
                cleared = _ids(self.prefs.get(self._key("cleared")))
                entry = next((e for e in self.levels if e.id == game.level), None)
                key = cleared_key(entry) if entry is not None else game.level
                if key not in cleared:
                    self.prefs[self._key("cleared")] = [*cleared, key]
            self.save_prefs()
            self.say("Cleared with the Hint's help!" if self.assisted else "The garden is clear!")
            after = self._level_after(game.level)
            self.open_form(dialogs.won_alert(self.title(), self.assisted, len(game.moves), after),
                           lambda r: self._after_win(r.button, after))
        else:
            self.say("Stuck: no reaction is left. Undo or Try Again")
            self.open_form(dialogs.stuck_alert(self.title(), game.remaining),
                           lambda r: self._after_stuck(r.button))

    def _after_stuck(self, button: str | None) -> None:
        if button == "Undo":
            self.undo()
        elif button == "Retry":
            self.try_again()
        elif button == "New Game":
            self.new()

    def _level_after(self, level: str | None) -> LevelEntry | None:
        """The level after this one in the Levels list (None after the last, or for a
        random board): a player working through the levels goes on with one tap."""
        ids = [e.id for e in self.levels]
        if level is None or level not in ids or ids.index(level) + 1 >= len(ids):
            return None
        return self.levels[ids.index(level) + 1]

    def _after_win(self, button: str | None, after: LevelEntry | None) -> None:
        if button == "Next" and after is not None:
            self.start_game(_from_level(after))
        elif button == "New Game":
            self.new()

    def undo(self) -> None:
        if not self.game.can_undo:
            self.say("Nothing to undo")
            return
        take = self.game.undo()
        touched = [take.a, take.b, *self.scene.hint, self.scene.selected, self.focus]
        self._clear_marks()
        self.scene.message = ""
        self.save()
        lay = self.layout
        if lay is not None:
            self._paint_around(take.a, take.b, middle=True)
            self._paint_metals()
        self._paint_marks(*touched)

    def try_again(self) -> None:
        self.game.restart()
        self._reset_attempt()
        self.save()
        self._paint_all()

    def new(self) -> None:
        """New Game: the number dealt ahead in idle time (its board built), else one
        dealt (with a difficulty, rated) in slices between frames."""
        difficulty = self._difficulty()
        which = self.garden()
        self._stop_work()
        ready = self.dealt.pop((which, difficulty or ANY), None)
        if ready is not None:
            self.start_game(self._random_board(ready))
            self._deal_ahead()
            return
        if self.ahead is not None:
            self.ahead.cancel()  # the foreground deal takes over
            self.ahead = None
        self._run(SlicedJob(
            self.turns, "deal", self._dealing(difficulty, which), units=DEAL_PLAYOUTS_PER_SLICE,
            on_done=self._dealt_now, on_slow=lambda: self.say(_dealing_message(difficulty))))

    def _dealing(self, difficulty: str | None, which: str) -> Generator[None, None, int]:
        """The garden's dealing() over numbers short enough to share (MAX_RANDOM_BOARD)."""
        draw = random.SystemRandom().randint
        return garden.dealing(which, difficulty, lambda: draw(1, MAX_RANDOM_BOARD))

    def _dealt_now(self, seed: int) -> None:
        self.start_game(self._random_board(seed))
        self._deal_ahead()

    def _deal_ahead(self) -> None:
        """Deal the next New Game's number in idle time, so New Game on a difficulty is
        at once: slices run only while nothing else works (docs/sigmar-app.md)."""
        difficulty = self._difficulty()
        which = self.garden()
        key = (which, difficulty or ANY)
        if key in self.dealt or self.ctx is None:
            return
        name = f"ahead-{which}-{key[1]}"
        if self.ahead is not None:
            if self.ahead.running and self.ahead.name == name:
                return
            self.ahead.cancel()

        def dealt(seed: int) -> None:
            self.dealt[key] = seed
            self.ahead = None

        self.ahead = SlicedJob(self.turns, name,
                               self._when_idle(self._dealing(difficulty, which)),
                               units=DEAL_PLAYOUTS_PER_SLICE, on_done=dealt)
        self.ahead.start(at_once=False)  # idle work: never in the frame that shows a board

    def _when_idle(self, steps: Generator[None, None, int]) -> Generator[None, None, int]:
        """`steps`, paused while the Hint thinks or New Game deals (one slice per Tick)."""
        while True:
            if self.work is not None and self.work.running:
                yield
                continue
            try:
                next(steps)
            except StopIteration as done:
                seed: int = done.value
                return seed
            yield

    def start_game(self, game: Garden) -> None:
        self._stop_work()  # a Hint or deal for the board that goes would be wrong here
        self.game = game
        self._reset_attempt()
        self.save()
        self._paint_all()
        outcome = game.outcome()
        if outcome is not None and outcome.winner is not None:  # a level of Slag only:
            self.play("win")  # nothing to take, cleared as it opens
            self._finished(outcome)

    def hint(self) -> None:
        """Game > Hint: the solver runs in slices between frames (docs/sigmar-app.md)."""
        game = self.game
        if game.won:
            return
        self._stop_work()
        self._run(SlicedJob(self.turns, "hint", _first_take(game), units=1,
                            on_done=self._hinted, on_slow=lambda: self.say(THINKING),
                            cap_ms=HINT_CAP_MS, on_late=lambda: self.say(NOT_IN_TIME)))

    def _hinted(self, take: Take | SearchBudget | None) -> None:
        if isinstance(take, SearchBudget):
            self.say(NOT_IN_TIME)
            return
        if take is None:
            self.play("illegal")
            self.say(NO_SOLUTION)
            return
        self.assisted = True
        self.save()
        old = [*self.scene.hint, self.scene.selected, self.focus]
        self.scene.selected, self.focus = None, None
        self.scene.hint = (take.a,) if take.b is None else (take.a, take.b)
        self.scene.message = "Hint: Select takes the marked atoms"
        self._paint_marks(*old)

    def _run(self, job: SlicedJob[Any]) -> None:
        self.work = job
        job.start()

    def _stop_work(self) -> bool:
        """Stop the Hint's thinking or New Game's dealing; True if one was running."""
        work, self.work = self.work, None
        return work is not None and work.cancel()

    def interrupt(self, event: PenDown | KeyDown | CharKey | MenuCommand) -> bool:
        """Input while the app works: it stops the Hint's thinking (the player moved on)
        and goes on as usual. While New Game deals, taps and keys on the old board are
        used up (it is on its way out); a menu command stops the deal and runs."""
        work = self.work
        if work is None or not work.running:
            return False
        dealing = work.name == "deal"
        if dealing and not isinstance(event, MenuCommand):
            return True
        self._stop_work()
        if self.scene.message in (THINKING, _dealing_message(self._difficulty())):
            self.say("")
        return False

    def open_board(self, board: str) -> str | None:
        """Open a level by id, or a random board for '?'; the problem in one line, or None."""
        try:
            if garden_of(self.game) != self.garden():
                self._switch_to(self.garden())
            wanted = normalize_level_id(board)
            if wanted is None:
                self.new()
                return None
            levels = self.garden_levels[self.garden()]  # the chosen garden's (--garden)
            entry = find_level(levels, wanted)
        except LevelError as exc:
            # A level's name works too (--board caution opens 7.dat), in any case.
            named = [e for e in levels if e.name.casefold() == board.strip().casefold()]
            if not named:
                return str(exc)
            entry = named[0]
        self.start_game(_from_level(entry))
        return None

    # ------------------------------------------------------------ menus and dialogs

    def game_menus(self) -> Sequence[tuple[str, Sequence[Command]]]:
        return (("Game", (
            Command("New Game", "new", lambda: self.confirm_discard("New Game", self.new), "N"),
            Command("Try Again", "restart",
                    lambda: self.confirm_discard("Try Again", self.try_again), "R"),
            Command("Undo", "undo", self.undo, "U"),
            Command("Hint", "hint", self.hint, "H"),
            Command("Levels...", "levels", self._ask_level, "L"),
            Command("Board Number...", "board", self._ask_board, "B"),
            Command("Beam Board", "beam", self._beam_board),
            Command("Statistics", "stats", self._show_stats, "S"),
            *(Command(TITLES[g], f"garden-{g}", self._garden_action(g)) for g in GARDENS),
        )),)

    def _garden_action(self, which: str) -> Callable[[], None]:
        return lambda: self.choose_garden(which)

    def _ask_level(self, current: str | None = None) -> None:
        if self.ctx is not None:
            self._load_levels(self.ctx)  # levels installed since the start show at once
        if not self.levels:
            self.say("No levels are installed")
            return
        cleared = set(_ids(self.prefs.get(self._key("cleared"))))
        form = dialogs.levels_form(self.levels, cleared, current or self.game.level)
        levels = self.levels

        def chosen(result: FormResult) -> None:
            index = result.values.get("level")
            if not isinstance(index, int) or not 0 <= index < len(levels):
                return
            entry = levels[index]
            if result.button == "Play":
                self.confirm_discard("Play", lambda: self.start_game(_from_level(entry)))
            elif result.button == "Remove":
                self._remove_level(entry)

        self.open_form(form, chosen)

    def _remove_level(self, entry: LevelEntry) -> None:
        """Levels... > Remove: delete the installed file the level comes from."""
        file = entry.file
        if file is None:
            self.open(dialogs.cannot_remove_alert(entry), lambda _r: self._ask_level(entry.id))
            return
        others = [e for e in self.levels if e.file == file and e is not entry]
        gone = {entry.id, *(e.id for e in others)}
        left = self._read_levels(self.ctx, without=file)[0] if self.ctx is not None else {}
        back = [e for e in left.get(garden_of(self.game), []) if e.id in gone]

        def confirmed(result: FormResult) -> None:
            if result.button == "Remove" and self.ctx is not None:
                try:
                    self.ctx.remove_user_file(file)
                except (OSError, ValueError) as exc:
                    self.ctx.notify(f"{self.name}: could not remove {file}: {exc}")
            self._ask_level(entry.id)

        self.open_form(dialogs.remove_level_alert(entry, others, back), confirmed)

    def _ask_board(self) -> None:
        self.open(dialogs.board_entry(self.game.seed, self._board_word()),
                  lambda n: self.confirm_discard(
                      "Play", lambda: self.start_game(self._random_board(n)))
                  if isinstance(n, int) else None)

    def beam_item(self) -> BeamItem | None:
        """A level by its contents (the friend may not have it), else the random
        board by its number (the kinds: palmish/sigmar/beam.py)."""
        game = self.game
        if game.level is not None:
            entry = next((e for e in self.levels if e.id == game.level), None)
            if entry is not None:
                suffix = HEX_SUFFIX if isinstance(entry.level, HexLevel) else ""
                return BeamItem(LEVEL, GAME.id, name=entry.id + suffix,
                                data=entry.level.text().encode("utf-8"))
        if game.seed is None:
            return None
        kind = HEX_BOARD if isinstance(game, HexGame) else BOARD
        return BeamItem(kind, GAME.id, number=game.seed)

    def open_beamed(self, item: BeamItem, ask: bool) -> None:
        """A received board, opened in its own garden (the other game parked)."""
        number = item.number
        if number is None:
            raise ValueError(f"a {item.kind} opens in {GAME.name}")
        which = HEXAGONAL if item.kind == HEX_BOARD else SQUARE

        def open_board() -> None:
            self.choose_garden(which)
            self.start_game(garden.new_game(which, number))

        if ask:
            self.confirm_discard("Open", open_board)
        else:
            open_board()

    def _beam_board(self) -> None:
        """Game > Beam Board: a random board by its number, a level by its contents,
        so the friend plays the same board."""
        item = self.beam_item()
        if item is None:
            self.say("This board cannot be beamed")
            return
        beam(item, self.title(), self.open, self.beams())

    def _board_word(self) -> str:
        return "Hex Board" if isinstance(self.game, HexGame) else "Board"

    def _show_stats(self) -> None:
        self.open(dialogs.statistics(self.tallies.tally(self._variant()),
                                     _count(self.prefs.get(self._key("assisted"))),
                                     _ids(self.prefs.get(self._key("cleared"))), self.levels,
                                     garden_of(self.game).title()))

    def icon(self) -> Image.Image:
        return launcher_icon()

    def about(self) -> Modal:
        return dialogs.about_alert()


def _first_take(game: Garden) -> Generator[None, None, Take | SearchBudget | None]:
    """The Hint's work: the first take of a solution (by the garden's own solver), None
    when there is none, the SearchBudget when the node budget ran out first."""
    try:
        takes = yield from garden.solving(game)
    except SearchBudget as exc:
        return exc
    return takes[0] if takes else None


def _from_level(entry: LevelEntry) -> Garden:
    """The game of a level of either garden."""
    if isinstance(entry.level, HexLevel):
        return HexGame.from_level(entry.level, level=entry.id)
    return Game.from_level(entry.level, level=entry.id)


def _garden_named(value: str) -> str:
    """`--garden hexagonal` (or hex, square); ValueError (one line) for another word."""
    word = value.strip().lower()
    for which in GARDENS:
        if which.startswith(word) and len(word) >= 3:
            return which
    raise ValueError(f"{value!r} is not a garden (use {' or '.join(GARDENS)})")


def _dealing_message(difficulty: str | None) -> str:
    return f"Dealing a {difficulty} board..." if difficulty else "Dealing a board..."


def _count(value: object) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else 0


def _ids(value: object) -> list[str]:
    return [v for v in value if isinstance(v, str)] if isinstance(value, list) else []
