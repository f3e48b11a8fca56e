"""An app's side of a network game (docs/network.md), shared by every network
game: intents instead of moves, the network's lines as events, sounds and the
marker of the other devices, the waiting room, and (through NetDialogs) the
Game > Network Game... dialogs. A mixin of the game's app, so its app only asks
`self.net` at the few places where a local game would change itself; the game
gives a few hooks (`net_sounds`, `net_scene`, `net_mark`, and the turn-taking
methods listed below)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from palmish.boardgame.net_dialogs import LEAVE_HINT, POLL_MS, TITLE, WATCHING, NetDialogs
from palmish.boardgame.netplay import NetGame, NetPlay
from palmish.boardgame.table_dialogs import TableDialogs
from palmish.device.events import Event, NetworkClosed, NetworkLine, NetworkNews
from palmish.device.ui.alert import Alert

if TYPE_CHECKING:
    from collections.abc import Callable, Generator

    from palmish.device.machine.app import AppContext


TABLE_LOG_LINES = 3  # the table's last lines at the end of the log (Tall, Wide)


class NetworkGameMixin(TableDialogs, NetDialogs):
    """Network play for a board game's app (which provides the attributes below).
    Its scene has `lobby` (the waiting room's lines, or None), `notice`, `away`
    (seat -> "away" or "Silicon"), `yours` (this device's turn) and `mark`."""

    net: NetPlay | None = None
    net_sounds: Mapping[str, str] = {}  # a game event's kind -> the sound it plays
    if TYPE_CHECKING:
        game: Any  # the game's own type (it has what NetGame says)
        thinking_for: tuple[Any, int, str] | None

        def _after(self) -> None: ...
        def _waiting(self) -> tuple[Any, int]: ...
        def _think(self, purpose: str, steps: Generator[None, None, Any],
                   then: Callable[[Any], None], at_once: bool = True) -> None: ...
        def paint(self) -> None: ...
        @property
        def human_turn(self) -> bool: ...

    def start(self, ctx: AppContext) -> None:
        super().start(ctx)
        self.offer_rejoin()  # the window kept a table it did not leave

    def net_scene(self, game: NetGame) -> None:
        """Hook: play this network game from now on (a new scene of it)."""
        raise NotImplementedError

    def net_mark(self, game: NetGame, piece: int) -> object:
        """Hook: the scene's mark for the piece another device's person points at."""
        return None

    # ------------------------------------------------------------ playing

    def handle(self, event: Event) -> None:
        if isinstance(event, NetworkNews):
            self.net_news()
        elif isinstance(event, NetworkLine | NetworkClosed):
            self.network_event(event)
        else:
            super().handle(event)

    def _now_s(self) -> float:
        return self.ctx.now_ms / 1000.0 if self.ctx is not None else 0.0

    def runs_behind_dialogs(self) -> bool:
        # Menus and dialogs here never pause the others: the host's Silicon seats,
        # turn timer and this board go on under them.
        return self.net is not None

    def net_ask(self, kind: str, piece: int | None = None) -> None:
        """This device's person acts: the intent goes to the host (or, on the
        host, to its table); what happened comes back as steps."""
        net = self.net
        assert net is not None
        before = len(self.game.events)
        problem = net.ask(kind, piece)
        if problem is not None:
            self.play("illegal")
            self.open(Alert(self.name, problem[0].upper() + problem[1:] + ".", icon="info"))
            return
        self._net_sync(before)

    def network_event(self, event: NetworkLine | NetworkClosed) -> None:
        net = self.net
        if net is None:
            return  # a line for a network game this device has left
        before = len(self.game.events)
        if net.game is not self.game:
            before = 0
        trouble = net.status()
        net.receive(event, self._now_s())
        gone = net.ended()
        if gone is not None:  # removed from the table: back to this handheld's game
            self.back_to_local(gone[0].upper() + gone[1:] + ".")
            return
        status = net.status()
        if net.game is None:
            if self.scene.lobby is None:  # a rematch: its waiting room, then its game
                self._net_lobby()
            self.scene.lobby = self._lobby_lines()
            self.paint()
            return
        if status is not None and status != trouble:  # Square has no log: say it once
            self.scene.notice = status
        elif status is None and trouble is not None and self.scene.notice == trouble:
            self.scene.notice = None  # the trouble is over (the host is back)
        self._net_sync(before)
        self.ask_rematch()

    def net_computer_step(self) -> None:
        """The app's computer timer in a network game: the host plays Silicon's
        seats (its computer seats and away people past the wait)."""
        net = self.net
        assert net is not None
        before = len(self.game.events)
        on_its_way = self.thinking_for == (*self._waiting(), "net")
        if not net.computer_due(self._now_s()) or on_its_way:  # not Silicon's, or thinking
            self.turns.after("cpu", POLL_MS, self._computer_step_again)
        else:
            thinking = net.computer_thinking()
            if thinking is None:  # a throw
                net.play_computer(self._now_s())
                self._net_sync(before)
            else:  # its move, worked out between frames
                self._think("net", thinking, self._net_computer_move)

    def _net_computer_move(self, choice: Any) -> None:
        net = self.net
        if net is None or not net.computer_due(self._now_s()):  # the seat's person is back
            self.turns.after("cpu", POLL_MS, self._computer_step_again)
            return
        before = len(self.game.events)
        net.play_computer(self._now_s(), choice)
        self._net_sync(before)

    def _computer_step_again(self) -> None:
        if self.net is not None:
            self.net_computer_step()

    def _net_sync(self, before: int) -> None:
        """Show the network game as it now is: sounds of what happened, the
        other devices' marker, the board, the log."""
        net = self.net
        assert net is not None
        game = net.game
        if game is None:
            return
        if game is not self.game:
            self.close_table_questions()  # about the last game (or the waiting room)
            self.net_scene(game)
            self.recorded = False  # a game of its own (a rematch too): counted at its end
            before = len(game.events)
        for event in game.events[before:]:
            if event.kind in self.net_sounds:
                self.play(self.net_sounds[event.kind])
        self.scene.mark = None
        self.scene.lobby = None
        self.scene.away = self._away()
        self.scene.yours = self.human_turn
        self._after()
        marker = net.marker  # another device's person points at a piece
        if marker is not None and marker[0] == game.current and not self.human_turn:
            self.scene.mark = self.net_mark(game, marker[1])
            self.paint()
        if game.over and net.code is not None and not self.turns.pending("table"):
            self.turns.after("table", POLL_MS, self._table_poll)  # the rematch's clock

    def _table_poll(self) -> None:
        """The host at Game Over: a rematch proposal's time runs out, its game begins."""
        net = self.net
        if net is None:
            return
        net.computer_due(self._now_s())  # the table's clock (no Silicon at Game Over)
        if net.game is None:
            self._net_lobby()
        elif net.game is not self.game:
            self._net_sync(0)
        else:
            self.ask_rematch()
            self.turns.after("table", POLL_MS, self._table_poll)

    def _away(self) -> dict[int, str]:
        """The seats whose person dropped: "away", or "Silicon" once it plays them."""
        net = self.net
        if net is None:
            return {}
        states = {": away": "away", ": silicon": "Silicon"}
        away = {i: states[line[line.rindex(":"):]]
                for i, line in enumerate(net.seat_lines(self._now_s()))
                if line.endswith(tuple(states))}
        said = {i: text for i, text in net.said().items() if not net.mine(i)}
        return {**away, **said}  # another's table message in its corner until the next step

    def network_lines(self) -> list[str]:
        """Lines after the game's log: across the internet the code (on the host)
        or the path (on a joiner), who is away, trouble with the link."""
        net = self.net
        if net is None or net.game is None:
            return []
        status = net.status()
        away = [line for line in net.seat_lines(self._now_s()) if line.endswith(
            (": away", ": silicon"))]
        lines = [*net.table_lines()[-TABLE_LOG_LINES:]]
        lines += [line.replace(": away", " is away").replace(": silicon", ": Silicon plays")
                  for line in away]
        internet = self._internet()
        if internet is not None and (internet.code or internet.path):
            lines.insert(0, f"Internet code: {internet.code}" if internet.code
                         else f"Connected: {internet.path}")
        if not any(net.mine(i) for i in range(len(net.game.players))):
            lines.append(WATCHING)
        return [*lines, status] if status else lines

    def back_to_local(self, why: str | None) -> None:
        """This device left the table (or was removed, `why`): its own game again,
        as it was saved before the network game."""
        self.leave_network()
        self.close_table_questions()
        self.turns.cancel("table")
        self._rematch_asked = None
        ctx = self.ctx
        if ctx is not None and not self._resume(ctx):
            self.recorded = False
            self.new_game()
        self.scene.lobby = None
        self._after()
        if why is not None:
            self.open(Alert(TITLE, f"{why} Back to this handheld's own game.", icon="info"))

    def leave_network(self) -> None:
        if self.net is not None:
            self.net.close()
            self.net = None
            self._net_address = ""
            if self.scene.lobby is not None:  # back to this device's own game
                self.scene.lobby = None
                self.paint()

    def _net_lobby(self) -> None:
        """The waiting room instead of the board until the game starts."""
        net = self.net
        if net is not None and net.game is None:
            self.close_table_questions()  # a rematch's waiting room: the last game's
            self.scene.lobby = self._lobby_lines()
            self._after()
            self.turns.after("cpu", POLL_MS, self._computer_step_again)

    def _lobby_lines(self) -> tuple[str, ...]:
        """The waiting room: the game's name, where it is and its code, each seat
        (whose is this device's), then what happens next or what went wrong."""
        net = self.net
        assert net is not None
        seats = net.seat_lines(self._now_s())
        if not net.table_name:  # no welcome yet
            trouble = net.status()
            if trouble is None:
                return TITLE, f"Joining {self._net_address}...", "Waiting for the host."
            return TITLE, f"Joining {self._net_address}...", trouble, LEAVE_HINT
        lines = [net.table_name]
        internet = self._internet_lines(net.code is not None)
        if net.code is not None and internet:  # the code to read out first
            lines += [*internet, f"LAN: {self._net_address} code {net.code}"]
        elif net.code is not None:
            lines += [f"At {self._net_address}", f"Join code: {net.code}"]
        else:
            lines += internet
        notes = {"away": " (away)", "silicon": " (Silicon plays)"}
        for i, line in enumerate(seats):
            name, _, state = line.rpartition(": ")
            path = self._path_of(name) if internet and not net.mine(i) else ""
            if state == "open":
                lines.append(f"{i + 1} open seat")
            else:
                lines.append(f"{i + 1} {name}" + (" (you)" if net.mine(i) else
                                                   notes.get(state, f" ({path})" if path
                                                             else "")))
        if seats and not any(net.mine(i) for i in range(len(seats))):
            lines.append(WATCHING)
        lines += net.table_lines()[-1:]  # the table's last line (a leaver, a message)
        lines.append(net.status() or (
            "Starts when every seat is taken, or now from Game > Network Game..."
            if net.code is not None else "Waiting for the host to start."))
        return tuple(lines)

