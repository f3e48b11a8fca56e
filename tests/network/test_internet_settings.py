"""The internet settings: option, else environment, else preference file, else
the public servers; bad values are one line (docs/network.md, "Settings")."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest

from palmish.network.internet import settings
from palmish.network.internet.meeting import slot_code


def parsed(argv: list[str]) -> tuple[argparse.Namespace, argparse.ArgumentParser]:
    parser = argparse.ArgumentParser(prog="palmish host")
    settings.add_options(parser)
    return parser.parse_args(argv), parser


def test_the_option_then_the_environment_then_the_preference_then_the_public(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for name in (settings.RENDEZVOUS_ENV, settings.RELAY_ENV, settings.DIRECT_ENV):
        monkeypatch.delenv(name, raising=False)
    args, parser = parsed([])
    assert settings.from_args(args, parser, tmp_path) == settings.Settings()
    (tmp_path / "network").mkdir()
    (tmp_path / settings.PREFERENCE_FILE).write_text(
        '{"rendezvous": "ws://pref.example:4000/v1", "direct": "off"}')
    chosen = settings.from_args(args, parser, tmp_path)
    assert chosen.rendezvous == "ws://pref.example:4000/v1" and chosen.direct == ()
    assert chosen.relay == settings.PUBLIC_RELAY
    monkeypatch.setenv(settings.RENDEZVOUS_ENV, "ws://env.example:4000/v1")
    assert settings.from_args(args, parser, tmp_path).rendezvous == "ws://env.example:4000/v1"
    args, parser = parsed(["--rendezvous", "ws://127.0.0.1:9/v1", "--direct", "127.0.0.1"])
    chosen = settings.from_args(args, parser, tmp_path)
    assert chosen.rendezvous == "ws://127.0.0.1:9/v1" and chosen.direct == ("127.0.0.1",)


@pytest.mark.parametrize("argv,said", [
    (["--relay", "foo"], "argument --relay: 'foo' is not a relay (tcp:HOST:PORT)"),
    (["--rendezvous", "http://x"], "argument --rendezvous: 'http://x' is not a rendezvous"),
    (["--direct", "every"], "argument --direct: 'every' is not auto, off or a list"),
    (["--lan", "home"], "argument --lan: 'home' is not auto, off or a list"),
])
def test_a_bad_setting_is_one_usage_line(argv: list[str], said: str,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    args, parser = parsed(argv)
    with pytest.raises(SystemExit) as exit_:
        settings.from_args(args, parser)
    assert exit_.value.code == 2
    assert said in capsys.readouterr().err.splitlines()[-1]


def test_a_damaged_preference_file_is_one_line(tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "network").mkdir()
    (tmp_path / settings.PREFERENCE_FILE).write_text('{"relay": 4}')
    args, parser = parsed([])
    with pytest.raises(SystemExit):
        settings.from_args(args, parser, tmp_path)
    assert "not an object of rendezvous, relay, direct and lan texts" in capsys.readouterr().err


def test_the_meeting_places_of_a_code() -> None:
    places = [slot_code("7-cobra-lantern", slot) for slot in range(4)]
    assert places[0] == "7-cobra-lantern" and len(set(places)) == 4
    assert all(settings.CODE.match(p) is None or p == places[0] for p in places)
    assert all(p.split("-", 1)[1] == "cobra-lantern" for p in places)
    assert all(len(p.split("-")[0]) <= 40 and p.split("-")[0].isdigit() for p in places)


def test_the_lan_path_offered_and_tried() -> None:
    """A host offers its table's addresses for the LAN path (a list: those; off:
    none); a joiner tries the host's (off: none; a list: only those)."""
    listed = settings.Settings(lan=("192.0.2.7", "127.0.0.1"))
    assert listed.lan_hints("0.0.0.0", 40731) == [["192.0.2.7", 40731], ["127.0.0.1", 40731]]
    assert settings.Settings(lan=()).lan_hints("127.0.0.1", 40731) == []
    assert settings.Settings().lan_hints("127.0.0.1", 5) == [["127.0.0.1", 5]]  # auto
    assert listed.tries_lan("127.0.0.1") and not listed.tries_lan("198.51.100.3")
    assert not settings.Settings(lan=()).tries_lan("127.0.0.1")
    assert settings.Settings().tries_lan("198.51.100.3")


def test_a_hosts_lan_offer_is_read_with_care() -> None:
    from palmish.network.internet.meeting import lan_hints

    chosen = settings.Settings(lan=("127.0.0.1",))
    offer = {"lan": [["127.0.0.1", 4000], ["10.1.2.3", 4000], ["127.0.0.1", 0], "x",
                     ["127.0.0.1", "4000"], [1, 2, 3]]}
    assert lan_hints(offer, chosen) == [("127.0.0.1", 4000)]
    assert lan_hints({"lan": "127.0.0.1:4000"}, settings.Settings()) == []
    assert lan_hints({}, settings.Settings()) == []


def test_a_peer_is_named_by_the_path_it_came_by() -> None:
    """The host's window names each joiner's path: a pump of a meeting by code
    connects from loopback, from a port it noted; anyone else came to the table's
    listener itself: LAN."""
    from palmish.network.internet.window import path_of_peer

    pumps = {5000: "relayed", 5001: "direct"}
    assert path_of_peer("127.0.0.1:5000", pumps) == "relayed"
    assert path_of_peer("[::ffff:127.0.0.1]:5001", pumps) == "direct"  # a dual-stack listener
    assert path_of_peer("127.0.0.1:5002", pumps) == "LAN"
    assert path_of_peer("192.0.2.4:5000", pumps) == "LAN"  # that port, but not a pump
    assert path_of_peer("?", pumps) == "LAN" and path_of_peer(None, pumps) == ""


def test_a_meeting_with_another_version_is_said_in_words() -> None:
    import json

    from palmish.network.internet.meeting import PROTOCOL, MeetError, _read_offer

    older = json.dumps({"palmish": PROTOCOL - 1, "transit": {}}).encode()
    with pytest.raises(MeetError, match=r"^Your friend's handheld speaks an older version"):
        _read_offer(older)
    newer = json.dumps({"palmish": PROTOCOL + 1, "transit": {}}).encode()
    with pytest.raises(MeetError, match=r"speaks an other version"):
        _read_offer(newer)
    assert _read_offer(json.dumps({"palmish": PROTOCOL, "transit": {}}).encode())
