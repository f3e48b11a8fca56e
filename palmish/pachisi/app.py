"""Pachisi, the app: the hooks of palmish.boardgame's BoardGameApp.

People play by pen and keys (throw: tap the die, Select, or the panel's
Throw; then Up/Down or taps choose a piece and Select or a tap moves it);
computer players take their turns on the device clock, one step (throw,
marker, move) per timed action, so a tap, key or menu is handled between any
two steps. Every decision is saved; the game resumes exactly from its record.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from PIL import Image

from palmish.boardgame import BoardGameApp, Command, FormResult
from palmish.device.app import AppContext
from palmish.device.events import Key, KeyDown, MenuCommand, PenDown
from palmish.device.ui.alert import Alert
from palmish.device.ui.form import Field, PushButtons
from palmish.device.ui.modal import Modal
from palmish.pachisi import PASS, Game, IllegalMove, Move, Player, ai, dialogs
from palmish.pachisi.art import load_art
from palmish.pachisi.icon import launcher_icon
from palmish.pachisi.layout import PachisiLayout, layout_for
from palmish.pachisi.rules import DICE, PIECES, computer_names, distinct, valid_name
from palmish.pachisi.schema import SCHEMA
from palmish.pachisi.view import PachisiView, Scene

SOUND_IDS = dict(SCHEMA.sounds)
SPEEDS = ("slow", "normal", "fast")
SPEED_MS = {"slow": 1000, "normal": 500, "fast": 250}
NOTICE_MS = 2000  # a computer player's "can't move" box clears itself after this
LOG_LINES = 30
DEFAULT_PLAYERS = (Player("You"), *(Player(n, True) for n in computer_names(3)))


class PachisiApp(BoardGameApp):
    id = "pachisi"
    name = "Pachisi"
    creator = "PPch"
    sound_ids = SOUND_IDS
    help_pages = dialogs.HELP_PAGES
    plugins_help = "help-plugins"

    def __init__(self) -> None:
        super().__init__()
        self.game = Game.new(seed=1, players=DEFAULT_PLAYERS)
        self.scene = Scene(self.game)
        self.layout: PachisiLayout | None = None
        self.view: PachisiView | None = None

    # ------------------------------------------------------------ saved game, prefs

    def start(self, ctx: AppContext) -> None:
        self.scene = Scene(self.game)
        super().start(ctx)
        self._after()

    def new_game(self) -> None:
        self.game = Game.new(players=self._last_players(), dice=self.dice_pref())
        self.scene = Scene(self.game)

    def in_progress(self) -> bool:
        return bool(self.game.history) and not self.game.over

    def resume(self, fields: Mapping[str, object], version: int) -> None:
        record = fields.get("record")
        if not isinstance(record, str):
            raise ValueError("no game record")
        try:
            self.game = Game.from_record(record)
        except IllegalMove as exc:
            raise ValueError(str(exc)) from None
        self.scene = Scene(self.game)

    def game_fields(self) -> dict[str, object] | None:
        try:
            return {"record": self.game.record()}
        except ValueError:  # a set-up position (tests, puzzles) has no record
            return None

    def _pref(self, key: str, options: Sequence[str], default: str) -> str:
        value = self.prefs.get(key)
        return value if isinstance(value, str) and value in options else default

    def level_pref(self) -> str:
        return self._pref("level", ai.LEVELS, "normal")

    def speed_ms(self) -> int:
        return SPEED_MS[self._pref("speed", SPEEDS, "normal")]

    def dice_pref(self) -> str:
        return self._pref("dice", DICE, "cowrie")

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
                        SPEEDS.index(self._pref("speed", SPEEDS, "normal"))),
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

    def lay_out(self) -> None:
        ctx = self.ctx
        assert ctx is not None
        self.layout = layout_for(ctx.config, ctx.bounds)
        art = load_art(self.layout, self.media.plugin("pieces"), self.media.plugin("board"))
        self.media.report(art.notes)
        self.view = PachisiView(self.layout, art)
        self.paint()

    def paint(self) -> None:
        if self.ctx is None or self.view is None:
            return
        self.scene.game = self.game
        self.scene.log = [e.text for e in self.game.events[-LOG_LINES:]]
        self.view.paint(self.ctx.screen, self.scene)

    # ------------------------------------------------------------ whose turn

    @property
    def human_turn(self) -> bool:
        return not self.game.over and not self.game.players[self.game.current].computer

    def _after(self) -> None:
        """After every decision: save, mark the default move, redraw, and let a
        computer player go on or end the game."""
        game = self.game
        if game.phase == "move" and self.human_turn:
            if self.scene.mark not in game.legal_moves():
                self.scene.mark = game.default_move()
        else:
            self.scene.mark = None  # a computer shows its marker as a step of its own
        self.save()
        self.paint()
        if game.over:
            self.turns.cancel("cpu")
            self._game_over()
        elif not self.human_turn and not self.scene.notice and not self.turns.pending("cpu"):
            self.turns.after("cpu", self.speed_ms(), self._computer_step)

    def _computer_step(self) -> None:
        """One step of a computer player: throw, then show the marker, then move."""
        game = self.game
        if game.over or self.human_turn or self.scene.notice:
            return
        name = game.players[game.current].name
        if game.phase == "throw":
            self.scene.mark = None
            self._throw()
            if game.phase == "throw" and game.history and game.history[-1].outcome == "lost":
                self._show_notice(f"{name} can't move any piece!")
        elif self.scene.mark is None:
            choice = ai.choose(game, self.level_pref())
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

    def _show_notice(self, text: str) -> None:
        self.scene.notice = text
        self.turns.after("notice", NOTICE_MS, self._clear_notice)

    def _clear_notice(self) -> None:
        if self.scene.notice is None:
            return
        self.scene.notice = None
        self.turns.cancel("notice")
        self._after()

    def interrupt(self, event: PenDown | KeyDown | MenuCommand) -> bool:
        if self.scene.notice is None:
            return False
        self._clear_notice()
        return not isinstance(event, MenuCommand)  # a tap or key only clears the box

    # ------------------------------------------------------------ decisions

    def _throw(self) -> None:
        self.game.throw()
        self.play("throw")

    def throw(self) -> None:
        """A person's throw (die, Select, the panel's Throw)."""
        game = self.game
        if not self.human_turn or game.phase != "throw":
            return
        self._throw()
        lost = game.history[-1].outcome == "lost"
        self.scene.mark = None
        self._after()
        if lost:
            self.open(Alert("Pachisi", game.events[-1].text, icon="info"),
                      lambda _: self._computer_waits())

    def _computer_waits(self) -> None:
        """After a message: the next computer step comes a full step later, not at once."""
        if self.turns.pending("cpu"):
            self.turns.after("cpu", self.speed_ms(), self._computer_step)

    def _make(self, move: Move) -> None:
        game = self.game
        game.move(move)
        self.scene.mark = None
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

    def _not_yours(self, title: str) -> bool:
        """Pass and Hint out of a person's turn say why they do nothing (True then)."""
        if self.human_turn:
            return False
        game = self.game
        text = ("The game is over: Game > Play Again starts another." if game.over
                else f"It is {game.players[game.current].name}'s turn.")
        self.open(Alert(title, text, icon="info"))
        return True

    def pass_turn(self) -> None:
        if self._not_yours("Pass"):
            return
        if not self.game.can_pass:
            self.play("illegal")
            self.open(Alert("Pachisi", "You can pass from your second turn on.", icon="info"))
            return
        self.game.pass_turn()
        self.scene.mark = None
        self._after()

    def why_not(self, piece: int) -> None:
        reason = self.game.why_not(piece)
        if reason:
            self.play("illegal")
            self.open(Alert("Pachisi", reason[0].upper() + reason[1:] + ".", icon="info"))

    def _set_mark(self, move: Move | None) -> None:
        self.scene.mark = move
        self.paint()

    # ------------------------------------------------------------ pen and keys

    def key(self, key: Key) -> None:
        if not self.human_turn:
            return
        game = self.game
        if key is Key.SELECT:
            if game.phase == "throw":
                self.throw()
            elif self.scene.mark is not None:
                self.move(self.scene.mark)
        elif key in (Key.UP, Key.DOWN, Key.LEFT, Key.RIGHT) and game.phase == "move":
            # one stop for the start area: its entering moves (one a waiting
            # piece) share the marker's place, so rules.distinct keeps the first
            legal = distinct(game.legal_moves())
            step = 1 if key in (Key.DOWN, Key.RIGHT) else -1  # the seed: "the cursor keys"
            index = legal.index(self.scene.mark) if self.scene.mark in legal else -step
            self._set_mark(legal[(index + step) % len(legal)])

    def pen_up(self, x: int, y: int) -> None:
        lay, view = self.layout, self.view
        if lay is None or view is None or not self.human_turn:
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
        if game.phase == "throw":
            if lay.die_rect(seat).union(lay.value_rect(seat)).contains(x, y):
                self.throw()
            elif self._piece_at(x, y) is not None:
                self.why_not(self._piece_at(x, y) or 0)
            return
        mark = self.scene.mark
        if mark is not None and (view.mark_rect(game, mark).contains(x, y)
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
        self.game = game
        self.scene = Scene(game)
        self.recorded = False
        self._after()

    def play_again(self) -> None:
        self.start_game(self.game.players)  # the dice of the Preferences

    def _game_over(self) -> None:
        game = self.game
        names = [p.name for p in game.players]
        if not self.recorded:
            for pl, p in enumerate(game.players):
                key = (dialogs.COMPUTER if p.computer else dialogs.HUMAN) + p.name
                self.tallies.add(key, won=pl == game.winner)
            human_won = game.winner is not None and not game.players[game.winner].computer
            self.record_result("games", won=human_won, players=names)
            text = game.message or "The game is over."
            self.open_form(dialogs.win_alert(text), self._again_answer)

    def _again_answer(self, result: FormResult) -> None:
        if result.button != "Yes":
            return
        self.open_form(dialogs.same_players_alert(),
                       lambda r: self.play_again() if r.button == "Yes" else self.new_players())

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
            if count == 1:
                self.open_form(dialogs.computers_alert(), lambda r: self._ask_names(
                    count, 3 if r.button == "Three" else 1, dice, names))
            elif count < 4:
                self.open_form(dialogs.fill_alert(count), lambda r: self._ask_names(
                    count, 4 - count if r.button == "Yes" else 0, dice, names))
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
                    self.open(Alert("Pachisi", f"Please choose another name than {name!r}.",
                                    icon="error"), lambda _: ask(done))
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
        if game.phase == "throw":
            self.open(Alert("Hint", "Throw first: tap the die or press Select.", icon="info"))
            return
        choice = ai.choose(game, ai.STRONGEST)  # the best advice, whatever Silicon's level
        if choice is PASS:
            self.open(Alert("Hint", "Silicon would pass.", icon="info"))
        elif isinstance(choice, Move):
            self._set_mark(choice)

    def statistics(self) -> None:
        self.open(dialogs.statistics_viewer(self.tallies))

    def game_menus(self) -> Sequence[tuple[str, Sequence[Command]]]:
        return (("Game", (
            Command("New Game...", "new",
                    lambda: self.confirm_discard("New Game", self.new_players), "N"),
            Command("Play Again", "again",
                    lambda: self.confirm_discard("Play Again", self.play_again), "A"),
            Command("Pass", "pass", self.pass_turn, "S"),
            Command("Hint", "hint", self.hint, "H"),
            Command("Statistics", "stats", self.statistics, "T"),
        )),)

    def icon(self) -> Image.Image:
        return launcher_icon()

    def about(self) -> Modal:
        return dialogs.about_alert([p.name for p in self.game.players])
