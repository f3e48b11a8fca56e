"""The window's beam service (palmish/network/beam/window.py) between two devices in
one process, on loopback: the events it posts into each device's inbox, the
person's answer installing or opening on the device's thread."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from palmish.apps import installed_apps, real_app
from palmish.device.display import CONFIGS, ConfigName
from palmish.device.events import BeamDone, BeamOffered, BeamProgress, Event
from palmish.device.exchange import PLUGIN, BeamItem
from palmish.device.machine.system import Device
from palmish.network.beam.window import WindowBeam
from tests.game_devices import PLUGINS
from tests.network import beam_items

WAIT_S = 30.0


def _device(data_dir: Path) -> Device:
    return Device(CONFIGS[ConfigName.SQUARE], data_dir, installed_apps(), "launcher",
                  bundled_plugins=PLUGINS, durable=False, alerts=False)


@pytest.fixture
def pair(tmp_path: Path) -> Iterator[tuple[WindowBeam, WindowBeam]]:
    receiving = WindowBeam(_device(tmp_path / "r"), tmp_path / "r", "Kitchen")
    sending = WindowBeam(_device(tmp_path / "s"), tmp_path / "s", "Den")
    yield receiving, sending
    receiving.stop_receiving()
    for beam in (receiving, sending):
        beam.device.shutdown()


def _next(beam: WindowBeam, kind: type[Event]) -> Event:
    """The next event of `kind` in the device's inbox (others are kept in order)."""
    while True:
        event = beam.device.inbox.get(timeout=WAIT_S)
        if isinstance(event, kind):
            return event


def test_a_plugin_beamed_between_windows_is_installed_on_accept(
        pair: tuple[WindowBeam, WindowBeam]) -> None:
    receiving, sending = pair
    host, port, code = receiving.start_receiving(listen="127.0.0.1", port=0)
    data = beam_items.cherry()
    ticket = sending.send(BeamItem(PLUGIN, data=data), f"{host}:{port}")
    refused = _next(sending, BeamDone)
    assert isinstance(refused, BeamDone) and (refused.ticket, refused.why) == (ticket, "code")
    ticket = sending.send(BeamItem(PLUGIN, data=data), f"{host}:{port}", code)
    offered = _next(receiving, BeamOffered)
    assert isinstance(offered, BeamOffered)
    assert (offered.sender, offered.checked.title, offered.size) == ("Den", "Cherry Board",
                                                                     len(data))
    progress = _next(sending, BeamProgress)
    assert isinstance(progress, BeamProgress) and progress.sending and progress.total == len(data)
    line = receiving.answer(offered.ticket, True)
    assert line.startswith("installed 'Cherry Board'")
    done = _next(sending, BeamDone)
    assert isinstance(done, BeamDone) and done.ok and done.text == line
    installed = [p for p in receiving.device.plugins.all() if not p.bundled]
    assert [p.name for p in installed] == ["Cherry Board"]
    assert receiving.paired() == ["Den"]
    assert receiving.forget("Den") == 1 and receiving.paired() == []


def test_a_bundled_plugin_is_beamed_as_its_built_database(
        pair: tuple[WindowBeam, WindowBeam]) -> None:
    from palmish.network.beam import items

    receiving, sending = pair
    host, port, code = receiving.start_receiving(listen="127.0.0.1", port=0)
    plugins = sending.device.plugins
    granite = next(p for p in plugins.all() if p.name == "Granite Board" and p.bundled)
    item = items.plugin_item(granite, plugins)
    sending.send(item, f"{host}:{port}", code)
    offered = _next(receiving, BeamOffered)
    assert isinstance(offered, BeamOffered)
    assert (offered.checked.title, offered.checked.what) == ("Granite Board",
                                                             "Board plugin for PalmIshido")
    assert receiving.answer(offered.ticket, True).startswith("installed 'Granite Board'")
    copy = next(p for p in receiving.device.plugins.all()
                if p.name == "Granite Board" and not p.bundled)
    assert copy.path.read_bytes() == item.data


def test_a_declined_board_writes_nothing_and_an_accepted_one_opens(
        pair: tuple[WindowBeam, WindowBeam], tmp_path: Path) -> None:
    receiving, sending = pair
    host, port, code = receiving.start_receiving(listen="127.0.0.1", port=0)
    board = BeamItem("board", "sigmar", number=4321)
    sending.send(board, f"{host}:{port}", code)
    offered = _next(receiving, BeamOffered)
    assert isinstance(offered, BeamOffered)
    assert receiving.answer(offered.ticket, False) == "Declined."
    done = _next(sending, BeamDone)
    assert isinstance(done, BeamDone) and not done.ok and done.text == "declined by Kitchen"
    assert not (tmp_path / "r" / "network").exists()
    sending.send(board, f"{host}:{port}", code)
    offered = _next(receiving, BeamOffered)
    assert isinstance(offered, BeamOffered)
    receiving.answer(offered.ticket, True)
    assert receiving.device.running_app.id == "sigmar"
    assert real_app(receiving.device.running_app).game.seed == 4321  # type: ignore[attr-defined]
    done = _next(sending, BeamDone)
    assert isinstance(done, BeamDone) and done.ok


def test_the_games_beam_menu_items_send_what_is_played(tmp_path: Path) -> None:
    """Beamable.current_item: Sigmar's level by its contents or board by its number,
    PalmIshido's deal by its number; each checks as the receiver checks it."""
    from palmish.network.beam import items

    device = _device(tmp_path)
    try:
        device.switch_to("sigmar")
        sigmar = real_app(device.running_app)
        beamable = items.game_for("board")
        assert beamable is not None
        board = beamable[1].current_item(sigmar)
        assert board == BeamItem("board", "sigmar", number=sigmar.game.seed)  # type: ignore[attr-defined]
        assert sigmar.open_board("7") is None  # type: ignore[attr-defined]
        level = beamable[1].current_item(sigmar)
        assert level is not None and (level.kind, level.name) == ("level", "7")
        assert items.check(level).title == "Level 7: Caution"
        device.switch_to("ishido")
        ishido = real_app(device.running_app)
        deal = items.game_for("deal")
        assert deal is not None
        assert deal[1].current_item(ishido) == BeamItem(
            "deal", "ishido", number=ishido.game.seed)  # type: ignore[attr-defined]
    finally:
        device.shutdown()


def test_a_cancelled_beam_is_interrupted_on_both_sides(
        pair: tuple[WindowBeam, WindowBeam]) -> None:
    receiving, sending = pair
    host, port, code = receiving.start_receiving(listen="127.0.0.1", port=0)
    ticket = sending.send(BeamItem("deal", "ishido", number=8), f"{host}:{port}", code)
    offered = _next(receiving, BeamOffered)  # the person has not answered yet
    assert isinstance(offered, BeamOffered)
    sending.cancel(ticket)
    cancelled = _next(sending, BeamDone)
    assert isinstance(cancelled, BeamDone) and (cancelled.ticket, cancelled.ok,
                                                cancelled.text) == (ticket, False, "cancelled")
    gone = _next(receiving, BeamDone)
    assert isinstance(gone, BeamDone) and gone.ticket == offered.ticket and not gone.ok
    assert receiving.answer(offered.ticket, True).startswith("That beam is over")
    assert receiving.device.running_app.id == "launcher"  # nothing was opened
