"""The receiver's desk without sockets (docs/network.md, "Beam"): its answers to
each step, pairing, busy, timing out, and fuzzed message sequences."""

from __future__ import annotations

import base64
import hashlib
import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from palmish.network import protocol
from palmish.network.beam import wire
from palmish.network.beam.pairing import Pairings
from palmish.network.beam.receiver import ACCEPTED, DECLINED, Arrival, Desk, Ended
from palmish.network.protocol import ProtocolError

KEY = "ab" * 16
CODE = "4821"


class Recorder:
    def __init__(self, data_dir: Path) -> None:
        self.offers: list[Arrival] = []
        self.ended: list[Ended] = []
        self.desk = Desk("Kitchen", CODE, Pairings(data_dir), self.offers.append,
                         self.ended.append)

    def said(self) -> list[dict[str, Any]]:
        """What the desk sent, each line checked against the receiver's table."""
        out = []
        for _peer, msg in self.desk.take_outbox():
            line = protocol.encode(msg)
            out.append(protocol.decode(line, wire.RECEIVER_KINDS, protocol.MAX_HOST_LINE))
        return out


def hello(**fields: Any) -> dict[str, Any]:
    return {"t": "hello", "v": 1, "app": "beam", "name": "Den", "key": KEY, **fields}


def number_offer(kind: str = "board", app: str = "sigmar", number: int = 1234) -> dict[str, Any]:
    return {"t": "offer", "kind": kind, "app": app, "name": "", "number": number, "size": 0}


EMPTY_SHA = hashlib.sha256(b"").hexdigest()


def test_a_board_from_hello_to_result_and_pairing(tmp_path: Path) -> None:
    rec = Recorder(tmp_path)
    desk = rec.desk
    assert desk.hello(1, hello(code=CODE), 0.0) is True
    assert rec.said() == [{"t": "welcome", "v": 1, "app": "beam", "name": "Kitchen"}]
    desk.receive(1, number_offer(), 0.0)
    assert rec.said() == [{"t": "ready"}]
    desk.receive(1, {"t": "end", "sha256": EMPTY_SHA}, 0.0)
    assert rec.said() == [{"t": "asking", "title": "Board 1234", "what": "Sigmar's Garden board"}]
    assert [a.item.number for a in rec.offers] == [1234]
    assert not (tmp_path / "network").exists()  # nothing written while the person decides
    assert desk.finish(rec.offers[0].ticket, ACCEPTED, "opened") is True
    assert rec.said() == [{"t": "result", "accepted": True, "text": "opened"}]
    assert Pairings(tmp_path).names() == ["Den"]  # kept now, after the accept
    # Paired: the next hello needs no code.
    assert desk.hello(2, hello(), 1.0) is True


def test_busy_wrong_codes_and_a_code_needed(tmp_path: Path) -> None:
    rec = Recorder(tmp_path)
    desk = rec.desk
    assert desk.hello(9, hello(code=CODE, name="Den\u202eevil"), 0.0) is False
    assert rec.said()[0]["reason"] == "the sender's name holds unprintable characters"
    assert desk.hello(1, hello(), 0.0) is False
    assert rec.said()[0]["why"] == "code"
    for peer in range(2, 2 + wire.WRONG_CODES):
        assert desk.hello(peer, hello(code="0000" if CODE != "0000" else "1111"), 1.0) is False
    rec.said()
    # Too many wrong codes: even the right one waits for the minute to pass.
    assert desk.hello(20, hello(code=CODE), 2.0) is False
    assert rec.said()[0]["reason"] == "too many wrong codes; try again in a minute"
    assert desk.hello(21, hello(code=CODE), 2.0 + wire.WRONG_CODE_WINDOW_S) is True
    assert desk.hello(22, hello(code=CODE), 70.0) is False
    assert rec.said()[-1] == {"t": "refused", "v": 1, "reason": "busy: receiving another beam",
                              "why": "busy"}


def test_an_unanswered_offer_is_declined_and_a_gone_sender_is_interrupted(
        tmp_path: Path) -> None:
    rec = Recorder(tmp_path)
    desk = rec.desk
    desk.hello(1, hello(code=CODE), 0.0)
    desk.receive(1, number_offer("deal", "ishido", 5), 0.0)
    desk.receive(1, {"t": "end", "sha256": EMPTY_SHA}, 10.0)
    desk.tick(10.0 + wire.DECIDE_S + 1)
    assert rec.ended[-1].verdict == DECLINED
    assert desk.finish(rec.offers[0].ticket, ACCEPTED, "late") is False  # over already
    desk.hello(2, hello(code=CODE), 200.0)
    desk.receive(2, {"t": "offer", "kind": "plugin", "app": "", "name": "", "number": None,
                     "size": 40000}, 200.0)
    desk.receive(2, {"t": "data", "n": 0, "bytes": base64.b64encode(bytes(1000)).decode()},
                 200.0)
    desk.gone(2, 201.0)
    assert rec.ended[-1].verdict == "interrupted"
    assert desk.session is None and not (tmp_path / "network").exists()


def test_a_sender_that_only_pings_does_not_keep_the_receiver_busy(tmp_path: Path) -> None:
    rec = Recorder(tmp_path)
    desk = rec.desk
    assert desk.hello(1, hello(code=CODE), 0.0)
    for second in range(int(wire.TRANSFER_S)):
        desk.receive(1, {"t": "ping"}, float(second))
        desk.tick(float(second))
    assert desk.session is not None
    desk.tick(wire.TRANSFER_S + 1)
    assert rec.ended[-1].verdict == "refused" and desk.session is None
    assert desk.hello(2, hello(code=CODE), wire.TRANSFER_S + 2) is True  # free again
    with pytest.raises(ProtocolError):  # the slow one is dropped when it speaks again
        desk.receive(1, {"t": "end", "sha256": EMPTY_SHA}, wire.TRANSFER_S + 3)


def test_out_of_order_and_oversized_data_drop_the_sender(tmp_path: Path) -> None:
    rec = Recorder(tmp_path)
    desk = rec.desk
    desk.hello(1, hello(code=CODE), 0.0)
    with pytest.raises(ProtocolError):
        desk.receive(1, {"t": "data", "n": 0, "bytes": "AAAA"}, 0.0)  # before the offer
    desk.gone(1, 0.0)
    desk.hello(2, hello(code=CODE), 0.0)
    desk.receive(2, {"t": "offer", "kind": "plugin", "app": "", "name": "", "number": None,
                     "size": 2}, 0.0)
    with pytest.raises(ProtocolError):
        desk.receive(2, {"t": "data", "n": 0, "bytes": "AAAA"}, 0.0)  # 3 bytes of 2 offered


def test_a_changed_item_fails_its_checksum(tmp_path: Path) -> None:
    rec = Recorder(tmp_path)
    desk = rec.desk
    desk.hello(1, hello(code=CODE), 0.0)
    desk.receive(1, {"t": "offer", "kind": "plugin", "app": "", "name": "", "number": None,
                     "size": 3}, 0.0)
    desk.receive(1, {"t": "data", "n": 0, "bytes": "AAAA"}, 0.0)
    rec.said()
    desk.receive(1, {"t": "end", "sha256": EMPTY_SHA}, 0.0)
    assert rec.said() == [{"t": "result", "accepted": False,
                           "text": "damaged on the way (its SHA-256 differs)"}]
    assert rec.offers == []


# ------------------------------------------------------------------------ fuzzing

_text = st.text(max_size=50)
_values = st.one_of(st.none(), st.booleans(), st.integers(-5, 1 << 41), _text,
                    st.lists(st.integers(), max_size=3))
_kinds = st.sampled_from(["plugin", "board", "deal", "level", "x", ""])
_messages = st.one_of(
    st.builds(lambda code: hello(code=code), st.sampled_from([CODE, "0000", "9999"])),
    st.just({"t": "ping"}),
    st.builds(lambda kind, app, name, number, size: {
        "t": "offer", "kind": kind, "app": app, "name": name, "number": number, "size": size},
        _kinds, st.sampled_from(["", "sigmar", "ishido", "pachisi"]),
        st.sampled_from(["", "7", "../x", "?"]), st.one_of(st.none(), st.integers(0, 99)),
        st.integers(0, 2 << 20)),
    st.builds(lambda n, data: {"t": "data", "n": n,
                               "bytes": base64.b64encode(data).decode() or "AA=="},
              st.integers(0, 3), st.binary(max_size=64)),
    st.builds(lambda sha: {"t": "end", "sha256": sha},
              st.sampled_from([EMPTY_SHA, "0" * 64])),
    st.dictionaries(st.sampled_from(["t", "v", "n", "kind", "size", "bytes"]), _values,
                    max_size=4),
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(st.integers(1, 3), _messages), max_size=25),
       st.lists(st.booleans(), max_size=5))
def test_fuzzed_senders_never_break_the_desk(steps: list[tuple[int, Any]],
                                             answers: list[bool]) -> None:
    with tempfile.TemporaryDirectory() as folder:
        _fuzz(Path(folder), steps, answers)


def _fuzz(tmp_path: Path, steps: list[tuple[int, Any]], answers: list[bool]) -> None:
    rec = Recorder(tmp_path)
    desk = rec.desk
    welcomed: set[int] = set()
    now = 0.0
    for peer, message in steps:
        now += 0.5
        line = protocol.encode(message)
        try:  # every line goes through the decoder first, as the transport does
            if peer not in welcomed:
                msg = protocol.decode(line, {"hello": wire.SENDER_KINDS["hello"]},
                                      wire.MAX_SENDER_LINE)
                if desk.hello(peer, msg, now):
                    welcomed.add(peer)
            else:
                msg = protocol.decode(line, wire.SENDER_KINDS, wire.MAX_SENDER_LINE)
                desk.receive(peer, msg, now)
        except ProtocolError:
            if peer in welcomed:
                welcomed.discard(peer)
                desk.gone(peer, now)  # the transport drops it
        rec.said()
        for arrival in list(rec.offers):
            rec.offers.remove(arrival)
            assert hashlib.sha256(arrival.item.data).hexdigest()  # whole, as offered
            verdict = ACCEPTED if (answers and answers.pop()) else DECLINED
            desk.finish(arrival.ticket, verdict, "answered")
            rec.said()
        desk.tick(now)
    paired = Pairings(tmp_path).names()
    assert set(paired) <= {"Den"}
    assert all(e.sender == "Den" for e in rec.ended)
    if not any(e.verdict == ACCEPTED for e in rec.ended):
        assert not (tmp_path / "network").exists()  # nothing kept without an accept


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=300))
def test_any_line_from_a_sender_is_a_message_or_a_protocol_error(line: bytes) -> None:
    try:
        msg = protocol.decode(line, wire.SENDER_KINDS, wire.MAX_SENDER_LINE)
    except ProtocolError:
        return
    assert msg["t"] in wire.SENDER_KINDS


def test_a_sender_lists_receivers_and_no_games() -> None:
    """Discovery fed in-process (no Zeroconf): what a receiver advertises is what a
    sender lists; a Pachisi game is not a receiver, nor the other way round."""
    from palmish.network.discovery import FoundGame, GameList, service_info

    receivers, games = GameList(apps=(wire.APP,)), GameList()
    for found in (receivers, games):
        found.found(service_info("Kitchen", wire.APP, 40732, ["192.0.2.7"]))
        found.found(service_info("Attic", "pachisi", 40731, ["192.0.2.8"]))
    assert receivers.games() == [FoundGame("Kitchen", "beam", "192.0.2.7", 40732)]
    assert [g.table for g in games.games()] == ["Attic"]


def test_a_levels_database_is_checked_as_the_game_installs_it(tmp_path: Path) -> None:
    """A plugin-kind item that is Sigmar's Levels database: the game's checks, then
    the install path of `palmish install levels.prc` (the game's installer)."""
    from palmish.device.disk.storage import Storage
    from palmish.device.exchange import PLUGIN, BeamItem
    from palmish.device.store.plugins import PluginRegistry
    from palmish.network.beam import items
    from prc_tools.plugin import build_folder

    folder = tmp_path / "pack"
    folder.mkdir()
    (folder / "40.dat").write_text("Forty\nbb\n", encoding="utf-8")
    (folder / "manifest.yaml").write_text(
        "name: My Levels\ntype: SgLv\ncreator: PSgm\nresources:\n"
        "  - {file: 40.dat, type: SgLv, id: 40}\n", encoding="utf-8")
    item = BeamItem(PLUGIN, data=build_folder(folder).to_bytes())
    checked = items.check(item)
    assert (checked.title, checked.what) == ("My Levels", "Sigmar's Garden levels (1)")
    storage = Storage(tmp_path / "data")
    line = items.install(item, storage, PluginRegistry(storage, None, print))
    assert line == "installed Sigmar's Garden levels 'My Levels': 40"
    assert (tmp_path / "data" / "files" / "PSgm" / "My Levels.prc").exists()
