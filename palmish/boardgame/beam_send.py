"""Sending a beam (docs/network.md, "Beam"): the dialogs every game's Beam item
and the Plugin Manager's Beam share. Pick a handheld found on the network, or
Other... (type its address, then its port), or By code... (the internet code its
Beam Receive screen shows: docs/network.md, "Across the internet"); then the beam goes, and its
progress bar, the receiver's code when it asks for it (once per pair: the
receiver remembers this handheld) and the last line are the device's
(palmish.device.beam.beaming.BeamDesk)."""

from __future__ import annotations

from collections.abc import Callable

from palmish.boardgame.dialogs import form_result
from palmish.device.addresses import BEAM_PORT, HIGHEST_PORT, address_text, is_port
from palmish.device.beam import beaming
from palmish.device.beam.beaming import BeamService, Sending
from palmish.device.exchange import BeamItem
from palmish.device.ui.alert import Alert
from palmish.device.ui.form import Form, PopupList
from palmish.device.ui.modal import Modal
from palmish.device.ui.name_entry import NameEntry
from palmish.device.ui.number_entry import NumberEntry

OpenModal = Callable[[Modal, Callable[[object], None] | None], None]
TITLE = "Beam"
OTHER = "Other..."
BY_CODE = "By code..."
MOST_LISTED = 8


def beam(item: BeamItem, label: str, open_modal: OpenModal,
         beams: BeamService | None) -> None:
    """Beam `item` (called `label` in the dialogs) to a handheld the person picks, by
    the Beam service the device offers (None: tell the person it needs the window)."""
    if beams is None:
        open_modal(Alert(TITLE, "Beam needs the window (palmish), or palmish beam from a "
                         "terminal.", icon="info"), None)
        return
    found = list(beams.nearby())[:MOST_LISTED]
    labels = (*(beaming.escaped(f"{name} ({address})", 60) for name, address in found), OTHER,
              BY_CODE)
    form = Form(f"Beam {beaming.escaped(label, 24)}",
                (PopupList("to", "To", labels, 0),), buttons=("Beam", "Cancel"))

    def picked(result: object) -> None:
        chosen = form_result(result)
        index = chosen.values.get("to")
        if chosen.button != "Beam" or not isinstance(index, int) or not 0 <= index < len(labels):
            return
        if index < len(found):
            _send(beams, Sending(item, found[index][1], label, found[index][0]), open_modal)
        elif labels[index] == BY_CODE:
            _type_code(beams, item, label, open_modal)
        else:
            _type_address(beams, item, label, open_modal)

    open_modal(form, picked)


def _type_address(beams: BeamService, item: BeamItem, label: str,
                  open_modal: OpenModal) -> None:
    def typed_host(host: object) -> None:
        if not isinstance(host, str):
            return

        def typed_port(port: object) -> None:
            if is_port(port):
                address = address_text(host, port)
                _send(beams, Sending(item, address, label, address), open_modal)
            elif port is not None:
                open_modal(Alert(TITLE, f"A port is a number from 1 to {HIGHEST_PORT}.",
                                 icon="error"), None)

        open_modal(NumberEntry("Port", BEAM_PORT), typed_port)

    open_modal(NameEntry("Address", address=True), typed_host)


def _type_code(beams: BeamService, item: BeamItem, label: str, open_modal: OpenModal) -> None:
    def typed(text: object) -> None:
        if isinstance(text, str) and text.strip():
            code = text.strip().lower()
            _send(beams, Sending(item, code, label, f"code {code}", by_code=True), open_modal)

    # a number and words, as the receiver's Beam Receive screen shows it
    open_modal(NameEntry("Internet code", address=True), typed)


def _send(beams: BeamService, sending: Sending, open_modal: OpenModal) -> None:
    try:
        beams.start(sending)  # its bar, the code if asked and the last line: the device's
    except ValueError as err:
        open_modal(Alert(TITLE, f"Cannot beam: {beaming.escaped(str(err), 120)}",
                         icon="error"), None)
