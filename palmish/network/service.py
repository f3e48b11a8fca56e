"""The network as the window offers it to apps (the device's NetworkService,
palmish.device.machine.services): host and join through one network thread, tokens
in the data folder, the games found on the local network. The game is the
running app's, played through the network engine its descriptor names. Set up
by the command line for the window only (palmish.commands.window)."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from palmish.device.addresses import GAME_PORT, WINDOW_LISTEN, address_text, parse_address
from palmish.device.events import Event
from palmish.network import keep
from palmish.network.bridge import HostLink, JoinLink, LoopThread, window_loop
from palmish.network.discovery import Browser, lan_addresses
from palmish.network.engine import NetworkEngine, Table, engine_for
from palmish.network.fairdice import JoinerDice
from palmish.network.hosting import server_side
from palmish.network.joining import JoinRequest
from palmish.network.leftovers import HostLock, clean_host_temporaries
from palmish.network.protocol import new_code

if TYPE_CHECKING:
    from palmish.device.machine.services import Internet
    from palmish.device.machine.system import Device
    from palmish.network.internet.settings import Settings
    from palmish.network.internet.window import HostByCode, JoinByCode


class WindowNetwork:
    """One per window: the loop thread starts with the first network game."""

    def __init__(self, device: Device, data_dir: Path, table_name: str,
                 listen: str = WINDOW_LISTEN, port: int = GAME_PORT,
                 discovery: bool = True,
                 checked_join: tuple[JoinRequest, JoinerDice] | None = None) -> None:
        self.device = device
        # `palmish join`'s check before the window (joining.first_answer) sat with
        # this dice part: the window's join of that table uses it again
        self._checked_join = checked_join
        self.listen, self.port = listen, port
        self.discovery = discovery  # False: never advertise nor browse (no multicast)
        self.data_dir = data_dir
        self.table_name = table_name
        self._browser: Browser | None = None
        self._link: HostLink | None = None  # the game hosted now
        self._by_code: HostByCode | None = None  # its joiners by code
        self._joined_by_code: JoinByCode | None = None  # the game joined by code now

    @property
    def app(self) -> str:
        """The running app's id: the game hosted or joined."""
        return self.device.running_app.id

    def _engine(self) -> NetworkEngine:
        return engine_for(self.app)

    def _post(self, event: Event) -> None:
        self.device.inbox.put(event)

    def _loop(self) -> LoopThread:
        return window_loop(self.device)

    @property
    def announces(self) -> bool:
        return self.discovery

    def saved_game(self) -> str | None:
        """One line about the network game this device hosted and did not finish."""
        table = self._saved_table()
        if table is None:
            return None
        return f"{len(table.steps)} steps played, code {table.code}"

    def _saved_table(self) -> Table | None:
        try:
            saved = keep.load_host_game(self.data_dir, self.app, _log)
            now = self.device.now_ms / 1000.0  # the table runs on device time
            return None if saved is None else self._engine().restore_table(saved, now)
        except ValueError as err:
            _log(f"{err}; it is not offered again")
            return None

    def host(self, seats: Sequence[str], name: str, advertise: bool, wait_s: float,
             turn_s: float | None, resume: bool = False,
             internet: bool = False) -> tuple[object, str]:
        """The engine's view of hosting (the app's NetPlay) and a line to show;
        `internet`: joiners by code too (docs/network.md, "Across the internet")."""
        settings = self._internet_settings() if internet else None  # ValueError first
        self._forget_internet()
        engine, app = self._engine(), self.app
        table = self._saved_table() if resume else None
        prefer = None  # a resumed game listens where it did, when it can
        if table is not None:
            prefer = keep.kept_port(keep.load_host_game(self.data_dir, app, _log))
        if table is None:
            table = engine.new_table(list(seats), new_code(),
                                     self.table_name, host_name=name, wait_s=wait_s,
                                     turn_s=turn_s)
            keep.forget_host_game(self.data_dir, app)
        side = server_side(table, self.data_dir, _log)
        announce_as = (self.table_name, app) if advertise and self.discovery else None
        try:
            link = HostLink(self._loop(), self._post, self.listen, self.port, _log, side,
                            announce_as, prefer)
        except OSError:  # the port is taken: any free one
            link = HostLink(self._loop(), self._post, self.listen, 0, _log, side, announce_as,
                            prefer)
        port = link.address[1]
        addresses = lan_addresses(self.listen) or ["127.0.0.1"]

        lock = HostLock(self.data_dir, app)  # held while hosting: its leftovers are stale
        if lock.acquire():
            clean_host_temporaries(self.data_dir, app, lock, _log)
        saves = keep.HostSaves(self.data_dir, app, _log)

        by_code = None
        if settings is not None:
            from palmish.network.internet.window import HostByCode
            by_code = HostByCode(self._loop(), self._post, settings, app, table.code,
                                 link.address, _log)
        self._link, self._by_code = link, by_code

        def close() -> None:
            lock.release()
            if by_code is not None:
                by_code.close()
            link.close("the host left the game")

        def save(table: Table) -> None:
            if table.over:
                keep.forget_host_game(self.data_dir, app)
            else:
                trouble = saves.save(table.snapshot(), port)
                if trouble is not None:  # the disk refuses: the game goes on from memory
                    self.device.notify(trouble[0].upper() + trouble[1:] + ".")
                    link.tell_all(trouble)

        seat = engine.host_play(table, link.send, close, save)
        where = address_text(addresses[0], port)
        # one line for whoever started the window from a terminal (and for tests)
        _log(f"hosting on {where} code {table.code}")
        return seat, where

    def join(self, address: str, code: str, name: str | None) -> object:
        """Sit as `name` (with this data folder's seat key for that table), or
        watch (None): the engine's view of the joined game (the app's NetPlay).
        The table is kept (keep.save_joined) until this device leaves it or it
        ends, so a restarted window offers to rejoin it."""
        host, port = parse_address(address)
        engine, app, folder = self._engine(), self.app, self.data_dir
        request = JoinRequest(host, port, code, name, app=app, data_dir=folder)
        dice = self._checked_dice(request) or JoinerDice(contribute=name is not None)
        kept = keep.KeptTable("", address, code, name)

        def keep_table(table: str | None) -> None:
            try:
                if table is None:
                    keep.forget_joined(folder, app)
                else:
                    keep.save_joined(folder, app, kept._replace(table=table), _log)
            except OSError as err:  # a full disk: the game goes on, it is not offered again
                _log(f"cannot keep the table: {err.strerror or err}")

        keep_table("")
        self._forget_internet()
        link = JoinLink(self._loop(), self._post, request, dice, _log, keep_table)
        return engine.join_play(link.send, link.close, dice)

    def _checked_dice(self, request: JoinRequest) -> JoinerDice | None:
        """The dice part the command line's check sat with, once, for the same join:
        when that join filled the last seat the host opened the dice round with
        its commitment, and a new part would not be in it."""
        checked, self._checked_join = self._checked_join, None
        if checked is None:
            return None
        earlier, dice = checked
        same = (earlier.host, earlier.port, earlier.code, earlier.name, earlier.app) == (
            request.host, request.port, request.code, request.name, request.app)
        return dice if same else None

    def join_by_code(self, code: str, name: str | None) -> object:
        """Join (or watch) the game hosted across the internet under `code`: the
        engine's view of the joined game; the meeting goes on behind it, its
        trouble a NetworkClosed as a LAN joiner's. Not kept for a rejoin (the
        code is the host's to give again). ValueError with one line for a bad code
        or bad settings."""
        from palmish.network.internet.settings import CODE
        from palmish.network.internet.window import JoinByCode

        code = code.strip().lower()
        if not CODE.match(code):
            raise ValueError(f"{code!r} is not an internet code (a number and words, "
                             "like 7-cobra-lantern)")
        settings = self._internet_settings()
        self._forget_internet()
        dice = JoinerDice(contribute=name is not None)
        link = JoinByCode(self._loop(), self._post, settings, code, self.app, name, dice,
                          self.data_dir, _log)
        self._joined_by_code = link
        return self._engine().join_play(link.send, link.close, dice)

    def internet(self) -> Internet | None:
        from palmish.network.internet.window import internet_view

        peers = self._link.peers() if self._link is not None and self._by_code else []
        return internet_view(self._by_code, self._joined_by_code, peers)

    def _internet_settings(self) -> Settings:
        from palmish.network.internet.settings import chosen
        return chosen(self.data_dir)

    def _forget_internet(self) -> None:
        """A new game: the last one's internet state is not shown any more."""
        self._link = self._by_code = self._joined_by_code = None

    def kept_table(self) -> tuple[str, str, str, str | None] | None:
        """The table this window joined and did not leave: (table name, HOST:PORT,
        code, name or None to watch), or None."""
        return keep.load_joined(self.data_dir, self.app, _log)

    def forget_table(self) -> None:
        keep.forget_joined(self.data_dir, self.app)

    def found_games(self) -> Sequence[tuple[str, str]]:
        if not self.discovery:
            return []
        if self._browser is None:
            try:
                self._browser = Browser()
            except Exception as err:  # no multicast here: the address is typed
                _log(f"cannot look for games on the network ({type(err).__name__})")
                return []
        return [(g.table, g.address) for g in self._browser.games.games() if g.app == self.app]


def _log(line: str) -> None:
    print(f"palmish network: {line}", file=sys.stderr, flush=True)
