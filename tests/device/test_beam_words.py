"""What Beam's dialogs say as people expect (issue 41): the sender's result names
the receiver by its name, not its address; the receiving person who declined is
told what they did; a handheld's name keeps its case; a board or a deal (nothing
to count) shows its steps, not an empty bar."""

from __future__ import annotations

from palmish.device.events import (
    BeamDone,
    BeamOffered,
    BeamProgress,
    CharKey,
    Key,
    KeyDown,
    MenuCommand,
)
from palmish.device.exchange import BeamItem, Checked
from palmish.device.machine.system import Device
from palmish.device.ui.form import Form, PopupList
from palmish.device.ui.progress import Progress
from tests.device.test_beam_dialogs import FakeBeam, beam, device, message, offer, top

__all__ = ["beam", "device"]  # the fixtures


def _beam_to_an_address(device: Device, fake: FakeBeam) -> Progress:
    """PalmIshido's Beam Deal to Other... 127.0.0.1:40913: its bar."""
    fake.found = []
    device.switch_to("PalmIshido")
    device.post(MenuCommand("beam"))
    form = top(device)
    assert isinstance(form, Form)
    field = form.fields[0]
    assert isinstance(field, PopupList) and field.options == ("Other...", "By code...")
    device.post(CharKey("\n"))
    for char in "127.0.0.1\n":
        device.post(CharKey(char))
    for char in "\b" * 5 + "40913\n":  # the port: 40732 prefilled
        device.post(CharKey(char))
    assert fake.sent[-1][1] == "127.0.0.1:40913"
    bar = top(device)
    assert isinstance(bar, Progress)
    return bar


def test_the_result_names_the_receiver_not_its_address(device: Device, beam: FakeBeam) -> None:
    bar = _beam_to_an_address(device, beam)
    assert "to 127.0.0.1:40913" in bar.message  # all it knows before the receiver answers
    device.post(BeamDone(1, True, True, "PalmIshido opens deal 77", "accepted", peer="Kitchen"))
    assert bar.ended and bar.message.endswith(": accepted by Kitchen."), bar.message
    assert "127.0.0.1" not in bar.message


def test_a_deal_shows_its_steps_and_no_empty_bar(device: Device, beam: FakeBeam) -> None:
    bar = _beam_to_an_address(device, beam)
    assert bar.total == 0 and not bar.has_bar
    assert bar.message.endswith(". Connecting..."), bar.message
    device.post(BeamProgress(1, True, 0, 0, step="waiting for its person's answer"))
    assert bar.message.endswith(". Waiting for its person's answer..."), bar.message
    assert not bar.has_bar and not bar.ended


def test_a_plugin_keeps_its_bar_and_says_its_steps(device: Device, beam: FakeBeam) -> None:
    from palmish.device.beam.beaming import Sending
    from palmish.device.exchange import PLUGIN

    beam.start(Sending(BeamItem(PLUGIN, data=b"x" * 9000), "127.0.0.1:40913", "Jade Board",
                       "127.0.0.1:40913"))
    bar = top(device)
    assert isinstance(bar, Progress) and bar.has_bar
    device.post(BeamProgress(1, True, 0, 9000, step="sending"))
    device.post(BeamProgress(1, True, 4500, 9000))
    assert bar.message.endswith(". Sending...") and bar.fraction == 0.5


def test_the_person_who_declined_is_told_what_they_did(device: Device, beam: FakeBeam) -> None:
    device.post(offer(1, sender="vm"))
    device.post(KeyDown(Key.CANCEL))  # Decline
    assert beam.answers == [(1, False)]
    device.post(BeamDone(1, False, False, "declined by Study", "declined", peer="vm"))
    assert message(device) == "You declined Jade Board from vm."


def test_a_senders_name_keeps_its_case(device: Device, beam: FakeBeam) -> None:
    device.post(BeamProgress(1, False, 100, 9000))
    device.post(BeamDone(1, False, False, "vm went away before the end; nothing was kept",
                         "interrupted", peer="vm"))
    assert message(device) == "vm went away before the end; nothing was kept."
    device.post(KeyDown(Key.SELECT))
    device.post(BeamOffered(2, "Den", BeamItem("deal", "ishido", number=7),
                            Checked("Deal 7", "PalmIshido deal"), 0))
    device.post(BeamDone(2, False, False, "declined: no answer", "declined", peer="Den"))
    assert message(device) == "Declined: no answer."  # not this person's doing: as said
