"""Beam as the device shows it (docs/network.md, "Beam"): what the apps may send
and the system dialogs of a beam, over whatever app runs.

The device never imports the network: the window hands the device its beam
service (palmish.device.machine.services), and what the network does reaches
the device as events (BeamOffered, BeamProgress, BeamDone), which `BeamDesk` turns into
the Accept dialog, progress bars, the code a receiver asks for and one last
line.
So event scripts and tests drive every beam dialog without a socket.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Protocol

from palmish.device.events import BeamDone, BeamOffered, BeamProgress, Event
from palmish.device.exchange import PLUGIN, BeamItem
from palmish.device.ui.alert import Alert
from palmish.device.ui.number_entry import NumberEntry
from palmish.device.ui.question import KeyAlert
from palmish.device.ui.result import pressed
from prc_tools.frozen import Frozen
from prc_tools.text import printable

if TYPE_CHECKING:
    from palmish.device.graphics.screen import Framebuffer
    from palmish.device.ui.modal import Modal
    from palmish.device.ui.progress import Progress

TITLE = "Beam"
BEAM_EVENTS = (BeamOffered, BeamProgress, BeamDone)


class Receiving(Frozen):
    """This handheld's Beam Receive: its name, address and code, for the screen."""

    name: str
    address: str
    code: str
    fingerprint: str = ""  # this handheld's key, for the sender's person to compare
    internet: str = ""  # the code to type across the internet ("" until asked for one)


class Sending(Frozen):
    """A beam this device sends: what, where and how the dialogs call it."""

    item: BeamItem
    address: str
    label: str  # Jade Board, Deal 77
    to: str  # the receiver as the person picked it: Kitchen, 127.0.0.1:40732
    by_code: bool = False  # `address` is the receiver's internet code (7-cobra-lantern)


class DialogHost(Protocol):
    """What the beam dialogs need of the device (palmish.device.machine.system.Device):
    its screen, and system modals that stay open over whatever app runs."""

    @property
    def screen(self) -> Framebuffer: ...

    def open_modal(self, modal: Modal, on_close: Callable[[object], None] | None = None,
                   system: bool = False) -> None: ...

    def redraw_modal(self, modal: Modal) -> None: ...

    def close_modal(self, modal: Modal) -> None: ...

    def beam_service(self) -> BeamService | None:
        """The Beam service the command line offers, None without one."""


class BeamService(Protocol):
    """What the window offers the device and the apps to beam
    (palmish.network.beam.service.BeamWindowService)."""

    def receiving(self) -> Receiving | None:
        """Where this handheld receives while Beam Receive is on; None when off."""

    def set_receiving(self, on: bool) -> str | None:
        """Turn Beam Receive on or off; a line saying why it could not, or None."""

    def answer(self, ticket: int, accept: bool) -> str:
        """The person's answer to a BeamOffered: installs or opens an accepted
        item; the line to show."""

    def nearby(self) -> Sequence[tuple[str, str]]:
        """(name, HOST:PORT) of the handhelds found receiving on the local network."""

    def paired(self) -> list[str]:
        """The handhelds paired with this one as a receiver; ValueError (one line)
        when the file that keeps them is damaged."""

    def forget(self, name: str | None) -> int:
        """Forget one paired handheld (None: all); how many were forgotten."""

    def send(self, item: BeamItem, address: str, code: str | None = None,
             by_code: bool = False) -> int:
        """Start beaming; the ticket its events carry. ValueError (one line) for
        an address that is not HOST:PORT (`by_code`: not an internet code)."""

    def receive_by_code(self) -> str | None:
        """Take beams by an internet code too, while Beam Receive is on: the code
        comes as a NetworkNews (and in `receiving`); a line why not, or None."""

    def cancel(self, ticket: int) -> None:
        """Stop a beam under way (the receiver sees the sender gone)."""

    def start(self, sending: Sending) -> None:
        """Beam as the person asked, with the device's dialogs (BeamDesk.send)."""


def escaped(text: str, most: int = 40) -> str:
    """A received name as the Palm font shows it: unprintable characters as
    visible escapes (prc_tools.text.printable), cut to `most` characters."""
    shown = printable(text)
    return shown if len(shown) <= most else shown[: most - 1] + "\u2026"


def size_text(size: int) -> str:
    """A size as people read it, on the device and from `palmish beam`/`receive` alike:
    `312 bytes`, `45 KB`, `1.5 MB`, `5 MB`, `12 MB` (1 KB = 1,024 bytes; halves round up)."""
    if size < 1024:
        return f"{size} bytes"
    kilobytes = (size + 512) >> 10
    if kilobytes < 1024:
        return f"{kilobytes} KB"
    tenths = (size * 10 + (1 << 19)) >> 20  # the size in tenths of a MB, rounded
    if tenths >= 100 or tenths % 10 == 0:
        return f"{(tenths + 5) // 10} MB"
    return f"{tenths // 10}.{tenths % 10} MB"


class BeamDesk:
    """The device's beam dialogs: the Accept question, progress bars for beams
    sent and received, the code a receiver asks for, and the line each beam
    ends with. System dialogs: they stay open when the app changes."""

    def __init__(self, device: DialogHost) -> None:
        self.device = device
        self.bars: dict[tuple[bool, int], Progress] = {}  # (sending, ticket)
        self.asking: dict[int, Alert] = {}
        self.declined: dict[int, str] = {}  # tickets this person declined: what it was
        self.sends: dict[int, Sending] = {}
        # The window's service for this device (it sets itself here); else the
        # one the command line handed the device, if any.
        self.service: BeamService | None = None

    def _service(self) -> BeamService | None:
        return self.service if self.service is not None else self.device.beam_service()

    def handle(self, event: Event) -> None:
        if isinstance(event, BeamOffered):
            self._offered(event)
        elif isinstance(event, BeamProgress):
            self._progress(event)
        elif isinstance(event, BeamDone):
            self._done(event)

    # ------------------------------------------------------------ sending

    def send(self, beams: BeamService, sending: Sending, code: str | None = None) -> None:
        """Beam as the person asked (ValueError, one line, for a bad address); its bar
        shows until it ends, and a receiver that wants its code gets it asked for."""
        ticket = (beams.send(sending.item, sending.address, code, by_code=True)
                  if sending.by_code else beams.send(sending.item, sending.address, code))
        self.sends[ticket] = sending
        self._bar(True, ticket, _step_text(sending, "connecting"), len(sending.item.data))

    def _ask_code(self, sending: Sending, why: str) -> None:
        def typed(number: object) -> None:
            beams = self._service()
            if isinstance(number, int) and 0 <= number <= 9999 and beams is not None:
                try:
                    self.send(beams, sending, f"{number:04d}")
                except ValueError as err:
                    self._line(f"Cannot beam: {err}")

        self._line(f"{escaped(sending.to, 48)}: {escaped(why, 120)}. Type the code its "
                   f"Beam Receive screen shows.", then=lambda: self.device.open_modal(
                       NumberEntry(f"Code of {escaped(sending.to, 20)}"), typed, system=True))

    def news(self, text: str) -> None:
        """The window's beam service learnt something to say (an internet code)."""
        self._line(text)

    # ------------------------------------------------------------ receiving

    def _offered(self, event: BeamOffered) -> None:
        self._close_bar(False, event.ticket)
        size = f", {size_text(event.size)}" if event.size else ""
        note = f" ({escaped(event.note, 60)})" if event.note else ""
        question = (f"Accept {escaped(event.checked.title)} ({escaped(event.checked.what, 60)}"
                    f"{size}) from {escaped(event.sender, 32)}{note}?")
        # Y (or A) accepts, N (or D) and Escape decline (docs/ui.md, "Answering by keys")
        alert = KeyAlert(TITLE, question, ("Accept", "Decline"), icon="confirm",
                         escape=("Decline",))
        self.asking[event.ticket] = alert

        def answered(result: object) -> None:
            if self.asking.pop(event.ticket, None) is None:
                return  # the beam ended meanwhile (BeamDone said so)
            beams = self._service()
            if beams is None:
                return
            line = beams.answer(event.ticket, pressed(result) == "Accept")
            if pressed(result) != "Accept":  # said once the beam ends: "You declined ..."
                self.declined[event.ticket] = (f"{escaped(event.checked.title)} from "
                                               f"{escaped(event.sender, 32)}")
                return
            if event.item.kind == PLUGIN and line.startswith("installed"):
                line = (f"{escaped(event.checked.title)} is installed: choose it in its "
                        f"game's Preferences.")  # rather than the file it went to
            self._line(_sentence(line))

        self.device.open_modal(alert, answered, system=True)

    # ------------------------------------------------------------ both

    def _bar(self, sending: bool, ticket: int, text: str, total: int) -> None:
        from palmish.device.ui.progress import Progress  # a start shows no bar: not loaded then

        bar = Progress(TITLE, text)
        bar.update(0, total)
        self.bars[(sending, ticket)] = bar

        def closed(_result: object) -> None:
            if self.bars.pop((sending, ticket), None) is bar and not bar.ended:
                beams = self._service()  # Cancel while it runs
                if beams is not None and sending:
                    beams.cancel(ticket)
                    self.sends.pop(ticket, None)

        self.device.open_modal(bar, closed, system=True)

    def _progress(self, event: BeamProgress) -> None:
        key = (event.sending, event.ticket)
        bar = self.bars.get(key)
        if bar is None and not event.sending and event.done < event.total:
            self._bar(False, event.ticket, "Receiving a beam...", event.total)
            bar = self.bars.get(key)
        if bar is None:
            return
        sending = self.sends.get(event.ticket) if event.sending else None
        if event.step and sending is not None:
            bar.say(_step_text(sending, event.step), self.device.screen)
        elif not event.step:
            bar.update(event.done, event.total)
            self.device.redraw_modal(bar)

    def _done(self, event: BeamDone) -> None:
        if not event.sending:
            self._close_bar(False, event.ticket)
            asking = self.asking.pop(event.ticket, None)
            if asking is not None:  # the sender went away before the person answered
                self.device.close_modal(asking)
            declined = self.declined.pop(event.ticket, None)
            if declined is not None and event.why in ("", "declined"):
                self._line(f"You declined {declined}.")  # what this person did, not "by"
            elif not event.ok:
                self._line(_sentence(event.text, event.peer))
            return
        sending = self.sends.pop(event.ticket, None)
        bar = self.bars.pop((True, event.ticket), None)
        if sending is None and bar is None:
            return  # the person cancelled it: nothing more to say
        if sending is not None and event.why == "code":
            self._close(bar)
            self._ask_code(sending, event.text)
            return
        label = escaped(sending.label) if sending is not None else "The beam"
        receiver = escaped(event.peer or (sending.to if sending is not None else ""), 48)
        line = (f"{label}: accepted by {receiver}." if event.ok
                else f"{label}: {_sentence(event.text, event.peer)}")
        if event.note:
            line += f" {_sentence(event.note)}"
        if bar is not None and not bar.ended:
            bar.finish(line, self.device.screen)
        else:
            self._line(line)

    def _close_bar(self, sending: bool, ticket: int) -> None:
        self._close(self.bars.pop((sending, ticket), None))

    def _close(self, bar: Progress | None) -> None:
        if bar is not None:
            bar.ended = True
            self.device.close_modal(bar)

    def _line(self, text: str, then: Callable[[], None] | None = None) -> None:
        self.device.open_modal(Alert(TITLE, escaped(text, 240), icon="info"),
                               (lambda _r: then()) if then is not None else None, system=True)


def _step_text(sending: Sending, step: str) -> str:
    """The sending bar's text at a step: "Beaming Deal 77 to Lounge. Connecting..." """
    return (f"Beaming {escaped(sending.label)} to {escaped(sending.to, 48)}. "
            f"{_sentence(step).rstrip('.')}...")


def _sentence(text: str, name: str = "") -> str:
    """A one-line reason as a sentence: capital first, full stop last; a line that
    starts with a handheld's `name` keeps the name as it is ("vm went away")."""
    text = escaped(text.strip(), 200) or "?"
    shown = escaped(name, 200) if name else ""
    first = text[0] if shown and text.startswith(shown) else text[0].upper()
    return first + text[1:] + ("" if text.endswith((".", "!", "?")) else ".")
