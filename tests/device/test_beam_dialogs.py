"""Beam's dialogs without sockets (docs/network.md, "Beam"): beam events posted to
a device as the network thread would, a fake service in place of the window's,
and the menu items that start a beam. The loopback test with the real service
is tests/network/test_beam_window.py."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest

from palmish.apps import installed_apps
from palmish.device.beam.beaming import Receiving, Sending, size_text
from palmish.device.display import CONFIGS, ConfigName
from palmish.device.events import (
    BeamDone,
    BeamOffered,
    BeamProgress,
    CharKey,
    Key,
    KeyDown,
    MenuCommand,
)
from palmish.device.exchange import PLUGIN, BeamItem, Checked
from palmish.device.machine.system import Device, Services
from palmish.device.scripting.eventscript import parse_script, run_script
from palmish.device.ui.alert import Alert
from palmish.device.ui.form import Form, PopupList
from palmish.device.ui.modal import Modal
from palmish.device.ui.name_entry import NameEntry
from palmish.device.ui.number_entry import NumberEntry
from palmish.device.ui.progress import Progress
from tests.game_devices import PLUGINS


class FakeBeam:
    """The window's beam service as the dialogs use it, recording what they asked."""

    def __init__(self, device: Device) -> None:
        self.device = device
        self.on = False
        self.answers: list[tuple[int, bool]] = []
        self.sent: list[tuple[BeamItem, str, str | None]] = []
        self.cancelled: list[int] = []
        self.paired_names = ["Kitchen"]
        self.damaged = False
        self.found: list[tuple[str, str]] = [("Lounge", "192.0.2.7:40732")]

    def receiving(self) -> Receiving | None:
        return (Receiving("Study", "192.0.2.9:40732", "4821", "5F0C-9A12-77B3-0E41")
                if self.on else None)

    def set_receiving(self, on: bool) -> str | None:
        self.on = on
        return None

    def answer(self, ticket: int, accept: bool) -> str:
        self.answers.append((ticket, accept))
        return "installed 'Jade Board' (ishido board) as /x/Jade.prc" if accept else "Declined."

    def nearby(self) -> Sequence[tuple[str, str]]:
        return self.found

    def paired(self) -> list[str]:
        if self.damaged:
            raise ValueError("paired.json: not JSON")
        return self.paired_names

    def forget(self, name: str | None) -> int:
        kept = [] if name is None else [n for n in self.paired_names if n != name]
        forgotten = len(self.paired_names) - len(kept)
        self.paired_names, self.damaged = kept, self.damaged and name is not None
        return forgotten

    def send(self, item: BeamItem, address: str, code: str | None = None) -> int:
        self.sent.append((item, address, code))
        return len(self.sent)

    def cancel(self, ticket: int) -> None:
        self.cancelled.append(ticket)

    def start(self, sending: Sending) -> None:
        self.device.beams.send(self, sending)


@pytest.fixture
def device(tmp_path: Path) -> Iterator[Device]:
    made = Device(CONFIGS[ConfigName.SQUARE], tmp_path, installed_apps(), "launcher",
                  bundled_plugins=PLUGINS, durable=False, alerts=False)
    yield made
    made.shutdown()


@pytest.fixture
def beam(device: Device) -> Iterator[FakeBeam]:
    fake = FakeBeam(device)
    device.services = Services(beam=lambda _device: fake)  # as the window hands it over
    yield fake


def top(device: Device) -> Modal | None:
    return device.modals[-1] if device.modals else None


def message(device: Device) -> str:
    """The text of the topmost dialog, an alert (or a progress bar)."""
    alert = top(device)
    assert isinstance(alert, Alert), alert
    return alert.message


def offer(ticket: int = 1, sender: str = "Kitchen", size: int = 46080) -> BeamOffered:
    return BeamOffered(ticket, sender, BeamItem(PLUGIN, data=b"x" * size),
                       Checked("Jade Board", "Board plugin for PalmIshido"), size)


def test_an_offer_asks_over_any_app_and_accept_installs(device: Device, beam: FakeBeam) -> None:
    device.switch_to("PalmIshido")
    device.post(offer())
    alert = top(device)
    assert isinstance(alert, Alert) and alert.row.buttons[0].label == "Accept"
    assert alert.message == ("Accept Jade Board (Board plugin for PalmIshido, 45 KB) "
                             "from Kitchen?")
    device.post(KeyDown(Key.SELECT))
    assert beam.answers == [(1, True)]
    assert "Jade Board is installed" in message(device)


def test_the_question_says_what_is_known_of_the_senders_key(device: Device,
                                                            beam: FakeBeam) -> None:
    device.post(BeamOffered(1, "Kitchen", BeamItem("deal", "ishido", number=7),
                            Checked("Deal 7", "PalmIshido deal"), 0,
                            note="new here, key 1A2B-3C4D-5E6F-7A8B"))
    assert message(device) == ("Accept Deal 7 (PalmIshido deal) from Kitchen (new here, key"
                               " 1A2B-3C4D-5E6F-7A8B)?")
    device.post(KeyDown(Key.CANCEL))
    device.post(BeamOffered(2, "Kitchen 2", BeamItem("deal", "ishido", number=7),
                            Checked("Deal 7", "PalmIshido deal"), 0, note="paired as Kitchen"))
    assert message(device) == ("Accept Deal 7 (PalmIshido deal) from Kitchen 2 (paired as"
                               " Kitchen)?")


def test_decline_and_escape_answer_no(device: Device, beam: FakeBeam) -> None:
    device.post(offer(1))
    device.post(KeyDown(Key.RIGHT))
    device.post(KeyDown(Key.SELECT))
    device.post(offer(2))
    device.post(KeyDown(Key.CANCEL))  # Escape: Decline, never Accept
    assert beam.answers == [(1, False), (2, False)]
    assert device.modals == ()


def test_the_question_stays_through_an_app_switch(device: Device, beam: FakeBeam) -> None:
    device.post(offer())
    device.switch_to("Sigmar's Garden")  # a hard button, say
    assert isinstance(top(device), Alert) and device.running_app.id == "sigmar"
    device.post(KeyDown(Key.HOME))
    assert isinstance(top(device), Alert)
    device.post(KeyDown(Key.SELECT))
    assert beam.answers == [(1, True)]


def test_names_from_the_network_are_escaped(device: Device, beam: FakeBeam) -> None:
    device.post(BeamOffered(1, "Evil\x1b[2J", BeamItem(PLUGIN, data=b"x"),
                            Checked("Jade\u202eBoard", "Board plugin\n for PalmIshido"), 1))
    text = message(device)
    assert "\x1b" not in text and "\u202e" not in text and "\n" not in text
    assert "Evil\\x1b[2J" in text and "Jade\\u202eBoard" in text


def test_the_sender_going_away_closes_the_question(device: Device, beam: FakeBeam) -> None:
    device.post(BeamProgress(1, False, 32768, 65536))
    bar = top(device)
    assert isinstance(bar, Progress) and bar.fraction == 0.5
    device.post(BeamDone(1, False, False, "interrupted: Kitchen is gone"))
    assert top(device).message == "Interrupted: Kitchen is gone."  # type: ignore[union-attr]
    device.post(KeyDown(Key.SELECT))
    device.post(offer(2))
    device.post(BeamDone(2, False, False, "declined: no answer"))
    assert top(device).message == "Declined: no answer."  # type: ignore[union-attr]
    assert beam.answers == []  # nobody answered the question that went away


def test_sending_asks_the_code_once_then_says_how_it_ended(
        device: Device, beam: FakeBeam) -> None:
    device.switch_to("PalmIshido")
    device.post(MenuCommand("beam"))  # Game > Beam Deal
    form = top(device)
    assert isinstance(form, Form) and form.title.startswith("Beam Deal ")
    device.post(CharKey("\n"))  # Beam to the first handheld found: Lounge
    item, address, code = beam.sent[0]
    assert item.kind == "deal" and item.app == "ishido" and item.number is not None
    assert (address, code) == ("192.0.2.7:40732", None)
    bar = top(device)
    assert isinstance(bar, Progress) and "to Lounge" in bar.message
    device.post(BeamDone(1, True, False, "a pairing code is needed", "code"))
    assert "Type the code" in message(device)
    device.post(KeyDown(Key.SELECT))
    assert isinstance(top(device), NumberEntry)
    for char in "0421\n":
        device.post(CharKey(char))
    assert beam.sent[1][1:] == ("192.0.2.7:40732", "0421")
    device.post(BeamProgress(2, True, 0, 0))
    device.post(BeamDone(2, True, True, "opened", "accepted"))
    bar = top(device)
    assert isinstance(bar, Progress) and bar.ended
    assert bar.message == f"Deal {item.number}: accepted by Lounge."


def test_cancel_stops_a_beam_and_other_shows_the_address_keys(
        device: Device, beam: FakeBeam) -> None:
    device.switch_to("Sigmar's Garden")
    device.post(MenuCommand("beam"))  # Game > Beam Board
    form = top(device)
    assert isinstance(form, Form)
    field = form.fields[0]
    assert isinstance(field, PopupList)
    field.selected = 1  # Other...
    device.post(CharKey("\n"))
    entry = top(device)
    assert isinstance(entry, NameEntry)
    for char in "192.0.2.44\n":
        device.post(CharKey(char))
    assert isinstance(top(device), NumberEntry)  # the port, 40732 selected
    device.post(CharKey("\n"))
    item, address, _ = beam.sent[0]
    assert item.kind == "board" and address == "192.0.2.44:40732"
    device.post(KeyDown(Key.SELECT))  # Cancel on the bar
    assert beam.cancelled == [1] and device.modals == ()
    device.post(BeamDone(1, True, False, "cancelled", "failed"))  # what the service says next
    assert device.modals == ()


def test_without_the_window_beam_says_so(device: Device) -> None:
    device.switch_to("PalmIshido")
    device.post(MenuCommand("beam"))
    assert "needs the window" in message(device)


def test_the_launcher_turns_beam_receive_on_and_shows_the_code(
        device: Device, beam: FakeBeam) -> None:
    device.post(MenuCommand("prefs"))
    device.post(KeyDown(Key.SELECT))  # tick Beam Receive
    device.post(CharKey("\n"))  # OK
    assert beam.on and device.storage.load_prefs("lnch")["beam_receive"] is True
    device.post(MenuCommand("beam"))
    text = message(device)
    for fact in ("Name: Study", "Address: 192.0.2.9:40732", "Code: 4821",
                 "Key: 5F0C-9A12-77B3-0E41", "Paired: Kitchen"):
        assert fact in text
    device.post(KeyDown(Key.RIGHT))
    device.post(KeyDown(Key.RIGHT))
    device.post(KeyDown(Key.SELECT))  # Forget
    device.post(KeyDown(Key.SELECT))  # Forget, confirmed
    assert beam.paired_names == []
    assert "Paired: none" in message(device)
    device.post(KeyDown(Key.RIGHT))
    device.post(KeyDown(Key.SELECT))  # Off
    assert not beam.on and device.storage.load_prefs("lnch")["beam_receive"] is False
    assert "is off" in message(device)


def forget_screen(device: Device) -> Modal | None:
    """Options > Beam Receive (on), then its Forget button (the third)."""
    device.storage.save_prefs("lnch", {"beam_receive": True})
    device.post(MenuCommand("beam"))
    device.post(KeyDown(Key.RIGHT))
    device.post(KeyDown(Key.RIGHT))
    device.post(KeyDown(Key.SELECT))
    return top(device)


def test_forget_picks_one_of_several_paired_handhelds_or_all(
        device: Device, beam: FakeBeam) -> None:
    beam.on = True  # listening
    beam.paired_names = ["Kitchen", "Lounge", "Study"]
    form = forget_screen(device)
    assert isinstance(form, Form) and isinstance(form.fields[0], PopupList)
    assert form.fields[0].options == ("Every handheld", "Kitchen", "Lounge", "Study")
    form.fields[0].selected = 2  # Lounge
    device.post(CharKey("\n"))  # Forget
    assert beam.paired_names == ["Kitchen", "Study"]
    assert "Paired: Kitchen, Study" in message(device)  # the screen again
    device.post(KeyDown(Key.CANCEL))
    form = forget_screen(device)
    assert isinstance(form, Form)
    device.post(KeyDown(Key.CANCEL))  # Cancel forgets nothing
    assert beam.paired_names == ["Kitchen", "Study"]
    assert "Paired: Kitchen, Study" in message(device)
    device.post(KeyDown(Key.CANCEL))
    forget_screen(device)
    device.post(CharKey("\n"))  # Every handheld, the first choice
    assert beam.paired_names == []


def test_forget_asks_before_forgetting_the_only_one_or_a_damaged_list(
        device: Device, beam: FakeBeam) -> None:
    beam.on = True
    forget_screen(device)
    assert message(device) == "Forget Kitchen? It must type this handheld's code again."
    device.post(KeyDown(Key.RIGHT))
    device.post(KeyDown(Key.SELECT))  # Cancel
    assert beam.paired_names == ["Kitchen"] and "Paired: Kitchen" in message(device)
    device.post(KeyDown(Key.CANCEL))
    beam.damaged = True
    forget_screen(device)
    assert message(device).startswith("Forget every paired handheld?")
    device.post(KeyDown(Key.SELECT))  # Forget
    assert beam.paired_names == [] and not beam.damaged
    assert "Paired: none" in message(device)


@pytest.mark.parametrize(("size", "text"), [
    (0, "0 bytes"), (1023, "1023 bytes"), (1024, "1 KB"), (1535, "1 KB"), (1536, "2 KB"),
    (46080, "45 KB"), ((1 << 20) - 1, "1 MB"), (1 << 20, "1 MB"), (1520435, "1.4 MB"),
    (1572864, "1.5 MB"), (5 << 20, "5 MB"), (10443816, "10 MB"), (12 << 20, "12 MB"),
])
def test_sizes_read_alike_on_the_device_and_the_command_line(size: int, text: str) -> None:
    assert size_text(size) == text  # palmish beam and receive print the same words


def test_event_scripts_drive_the_dialogs(device: Device) -> None:
    run_script(device, parse_script(
        "beam-offer 3 0 deal Kitchen | Deal 77 | PalmIshido deal\n"
        "key select\n"
        "beam-progress receive 4 40000 80000\n"
        "beam-done receive 4 refused too large: 5 MB, at most 1 MB\n"))
    assert top(device).message == "Too large: 5 MB, at most 1 MB."  # type: ignore[union-attr]


def test_beam_board_sends_a_level_by_its_contents(device: Device, beam: FakeBeam) -> None:
    device.switch_to("Sigmar's Garden")
    device.post(MenuCommand("levels"))
    device.post(CharKey("\n"))  # Play the first level
    device.post(MenuCommand("beam"))
    device.post(CharKey("\n"))  # to Lounge
    item, _, _ = beam.sent[0]
    assert item.kind == "level" and item.app == "sigmar" and item.number is None
    from palmish.network.beam import items

    assert items.check(item).title.startswith(f"Level {item.name}:")  # as a receiver reads it


def test_a_damaged_pairings_file_is_one_line_and_forget_clears_it(
        device: Device, beam: FakeBeam) -> None:
    beam.on, beam.damaged = True, True
    device.storage.save_prefs("lnch", {"beam_receive": True})
    device.post(MenuCommand("beam"))
    assert "Paired: unreadable (paired.json: not JSON); Forget clears it" in message(device)
    device.post(KeyDown(Key.RIGHT))
    device.post(KeyDown(Key.RIGHT))
    device.post(KeyDown(Key.SELECT))  # Forget
    device.post(KeyDown(Key.SELECT))  # confirmed
    assert "Paired: none" in message(device)


@pytest.mark.parametrize(("key", "accepted"), [("y", True), ("a", True), ("n", False),
                                               ("d", False)])
def test_y_and_n_answer_an_offer(device: Device, beam: FakeBeam, key: str,
                                 accepted: bool) -> None:
    """Issue 41: every yes/no question answers Y and N, the beam's too (over any game)."""
    device.switch_to("PalmIshido")
    device.post(offer())
    device.post(CharKey(key))
    assert beam.answers == [(1, accepted)]


@pytest.mark.parametrize(("key", "forgotten"), [("y", True), ("n", False)])
def test_y_and_n_answer_forget(device: Device, beam: FakeBeam, key: str,
                               forgotten: bool) -> None:
    beam.on = True
    forget_screen(device)
    assert message(device).startswith("Forget Kitchen?")
    device.post(CharKey(key))
    assert (beam.paired_names == []) is forgotten
