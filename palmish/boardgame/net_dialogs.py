"""The Game > Network Game... dialogs every network game shares (docs/network.md):
Host (its seats, the away wait, the turn timer, whether it is announced), Join
(a game found nearby, an address typed, or an internet code: net_internet.py),
sit or watch, and leaving. Part of
NetworkGameMixin (palmish/boardgame/network_game.py), which gives the methods
listed below."""

from __future__ import annotations

from typing import TYPE_CHECKING

from palmish.boardgame.net_internet import CODE, INTERNET, InternetDialogs
from palmish.device.addresses import GAME_PORT, address_text, is_port, parse_typed_host
from palmish.device.ui.alert import Alert
from palmish.device.ui.form import CheckBox, Form, PopupList, PushButtons
from palmish.device.ui.name_entry import NameEntry
from palmish.device.ui.number_entry import NumberEntry
from palmish.device.ui.question import KeyAlert

if TYPE_CHECKING:
    from collections.abc import Callable

    from palmish.boardgame.netplay import NetPlay
    from palmish.device.machine.services import NetworkService
    from palmish.device.ui.modal import Modal
    from palmish.device.ui.result import FormResult

POLL_MS = 250  # the host checks away seats and Silicon's turn this often
SEAT_CHOICES = ("You", "Open", "Silicon", "None")
WAITS = {"15 s": 15.0, "60 s": 60.0, "5 min": 300.0}  # before Silicon plays an away seat
TIMERS = {"Off": None, "30 s": 30.0, "2 min": 120.0}  # the turn timer
OTHER = "Other..."
NOT_ANNOUNCED = "Off: no discovery"  # announcing, under --no-discovery (fits 160 wide)
TITLE = "Network Game"
HOST = "Host"  # the Host form's buttons: this network, or the internet too
LEAVE_HINT = "Game > Network Game... leaves."
WATCHING = "You are watching."  # a spectator's device (or a host with no seat of its own)


class NetDialogs(InternetDialogs):
    """The dialogs of NetworkGameMixin."""

    net: NetPlay | None = None
    _net_address = ""  # where this device hosts, or the host it joins
    if TYPE_CHECKING:
        def _now_s(self) -> float: ...
        def _net_sync(self, before: int) -> None: ...
        def _net_lobby(self) -> None: ...
        def _lobby_lines(self) -> tuple[str, ...]: ...
        def _after(self) -> None: ...
        def _last_name(self) -> str: ...
        def leave_network(self) -> None: ...
        def leave_table_now(self) -> None: ...
        def ask_at_table(self, modal: Modal,
                         on_result: Callable[[FormResult], None]) -> None: ...

    # ------------------------------------------------------------ dialogs

    def offer_rejoin(self) -> None:
        """On start: the table this device joined and did not leave (a crash, the
        window closed mid-game), one tap away: "Rejoin Kitchen's game?". No
        forgets it (Join still finds it)."""
        service = self._network()
        kept = service.kept_table() if service is not None else None
        if service is None or kept is None or self.net is not None:
            return
        table, address, code, name = kept
        whose = f"{table}'s game" if table else f"the game at {address}"
        question = f"Rejoin {whose}?" if name is not None else f"Watch {whose} again?"

        def answered(result: FormResult) -> None:
            if result.button == "Rejoin":
                self._join(address, code, name)
            else:
                service.forget_table()

        self.open_form(KeyAlert(TITLE, question, ("Rejoin", "No"), icon="confirm"), answered)

    def _net_name(self) -> str:
        """The name last used at a network table (else the last local one)."""
        name = self.prefs.get("net_name")
        return name if isinstance(name, str) and name else self._last_name()

    def _remember_name(self, name: str) -> None:
        self.prefs["net_name"] = name  # prefilled at the next table
        self.save_prefs()

    def network_game(self) -> None:
        """Game > Network Game...: Host or Join."""
        if self._network() is None:
            self.open(Alert(TITLE, "Network games need the window (palmish, or palmish "
                            "host and palmish join from a terminal).", icon="info"))
            return
        net = self.net
        if net is not None and net.game is None and self._hosting():
            self.ask_at_table(KeyAlert(TITLE, "Start now, with Silicon in the open seats?",
                                       ("Start", "Leave", "Wait"), icon="confirm",
                                       escape=("Wait",), yes="Start"), self._lobby_answer)
            return
        if net is not None:
            self.open_form(KeyAlert(TITLE, "Leave the network game?", ("Leave", "Stay"),
                                    icon="confirm", escape=("Stay",)),
                           lambda r: self.leave_table_now() if r.button == "Leave" else None)
            return
        self.open_form(KeyAlert(TITLE, f"Play {self.name} with other handhelds: host a game "
                                "here, or join one.", ("Host", "Join", "Cancel"),
                                icon="confirm"),
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
            # Y hosts it again, N hosts a new one instead, Escape neither
            self.open_form(KeyAlert(TITLE, f"Host the network game you left again? ({saved})",
                                    ("Resume", "New", "Cancel"), icon="confirm",
                                    escape=("Cancel",), yes="Resume", no="New"),
                           self._resume_or_new)
        elif result.button == "Host":
            self._host_new()
        elif result.button == "Join":
            self._choose_game()

    def _resume_or_new(self, result: FormResult) -> None:
        if result.button == "Resume":
            self._host([], "", self.prefs.get("advertise") is not False, 60.0, None,
                       resume=True, internet=self.prefs.get("internet") is True)
        elif result.button == "New":
            self._host_new()

    def _host_new(self) -> None:
        wait = self.prefs.get("away_wait")
        service = self._network()
        announces = service is not None and service.announces
        self.open_form(host_form(self.prefs.get("advertise") is not False,
                                 wait if isinstance(wait, str) else "60 s", announces),
                       self._hosted)

    def _hosted(self, result: FormResult) -> None:
        if result.button not in (HOST, INTERNET):
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
        service = self._network()
        if service is not None and service.announces:  # greyed: the choice stays kept
            self.prefs["advertise"] = advertise  # preferences: a player expects to be found
        self.prefs["away_wait"] = wait
        internet = result.button == INTERNET
        self.prefs["internet"] = internet  # a game hosted again is hosted alike
        self.save_prefs()

        timer = TIMERS[result.choice("timer", tuple(TIMERS), "Off")]

        def named(name: object) -> None:
            if isinstance(name, str):
                self._remember_name(name)
                self._host(seats, name, advertise, WAITS[wait], timer, internet=internet)

        self.open(NameEntry("Your name", self._net_name()), named)

    def _host(self, seats: list[str], name: str, advertise: bool, wait_s: float,
              turn_s: float | None, resume: bool = False, internet: bool = False) -> None:
        service = self._network()
        assert service is not None
        try:
            play, address = (service.host(seats, name, advertise, wait_s, turn_s, resume,
                                          internet=True) if internet else
                             service.host(seats, name, advertise, wait_s, turn_s, resume))
        except (OSError, ValueError) as err:
            self.open(Alert(TITLE, f"Cannot host: {err}", icon="error"))
            return
        self.net, self._net_address = play, address
        if play.game is not None:  # a saved game hosted again: everyone else is away
            self._net_sync(0)
        self._net_lobby()
        # opened last: painting the waiting room now would draw over it
        if internet:
            self.open(Alert(TITLE, f"Hosting \"{play.table_name}\" over the internet: the "
                            "code to read out to your friends shows in the waiting room. On "
                            f"this network: {address}, join code {play.code}.", icon="info"))
            return
        self.open(Alert(TITLE, f"Hosting \"{play.table_name}\" at {address}, join code "
                        f"{play.code}. The game starts when every open seat is taken "
                        f"(Game > Network Game... starts it now, with Silicon in the open "
                        f"seats).", icon="info"))

    def _choose_game(self) -> None:
        service = self._network()
        assert service is not None
        found = list(service.found_games())
        labels = (*(f"{name} ({address})" for name, address in found[:6]), OTHER, CODE)
        form = Form("Join", (PushButtons("game", "Game", labels, 0),), buttons=("OK", "Cancel"))

        def chosen(result: FormResult) -> None:
            if result.button != "OK":
                return
            label = result.choice("game", labels, OTHER)
            if label == OTHER:
                self._type_address()
            elif label == CODE:
                self._type_internet_code()
            else:
                self._ask_code(found[labels.index(label)][1])

        self.open_form(form, chosen)

    def _type_address(self) -> None:
        def typed_host(text: object) -> None:
            if not isinstance(text, str):
                return
            try:
                host, port = parse_typed_host(text)
            except ValueError as err:  # refused at once, with what was typed
                self.open(Alert(TITLE, f"Cannot join: {err}.", icon="error"))
                return
            if port is not None:
                self._ask_code(address_text(host, port))
                return

            def typed_port(port: object) -> None:
                if is_port(port):
                    self._ask_code(address_text(host, port))

            self.open(NumberEntry("Port", GAME_PORT), typed_port)

        # HOST:PORT, [IPV6]:PORT, or a host alone (its port next): dots and colons typed
        self.open(NameEntry("Host address", address=True), typed_host)

    def _ask_code(self, address: str) -> None:
        def typed_code(code: object) -> None:
            if isinstance(code, int) and 0 <= code <= 9999:
                self._sit_or_watch(lambda name: self._join(address, f"{code:04d}", name))

        self.open(NumberEntry("Join code"), typed_code)

    def _join(self, address: str, code: str, name: str | None) -> None:
        """Join at the address with the code, as `name`, or watch (None)."""
        self._joined(lambda service: service.join(address, code, name), address)


def host_form(advertise: bool = True, wait: str = "60 s", announces: bool = True) -> Form:
    """Each seat: You (a person here), Open (for a joiner), Silicon or None; how
    long an away seat waits for its person before Silicon plays it; whether
    the game is announced on the local network (off and greyed, saying why, when
    the window runs with --no-discovery). Host hosts for this network; Internet
    beside it for friends anywhere too, by a code (docs/network.md, "Across the
    internet"): a button rather than a row, as no row is left free. The seats
    are pop-up lists: four choices side by side do not fit beside "Seat 1:" on a
    160-pixel screen, and the form must fit without scrolling (docs/network.md)."""
    seats = tuple(PopupList(f"seat{i}", f"Seat {i + 1}", SEAT_CHOICES, (0, 1, 1, 3)[i])
                  for i in range(4))
    waits = tuple(WAITS)
    announce = (CheckBox("advertise", "Announce game", advertise) if announces  # 160 wide
                else CheckBox("advertise", NOT_ANNOUNCED, False, greyed=True))
    return Form("Host", (
        *seats, PushButtons("wait", "Away", waits, waits.index(wait) if wait in waits else 1),
        PushButtons("timer", "Timer", tuple(TIMERS), 0), announce,
    ), buttons=(HOST, INTERNET, "Cancel"))
