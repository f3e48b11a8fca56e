"""The Game > Network Game... dialogs across the internet (docs/network.md,
"Across the internet"): Join > "Code..." (the code the host reads out, then
sit or watch and a name: no address, no port), and what the waiting room says
of it: the host's code to read out, how each person is connected (LAN, direct
or relayed), this joiner's own path, trouble with the rendezvous in words.
Part of NetDialogs (palmish/boardgame/net_dialogs.py)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from palmish.device.ui.alert import Alert
from palmish.device.ui.name_entry import NameEntry
from palmish.device.ui.question import KeyAlert

if TYPE_CHECKING:
    from palmish.boardgame import BoardGameApp as _Base
    from palmish.boardgame.netplay import NetPlay
    from palmish.device.machine.services import Internet, NetworkService
    from palmish.device.ui.result import FormResult
else:
    _Base = object

TITLE = "Network Game"
CODE = "Code..."  # Join's choice: the host's internet code
INTERNET = "Internet"  # the Host form's button beside Host: joiners by code too
ASKING = "Internet: asking for a code..."


class InternetDialogs(_Base):
    """Joining by code, and the internet's lines of the waiting room."""

    net: NetPlay | None = None
    _net_address = ""
    if TYPE_CHECKING:
        def _network(self) -> NetworkService | None: ...
        def _net_name(self) -> str: ...
        def _remember_name(self, name: str) -> None: ...
        def _lobby_lines(self) -> tuple[str, ...]: ...
        def _after(self) -> None: ...
        def paint(self) -> None: ...

    def _sit_or_watch(self, join: Callable[[str | None], None]) -> None:
        """Sit in a free seat (under a name, the last one prefilled) or watch: `join`
        with the name, or None to watch."""
        def typed_name(name: object) -> None:
            if isinstance(name, str):
                self._remember_name(name)
                join(name)

        def sit_or_watch(result: FormResult) -> None:
            if result.button == "Sit":
                self.open(NameEntry("Your name", self._net_name()), typed_name)
            elif result.button == "Watch":
                join(None)

        # Not a yes/no question: S sits, W watches, N, C and Escape cancel (docs/network.md)
        self.open_form(KeyAlert(TITLE, "Sit in a free seat, or watch the game?",
                                ("Sit", "Watch", "Cancel"), icon="confirm"), sit_or_watch)

    def _joined(self, joining: Callable[[NetworkService], NetPlay], address: str) -> None:
        """At the table `joining` reaches (by address or by code), or why not."""
        service = self._network()
        assert service is not None
        try:
            self.net = joining(service)
        except (OSError, ValueError) as err:
            self.open(Alert(TITLE, f"Cannot join: {err}", icon="error"))
            return
        self._net_address = address
        self.scene.lobby = self._lobby_lines()
        self._after()

    def _type_internet_code(self) -> None:
        """Join > Code...: the code, then sit (and a name) or watch."""
        def typed_code(text: object) -> None:
            if isinstance(text, str) and text.strip():
                code = text.strip().lower()
                self._sit_or_watch(lambda name: self._joined(
                    lambda service: service.join_by_code(code, name), code))

        # a number and words, as the host's waiting room shows it: 7-cobra-lantern
        self.open(NameEntry("Internet code", address=True), typed_code)

    def _internet(self) -> Internet | None:
        service = self._network()
        return service.internet() if service is not None else None

    def net_news(self) -> None:
        """The service learnt something (NetworkNews): the waiting room again."""
        if self.net is not None and self.net.game is None:
            self.scene.lobby = self._lobby_lines()
            self.paint()

    def _internet_lines(self, hosting: bool) -> list[str]:
        """The waiting room's lines about the internet, before the seats."""
        internet = self._internet()
        if internet is None:
            return []
        if hosting:
            if internet.code:
                return [f"Internet code: {internet.code}"]
            return [f"Internet: {internet.trouble}" if internet.trouble else ASKING]
        return [f"Connected: {internet.path}"] if internet.path else []

    def _path_of(self, name: str) -> str:
        """How the person sitting as `name` is connected ("" when not known)."""
        internet = self._internet()
        return dict(internet.paths).get(name, "") if internet is not None else ""
