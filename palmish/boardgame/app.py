"""The base class of every board-game app: life cycle, saving, stats, plugins, menus.

A game subclasses `BoardGameApp`, sets `id`, `name`, `creator`, `sound_ids`
and `help_pages`, and fills in the hooks (marked "hook" below). The base:
- on start reads the prefs, the statistics and the saved game (a record it
  cannot use is set aside with one notice and a new game starts), loads the
  plugins for the configuration and asks the game to lay out and draw;
- on every display change reloads the plugins and lays out again;
- routes pen, keys, Ticks (to `turns`) and menu commands (a table of
  `Command`s, never an if/elif chain); Options and Help menus come built in;
- `save()` after every move, `record_result()` once per finished game.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol, TypeVar

from palmish.boardgame import saved
from palmish.boardgame.dialogs import form_result
from palmish.boardgame.help import HelpPage, help_viewer
from palmish.boardgame.media import Media, PluginContext
from palmish.boardgame.plugin_manager import open_plugin_manager
from palmish.boardgame.prefs import CANCEL, HELP, KIND_TITLES, OK, preferences_form, slots_for
from palmish.boardgame.stats import ScoreTables, Tallies
from palmish.boardgame.turns import Turns
from palmish.device.beam.beaming import BeamService
from palmish.device.events import (
    CharKey,
    DisplayChanged,
    Event,
    Key,
    KeyDown,
    MenuCommand,
    PenDown,
    PenMove,
    PenUp,
    PluginsChanged,
    Tick,
)
from palmish.device.geometry import Rect
from palmish.device.graphics.screen import Framebuffer
from palmish.device.machine.app import App, AppContext
from palmish.device.menus import Menu, MenuItem
from palmish.device.ui.alert import Alert
from palmish.device.ui.form import Field
from palmish.device.ui.modal import Modal
from palmish.device.ui.question import KeyAlert
from palmish.device.ui.result import FormResult
from palmish.device.ui.textview import TextViewer
from palmish.outcome import Outcome
from prc_tools.frozen import Frozen

D = TypeVar("D")
T = TypeVar("T")
STEPS = {Key.DOWN: 1, Key.RIGHT: 1, Key.UP: -1, Key.LEFT: -1}  # the keys' walk (cycle)


class ScenePainter(Protocol):
    """A game's view: draws its scene, whole or one region of it, into the screen."""

    def paint(self, fb: Framebuffer, scene: Any, region: Rect | None = None) -> None: ...


class Command(Frozen):
    """One menu item and what it does."""

    label: str
    name: str  # the MenuCommand the device delivers (also usable from event scripts)
    action: Callable[[], None]
    shortcut: str = ""  # Graffiti command-stroke letter


class BoardGameApp(App):
    state_version = 1  # the newest saved record this app writes and reads
    sound_ids: Mapping[str, int] = {}
    help_pages: tuple[HelpPage, ...] = ()
    plugins_help: str | None = None  # the help command "?" in Preferences opens
    prefs_shortcut = "P"  # Options > Preferences' command letter (a game may need P itself)
    plugin_kinds: tuple[tuple[str, str], ...] = KIND_TITLES  # Preferences' plugin rows

    def __init__(self) -> None:
        self.ctx: AppContext | None = None
        self.prefs: dict[str, object] = {}
        self.recorded = False  # this game's result is already in the statistics
        self.turns = Turns()
        self.media = Media(self.name, self.sound_ids)
        self.scores: ScoreTables[Any] | None = None
        self.tallies = Tallies()
        self.view: ScenePainter | None = None  # made by lay_out
        self.scene: Any = None  # what the view draws (a game's subclass says its type)

    # ------------------------------------------------------------ hooks

    def new_game(self) -> None:
        """Hook: set up a fresh game from the prefs (called on start when nothing resumes)."""
        raise NotImplementedError

    def game_fields(self) -> dict[str, object] | None:
        """Hook: the game's part of the saved record (JSON values); None: nothing to save."""
        return None

    def resume(self, fields: Mapping[str, object], version: int) -> None:
        """Hook: restore the game from a saved record; raise ValueError if it is unusable.
        By default the record holds the engine's text record under "record"
        (`resume_record` reads it)."""
        record = fields.get("record")
        if not isinstance(record, str):
            raise ValueError("no game record")
        self.resume_record(record, fields)

    def resume_record(self, record: str, fields: Mapping[str, object]) -> None:
        """Hook: the game from its engine's text record (and the record's other fields);
        raise ValueError (the engines' IllegalMove is one) if it is unusable."""
        raise ValueError("this game keeps no saved record")

    def lay_out(self) -> None:
        """Lay out for `ctx.config`/`ctx.bounds` with `media`'s plugins and draw it all:
        the view `make_view` builds paints the scene. A game that draws otherwise
        overrides this hook."""
        ctx = self.ctx
        if ctx is None:
            return
        self.view = self.make_view(ctx)
        if self.view is not None:
            self.sync_scene()
            self.view.paint(ctx.screen, self.scene)

    def make_view(self, ctx: AppContext) -> ScenePainter | None:
        """Hook: the layout, art (its notes to `media.report`) and view for the context's
        configuration and bounds."""
        return None

    def sync_scene(self) -> None:
        """Hook: bring `scene` up to date with the game before the view paints it."""

    def game_menus(self) -> Sequence[tuple[str, Sequence[Command]]]:
        """Hook: the game's own menus, (title, commands), before Options and Help."""
        return ()

    def pref_fields(self) -> Sequence[Field]:
        """Hook: the game's fields in the Preferences form (Sound is added after them)."""
        return ()

    def apply_prefs(self, result: FormResult) -> None:
        """Hook: take the game's fields from an accepted Preferences form into `prefs`."""

    def about(self) -> Modal:
        """Hook: the Help > About dialog."""
        return Alert(f"About {self.name}", self.name)

    def interrupt(self, event: PenDown | KeyDown | CharKey | MenuCommand) -> bool:
        """Hook: input arrived (e.g. stop a demo); True when it was used up by that."""
        return False

    def pen_down(self, x: int, y: int) -> None:
        """Hook."""

    def pen_move(self, x: int, y: int) -> None:
        """Hook."""

    def pen_up(self, x: int, y: int) -> None:
        """Hook."""

    def key(self, key: Key) -> None:
        """Hook: hardware keys the device did not keep (up, down, left, right, select)."""

    def char(self, char: str) -> None:
        """Hook: a typed character with no dialog open (a letter, digit, "\b" or "\n")."""

    def in_progress(self) -> bool:
        """Hook: a game is under way that a New Game or Restart would throw away."""
        return False

    def showcase(self) -> bool:
        """Hook: set up and draw a position that shows every piece (`palmish preview` of
        a Pieces plugin), not saved as the game; False for a game that has none."""
        return False

    def show_plugin(self, kind: str) -> bool:
        """Hook: set up and draw a game where a plugin of `kind` is seen (`palmish
        preview`); False when the game as it is shows it already. By default a Pieces
        plugin gets the showcase."""
        return kind == "pieces" and self.showcase()

    def counts_as_win(self, outcome: Outcome) -> bool | None:
        """Hook: the tally of a finished game for the person playing: True won, False
        lost, None neither (a game scored by points alone). By default the player who
        won is the person (a solitaire's winner is 0); nobody winning is a loss."""
        return outcome.winner is not None

    def score_line(self, rank: int, entry: tuple[int, ...]) -> str:
        """Hook: one line of the High Scores list."""
        return f"{rank}. {entry[0]}"

    def current_variant(self) -> str | None:
        """Hook: the variant being played (listed first in High Scores)."""
        return None

    def score_tables(self) -> ScoreTables[Any] | None:
        """Hook: empty high-score tables if the game keeps them (stored under "scores")."""
        return None

    # ------------------------------------------------------------ life cycle

    def start(self, ctx: AppContext) -> None:
        self.ctx = ctx
        self.prefs = dict(ctx.load_prefs())
        self.scores = self.score_tables()
        if self.scores is not None:
            self.scores.load(self.prefs.get("scores"))
        self.tallies = Tallies.from_prefs(self.prefs.get("stats"))
        self.turns.attach(ctx)
        if not self._resume(ctx):
            self.recorded = False
            self.new_game()
        self.relayout()

    def stop(self) -> None:
        self.turns.attach(None)
        if self.ctx is not None:
            self.save()
        self.ctx = None

    def _resume(self, ctx: AppContext) -> bool:
        data = ctx.load_state()
        if not data:
            return False
        try:
            record = saved.decode(data, self.state_version)
            self.resume(record.fields, record.version)
        except ValueError as exc:
            problem = f"{self.name}: the saved game could not be read ({exc})"
            ctx.set_aside_state(problem)
            return False
        self.recorded = record.recorded
        return True

    def save(self) -> None:
        """Write the saved record (call after every move)."""
        fields = self.game_fields()
        if self.ctx is not None and fields is not None:
            self.ctx.save_state(saved.encode(self.state_version, fields, self.recorded))

    def save_prefs(self) -> None:
        if self.ctx is None:
            return
        if self.scores is not None:
            self.prefs["scores"] = self.scores.to_prefs()
        if self.tallies.variants or self.tallies.players:
            self.prefs["stats"] = self.tallies.to_prefs()
        self.ctx.save_prefs(self.prefs)

    def record_result(self, variant: str, outcome: Outcome, entry: tuple[int, ...] | None = None,
                      players: Sequence[str] = ()) -> int | None:
        """Count a finished game once: its high-score rank (None: not in the table, or
        already recorded), its tally (a win, loss or neither: `counts_as_win`) and its
        players. Saves the record and the prefs."""
        if self.recorded:
            return None
        rank = None
        if entry is not None and self.scores is not None:
            rank = self.scores.add(variant, entry)
        self.tallies.add(variant, self.counts_as_win(outcome), players)
        self.recorded = True
        self.save()
        self.save_prefs()
        return rank

    def relayout(self) -> None:
        """Reload the plugins for the current configuration and let the game lay out."""
        if self.ctx is None:
            return
        self.media.enabled = self.sound_on()
        self.media.load(self.ctx)
        self.lay_out()

    # ------------------------------------------------------------ services

    def sound_on(self) -> bool:
        return self.flag_pref("sound")

    def flag_pref(self, key: str, default: bool = True) -> bool:
        """A check box's preference; anything but true or false reads as the default."""
        value = self.prefs.get(key, default)
        return value if isinstance(value, bool) else default

    def choice_pref(self, key: str, options: Sequence[str], default: D) -> str | D:
        """A preference that is one of `options`; anything else reads as the default."""
        value = self.prefs.get(key)
        return value if isinstance(value, str) and value in options else default

    def cycle(self, ring: Sequence[T], current: T | None, key: Key, *,
              sideways: bool = True) -> T | None:
        """The keys' walk through `ring`: Down (and Right, if `sideways`) to the next
        item, Up (Left) to the one before, wrapping; from outside the ring Down enters
        at the first and Up at the last. None for another key or an empty ring."""
        step = STEPS.get(key, 0) if sideways or key in (Key.UP, Key.DOWN) else 0
        if not ring or not step:
            return None
        if current in ring:
            return ring[(ring.index(current) + step) % len(ring)]
        return ring[0] if step == 1 else ring[-1]

    def play(self, name: str) -> None:
        """Play a sound by its schema name (if sound is on)."""
        self.media.enabled = self.sound_on()
        self.media.play(name)

    def _paint(self, *regions: Rect | None) -> None:
        """Repaint these parts of the screen (None: skipped) from the scene, once laid out."""
        if self.ctx is None or self.view is None:
            return
        self.sync_scene()
        for region in regions:
            if region is not None:
                self.view.paint(self.ctx.screen, self.scene, region)

    def notify(self, message: str) -> None:
        if self.ctx is not None:
            self.ctx.notify(message)

    def plugins(self) -> PluginContext | None:
        return self.ctx  # every AppContext offers the plugin services

    def beams(self) -> BeamService | None:
        """The device's Beam service (None before the app starts, or without the window)."""
        return self.ctx.beam() if self.ctx is not None else None

    def open(self, modal: Modal, on_close: Callable[[object], None] | None = None) -> None:
        if self.ctx is not None:
            self.ctx.open_modal(modal, on_close)

    def open_form(self, modal: Modal, on_result: Callable[[FormResult], None]) -> None:
        """Open an alert or form; `on_result` gets the named button and the values."""
        self.open(modal, lambda raw: on_result(form_result(raw)))

    def confirm_discard(self, button: str, action: Callable[[], None]) -> None:
        """Run `action` (New Game, Restart) at once, or, while a game is in progress,
        once the player confirms that it may be thrown away (Cancel or Escape keep it)."""
        if not self.in_progress():
            action()
            return
        self.open_form(self.discard_question(button),
                       lambda r: action() if r.button == button else None)

    def discard_question(self, button: str) -> Modal:
        """The question confirm_discard asks, with the buttons `button` and Cancel: Y
        goes on, N and Escape keep the game, Enter presses the focused button (the
        first)."""
        return KeyAlert(button, f"{button}? The game in progress will be lost.",
                        (button, "Cancel"), icon="confirm")

    def high_scores_text(self) -> str:
        """Every variant's table (the one being played first), for the High Scores viewer."""
        if self.scores is None:
            return "No high scores are kept."
        current = self.current_variant()
        order = sorted(self.scores.variants, key=lambda v: v != current)
        parts = []
        for variant in order:
            table = self.scores.table(variant)
            lines = [self.score_line(i, e) for i, e in enumerate(table, start=1)]
            parts.append(f"# {variant.capitalize()}\n" + ("\n".join(lines) or "none yet"))
        return "\n\n".join(parts)

    def show_high_scores(self) -> None:
        self.open(TextViewer("High Scores", self.high_scores_text()))

    # ------------------------------------------------------------ events

    def handle(self, event: Event) -> None:
        if self.ctx is None:
            return
        if isinstance(event, Tick):
            self.turns.tick(event.now_ms)
            return
        if isinstance(event, PenDown | KeyDown | CharKey | MenuCommand) and self.interrupt(event):
            return
        if isinstance(event, PenDown):
            self.pen_down(event.x, event.y)
        elif isinstance(event, PenMove):
            self.pen_move(event.x, event.y)
        elif isinstance(event, PenUp):
            self.pen_up(event.x, event.y)
        elif isinstance(event, KeyDown):
            self.key(event.key)
        elif isinstance(event, CharKey):
            self.char(event.char)
        elif isinstance(event, MenuCommand):
            self.run_command(event.command)
        elif isinstance(event, DisplayChanged | PluginsChanged):
            self.relayout()  # a re-installed chosen plugin is shown at once

    # ------------------------------------------------------------ menus

    def command_menus(self) -> list[tuple[str, Sequence[Command]]]:
        """Every menu with its commands: the game's, then Options and Help."""
        help_items = [Command(p.label, p.command, self._help_action(p)) for p in self.help_pages]
        help_items.append(Command(f"About {self.name}", "about", lambda: self.open(self.about())))
        games = [(title, tuple(items)) for title, items in self.game_menus()]
        if self.scores is not None:  # High Scores at any time, in the Game menu
            taken = {c.shortcut for _, items in games for c in items}
            scores = Command("High Scores", "scores", self.show_high_scores,
                             "" if "S" in taken else "S")
            at = next((i for i, (title, _) in enumerate(games) if title == "Game"), None)
            if at is None:
                games.insert(0, ("Game", (scores,)))
            else:
                games[at] = ("Game", (*games[at][1], scores))
        return [
            *games,
            ("Options", (Command("Preferences", "prefs", self.preferences,
                                 self.prefs_shortcut),
                         Command("Plugin Manager", "plugins", self.plugin_manager, "M"))),
            ("Help", help_items),
        ]

    def commands(self) -> frozenset[str]:
        """The menu commands, High Scores included before the game has started (the
        script checker asks apps that are not running)."""
        found = super().commands()
        return found | {"scores"} if self.score_tables() is not None else found

    def menus(self) -> tuple[Menu, ...]:
        return tuple(Menu(title, tuple(MenuItem(c.label, c.name, c.shortcut) for c in items))
                     for title, items in self.command_menus())

    def _help_action(self, page: HelpPage) -> Callable[[], None]:
        return lambda: self.open(help_viewer(page))

    def run_command(self, name: str) -> None:
        for _, items in self.command_menus():
            for command in items:
                if command.name == name:
                    command.action()
                    return

    # ------------------------------------------------------------ standard dialogs

    def preferences(self) -> None:
        plugins = self.plugins()
        if plugins is None or self.ctx is None:
            return
        prefs = preferences_form(plugins, slots_for(self.ctx.config), self.pref_fields(),
                                 self.sound_on(), self.plugin_kinds)

        def closed(result: FormResult) -> None:
            if result.button == HELP:
                page = next((p for p in self.help_pages if p.command == self.plugins_help), None)
                if page is not None:
                    self.open(help_viewer(page), lambda _: self.preferences())
                return
            if result.button != OK:
                return
            prefs.apply_plugins(plugins, result)
            self.apply_prefs(result)
            self.prefs["sound"] = result.flag("sound", self.sound_on())
            self.save_prefs()
            self.relayout()  # the chosen plugins show at once

        self.open_form(prefs.form, closed)

    def plugin_manager(self) -> None:
        plugins = self.plugins()
        if plugins is not None:
            open_plugin_manager(plugins, self.open, self.relayout, self.name)


__all__ = ["CANCEL", "HELP", "OK", "BoardGameApp", "Command"]
