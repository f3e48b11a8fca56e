"""Beam in the window (docs/network.md, "Beam"; the API: the interface notes
in docs/network.md "Beam in the window"). The network runs on the window's
network thread (bridge.LoopThread); what it learns enters the device as
events in `device.inbox` (BeamOffered, BeamProgress, BeamDone), as network
games' lines do. The person's answer comes back through `answer`, called on
the device's thread, which installs or opens there and then tells the sender.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import itertools
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from palmish.apps import real_app
from palmish.device.addresses import BEAM_PORT, WINDOW_LISTEN, address_text, parse_address
from palmish.device.events import BeamDone, BeamOffered, BeamProgress, Event
from palmish.device.exchange import BeamItem
from palmish.network.beam import items, wire
from palmish.network.beam.pairing import paired_receivers, paired_senders
from palmish.network.beam.receiver import (
    ACCEPTED,
    DECLINED,
    FAILED,
    Arrival,
    Desk,
    Ended,
)
from palmish.network.beam.recent import recent_receivers, remember_receiver
from palmish.network.beam.sender import Outcome, send_item
from palmish.network.bridge import LoopThread, window_loop
from palmish.network.discovery import Advertisement, Browser, lan_addresses
from palmish.network.leftovers import clean_beam_folders, clean_kept_temporaries
from palmish.network.protocol import new_code
from palmish.network.session.identity import Identity, load_identity
from prc_tools.text import printable

if TYPE_CHECKING:
    from palmish.device.machine.system import Device
    from palmish.network.internet.window import ReceiveByCode

STOP_WAIT_S = 2.0  # closing the listener takes a loop turn; a stuck loop must not hang the window


class WindowBeam:
    """One per window. Receiving is on between `start_receiving` and
    `stop_receiving` (the launcher's Beam Receive preference); sending needs
    nothing started. The window's network thread (bridge.window_loop, shared with
    its network games) is taken at the first use."""

    def __init__(self, device: Device, data_dir: Path, name: str) -> None:
        self.device, self.data_dir, self.name = device, data_dir, name
        self._thread: LoopThread | None = None
        self._desk: Desk | None = None
        self._identity: Identity | None = None
        self._arrivals: dict[int, Arrival] = {}
        self._sends = itertools.count(1)
        self._sending: dict[int, concurrent.futures.Future[Outcome]] = {}
        self._browser: Browser | None = None
        self._advert: Advertisement | None = None
        self._by_code: ReceiveByCode | None = None  # receiving by an internet code too
        self.internet_code = ""

    # ------------------------------------------------------------------ receiving

    def start_receiving(self, listen: str = WINDOW_LISTEN, port: int = BEAM_PORT,
                        advertise: bool = False) -> tuple[str, int, str]:
        """Listen for beams: (the address listened on, its port, the code to show);
        `advertise`: announce the receiver on the local network (DNS-SD). OSError
        when no port can be had; ValueError (one line) for damaged pairings."""
        if self._desk is not None:
            host, bound = self._address
            return host, bound, self._desk.code
        clean_beam_folders(log)  # what an install killed before left in the temporary folder
        clean_kept_temporaries(self.data_dir, log)
        thread = self._loop()
        desk = Desk(self.name, new_code(), self.identity(), paired_senders(self.data_dir, log),
                    self._offered, self._received, self._receiving_progress, log)
        try:
            self._address: tuple[str, int] = thread.run(desk.start(listen, port))
        except OSError:
            self._address = thread.run(desk.start(listen, 0))  # the port is taken
        self._desk = desk
        if advertise:
            try:
                self._advert = Advertisement(self.name, wire.APP, self._address[1],
                                             lan_addresses(listen) or ["127.0.0.1"])
            except Exception as err:  # zeroconf: no multicast, no interface, ...
                log(f"cannot announce the receiver ({type(err).__name__}); send by address")
        return self._address[0], self._address[1], desk.code

    def identity(self) -> Identity:
        """This handheld's identity key (made and kept, 0600, the first time)."""
        if self._identity is None:
            self._identity = load_identity(self.data_dir, log)
        return self._identity

    def receive_by_code(self) -> str | None:
        """Take beams by an internet code too, while receiving (docs/network.md,
        "Across the internet"): the code comes as a NetworkNews; a line why not."""
        if self._desk is None:
            return "Beam Receive is off"
        if self._by_code is not None:
            return None
        from palmish.network.internet.settings import chosen
        from palmish.network.internet.window import ReceiveByCode
        try:
            settings = chosen(self.data_dir)
        except ValueError as err:
            return str(err)

        def told(code: str) -> None:
            self.internet_code = code

        self._by_code = ReceiveByCode(self._loop(), self._post, settings, wire.APP,
                                      self._desk.code, self._address, log, told)
        return None

    def stop_receiving(self) -> None:
        if self._by_code is not None:
            self._by_code.close()
            self._by_code, self.internet_code = None, ""
        desk, self._desk = self._desk, None
        if self._advert is not None:
            self._advert.close()
            self._advert = None
        if desk is not None and self._thread is not None:
            # Waited for, so no sender reaches the old listener once Beam
            # Receive is off.
            try:
                self._thread.run(desk.close(), timeout=STOP_WAIT_S)
            except concurrent.futures.TimeoutError:
                log("the receiver did not stop in time; it stops when its loop is free")
        self._arrivals.clear()

    def answer(self, ticket: int, accept: bool) -> str:
        """The person's answer to a BeamOffered (on the device's thread): an accepted
        file item is installed here through `palmish install`'s path, an accepted
        board or deal opens in its game (asking first if a game in progress would be
        lost). The line to show; the sender hears it too."""
        arrival = self._arrivals.pop(ticket, None)
        if arrival is None:
            return "That beam is over: its sender went away or the wait ran out."
        if not accept:
            self._finish(ticket, DECLINED, f"declined by {self.name}")
            return "Declined."
        try:
            if arrival.item.number is None:
                text = items.install(arrival.item, self.device.storage, self.device.plugins)
            else:
                text = self._open(arrival.item)
        except ValueError as err:
            self._finish(ticket, FAILED, f"could not be installed: {err}")
            return f"Could not install it: {err}"
        self._finish(ticket, ACCEPTED, text)
        return text

    def paired(self) -> list[str]:
        """The handhelds paired with this one as a receiver (shown through printable)."""
        return [known.name for known in paired_senders(self.data_dir, log).known]

    def forget(self, name: str | None) -> int:
        """Forget one paired handheld (None: all); how many were forgotten."""
        forgotten = paired_senders(self.data_dir, log).forget(name)
        if self._desk is not None and self._thread is not None:
            desk = self._desk
            self._thread.call(lambda: desk.senders.forget(name))
        return forgotten

    # ------------------------------------------------------------------ sending

    def send(self, item: BeamItem, address: str, code: str | None = None,
             by_code: bool = False) -> int:
        """Beam `item` to `HOST:PORT` (with the receiver's code the first time); the
        ticket of the BeamProgress and BeamDone events it posts. ValueError (one
        line) for an address that is not HOST:PORT. `by_code`: `address` is the
        receiver's internet code, met first (its own code comes with the meeting)."""
        settings = None
        if by_code:
            from palmish.network.internet.settings import CODE, chosen
            if not CODE.match(address):
                raise ValueError(f"{address!r} is not an internet code (a number and "
                                 "words, like 7-cobra-lantern)")
            settings = chosen(self.data_dir)
            host, port = "127.0.0.1", 0  # the door's, once met
        else:
            host, port = parse_address(address)
        ticket = next(self._sends)
        identity = self.identity()

        sent: list[int] = []

        def progress(done: int, total: int) -> None:
            if not sent:  # connected, and the bytes go: the next step
                self._post(BeamProgress(ticket, True, 0, total, step="sending"))
            sent.append(done)
            self._post(BeamProgress(ticket, True, done, total))

        def asking(title: str, what: str) -> None:  # the item is there: the next step
            self._post(BeamProgress(ticket, True, len(item.data), len(item.data),
                                    step="waiting for its person's answer"))

        async def run() -> Outcome:
            door = None
            try:
                there, pairing = port, code
                if settings is not None:
                    from palmish.network.internet.meeting import MeetError
                    from palmish.network.internet.window import door_to
                    try:
                        door = await door_to(settings, address, wire.APP, log)
                    except MeetError as err:
                        self._sending.pop(ticket, None)
                        self._post(BeamDone(ticket, True, False, str(err), why="failed"))
                        return Outcome("failed", str(err))
                    there, pairing = door.port, door.table_code
                outcome = await send_item(item, host, there, name=self.name,
                                          identity=identity,
                                          receivers=paired_receivers(self.data_dir, log),
                                          code=pairing, on_progress=progress,
                                          on_asking=asking)
            except asyncio.CancelledError:
                self._post(BeamDone(ticket, True, False, "cancelled", why="failed"))
                raise
            finally:
                if door is not None:
                    await door.close()
            self._sending.pop(ticket, None)
            if outcome.note:
                log(outcome.note)
            if outcome.receiver and settings is None:  # it answered there: in "To:" next time
                remember_receiver(self.data_dir, outcome.receiver, address_text(host, port),
                                  log)
            self._post(BeamDone(ticket, True, outcome.accepted, outcome.text,
                                why=outcome.status, note=outcome.note, peer=outcome.receiver))
            return outcome

        self._sending[ticket] = asyncio.run_coroutine_threadsafe(run(), self._loop().loop)
        return ticket

    def found_receivers(self) -> list[tuple[str, str]]:
        """The receivers found on the local network: (name, "HOST:PORT"), by name
        (empty when multicast does not work here: the address is typed instead)."""
        if self._browser is None:
            try:
                self._browser = Browser(apps=(wire.APP,))
            except Exception as err:  # zeroconf: no multicast, no interface, ...
                log(f"cannot look for receivers on the network ({type(err).__name__})")
                return []
        return [(found.table, found.address) for found in self._browser.games.games()]

    def recent_receivers(self) -> list[tuple[str, str]]:
        """The receivers beamed to lately: (name, "HOST:PORT"), the latest first."""
        return [(r.name, r.address) for r in recent_receivers(self.data_dir, log)]

    def close(self) -> None:
        """Stop receiving, sending and browsing (the window closes)."""
        self.stop_receiving()
        for ticket in list(self._sending):
            self.cancel(ticket)
        if self._browser is not None:
            self._browser.close()
            self._browser = None

    def cancel(self, ticket: int) -> None:
        """Stop sending `ticket` (the receiver sees the sender gone; nothing is written;
        a BeamDone "cancelled" follows)."""
        future = self._sending.pop(ticket, None)
        if future is not None:
            future.cancel()

    # ------------------------------------------------------------------ the loop's side

    def _offered(self, arrival: Arrival) -> None:
        self._arrivals[arrival.ticket] = arrival
        self._post(BeamOffered(arrival.ticket, arrival.sender, arrival.item, arrival.checked,
                               arrival.size, note=arrival.note))

    def _received(self, ended: Ended) -> None:
        self._arrivals.pop(ended.ticket, None)
        self._post(BeamDone(ended.ticket, False, ended.ok, ended.text, why=ended.verdict,
                            peer=ended.sender))

    def _receiving_progress(self, ticket: int, done: int, total: int) -> None:
        self._post(BeamProgress(ticket, False, done, total))

    def _finish(self, ticket: int, verdict: str, text: str) -> None:
        desk = self._desk
        if desk is None or self._thread is None:
            return
        self._thread.call(lambda: desk.finish(ticket, verdict, text))

    def _open(self, item: BeamItem) -> str:
        found = items.game_for(item.kind, item.app)
        if found is None:
            raise ValueError(f"no game here takes a {item.kind}")
        game, beamable = found
        self.device.switch_to(game.id)
        beamable.open(real_app(self.device.running_app), item, ask=True)
        return f"{game.name} opens {item.kind} {item.number}"  # once a game in progress may go

    def _post(self, event: Event) -> None:
        self.device.inbox.put(event)

    def _loop(self) -> LoopThread:
        self._thread = window_loop(self.device)
        return self._thread


def log(line: str) -> None:
    """One line on standard error for whoever started the window (and for tests)."""
    print(f"palmish beam: {printable(line)}", file=sys.stderr, flush=True)
