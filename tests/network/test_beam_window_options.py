"""Where a window's Beam Receive listens (docs/network.md, "Window options"):
`--beam-port` moves it, `--network-port` moves network games only, and
`--no-discovery` keeps Beam from announcing and browsing too. No socket is opened."""

from __future__ import annotations

from pathlib import Path

from palmish.apps import installed_apps
from palmish.commands.main import build_parser
from palmish.commands.window import window_services
from palmish.device.addresses import BEAM_PORT
from palmish.device.display import CONFIGS, ConfigName
from palmish.device.machine.system import Device
from palmish.network.beam.device_service import BeamWindowService
from palmish.network.beam.recent import (
    Recent,
    recent_path,
    recent_receivers,
    remember_receiver,
)


def _beam(tmp_path: Path, *options: str) -> BeamWindowService:
    args = build_parser().parse_args([*options])
    services, close = window_services(args)
    device = Device(CONFIGS[ConfigName.SQUARE], tmp_path, installed_apps(), "launcher",
                    durable=False, alerts=False, services=services)
    made = device.beam_service()
    assert isinstance(made, BeamWindowService)
    device.shutdown()
    close()
    return made


def test_beam_port_moves_beam_receive_and_network_port_does_not(tmp_path: Path) -> None:
    assert _beam(tmp_path / "a").port == BEAM_PORT
    assert _beam(tmp_path / "b", "--network-port", "5000").port == BEAM_PORT
    assert _beam(tmp_path / "c", "--beam-port", "5001").port == 5001
    assert _beam(tmp_path / "d", "--beam-port", "0").port == 0  # a free one


def test_no_discovery_keeps_beam_off_the_local_network(tmp_path: Path) -> None:
    beam = _beam(tmp_path, "--no-discovery")  # every interface, yet no multicast
    assert beam.listen == "0.0.0.0" and beam.local_only
    remember_receiver(tmp_path, "Kitchen", "192.0.2.7:40732", print)
    assert beam.nearby() == [("Kitchen", "192.0.2.7:40732")]  # no browsing: recent ones only
    assert not _beam(tmp_path / "lan").local_only


def test_recent_receivers_are_bounded_checked_and_the_latest_first(tmp_path: Path) -> None:
    said: list[str] = []
    for n in range(10):
        remember_receiver(tmp_path, f"R{n}", f"192.0.2.{n}:40732", said.append)
    remember_receiver(tmp_path, "R3 again", "192.0.2.3:40732", said.append)
    listed = recent_receivers(tmp_path, said.append)
    assert [r.name for r in listed] == ["R3 again", "R9", "R8", "R7", "R6", "R5", "R4", "R2"]
    path = recent_path(tmp_path)
    path.write_text('{"v":1,"recent":[{"name":"Evil\\u001b","address":"192.0.2.1:1"},'
                    '{"name":"Bad","address":"no port"},{"name":"Ok","address":"[::1]:40732"}]}')
    assert recent_receivers(tmp_path, said.append) == [Recent("Ok", "[::1]:40732")]
    path.write_text("[" * 10_000)
    assert recent_receivers(tmp_path, said.append) == [] and len(said) == 1
    assert said[0].startswith(f"{path}: JSON nested") and said[0].endswith(
        "; no recent receiver is listed")
