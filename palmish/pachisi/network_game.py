"""The app's side of a network game (docs/network.md): intents instead of moves,
the network's lines as events, sounds and the marker of the other devices,
and the Game > Network Game... dialogs. A mixin of PachisiApp, so app.py only
asks `self.net` at the few places where a local game would change itself."""

from __future__ import annotations

from typing import TYPE_CHECKING

from palmish.device.addresses import GAME_PORT, address_text, is_port
from palmish.device.events import Event, NetworkClosed, NetworkLine
from palmish.device.ui.alert import Alert
from palmish.device.ui.form import CheckBox, Form, PopupList, PushButtons
from palmish.device.ui.name_entry import NameEntry
from palmish.device.ui.number_entry import NumberEntry
from palmish.pachisi.netplay import NetPlay

if TYPE_CHECKING:
    from collections.abc import Callable, Generator

    from palmish.device.machine.services import NetworkService
    from palmish.device.ui.result import FormResult
    from palmish.pachisi.ai import Choice
    from palmish.pachisi.game import Game
    from palmish.pachisi.view import Scene

SOUNDS = {"throw": "throw", "enter": "enter", "move": "move", "capture": "capture",
          "finish": "finish", "win": "win"}
POLL_MS = 250  # the host checks away seats and Silicon's turn this often
SEAT_CHOICES = ("You", "Open", "Silicon", "None")
WAITS = {"15 s": 15.0, "60 s": 60.0, "5 min": 300.0}  # before Silicon plays an away seat
TIMERS = {"Off": None, "30 s": 30.0, "2 min": 120.0}  # the turn timer
OTHER = "Other..."
TITLE = "Network Game"
LEAVE_HINT = "Game > Network Game... leaves."
WATCHING = "You are watching."  # a spectator's device (or a host with no seat of its own)


if TYPE_CHECKING:
    from palmish.boardgame import BoardGameApp as _Base
else:
    _Base = object


class NetworkGameMixin(_Base):
    """Network play for PachisiApp (which provides the attributes below)."""

    net: NetPlay | None = None
    _net_address = ""  # where this device hosts, or the host it joins
    if TYPE_CHECKING:
        game: Game
        scene: Scene

        thinking_for: tuple[Game, int, str] | None

        def _after(self) -> None: ...
        def _waiting(self) -> tuple[Game, int]: ...
        def _think(self, purpose: str, steps: Generator[None, None, Choice],
                   then: Callable[[Choice], None], at_once: bool = True) -> None: ...
        def paint(self) -> None: ...
        @property
        def human_turn(self) -> bool: ...
        def _last_name(self) -> str: ...

    # ------------------------------------------------------------ playing

    def handle(self, event: Event) -> None:
        if isinstance(event, NetworkLine | NetworkClosed):
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
            self.open(Alert("Pachisi", problem[0].upper() + problem[1:] + ".", icon="info"))
            return
        self._net_sync(before)

    def network_event(self, event: NetworkLine | NetworkClosed) -> None:
        net = self.net
        if net is None:
            return  # a line for a network game this device has left
        before = len(self.game.events) if net.game is self.game else 0
        trouble = net.status()
        net.receive(event, self._now_s())
        status = net.status()
        if net.game is None:
            self.scene.lobby = self._lobby_lines()
            self.paint()
            return
        if status is not None and status != trouble:  # Square has no log: say it once
            self.scene.notice = status
        elif status is None and trouble is not None and self.scene.notice == trouble:
            self.scene.notice = None  # the trouble is over (the host is back)
        self._net_sync(before)

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

    def _net_computer_move(self, choice: Choice) -> None:
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
            from palmish.pachisi.view import Scene

            self.game, self.scene = game, Scene(game)
            before = len(game.events)
        for event in game.events[before:]:
            if event.kind in SOUNDS:
                self.play(SOUNDS[event.kind])
        self.scene.mark = None
        self.scene.lobby = None
        self.scene.away = self._away()
        self.scene.yours = self.human_turn
        self._after()
        marker = net.marker  # another device's person points at a piece
        if marker is not None and marker[0] == game.current and not self.human_turn:
            self.scene.mark = game.move_for(marker[1])
            self.paint()

    def _away(self) -> dict[int, str]:
        """The seats whose person dropped: "away", or "Silicon" once it plays them."""
        net = self.net
        if net is None:
            return {}
        states = {": away": "away", ": silicon": "Silicon"}
        return {i: states[line[line.rindex(":"):]]
                for i, line in enumerate(net.seat_lines(self._now_s()))
                if line.endswith(tuple(states))}

    def network_lines(self) -> list[str]:
        """Lines after the game's log: who is away, trouble with the link."""
        net = self.net
        if net is None or net.game is None:
            return []
        status = net.status()
        away = [line for line in net.seat_lines(self._now_s()) if line.endswith(
            (": away", ": silicon"))]
        lines = [line.replace(": away", " is away").replace(": silicon", ": Silicon plays")
                 for line in away]
        if not any(net.mine(i) for i in range(len(net.game.players))):
            lines.append(WATCHING)
        return [*lines, status] if status else lines

    def leave_network(self) -> None:
        if self.net is not None:
            self.net.close()
            self.net = None
            self._net_address = ""
            if self.scene.lobby is not None:  # back to this device's own game
                self.scene.lobby = None
                self.paint()

    # ------------------------------------------------------------ dialogs

    def network_game(self) -> None:
        """Game > Network Game...: Host or Join."""
        if self._network() is None:
            self.open(Alert(TITLE, "Network games need the window (palmish, or palmish "
                            "host and palmish join from a terminal).", icon="info"))
            return
        net = self.net
        if net is not None and net.game is None and self._hosting():
            self.open_form(Alert(TITLE, "Start now, with Silicon in the open seats?",
                                 ("Start", "Leave", "Wait"), icon="confirm"), self._lobby_answer)
            return
        if net is not None:
            self.open_form(Alert(TITLE, "Leave the network game?", ("Leave", "Stay"),
                                 icon="confirm"),
                           lambda r: self.leave_network() if r.button == "Leave" else None)
            return
        self.open_form(Alert(TITLE, "Play Pachisi with other handhelds: host a game here, "
                             "or join one.", ("Host", "Join", "Cancel"), icon="confirm"),
                       self._host_or_join)

    def _network(self) -> NetworkService | None:
        """The window's network game service (None in tests, screenshots, scripts)."""
        return self.ctx.network() if self.ctx is not None else None

    def _hosting(self) -> bool:
        """This device hosts the network game (a seat of its own person)."""
        net = self.net
        return net is not None and any(
            net.mine(i) for i in range(len(net.seat_lines(self._now_s()))))

    def _lobby_answer(self, result: FormResult) -> None:
        if result.button == "Start" and self.net is not None:
            self.net.start()
            self._net_sync(0)
        elif result.button == "Leave":
            self.leave_network()

    def join_network(self, address: str, code: str, name: str | None) -> None:
        """Join at once (palmish join without --auto opens the window on this)."""
        self._join(address, code, name)

    def _host_or_join(self, result: FormResult) -> None:
        service = self._network()
        saved = service.saved_game() if service is not None else None
        if result.button == "Host" and saved is not None:
            self.open_form(Alert(TITLE, f"Host the network game you left again? ({saved})",
                                 ("Resume", "New", "Cancel"), icon="confirm"),
                           self._resume_or_new)
        elif result.button == "Host":
            self._host_new()
        elif result.button == "Join":
            self._choose_game()

    def _resume_or_new(self, result: FormResult) -> None:
        if result.button == "Resume":
            self._host([], "", self.prefs.get("advertise") is not False, 60.0, None,
                       resume=True)
        elif result.button == "New":
            self._host_new()

    def _host_new(self) -> None:
        wait = self.prefs.get("away_wait")
        self.open_form(host_form(self.prefs.get("advertise") is not False,
                                 wait if isinstance(wait, str) else "60 s"), self._hosted)

    def _hosted(self, result: FormResult) -> None:
        if result.button != "Host":
            return
        kinds = {"You": "host", "Open": "remote", "Silicon": "computer"}
        seats = [kinds[c] for c in (result.choice(f"seat{i}", SEAT_CHOICES, "None")
                                    for i in range(4)) if c in kinds]
        if not 2 <= len(seats) <= 4 or "remote" not in seats:
            self.open(Alert(TITLE, "A network game needs 2 to 4 seats, one of them open.",
                            icon="error"))
            return
        advertise = bool(result.values.get("advertise", True))
        wait = result.choice("wait", tuple(WAITS), "60 s")
        self.prefs["advertise"] = advertise  # preferences: a player expects to be found
        self.prefs["away_wait"] = wait
        self.save_prefs()

        timer = TIMERS[result.choice("timer", tuple(TIMERS), "Off")]

        def named(name: object) -> None:
            if isinstance(name, str):
                self._host(seats, name, advertise, WAITS[wait], timer)

        self.open(NameEntry("Your name", self._last_name()), named)

    def _host(self, seats: list[str], name: str, advertise: bool, wait_s: float,
              turn_s: float | None, resume: bool = False) -> None:
        service = self._network()
        assert service is not None
        try:
            play, address = service.host(seats, name, advertise, wait_s, turn_s, resume)
        except (OSError, ValueError) as err:
            self.open(Alert(TITLE, f"Cannot host: {err}", icon="error"))
            return
        self.net, self._net_address = play, address
        if play.game is not None:  # a saved game hosted again: everyone else is away
            self._net_sync(0)
        self._net_lobby()
        # opened last: painting the waiting room now would draw over it
        self.open(Alert(TITLE, f"Hosting \"{play.table_name}\" at {address}, join code "
                        f"{play.code}. The game starts when every open seat is taken "
                        f"(Game > Network Game... starts it now, with Silicon in the open "
                        f"seats).", icon="info"))

    def _net_lobby(self) -> None:
        """The waiting room instead of the board until the game starts."""
        net = self.net
        if net is not None and net.game is None:
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
        if net.code is not None:
            lines += [f"At {self._net_address}", f"Join code: {net.code}"]
        notes = {"away": " (away)", "silicon": " (Silicon plays)"}
        for i, line in enumerate(seats):
            name, _, state = line.rpartition(": ")
            if state == "open":
                lines.append(f"{i + 1} open seat")
            else:
                lines.append(f"{i + 1} {name}" + (" (you)" if net.mine(i) else
                                                   notes.get(state, "")))
        if seats and not any(net.mine(i) for i in range(len(seats))):
            lines.append(WATCHING)
        lines.append(net.status() or (
            "Starts when every seat is taken, or now from Game > Network Game..."
            if net.code is not None else "Waiting for the host to start."))
        return tuple(lines)

    def _choose_game(self) -> None:
        service = self._network()
        assert service is not None
        found = list(service.found_games())
        labels = (*(f"{name} ({address})" for name, address in found[:6]), OTHER)
        form = Form("Join", (PushButtons("game", "Game", labels, 0),), buttons=("OK", "Cancel"))

        def chosen(result: FormResult) -> None:
            if result.button != "OK":
                return
            label = result.choice("game", labels, OTHER)
            if label == OTHER:
                self._type_address()
            else:
                self._ask_code(found[labels.index(label)][1])

        self.open_form(form, chosen)

    def _type_address(self) -> None:
        def typed_host(host: object) -> None:
            if not isinstance(host, str):
                return

            def typed_port(port: object) -> None:
                if is_port(port):
                    self._ask_code(address_text(host, port))

            self.open(NumberEntry("Port", GAME_PORT), typed_port)

        # a name, or an address such as 192.168.100.200 or fe80::1 (dots and colons typed)
        self.open(NameEntry("Host address", address=True), typed_host)

    def _ask_code(self, address: str) -> None:
        def typed_code(code: object) -> None:
            if not isinstance(code, int) or not 0 <= code <= 9999:
                return

            def typed_name(name: object) -> None:
                if isinstance(name, str):
                    self._join(address, f"{code:04d}", name)

            def sit_or_watch(result: FormResult) -> None:
                if result.button == "Sit":
                    self.open(NameEntry("Your name", self._last_name()), typed_name)
                elif result.button == "Watch":
                    self._join(address, f"{code:04d}", None)

            self.open_form(Alert(TITLE, "Sit in a free seat, or watch the game?",
                                 ("Sit", "Watch", "Cancel"), icon="confirm"), sit_or_watch)

        self.open(NumberEntry("Join code"), typed_code)

    def _join(self, address: str, code: str, name: str | None) -> None:
        """Join at the address with the code, as `name`, or watch (None)."""
        service = self._network()
        assert service is not None
        try:
            self.net = service.join(address, code, name)
        except (OSError, ValueError) as err:
            self.open(Alert(TITLE, f"Cannot join: {err}", icon="error"))
            return
        self._net_address = address
        self.scene.lobby = self._lobby_lines()
        self._after()


def host_form(advertise: bool = True, wait: str = "60 s") -> Form:
    """Each seat: You (a person here), Open (for a joiner), Silicon or None; how
    long an away seat waits for its person before Silicon plays it; and whether
    the game is announced on the local network. The seats are pop-up lists: four
    choices side by side do not fit beside "Seat 1:" on a 160-pixel screen, and
    the form must fit without scrolling (docs/network.md)."""
    seats = tuple(PopupList(f"seat{i}", f"Seat {i + 1}", SEAT_CHOICES, (0, 1, 1, 3)[i])
                  for i in range(4))
    waits = tuple(WAITS)
    return Form("Host", (
        *seats, PushButtons("wait", "Away", waits, waits.index(wait) if wait in waits else 1),
        PushButtons("timer", "Timer", tuple(TIMERS), 0),
        CheckBox("advertise", "Announce game", advertise),  # fits 160 wide
    ), buttons=("Host", "Cancel"))
