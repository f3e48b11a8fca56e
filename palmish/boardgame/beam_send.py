"""Sending a beam (docs/network.md, "Beam"): the dialogs every game's Beam item
and the Plugin Manager's Beam share. Pick a handheld found on the network, or
Other... (type its address, then its port); type its code the first time
(pairing: the code is remembered for that address); then the beam goes and
its progress bar and last line are the device's (palmish.device.beaming)."""

from __future__ import annotations

from collections.abc import Callable

from palmish.device import beaming
from palmish.device.beaming import BeamItem, BeamService
from palmish.device.ui.alert import Alert
from palmish.device.ui.form import Form, PopupList
from palmish.device.ui.modal import Modal
from palmish.device.ui.name_entry import NameEntry
from palmish.device.ui.number_entry import NumberEntry

OpenModal = Callable[[Modal, Callable[[object], None] | None], None]
TITLE = "Beam"
OTHER = "Other..."
MOST_LISTED = 8
ADDRESS_CHARS = 39  # an IPv6 address in full, or a host name
DEFAULT_PORT = 40732


def beam(item: BeamItem, open_modal: OpenModal) -> None:
    """Beam `item` to a handheld the person picks."""
    beams = beaming.service()
    if beams is None:
        open_modal(Alert(TITLE, "Beam needs the window (palmish), or palmish beam from a "
                         "terminal.", icon="info"), None)
        return
    found = list(beams.nearby())[:MOST_LISTED]
    labels = (*(beaming.escaped(f"{name} ({address})", 60) for name, address in found), OTHER)
    form = Form(f"Beam {beaming.escaped(item.title, 24)}",
                (PopupList("to", "To", labels, 0),), buttons=("Beam", "Cancel"))

    def picked(result: object) -> None:
        index = _chosen(result, "to")
        if index is None or not 0 <= index < len(labels):
            return
        if index < len(found):
            _with_code(beams, item, found[index][1], found[index][0], open_modal)
        else:
            _type_address(beams, item, open_modal)

    open_modal(form, picked)


def _chosen(result: object, key: str) -> int | None:
    """The index picked in a form closed by its first button, else None."""
    if not (isinstance(result, tuple) and len(result) == 2 and result[0] == 0):
        return None
    values = result[1]
    index = values.get(key) if isinstance(values, dict) else None
    return index if isinstance(index, int) else None


def _type_address(beams: BeamService, item: BeamItem, open_modal: OpenModal) -> None:
    def typed_host(host: object) -> None:
        if not isinstance(host, str):
            return

        def typed_port(port: object) -> None:
            if isinstance(port, int) and 1 <= port <= 65535:
                address = f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
                _with_code(beams, item, address, address, open_modal)
            elif port is not None:
                open_modal(Alert(TITLE, "A port is a number from 1 to 65535.", icon="error"),
                           None)

        open_modal(NumberEntry("Port", DEFAULT_PORT), typed_port)

    open_modal(NameEntry("Address", "", most=ADDRESS_CHARS), typed_host)


def _with_code(beams: BeamService, item: BeamItem, address: str, name: str,
               open_modal: OpenModal) -> None:
    """Send with the code remembered for the address, or ask for it (once per pair)."""
    code = beams.paired_code(address)
    if code is not None:
        _send(beams, item, address, code, open_modal)
        return

    def typed(number: object) -> None:
        if isinstance(number, int) and 0 <= number <= 9999:
            _send(beams, item, address, f"{number:04d}", open_modal)
        elif number is not None:
            open_modal(Alert(TITLE, "The code is the four digits its Beam Receive screen "
                             "shows.", icon="error"), None)

    open_modal(NumberEntry(f"Code of {beaming.escaped(name, 20)}"), typed)


def _send(beams: BeamService, item: BeamItem, address: str, code: str,
          open_modal: OpenModal) -> None:
    try:
        beams.send(item, address, code)  # its bar and last line come as events
    except ValueError as err:
        open_modal(Alert(TITLE, f"Cannot beam: {beaming.escaped(str(err), 120)}",
                         icon="error"), None)
