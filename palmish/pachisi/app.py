"""Pachisi, the app: the hooks of palmish.boardgame's BoardGameApp.

People play by pen and keys (throw: tap the die, Select, or the panel's
Throw; then Up/Down or taps choose a piece and Select or a tap moves it; P
passes); computer players take their turns on the device clock, one step
(throw, marker, move) per timed action, so a tap, key or menu is handled
between any two steps, and a key or tap finishes the computer's turn at once.
Messages (a lost throw, why a piece cannot move, the caution) are a box over
the board that any key clears. A moved piece slides along its path after the
game has already changed. Every decision is saved; the game resumes exactly
from its record.
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Mapping, Sequence

from PIL import Image

from palmish.boardgame import BoardGameApp, Command, FormResult
from palmish.boardgame.netplay import NetGame
from palmish.boardgame.network_game import NetworkGameMixin
from palmish.boardgame.sliced import TIMED_SLICE_MS, SlicedJob
from palmish.device.events import CharKey, Key, KeyDown, MenuCommand, PenDown
from palmish.device.machine.app import AppContext
from palmish.device.ui.form import Field, PushButtons
from palmish.device.ui.modal import Modal
from palmish.device.ui.textview import TextViewer
from palmish.outcome import Outcome
from palmish.pachisi import CAUTION_TEXT, PASS, Game, Move, Player, ai, dialogs
from palmish.pachisi.art import load_art
from palmish.pachisi.descriptor import GAME
from palmish.pachisi.game import Phase
from palmish.pachisi.history import history_text, round_lines
from palmish.pachisi.icon import launcher_icon
from palmish.pachisi.layout import PachisiLayout, layout_for
from palmish.pachisi.netplay import NetPlay
from palmish.pachisi.rules import DICE, PIECES, computer_names, distinct, valid_name
from palmish.pachisi.schema import SCHEMA
from palmish.pachisi.showcase import showcase_game
from palmish.pachisi.view import PachisiView, Scene, Slide, slide_path
from palmish.stepped import in_slices

SOUND_IDS = dict(SCHEMA.sounds)
# The sound each network game event makes on every device (docs/network.md).
NET_SOUNDS = {"throw": "throw", "enter": "enter", "move": "move", "capture": "capture",
              "finish": "finish", "win": "win"}
SPEEDS = ("slow", "normal", "fast")
SPEED_MS = {"slow": 1000, "normal": 500, "fast": 250}
NOTICE_MS = 2000  # a lost throw's box clears itself after this (the seed: "about 2 seconds")
SLIDE_STEP_MS = (15, 60)  # a sliding piece's time per square, at least and at most
DEFAULT_PLAYERS = (Player("You"), *(Player(n, True) for n in computer_names(3)))

# Which choice a piece of thinking is for: the game, its count of throws (the one
# waiting is the last), and "hint" or Silicon's level.
Decision = tuple[Game, int, str]


class PachisiApp(NetworkGameMixin, BoardGameApp, descriptor=GAME):
    sound_ids = SOUND_IDS
    help_pages = dialogs.HELP_PAGES
    plugins_help = "help-plugins"
    prefs_shortcut = "R"  # P passes, as in the seed
    net: NetPlay | None = None  # a network game (palmish/boardgame/network_game.py)
    net_sounds = NET_SOUNDS

    def __init__(self) -> None:
        super().__init__()
        self.game: Game = Game.new(seed=1, players=DEFAULT_PLAYERS)
        self.scene: Scene = Scene(self.game)
        self.layout: PachisiLayout | None = None
        self.view: PachisiView | None = None
        self._swallow_pen_up = False  # the pen-down cleared a box or a computer turn
        # Silicon's choice or the Hint, worked out between frames (`_think`).
        self.thinking: SlicedJob[ai.Choice] | None = None
        self.thinking_for: Decision | None = None
        self.thought: tuple[Decision, ai.Choice] | None = None  # a computer's, for its marker
        self.showing: Game | None = None  # the preview's showcase, while it is played

    # ------------------------------------------------------------ saved game, prefs

    def start(self, ctx: AppContext) -> None:
        self.scene = Scene(self.game)
        super().start(ctx)
        self._after()

    def new_game(self) -> None:
        self.game = Game.new(players=self._last_players(), dice=self.dice_pref())
        self.scene = Scene(self.game)

    def showcase(self) -> bool:
        """Every piece in every colour, and every die face and cowrie on a tray
        (palmish/pachisi/showcase.py); a set-up position, so not saved as the game."""
        self.load_game(showcase_game())
        self.showing = self.game
        self.relayout()
        return True

    def in_progress(self) -> bool:
        return bool(self.game.history) and not self.game.over

    def resume_record(self, record: str, fields: Mapping[str, object]) -> None:
        self.game = Game.from_record(record)
        self.scene = Scene(self.game)

    def game_fields(self) -> dict[str, object] | None:
        if self.net is not None:
            return None  # the host keeps a network game; the local one stays saved
        try:
            return {"record": self.game.record()}
        except ValueError:  # a set-up position (tests, puzzles) has no record
            return None

    def level_pref(self) -> str:
        return self.choice_pref("level", ai.LEVELS, "normal")

    def speed_ms(self) -> int:
        return SPEED_MS[self.choice_pref("speed", SPEEDS, "normal")]

    def dice_pref(self) -> str:
        return self.choice_pref("dice", DICE, "cowrie")

    def _last_players(self) -> tuple[Player, ...]:
        saved = self.prefs.get("players")
        if isinstance(saved, list):
            players = []
            for entry in saved:
                if (isinstance(entry, list) and len(entry) == 2 and isinstance(entry[0], str)
                        and valid_name(entry[0]) and isinstance(entry[1], bool)):
                    players.append(Player(entry[0], entry[1]))
            if 2 <= len(players) <= 4:
                return tuple(players)
        return DEFAULT_PLAYERS

    def pref_fields(self) -> Sequence[Field]:
        return (
            PushButtons("level", "Silicon", ("Easy", "Normal", "Hard"),
                        ai.LEVELS.index(self.level_pref())),
            PushButtons("speed", "Speed", ("Slow", "Normal", "Fast"),
                        SPEEDS.index(self.choice_pref("speed", SPEEDS, "normal"))),
            PushButtons("dice", "Dice", dialogs.DICE_LABELS, DICE.index(self.dice_pref())),
        )

    def apply_prefs(self, result: FormResult) -> None:
        self.prefs["level"] = result.choice("level", ai.LEVELS, self.level_pref())
        self.prefs["speed"] = result.choice("speed", SPEEDS, "normal")
        self.prefs["dice"] = result.choice("dice", DICE, self.dice_pref())  # from the next game
        if self.dice_pref() != self.game.dice and not self.game.over:
            # changing them mid-game seemed to do nothing
            self.notify("The new dice come with the next game (Game > Play Again).")

    # ------------------------------------------------------------ drawing

    def make_view(self, ctx: AppContext) -> PachisiView:
        self.layout = layout_for(ctx.config, ctx.bounds)
        art = load_art(self.layout, self.media.plugin("pieces"), self.media.plugin("board"))
        self.media.report(art.notes)
        return PachisiView(self.layout, art)

    def sync_scene(self) -> None:
        self.scene.game = self.game
        self.scene.showcase = self.game is self.showing and not self.game.history
        self.scene.log = round_lines(self.game) + self.network_lines()
        net = self.net
        watching = (net is not None and net.game is self.game
                    and not any(net.mine(i) for i in range(len(self.game.players))))
        self.scene.watching = net.table_name if watching and net is not None else None

    def paint(self) -> None:
        if self.ctx is None or self.view is None:
            return
        self.sync_scene()
        self.view.paint(self.ctx.screen, self.scene)

    # ------------------------------------------------------------ whose turn

    @property
    def human_turn(self) -> bool:
        if self.net is not None:  # nobody's turn here in the waiting room
            return (self.net.game is self.game and not self.game.over
                    and self.net.mine(self.game.current))
        return not self.game.over and not self.game.players[self.game.current].computer

    def _after(self) -> None:
        """After every decision: save, mark the default move, redraw, and let a
        computer player go on or end the game."""
        game = self.game
        if self.thinking_for is not None and self.thinking_for[:2] != self._waiting():
            self._stop_thinking()  # for a throw that has been used
        if game.phase == Phase.MOVE and self.human_turn:
            if self.scene.mark not in game.legal_moves():
                self._mark(game.default_move())
        else:
            self.scene.mark = None  # a computer shows its marker as a step of its own
        self.scene.log_top = None  # the history shows its newest line again
        self.save()
        self.paint()
        if game.over:
            self.turns.cancel("cpu")
            self._game_over()
        elif not self.human_turn and not self.scene.notice and not self.turns.pending("cpu"):
            self.turns.after("cpu", self.speed_ms(), self._computer_step)
        if game.phase == Phase.MOVE and self._computer_playing():
            self._think_ahead()

    def _computer_step(self) -> None:
        """One step of a computer player: throw, then show the marker, then move."""
        game = self.game
        if self.net is not None:
            self.net_computer_step()
            return
        if game.over or self.human_turn or self.scene.notice:
            return
        if game.phase == Phase.THROW:
            self.scene.mark = None
            self._throw()
        elif self.scene.mark is None:
            choice = self._silicon_choice()
            if choice is PASS:
                game.pass_turn()
            else:
                assert isinstance(choice, Move)
                self.scene.mark = choice
                self.paint()
                self.turns.after("cpu", self.speed_ms(), self._computer_step)
                return
        else:
            move, self.scene.mark = self.scene.mark, None
            self._make(move)
            return
        self._after()

    def _show_notice(self, text: str, title: str | None = None, timed: bool = False) -> None:
        """The message box over the board; `timed`: it also clears itself (a lost throw)."""
        self.scene.notice, self.scene.notice_title = text, title
        if timed:
            self.turns.after("notice", NOTICE_MS, self._clear_notice)
        else:
            self.turns.cancel("notice")
        self.paint()

    def _clear_notice(self) -> None:
        if self.scene.notice is None:
            return
        self.scene.notice = self.scene.notice_title = self.scene.shown_throw = None
        self.turns.cancel("notice")
        self._after()

    def _computer_playing(self) -> bool:
        # In a network game the other seats' turns are the host's to play: a key here
        # must not play them on this device's copy of the game.
        return self.net is None and not self.game.over and not self.human_turn

    def interrupt(self, event: PenDown | KeyDown | CharKey | MenuCommand) -> bool:
        """Any key or tap clears the message box, or finishes a computer's turn at once
        (a menu command clears the box and then runs)."""
        if isinstance(event, PenDown) and self._on_history_bar(event.x, event.y):
            return False  # scrolling the history interrupts nothing
        if self.thinking_for is not None and self.thinking_for[2] == "hint":
            self._stop_thinking()  # the player moved on: the hint would be for the past
        if self.scene.notice is not None:
            self._clear_notice()
            used = not isinstance(event, MenuCommand)
        elif self._computer_playing() and not isinstance(event, MenuCommand):
            self._finish_computer_turn()
            used = True
        else:
            return False
        self._swallow_pen_up = used and isinstance(event, PenDown)
        return used

    def _finish_computer_turn(self) -> None:
        """The rest of the computer's turn at once: the board jumps to the result (the
        history still tells each step)."""
        game = self.game
        player = game.current
        self.turns.cancel("cpu")
        for _ in range(200):  # a turn is a few throws; the bound only guards the loop
            if game.over or game.current != player:
                break
            if game.phase == Phase.THROW:
                game.throw()
                continue
            choice = self.scene.mark or self._silicon_choice()
            self.scene.mark = None
            if isinstance(choice, Move):
                game.move(choice)
            else:
                game.pass_turn()
        self.scene.slide = None
        self._after()

    def _lost(self, player: int, value: int) -> None:
        """A throw nobody could use: a box naming the player and the value, the shells
        kept in the thrower's corner until it clears (by itself or on any key)."""
        name = self.game.players[player].name
        self.scene.shown_throw = (player, value)
        self._show_notice(f"{name} threw {value}: can't move any piece!", timed=True)

    def _mark(self, move: Move | None) -> None:
        """Put the marker on a move; landing on a caution move says so (the seed)."""
        changed = move != self.scene.mark
        self.scene.mark = move
        if changed and move is not None and move.caution and self.human_turn:
            self._show_notice(CAUTION_TEXT, "CAUTION")

    # ------------------------------------------------------------ thinking

    def _waiting(self) -> tuple[Game, int]:
        """The throw waiting for its move now (with its game)."""
        return self.game, len(self.game.history)

    def _think(self, purpose: str, steps: Generator[None, None, ai.Choice],
               then: Callable[[ai.Choice], None], at_once: bool = True) -> None:
        """Start a choice for the throw waiting (`ai.choosing`'s steps), in slices
        between frames (`hard` searches for up to some 100 ms; the others answer in
        the first slice, at once or a gap later); `then` gets it unless the game
        has moved on by then."""
        self._stop_thinking()
        decision = (*self._waiting(), purpose)

        def thought(choice: ai.Choice) -> None:
            self.thinking, self.thinking_for = None, None
            if (*self._waiting(), purpose) == decision and self.game.phase == Phase.MOVE:
                then(choice)

        self.thinking_for = decision
        self.thinking = SlicedJob(
            self.turns, "think", in_slices(steps, TIMED_SLICE_MS),
            units=1, on_done=thought)
        self.thinking.start(at_once)

    def _stop_thinking(self) -> None:
        job, self.thinking, self.thinking_for = self.thinking, None, None
        if job is not None:
            job.cancel()

    def _think_ahead(self) -> None:
        """A computer's throw is waiting: its choice is worked out between frames
        while the marker's step is still to come."""
        level = self.level_pref()
        decision = (*self._waiting(), level)
        if self.thinking_for == decision or (self.thought and self.thought[0] == decision):
            return

        def keep(choice: ai.Choice) -> None:
            self.thought = (decision, choice)

        self.thought = None
        self._think(level, ai.choosing(self.game, level), keep, at_once=False)

    def _silicon_choice(self) -> ai.Choice:
        """The computer's choice for the throw waiting, now: the one thought of
        ahead, or the rest of its thinking (or all of it) at once."""
        decision = (*self._waiting(), self.level_pref())
        if not (self.thought and self.thought[0] == decision):
            self._think_ahead()
            if self.thinking is not None:
                self.thinking.finish()
        assert self.thought is not None and self.thought[0] == decision
        choice, self.thought = self.thought[1], None
        return choice

    # ------------------------------------------------------------ decisions

    def _throw(self) -> None:
        game = self.game
        player = game.current
        value = game.throw()
        self.play("throw")
        if game.history[-1].outcome == "lost":
            self._lost(player, value)

    def throw(self) -> None:
        """A person's throw (die, Select, the panel's Throw)."""
        game = self.game
        if not self.human_turn or game.phase != Phase.THROW:
            return
        if self.net is not None:
            self.net_ask("throw")
            return
        self.scene.mark = None
        self._throw()
        self._after()

    def _make(self, move: Move) -> None:
        if self.net is not None:
            self.net_ask("move", move.pieces[0])
            return
        game = self.game
        path = slide_path(game, move)
        game.move(move)
        self.scene.mark = None
        self._slide(Slide(move.player, move.pieces, path))
        if game.over and game.winner is not None:
            self.play("win")
        elif move.captures:
            self.play("capture")
        elif move.finishes:
            self.play("finish")
        elif move.enters:
            self.play("enter")
        else:
            self.play("move")
        self._after()

    def move(self, move: Move) -> None:
        """A person's move, asking first when it is a caution move."""
        if not self.human_turn or move not in self.game.legal_moves():
            return
        if not move.caution:
            self._make(move)
            return

        def answered(result: FormResult) -> None:
            if result.button == "Move" and move in self.game.legal_moves():
                self._make(move)

        self.open_form(dialogs.caution_alert(), answered)

    def _slide(self, slide: Slide) -> None:
        """Show the moved piece travelling its path, a square per step (the game has
        already changed; only the picture follows)."""
        self.scene.slide = slide if len(slide.path) > 1 else None
        if self.scene.slide is None:
            return
        low, high = SLIDE_STEP_MS
        step_ms = max(low, min(high, self.speed_ms() // len(slide.path)))

        def step() -> None:
            if self.scene.slide is not slide:
                return
            slide.step += 1
            if slide.step >= len(slide.path) - 1:
                self.scene.slide = None
            else:
                self.turns.after("slide", step_ms, step)
            self.paint()

        self.turns.after("slide", step_ms, step)

    def _not_yours(self, title: str) -> bool:
        """Pass and Hint out of a person's turn say why they do nothing (True then)."""
        if self.human_turn:
            return False
        game = self.game
        text = ("The game is over: Game > Play Again starts another." if game.over
                else f"It is {game.players[game.current].name}'s turn.")
        self.open(dialogs.message(title, text))
        return True

    def pass_turn(self) -> None:
        if self._not_yours("Pass"):
            return
        if not self.game.can_pass:
            self.play("illegal")
            self._show_notice("No passing in the first turn: pass from the second turn on.")
            return
        if self.net is not None:
            self.net_ask("pass")
            return
        self.game.pass_turn()
        self.scene.mark = None
        self._after()

    def why_not(self, piece: int) -> None:
        reason = self.game.why_not(piece)
        if reason:
            self.play("illegal")
            self._show_notice(reason[0].upper() + reason[1:] + ".")

    def _set_mark(self, move: Move | None) -> None:
        self._mark(move)
        if self.net is not None and move is not None and self.human_turn:
            self.net.ask("choose", move.pieces[0])  # the other devices see the marker
        self.paint()

    # ------------------------------------------------------------ pen and keys

    def char(self, char: str) -> None:
        """Typed keys: P passes (the seed's 'P' or 'p'), before or after the throw."""
        if char.lower() == "p":
            self.pass_turn()

    def key(self, key: Key) -> None:
        if not self.human_turn:
            return
        game = self.game
        if key is Key.SELECT:
            if game.phase == Phase.THROW:
                self.throw()
            elif self.scene.mark is not None:
                self.move(self.scene.mark)
        elif key in (Key.UP, Key.DOWN, Key.LEFT, Key.RIGHT) and game.phase == Phase.MOVE:
            # one stop for the start area: its entering moves (one a waiting
            # piece) share the marker's place, so rules.distinct keeps the first
            legal = distinct(game.legal_moves())
            step = 1 if key in (Key.DOWN, Key.RIGHT) else -1  # the seed: "the cursor keys"
            index = legal.index(self.scene.mark) if self.scene.mark in legal else -step
            self._set_mark(legal[(index + step) % len(legal)])

    def _on_history_bar(self, x: int, y: int) -> bool:
        bar = self.view.log_bar if self.view is not None else None
        return bar is not None and bar.rect.contains(x, y)

    def pen_down(self, x: int, y: int) -> None:
        self._swallow_pen_up = False
        bar = self.view.log_bar if self.view is not None else None
        if bar is not None and bar.rect.contains(x, y) and bar.tap(y, 1):
            self.scene.log_top = bar.top
            self.paint()

    def pen_up(self, x: int, y: int) -> None:
        if self._swallow_pen_up:  # the tap only cleared a box or ended a computer's turn
            self._swallow_pen_up = False
            return
        lay, view = self.layout, self.view
        if lay is None or view is None or not self.human_turn or self._on_history_bar(x, y):
            return
        game = self.game
        if lay.panel is not None:
            if lay.panel.throw_button.contains(x, y):
                self.throw()
                return
            if lay.panel.pass_button.contains(x, y):
                self.pass_turn()
                return
        seat = game.seats[game.current]
        if game.phase == Phase.THROW:
            if lay.die_rect(seat).union(lay.value_rect(seat)).contains(x, y):
                self.throw()
            elif self._piece_at(x, y) is not None:
                self.why_not(self._piece_at(x, y) or 0)
            return
        mark = self.scene.mark
        # The waiting pieces are alike: the marked entering move is a tap on any of them.
        entering = mark is not None and mark.frm == 0 and lay.waiting_row(seat).contains(x, y)
        if mark is not None and (entering or view.mark_rect(game, mark).contains(x, y)
                                 or view.target_rect(game, mark).contains(x, y)):
            self.move(mark)
            return
        piece = self._piece_at(x, y)
        if piece is not None:
            move = game.move_for(piece)
            if move is None:
                self.why_not(piece)
            else:
                self._set_mark(move)
            return
        for move in game.legal_moves():
            if view.target_rect(game, move).contains(x, y):
                self._set_mark(move)
                return

    def _piece_at(self, x: int, y: int) -> int | None:
        """The current player's piece under the pen: on the board or waiting in the corner."""
        lay = self.layout
        assert lay is not None
        game = self.game
        me = game.current
        seat = game.seats[me]
        positions = game.positions(me)
        if lay.waiting_row(seat).contains(x, y) and 0 in positions:
            return positions.index(0)
        square = lay.square_at(x, y)
        if square is None:
            return None
        for pc in range(PIECES):
            if game.square(me, pc) == square:
                return pc
        return None

    # ------------------------------------------------------------ games

    def start_game(self, players: Sequence[Player], dice: str | None = None) -> None:
        """A new game with these players (the turn order) and dice (default: prefs)."""
        self.prefs["players"] = [[p.name, p.computer] for p in players]
        self.save_prefs()
        self.load_game(Game.new(players=players, dice=dice or self.dice_pref()))

    def load_game(self, game: Game) -> None:
        """Play this game from now on (a set-up position for tests and puzzles, or a record)."""
        self.turns.cancel("cpu")
        self.turns.cancel("notice")
        self.turns.cancel("slide")
        self.leave_network()
        self.game = game
        self.scene = Scene(game)
        self.recorded = False
        self._after()

    def play_again(self) -> None:
        if self.net is not None:  # a rematch at the table, never its names here
            self.propose_rematch()
            return
        self.start_game(self.game.players)  # the dice of the Preferences

    def _game_over(self) -> None:
        game = self.game
        names = [p.name for p in game.players]
        outcome = game.outcome()
        if not self.recorded and outcome is not None:
            apart = dialogs.NETWORK if self.net is not None else ""
            for pl, p in enumerate(game.players):
                key = apart + (dialogs.COMPUTER if p.computer else dialogs.HUMAN) + p.name
                self.tallies.add(key, won=pl == outcome.winner)
            # Statistics count network games apart.
            self.record_result("network" if self.net else "games", outcome, players=names)
            text = game.message or "The game is over."
            # at a table it closes when the next game there begins (a rematch)
            ask = self.ask_at_table if self.net is not None else self.open_form
            ask(dialogs.win_alert(text), self._again_answer)

    def _again_answer(self, result: FormResult) -> None:
        if result.button != "Yes":
            return
        if self.net is not None:  # a network game: "Play again?" proposes a rematch
            if self.game.over:  # (not when the rematch began under this question)
                self.propose_rematch()
            return
        self.open_form(dialogs.same_players_alert(),  # Escape (no button): neither
                       lambda r: self.play_again() if r.button == "Yes" else
                       self.new_players() if r.button == "No" else None)

    # ------------------------------------------------------------ set-up

    def new_players(self) -> None:
        """Game > New Game...: the seed's questions, then the names in turn order."""
        last = self._last_players()
        humans = max(1, sum(1 for p in last if not p.computer))
        form = dialogs.humans_form(humans, DICE.index(self.dice_pref()))

        def step1(result: FormResult) -> None:
            if result.button != "OK":
                return
            count = int(result.choice("humans", ("1", "2", "3", "4"), str(humans)))
            dice = result.choice("dice", DICE, self.dice_pref())
            names = [p.name for p in last if not p.computer]

            def step2(result: FormResult) -> None:
                if result.button is not None:  # Escape leaves the set-up
                    more = {"Three": 3, "One": 1, "Yes": 4 - count}.get(result.button, 0)
                    self._ask_names(count, more, dice, names)

            if count == 1:
                self.open_form(dialogs.computers_alert(), step2)
            elif count < 4:
                self.open_form(dialogs.fill_alert(count), step2)
            else:
                self._ask_names(count, 0, dice, names)

        self.open_form(form, step1)

    def _ask_names(self, humans: int, computers: int, dice: str, old: list[str]) -> None:
        names: list[str] = []

        def ask(done: Callable[[], None]) -> None:
            i = len(names)
            if i == humans:
                done()
                return
            default = old[i] if i < len(old) else ("You" if humans == 1 else f"Player{i + 1}")

            def typed(name: object) -> None:
                if not isinstance(name, str):
                    return  # cancelled: the old game goes on
                if not valid_name(name) or name in names or name in computer_names(computers):
                    self.open(dialogs.message("Pachisi", f"Please choose another name than "
                                              f"{name!r}."), lambda _: ask(done))
                    return
                names.append(name)
                ask(done)

            self.open(dialogs.name_entry(i, humans, default), typed)

        def begin() -> None:
            players = [Player(n) for n in names]
            players += [Player(n, True) for n in computer_names(computers)]
            self.prefs["dice"] = dice
            self.start_game(players, dice)

        ask(begin)

    # ------------------------------------------------------------ menus

    def hint(self) -> None:
        game = self.game
        if self._not_yours("Hint"):
            return
        if game.phase == Phase.THROW:
            self.open(dialogs.message("Hint", "Throw first: tap the die or press Select."))
            return

        def advise(choice: ai.Choice) -> None:
            if choice is PASS:
                self.open(dialogs.message("Hint", "Silicon would pass."))
            elif isinstance(choice, Move):
                self._set_mark(choice)

        # the best advice, whatever Silicon's level; any pen, key or command stops it
        self._think("hint", ai.choosing(game, ai.STRONGEST), advise)

    def counts_as_win(self, outcome: Outcome) -> bool | None:
        """The "games" tally is the people's: a win when a person won."""
        return outcome.winner is not None and not self.game.players[outcome.winner].computer

    def statistics(self) -> None:
        self.open(dialogs.statistics_viewer(self.tallies))

    def history(self) -> None:
        self.open(TextViewer("Last Round", history_text(self.game)))

    def game_menus(self) -> Sequence[tuple[str, Sequence[Command]]]:
        return (("Game", (
            Command("New Game...", "new",
                    lambda: self.confirm_discard("New Game", self.new_players), "N"),
            Command("Play Again", "again",
                    lambda: self.confirm_discard("Play Again", self.play_again), "A"),
            Command("Pass", "pass", self.pass_turn, "P"),
            Command("Hint", "hint", self.hint, "H"),
            Command("History", "history", self.history, "Y"),
            Command("Statistics", "stats", self.statistics, "T"),
            Command("Network Game...", "network", self.network_game),
            *self.table_commands(),
        )),)

    def net_scene(self, game: NetGame) -> None:
        assert isinstance(game, Game)
        self.game, self.scene = game, Scene(game)

    def net_mark(self, game: NetGame, piece: int) -> Move | None:
        assert isinstance(game, Game)
        return game.move_for(piece)

    def _last_name(self) -> str:
        """The name this device's person played under last (for a network game)."""
        humans = [p.name for p in self._last_players() if not p.computer]
        return humans[0] if humans else "You"

    def icon(self) -> Image.Image:
        return launcher_icon()

    def about(self) -> Modal:
        return dialogs.about_alert([p.name for p in self.game.players])
