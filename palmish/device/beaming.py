"""Beam as the device shows it (docs/network.md, "Beam"): what the apps may send
and the system dialogs of a beam, over whatever app runs.

The device never imports the network: the window puts the beam service in
`palmish.device.services.beam`, and what the network does reaches the device
as events (BeamOffered, BeamProgress, BeamArrived, BeamEnded), which
`BeamDesk` turns into the Accept dialog, the progress bar and one last line.
So event scripts and tests drive every beam dialog without a socket.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Protocol, cast, runtime_checkable

from palmish.device.events import BeamArrived, BeamEnded, BeamOffered, BeamProgress, Event

if TYPE_CHECKING:
    from palmish.device.system import Device
    from palmish.device.ui.alert import Alert
    from palmish.device.ui.progress import Progress

TITLE = "Beam"
FEW_KB = 4 * 1024  # smaller items arrive before a progress bar would show anything
KINDS = ("plugin", "level", "board", "deal")


@dataclass(frozen=True)
class BeamItem:
    """Something an app beams: a plugin database (`path`), a level (`data`, named
    `name`), or a board or deal by its number (`value`) for the game `app`."""

    kind: str  # one of KINDS
    app: str  # the game's id (a plugin's game)
    title: str  # what the dialogs call it: Jade Board, Board 1234, Deal 77
    value: str = ""
    path: Path | None = None
    name: str = ""
    data: bytes = b""


@dataclass(frozen=True)
class Receiving:
    """This handheld's Beam Receive: its name, address and code, for the screen."""

    name: str
    address: str
    code: str


class BeamService(Protocol):
    """What the window offers the device and the apps to beam."""

    def receiving(self) -> Receiving | None:
        """Where this handheld receives while Beam Receive is on; None when off."""

    def set_receiving(self, on: bool) -> str | None:
        """Turn Beam Receive on or off; a line saying why it could not, or None."""

    def answer(self, beam: int, accept: bool) -> None:
        """The person's answer to a BeamOffered."""

    def install(self, beam: int) -> str:
        """Install an arrived plugin or level; the line to show. ValueError (one
        line) when the install path refuses it."""

    def nearby(self) -> Sequence[tuple[str, str]]:
        """(name, HOST:PORT) of the handhelds found receiving on the local network."""

    def paired_code(self, address: str) -> str | None:
        """The code remembered for the handheld at this address, if paired."""

    def pairs(self) -> Sequence[str]:
        """The handhelds this one is paired with, one line each."""

    def forget_pairs(self) -> None:
        """Forget every remembered code."""

    def send(self, item: BeamItem, address: str, code: str) -> int:
        """Start beaming; the beam's number (its events carry it). ValueError with
        one line for a bad address or item."""

    def cancel(self, beam: int) -> None:
        """Stop a beam under way (the other side is told)."""


def service() -> BeamService | None:
    """The window's beam service, or None in tests and screenshots without one."""
    from palmish.device import services

    if services.beam is None:
        return None
    return cast(BeamService, services.beam())


@runtime_checkable
class OpensBeamed(Protocol):
    """An app that opens a beamed board or deal (asking first if a game in
    progress would be lost)."""

    def open_beamed(self, kind: str, value: str) -> None: ...


def escaped(text: str, most: int = 40) -> str:
    """A received name as the Palm font shows it: control and unprintable
    characters as \\x.. escapes, cut to `most` characters."""
    shown = "".join(c if c.isprintable() else f"\\x{ord(c):02x}" if ord(c) < 256
                    else f"\\u{ord(c):04x}" for c in text)
    return shown if len(shown) <= most else shown[: most - 1] + "\u2026"


def size_text(size: int) -> str:
    """45 KB, 1.0 MB, 312 bytes."""
    if size < 1024:
        return f"{size} bytes"
    if size < 1024 * 1024:
        return f"{(size + 512) // 1024} KB"
    return f"{size / (1024 * 1024):.1f} MB"


class BeamDesk:
    """The device's beam dialogs: the Accept question, progress bars for beams
    sent and received, and the line each beam ends with. System dialogs: they
    stay open when the app changes."""

    def __init__(self, device: Device) -> None:
        self.device = device
        self.bars: dict[int, Progress] = {}
        self.asking: dict[int, Alert] = {}

    def handle(self, event: Event) -> None:
        if isinstance(event, BeamOffered):
            self._offered(event)
        elif isinstance(event, BeamProgress):
            self._progress(event)
        elif isinstance(event, BeamArrived):
            self._arrived(event)
        elif isinstance(event, BeamEnded):
            self._ended(event.beam, event.text)

    def _offered(self, event: BeamOffered) -> None:
        from palmish.device.ui.alert import Alert

        what = escaped(event.what, 60)
        question = (f"Accept {escaped(event.title)} ({what}, {size_text(event.size)}) "
                    f"from {escaped(event.sender, 32)}?")
        alert = Alert(TITLE, question, ("Accept", "Decline"), icon="confirm")
        self.asking[event.beam] = alert

        def answered(result: object) -> None:
            self.asking.pop(event.beam, None)
            accepted = result == 0
            beams = service()
            if beams is not None:
                beams.answer(event.beam, accepted)
            if accepted and event.size > FEW_KB:
                self._bar(event.beam, f"Receiving {escaped(event.title)} from "
                          f"{escaped(event.sender, 32)}", 0, event.size)

        self.device.open_modal(alert, answered, system=True)

    def _bar(self, beam: int, text: str, done: int, total: int) -> None:
        from palmish.device.ui.progress import Progress

        bar = Progress(TITLE, text)
        bar.update(done, total)
        self.bars[beam] = bar

        def closed(_result: object) -> None:
            if self.bars.pop(beam, None) is bar and not bar.ended:
                beams = service()  # Cancel while it runs
                if beams is not None:
                    beams.cancel(beam)

        self.device.open_modal(bar, closed, system=True)

    def _progress(self, event: BeamProgress) -> None:
        bar = self.bars.get(event.beam)
        if bar is None:
            if event.text:  # a beam this device sends: its bar until it ends
                self._bar(event.beam, escaped(event.text, 120), event.done, event.total)
            return
        bar.update(event.done, event.total)
        self.device.redraw_modal(bar)

    def _arrived(self, event: BeamArrived) -> None:
        line = ""
        if event.kind in ("plugin", "level"):
            beams = service()
            try:
                line = beams.install(event.beam) if beams is not None else "Beam is off."
            except ValueError as err:
                line = f"Not installed: {err}"
        if event.kind in ("board", "deal", "level") and not line.startswith("Not"):
            self._open(event)
        if line:
            self._ended(event.beam, line)
        else:
            self._close_bar(event.beam)

    def _open(self, event: BeamArrived) -> None:
        app = self.device.find_app(event.app)
        if app is None:
            self._ended(event.beam, f"No app {escaped(event.app)} here to open it.")
            return
        self._close_bar(event.beam)
        self.device.switch_to(app.name)
        if isinstance(app, OpensBeamed):
            app.open_beamed(event.kind, event.value)

    def _close_bar(self, beam: int) -> None:
        bar = self.bars.pop(beam, None)
        if bar is not None:
            bar.ended = True
            self.device.close_modal(bar)

    def _ended(self, beam: int, text: str) -> None:
        line = escaped(text, 200)
        asking = self.asking.pop(beam, None)
        if asking is not None:  # the sender gave up before the person answered
            self.device.close_modal(asking)
        bar = self.bars.get(beam)
        if bar is not None and not bar.ended:
            bar.finish(line, self.device.screen)
            self.bars.pop(beam, None)
            return
        from palmish.device.ui.alert import Alert

        self.device.open_modal(Alert(TITLE, line, icon="info"), None, system=True)
