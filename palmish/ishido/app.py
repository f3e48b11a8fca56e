"""PalmIshido, the app: play by pen and keys, menus, preferences, scores, resume.

The game is saved (its short record) after every move and restored on the next
start. The view redraws only what a move, a drag or a mark changed. The
dialogs live in palmish.ishido.dialogs; the pictures come from the plugins the
user picked for the current display configuration (palmish.ishido.art).
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol, cast

from palmish.device.app import App, AppContext, Menu, MenuItem
from palmish.device.events import (
    DisplayChanged,
    Event,
    Key,
    KeyDown,
    MenuCommand,
    PenDown,
    PenMove,
    PenUp,
    Tick,
)
from palmish.device.geometry import Rect
from palmish.device.plugins import LoadedPlugin, PluginInfo
from palmish.device.ui.modal import Modal
from palmish.ishido import Game, IllegalMove
from palmish.ishido.art import load_art
from palmish.ishido.layout import IshidoLayout, layout_for
from palmish.ishido.rules import SCORINGS
from palmish.ishido.schema import SCHEMA
from palmish.ishido.scores import Entry, HighScores
from palmish.ishido.view import IshidoView, Scene

CREATOR = "PIsh"
# The Sound plugin's ids, from PalmIshido's plugin schema (the manifests name them).
_SOUND_IDS = SCHEMA.sounds
SOUND_PLACE = _SOUND_IDS["place"]
SOUND_FOURWAY = _SOUND_IDS["four_way"]
SOUND_ILLEGAL = _SOUND_IDS["illegal"]
SOUND_GAME_OVER = _SOUND_IDS["game_over"]
SOUND_ALL_PLACED = _SOUND_IDS["all_placed"]
STATE_VERSION = 1
HINT_MS = 250  # thinking time for a hint
DEMO_STEP_MS = 600  # between the demo player's moves


class PluginContext(Protocol):
    """The plugin side of the device's context (palmish.device.context.DeviceContext)."""

    def plugins(self, kind: str | None = None, slot: str | None = None) -> list[PluginInfo]: ...

    def plugin(self, kind: str, slot: str | None = None) -> LoadedPlugin | None: ...

    def plugin_choice(self, kind: str, slot: str) -> str | None: ...

    def choose_plugin(self, kind: str, slot: str, name: str | None) -> None: ...

    def delete_plugin(self, info: PluginInfo) -> None: ...

    def notify(self, message: str) -> None: ...


@dataclass
class Drag:
    """The current tile held by the pen: where it was grabbed, relative to its cell box."""

    grab_dx: int
    grab_dy: int
    pen_x: int
    pen_y: int
    # After a display change the pen's position is a guess until it moves again; a pen
    # lifted before that (a window lifts it as it turns) puts the tile back, unplaced.
    settled: bool = True


class IshidoApp(App):
    name = "PalmIshido"
    creator = CREATOR

    def __init__(self) -> None:
        self.ctx: AppContext | None = None
        self.game = Game.new(seed=1)
        self.scene = Scene(self.game)
        self.layout: IshidoLayout | None = None
        self.view: IshidoView | None = None
        self.drag: Drag | None = None
        self.tap_cell: tuple[int, int] | None = None  # pen went down on the board here
        self.prefs: dict[str, object] = {}
        self.scores = HighScores()
        self.recorded = False  # this game's result is already in the high scores
        self._sound: LoadedPlugin | None = None
        self.demo = False  # the computer is playing (Game > Demo); any pen or key stops it

    # ------------------------------------------------------------ life cycle

    def start(self, ctx: AppContext) -> None:
        self.ctx = ctx
        self.prefs = dict(ctx.load_prefs())
        self.scores = HighScores.from_prefs(self.prefs.get("scores"))
        self.game, self.recorded = self._resume(ctx.load_state())
        self.drag = None
        self.tap_cell = None
        self.demo = False  # a demo does not outlive the app's run
        self._relayout()

    def stop(self) -> None:
        if self.ctx is not None:
            self._save()
        self.ctx = None

    def _resume(self, data: bytes | None) -> tuple[Game, bool]:
        if data:
            try:
                state = json.loads(data.decode("utf-8"))
                if not isinstance(state, dict) or not isinstance(state.get("record"), str):
                    raise ValueError("no game record")
                return Game.from_record(state["record"]), bool(state.get("recorded"))
            except (UnicodeDecodeError, ValueError, IllegalMove) as exc:
                self._notify(f"PalmIshido: the saved game could not be read ({exc}); "
                             "a new game starts")
        return Game.new(scoring=self.scoring_pref()), False

    def _save(self) -> None:
        assert self.ctx is not None
        if self.game.seed is None:
            return  # a position set up by a test or puzzle has no record to keep
        state = {"v": STATE_VERSION, "record": self.game.record(), "recorded": self.recorded}
        self.ctx.save_state(json.dumps(state, separators=(",", ":")).encode("utf-8"))

    def _save_prefs(self) -> None:
        assert self.ctx is not None
        self.prefs["scores"] = self.scores.to_prefs()
        self.ctx.save_prefs(self.prefs)

    # ------------------------------------------------------------ prefs

    def scoring_pref(self) -> str:
        value = self.prefs.get("scoring")
        return value if value in SCORINGS else "modern"

    def sound_on(self) -> bool:
        return self.prefs.get("sound", True) is not False

    # ------------------------------------------------------------ plugins

    def _plugins(self) -> PluginContext | None:
        return cast(PluginContext, self.ctx) if hasattr(self.ctx, "plugin") else None

    def _notify(self, message: str) -> None:
        plugins = self._plugins()
        if plugins is not None:
            plugins.notify(message)

    def _relayout(self) -> None:
        """Lay out for the current configuration, load its plugins and draw everything."""
        ctx = self.ctx
        assert ctx is not None
        old = self.layout
        self.layout = layout_for(ctx.config, ctx.bounds)
        plugins = self._plugins()
        pieces = board = None
        self._sound = None
        if plugins is not None:
            pieces = plugins.plugin("pieces")
            board = plugins.plugin("board")
            self._sound = plugins.plugin("sound")
        self.view = IshidoView(self.layout, load_art(self.layout, pieces, board))
        if self.drag is not None and old is not None:
            # Keep the tile under the pen: carry the pen over proportionally until the
            # next pen event reports where it really is in the new configuration.
            d = self.drag
            d.pen_x = self.layout.bounds.x + (d.pen_x - old.bounds.x) * self.layout.bounds.w \
                // max(1, old.bounds.w)
            d.pen_y = self.layout.bounds.y + (d.pen_y - old.bounds.y) * self.layout.bounds.h \
                // max(1, old.bounds.h)
            d.grab_dx = d.grab_dx * self.layout.cell_w // max(1, old.cell_w)
            d.grab_dy = d.grab_dy * self.layout.cell_h // max(1, old.cell_h)
            d.settled = False
        self._sync_scene()
        self.view.paint(ctx.screen, self.scene)

    def _sync_scene(self) -> None:
        self.scene.game = self.game
        if self.scene.mark is not None and not self.game.is_legal(*self.scene.mark):
            self.scene.mark = None
        self.scene.drag = None
        if self.drag is not None:
            self.scene.drag = (self.drag.pen_x - self.drag.grab_dx,
                               self.drag.pen_y - self.drag.grab_dy)

    def _play(self, sound_id: int) -> None:
        if self.ctx is None or not self.sound_on() or self._sound is None:
            return
        data = self._sound.sound(sound_id)
        if data:
            self.ctx.play_sound(data)

    # ------------------------------------------------------------ drawing

    def _paint(self, *regions: Rect | None) -> None:
        if self.ctx is None or self.view is None:
            return
        self._sync_scene()
        for region in regions:
            if region is not None:
                self.view.paint(self.ctx.screen, self.scene, region)

    def _paint_everything(self) -> None:
        self._paint(self.layout.bounds if self.layout is not None else None)

    # ------------------------------------------------------------ events

    def handle(self, event: Event) -> None:
        if self.ctx is None:
            return
        if isinstance(event, Tick):
            self._demo_step()
            return
        if self.demo and isinstance(event, PenDown | KeyDown | MenuCommand):
            self._stop_demo()
            if not isinstance(event, MenuCommand):
                return  # the tap or key only stops the demo
        if isinstance(event, PenDown):
            self._pen_down(event.x, event.y)
        elif isinstance(event, PenMove):
            self._pen_move(event.x, event.y)
        elif isinstance(event, PenUp):
            self._pen_up(event.x, event.y)
        elif isinstance(event, KeyDown):
            self._key(event.key)
        elif isinstance(event, MenuCommand):
            self._command(event.command)
        elif isinstance(event, DisplayChanged):
            self._relayout()

    def _pen_down(self, x: int, y: int) -> None:
        assert self.layout is not None and self.view is not None
        self.tap_cell = None
        if self.game.over:
            return
        well = self.layout.tile_well
        if self.view.well_rect().contains(x, y):
            # Hold the tile by the same point of it, also when the well shows it enlarged.
            z = self.layout.well_zoom
            self.drag = Drag((x - well.x) // z, (y - well.y) // z, x, y)
            self._paint(self.view.well_rect(), self._drag_rect())
            return
        self.tap_cell = self.layout.cell_at(x, y)

    def _drag_rect(self) -> Rect | None:
        if self.view is None:
            return None
        self._sync_scene()
        return self.view.drag_rect(self.scene)

    def _pen_move(self, x: int, y: int) -> None:
        if self.drag is None:
            return
        before = self._drag_rect()
        self.drag.pen_x, self.drag.pen_y = x, y
        self.drag.settled = True
        self._paint(before, self._drag_rect())

    def _pen_up(self, x: int, y: int) -> None:
        assert self.layout is not None and self.view is not None
        if self.drag is not None and not self.drag.settled:
            before = self._drag_rect()
            self.drag = None
            self._paint(before, self.view.well_rect())
            return
        if self.drag is not None:
            before = self._drag_rect()
            self.drag.pen_x, self.drag.pen_y = x, y
            box_x, box_y = x - self.drag.grab_dx, y - self.drag.grab_dy
            # The tile lands on the cell under its middle, where the player sees it.
            target = self.layout.cell_at(box_x + self.layout.cell_w // 2,
                                         box_y + self.layout.cell_h // 2)
            self.drag = None
            self._paint(before, self.view.well_rect())
            if target is not None:
                self._try_place(*target)
            elif not self.layout.panel.contains(x, y):
                self._play(SOUND_ILLEGAL)  # dropped off the board: back to the panel
            return
        down, self.tap_cell = self.tap_cell, None
        if down is not None and not self.game.over:
            cell = self.layout.cell_at(x, y)
            if cell is not None:
                self._try_place(*cell)

    def _key(self, key: Key) -> None:
        if self.game.over or self.drag is not None:
            return
        if key in (Key.UP, Key.DOWN):
            legal = self.game.legal_moves()
            if not legal:
                return
            step = 1 if key is Key.DOWN else -1
            if self.scene.mark in legal:
                index = (legal.index(self.scene.mark) + step) % len(legal)
            else:
                index = 0 if step == 1 else len(legal) - 1
            self._set_mark(legal[index])
        elif key is Key.SELECT:
            if self.scene.mark is None:
                legal = self.game.legal_moves()
                if legal:
                    self._set_mark(legal[0])
                return
            self._try_place(*self.scene.mark)

    def _set_mark(self, cell: tuple[int, int] | None) -> None:
        assert self.layout is not None
        old = self.scene.mark
        self.scene.mark = cell
        self._paint(*(self.layout.cell_rect(*c) for c in (old, cell) if c is not None))

    # ------------------------------------------------------------ moves

    def _try_place(self, row: int, col: int) -> None:
        assert self.layout is not None and self.view is not None
        if not self.game.is_legal(row, col):
            self._play(SOUND_ILLEGAL)
            return
        old_mark = self.scene.mark
        placement = self.game.place(row, col)
        self.scene.mark = None
        self._save()
        self._sync_scene()
        regions = [self.view.tile_rect(row, col, self.scene), self.layout.panel]
        if old_mark is not None:
            regions.append(self.layout.cell_rect(*old_mark))
        self._paint(*regions)
        if self.game.over:
            self._play(SOUND_ALL_PLACED if self.game.remaining == 0 else SOUND_GAME_OVER)
            self._game_over()
        elif placement.fourway:
            self._play(SOUND_FOURWAY)
        else:
            self._play(SOUND_PLACE)

    def _undo(self) -> None:
        assert self.layout is not None and self.view is not None
        if not self.game.can_undo:
            return
        before = self.view.tile_rect(*self.game.moves[-1], self.scene)
        self.game.undo()
        self.scene.mark = None
        self._save()
        self._paint(before, self.layout.panel)

    def _new_game(self, seed: int | None, scoring: str | None = None) -> None:
        self.game = Game.new(seed=seed, scoring=scoring or self.scoring_pref())
        self.recorded = False
        self.scene.mark = None
        self.drag = None
        self._save()
        self._paint_everything()

    # ------------------------------------------------------------ game over

    def _game_over(self) -> None:
        game = self.game
        rank = None
        if not self.recorded and game.seed is not None:
            rank = self.scores.add(game.scoring, Entry(game.score, game.fourways,
                                                       game.remaining, game.seed))
            self.recorded = True
            self._save()
            self._save_prefs()
        from palmish.ishido.dialogs import game_over_alert

        self._open(game_over_alert(game, self.scores, rank), self._after_game_over)

    def _after_game_over(self, result: object) -> None:
        if result == 0:
            self._new_game(None)
        else:
            self._paint_everything()

    def _open(self, modal: Modal, on_close: Callable[[object], None] | None = None) -> None:
        if self.ctx is not None:
            self.ctx.open_modal(modal, on_close)

    # ------------------------------------------------------------ computer player

    def _computer_move(self) -> tuple[int, int]:
        """The computer player's cell for the current tile (ties broken by the move number)."""
        from palmish.ishido.ai import choose

        return choose(self.game, budget_ms=HINT_MS, rng=random.Random(len(self.game.moves)))

    def _hint(self) -> None:
        """Mark the cell the computer player would choose; Select then places there."""
        if self.game.over or self.drag is not None:
            return
        self._set_mark(self._computer_move())

    def _start_demo(self) -> None:
        if self.game.over or self.ctx is None:
            return
        self.demo = True
        self.recorded = True  # a game the computer finished does not enter the table
        self._save()
        self.ctx.set_timer(DEMO_STEP_MS)

    def _stop_demo(self) -> None:
        self.demo = False

    def _demo_step(self) -> None:
        if not self.demo or self.ctx is None:
            return
        if self.game.over or self.drag is not None:
            self.demo = False
            return
        self._try_place(*self._computer_move())
        if self.game.over:
            self.demo = False
        else:
            self.ctx.set_timer(DEMO_STEP_MS)

    # ------------------------------------------------------------ menus

    def menus(self) -> tuple[Menu, ...]:
        return (
            Menu("Game", (
                MenuItem("New Game", "new", "N"),
                MenuItem("Restart this deal", "restart", "R"),
                MenuItem("Undo", "undo", "U"),
                MenuItem("Hint", "hint", "H"),
                MenuItem("Demo", "demo"),
                MenuItem("Deal number...", "deal", "D"),
            )),
            Menu("Options", (
                MenuItem("Preferences", "prefs", "P"),
                MenuItem("Plugin Manager", "plugins", "M"),
            )),
            Menu("Help", (
                MenuItem("Game play", "help-play"),
                MenuItem("Scoring", "help-scoring"),
                MenuItem("Plugins", "help-plugins"),
                MenuItem("About PalmIshido", "about"),
            )),
        )

    def _command(self, command: str) -> None:
        from palmish.ishido import dialogs

        if command == "new":
            self._new_game(None)
        elif command == "restart":
            self._new_game(self.game.seed, self.game.scoring)
        elif command == "undo":
            self._undo()
        elif command == "hint":
            self._hint()
        elif command == "demo":
            self._start_demo()
        elif command == "deal":
            self._open(dialogs.deal_entry(self.game.seed), self._deal_chosen)
        elif command == "prefs":
            self._preferences()
        elif command == "plugins":
            self._plugin_manager()
        elif command in dialogs.HELP_PAGES:
            self._open(dialogs.help_viewer(command))
        elif command == "about":
            self._open(dialogs.about_alert(self.game, self.scores))

    def _deal_chosen(self, result: object) -> None:
        if isinstance(result, int):
            self._new_game(result)

    # ------------------------------------------------------------ preferences

    def _preferences(self) -> None:
        from palmish.ishido import dialogs

        plugins = self._plugins()
        if plugins is None or self.ctx is None:
            return
        config = self.ctx.config
        current = config.plugin_slot
        # A classic 160x160 device has only the Square configuration.
        slots = [current] + ([s for s in ("square", "tall", "wide") if s != current]
                             if config.can_rotate else [])
        form, apply = dialogs.preferences_form(plugins, slots, self.scoring_pref(),
                                               self.sound_on())

        def closed(result: object) -> None:
            if isinstance(result, tuple) and result and result[0] == 2:  # "?"
                self._open(dialogs.help_viewer("help-plugins"), lambda _: self._preferences())
                return
            outcome = apply(result)
            if outcome is None:
                return
            self.prefs["scoring"] = outcome.scoring
            self.prefs["sound"] = outcome.sound
            self._save_prefs()
            self._relayout()  # the chosen plugins show at once

        self._open(form, closed)

    def _plugin_manager(self) -> None:
        from palmish.ishido import dialogs

        plugins = self._plugins()
        if plugins is not None:
            dialogs.open_plugin_manager(plugins, self._open, self._relayout)
