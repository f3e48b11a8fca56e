"""The receiver's desk and the sender over loopback sessions (docs/network.md,
"Beam"): each step, pairing by keys, busy, timing out, the guessing limits per
source and in all, and fuzzed record sequences."""

from __future__ import annotations

import asyncio
import hashlib
import tempfile
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from palmish.device.exchange import PLUGIN, BeamItem
from palmish.network.beam import receiver as receiving
from palmish.network.beam import wire
from palmish.network.beam.pairing import paired_receivers, paired_senders
from palmish.network.beam.receiver import ACCEPTED, DECLINED, INTERRUPTED, REFUSED
from palmish.network.beam.sender import BUSY, CODE, FAILED
from palmish.network.discovery import FoundGame, GameList, service_info
from palmish.network.session.channel import SessionError
from palmish.network.session.guesses import Guesses
from palmish.network.session.handshake import LockedOut, WrongCode
from palmish.network.session.identity import load_identity
from palmish.network.session.kinds import Bye, Join, Ping, Refused, Welcome
from palmish.network.session.records import MessageError, Record
from tests.network.beam_loopback import CODE as RIGHT
from tests.network.beam_loopback import Receiver, beam, run, session_from

BOARD = BeamItem("board", "sigmar", number=1234)
DEAL = BeamItem("deal", "ishido", number=5)
WRONG = "0000" if RIGHT != "0000" else "1111"


def test_a_board_pairs_the_two_then_a_deal_goes_by_keys_alone(tmp_path: Path) -> None:
    async def go() -> None:
        rec = await Receiver(tmp_path / "r").start()
        try:
            first = await beam(BOARD, rec.port, tmp_path / "s", code=RIGHT)
            assert first.accepted and first.receiver == "Kitchen-Counter"
            assert first.note == (f"paired with 'Kitchen-Counter': its key is "
                                  f"{load_identity(tmp_path / 'r', print).fingerprint}")
            arrival = rec.offers[0]
            assert (arrival.sender, arrival.new, arrival.item.number) == (
                "Denholm-Study", True, 1234)
            assert arrival.note == (
                f"new here, key {load_identity(tmp_path / 's', print).fingerprint}")
            # Paired: no code, and the receiver knows it by its key under a new name.
            second = await beam(DEAL, rec.port, tmp_path / "s", name="Den")
            assert second.accepted and second.note == ""
            assert (rec.offers[1].new, rec.offers[1].note) == (False, "paired as Denholm-Study")
            assert [e.verdict for e in await rec.wait_ended(2)] == [ACCEPTED, ACCEPTED]
        finally:
            await rec.close()
        senders = paired_senders(tmp_path / "r", print).known
        assert [(k.name, k.key) for k in senders] == [
            ("Den", load_identity(tmp_path / "s", print).public)]
        assert [k.name for k in paired_receivers(tmp_path / "s", print).known] == [
            "Kitchen-Counter"]

    run(go())


def test_a_declined_beam_pairs_nothing_and_an_unknown_sender_needs_the_code(
        tmp_path: Path) -> None:
    async def go() -> None:
        rec = await Receiver(tmp_path / "r", DECLINED).start()
        try:
            without = await beam(BOARD, rec.port, tmp_path / "s")
            assert (without.status, without.text) == (
                CODE, "a pairing code is needed (the code on the receiver's screen): this"
                      " handheld has not paired with it")
            declined = await beam(BOARD, rec.port, tmp_path / "s", code=RIGHT)
            assert (declined.status, declined.text) == ("refused", "declined here")
            again = await beam(BOARD, rec.port, tmp_path / "s")
            assert again.status == CODE
        finally:
            await rec.close()
        assert not (tmp_path / "r" / "network" / "keys" / "beam-senders").exists()
        assert not (tmp_path / "s" / "network" / "keys" / "beam-receivers").exists()

    run(go())


def test_a_forgotten_sender_is_asked_for_the_code(tmp_path: Path) -> None:
    async def go() -> None:
        rec = await Receiver(tmp_path / "r").start()
        try:
            assert (await beam(BOARD, rec.port, tmp_path / "s", code=RIGHT)).accepted
            assert rec.desk is not None and rec.desk.senders.forget("Denholm-Study") == 1
            refused = await beam(BOARD, rec.port, tmp_path / "s")
            assert (refused.status, refused.text) == (
                CODE, "a pairing code is needed (the code on the receiver's screen)")
        finally:
            await rec.close()

    run(go())


def test_busy_and_an_unprintable_name(tmp_path: Path) -> None:
    async def go() -> None:
        rec = await Receiver(tmp_path / "r", None).start()
        try:
            odd = await beam(BOARD, rec.port, tmp_path / "s", code=RIGHT, name="Den\u202eevil")
            assert (odd.status, odd.text) == (
                "refused", "the sender's name holds unprintable characters")
            waiting = asyncio.ensure_future(beam(BOARD, rec.port, tmp_path / "s", code=RIGHT))
            while not rec.offers:
                await asyncio.sleep(0.01)
            busy = await beam(DEAL, rec.port, tmp_path / "t", code=RIGHT)
            assert (busy.status, busy.text) == (BUSY, "busy: receiving another beam")
            assert rec.desk is not None
            assert rec.desk.finish(rec.offers[0].ticket, ACCEPTED, "opened")
            assert (await waiting).accepted
            assert not rec.desk.finish(rec.offers[0].ticket, ACCEPTED, "again")  # over
        finally:
            await rec.close()

    run(go())


def test_guesses_are_limited_per_source_and_in_all_and_never_lock_out_a_paired_sender(
        tmp_path: Path) -> None:
    """One stranger guessing takes 2 tries a minute of the 5: an honest new sender
    still gets in with the right code; when strangers from several addresses have
    spent all 5, a new sender waits, and a paired sender goes in by its keys."""

    async def guess(source: str) -> str:
        try:
            session = await session_from(source, rec.port, WRONG)
        except WrongCode:
            return "wrong"
        except LockedOut as err:
            assert 1 <= err.retry_s <= 60
            return "locked"
        await session.close()
        return "in"

    rec = Receiver(tmp_path / "r", guesses=Guesses())

    async def go() -> None:
        await rec.start()
        try:
            assert (await beam(DEAL, rec.port, tmp_path / "paired", code=RIGHT)).accepted
            assert [await guess("127.0.0.2") for _ in range(3)] == ["wrong", "wrong", "locked"]
            honest = await beam(BOARD, rec.port, tmp_path / "honest", code=RIGHT)
            assert honest.accepted  # from 127.0.0.1: the stranger took only his own 2
            assert [await guess("127.0.0.3") for _ in range(3)] == ["wrong", "wrong", "locked"]
            assert [await guess("127.0.0.4") for _ in range(2)] == ["wrong", "locked"]  # 5 in all
            late = await beam(BOARD, rec.port, tmp_path / "late", code=RIGHT)
            assert late.status == "refused" and late.text.startswith(
                "too many wrong codes; try again in ")
            paired = await beam(BOARD, rec.port, tmp_path / "paired")
            assert paired.accepted  # by keys: never counted, never locked out
            assert rec.guesses is not None and rec.guesses.counted(time.monotonic()) == 5
        finally:
            await rec.close()
        assert sum("counted as a wrong code" in line for line in rec.log) == 5

    run(go())


def test_an_unanswered_offer_is_declined_and_a_slow_sender_refused(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(wire, "DECIDE_S", 0.3)

    async def go() -> None:
        rec = await Receiver(tmp_path / "r", None).start()
        try:
            unanswered = await beam(BOARD, rec.port, tmp_path / "s", code=RIGHT)
            assert (unanswered.status, unanswered.text) == ("refused", "declined: no answer")
            assert rec.desk is not None and not rec.desk.finish(rec.offers[0].ticket,
                                                                ACCEPTED, "late")
            monkeypatch.setattr(receiving, "JOIN_S", 0.5)
            silent = await session_from("127.0.0.1", rec.port, RIGHT)
            silent.send(Ping())  # alive, but never says who it is: dropped
            assert await silent.receive(timeout=3) is None
            await silent.close()
            assert any(line.endswith("no join within 0 s") for line in rec.log)
            monkeypatch.setattr(wire, "TRANSFER_S", 1.5)
            session = await session_from("127.0.0.1", rec.port, RIGHT)
            session.send(Join(name="Pinger"))
            assert isinstance(await session.receive(), Welcome)
            for _ in range(3):  # pings only: the receiver stays busy no longer
                session.send(Ping())
                await asyncio.sleep(0.5)
            result = await session.receive()
            assert result == wire.Result(False, "too slow: not here whole within 2 s")
            await session.close()
        finally:
            await rec.close()
        assert [e.verdict for e in rec.ended] == [DECLINED, REFUSED]

    run(go())


async def _raw(rec: Receiver, *records: Record) -> list[Record | None]:
    """A sender's records, as given, after the right code; what the receiver said."""
    session = await session_from("127.0.0.1", rec.port, RIGHT)
    said: list[Record | None] = []
    for record in records:
        session.send(record)
    try:
        while True:
            record = await session.receive(timeout=3)
            said.append(record)
            if record is None or isinstance(record, (wire.Result, Refused)):
                break
    except SessionError:  # the receiver closed on us
        said.append(None)
    await session.close()
    return said


def test_out_of_order_oversized_and_changed_items_are_refused(tmp_path: Path) -> None:
    plugin = wire.Offer("plugin", "", "", None, 3)

    async def go() -> None:
        rec = await Receiver(tmp_path / "r").start()
        try:
            said = await _raw(rec, Join(name="Den"), wire.Data(0, b"abc"))  # before the offer
            assert isinstance(said[0], Welcome) and said[-1] is None
            said = await _raw(rec, Join(name="Den"), plugin, wire.Data(0, b"abcd"))
            assert said[1:] == [wire.Ready(), None]  # 4 bytes of 3 offered: dropped
            said = await _raw(rec, Join(name="Den"), plugin, wire.Data(1, b"abc"))
            assert said[1:] == [wire.Ready(), None]  # chunk 1 first: dropped
            said = await _raw(rec, Join(name="Den"), plugin, wire.Data(0, b"abc"),
                              wire.End(hashlib.sha256(b"abd").digest()))
            assert said[1:] == [wire.Ready(), wire.Progress(3), wire.Result(
                False, "damaged on the way (its SHA-256 differs)")]
            said = await _raw(rec, Join(name="Den"), wire.Offer("plugin", "", "", None, 5 << 20))
            assert said[1:] == [wire.Result(False, "too large: 5 MB, at most 1 MB")]
            said = await _raw(rec, Join(name="Den"), wire.Offer("board", "sigmar", "", 3, 9))
            assert said[1:] == [wire.Result(False, "a number item carries no data")]
            said = await _raw(rec, Join(watch=True))
            assert said[1:] == [] or said[0] == Refused(
                2, "a beam starts with a join naming its sender", "other")
        finally:
            await rec.close()
        assert rec.offers == []

    run(go())


# ------------------------------------------------------------------------ fuzzing

_records = st.one_of(
    st.builds(Join, name=st.sampled_from(["Den", "x" * 40, None]), watch=st.booleans()),
    st.just(Ping()),
    st.just(Bye("leaving")),
    st.builds(wire.Offer, kind=st.sampled_from(["plugin", "board", "deal", "level", "x"]),
              app=st.sampled_from(["", "sigmar", "ishido", "pachisi"]),
              name=st.sampled_from(["", "7", "?"]),
              number=st.one_of(st.none(), st.integers(0, 99)),
              size=st.integers(0, 2 << 20)),
    st.builds(wire.Data, n=st.integers(0, 3), chunk=st.binary(min_size=1, max_size=64)),
    st.builds(wire.End, sha256=st.sampled_from([hashlib.sha256(b"").digest(), bytes(32)])),
)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.lists(_records, max_size=8), min_size=1, max_size=3),
       st.sampled_from([ACCEPTED, DECLINED]))
def test_fuzzed_senders_never_break_the_desk(sessions: list[list[Record]], verdict: str
                                             ) -> None:
    with tempfile.TemporaryDirectory() as folder:
        async def go() -> None:
            rec = await Receiver(Path(folder), verdict).start()
            try:
                for records in sessions:
                    await _raw(rec, *records)
                assert (await beam(BOARD, rec.port, Path(folder) / "s", code=RIGHT)).status \
                    in ("accepted", "refused")  # still receiving
            finally:
                await rec.close()
            assert rec.desk is not None and rec.desk.beam is None
            assert all(e.sender in ("Den", "x" * 40, "Denholm-Study") for e in rec.ended)
            assert {e.verdict for e in rec.ended} <= {ACCEPTED, DECLINED, REFUSED, INTERRUPTED}

        run(go())


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=300))
def test_any_bytes_from_a_sender_are_a_record_or_a_message_error(data: bytes) -> None:
    try:
        record = wire.SENDER_SAYS.decode(data, wire.MAX_SENDER_RECORD)
    except MessageError:
        return
    assert record.KIND in wire.SENDER_SAYS


def test_a_receiver_gone_is_one_line(tmp_path: Path) -> None:
    async def go() -> None:
        rec = await Receiver(tmp_path / "r").start()
        port = rec.port
        await rec.close()
        outcome = await beam(BOARD, port, tmp_path / "s", code=RIGHT)
        assert (outcome.status, outcome.text) == (
            FAILED, f"cannot reach 127.0.0.1:{port}: nothing receives there")

    run(go())


def test_a_version_1_receiver_is_one_line(tmp_path: Path) -> None:
    """What a version 1 receiver answered any hello of another version, then closed."""
    heard: list[bytes] = []

    async def old(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        heard.append(await reader.readline())
        writer.write(b'{"t":"refused","v":1,"reason":"protocol version 2 is not spoken here'
                     b' (this host speaks 1)"}\n')
        await writer.drain()
        writer.close()

    async def go() -> None:
        server = await asyncio.start_server(old, "127.0.0.1", 0)
        port = server.sockets[0].getsockname()[1]
        try:
            outcome = await beam(BOARD, port, tmp_path / "s", code=RIGHT)
        finally:
            server.close()
        assert (outcome.status, outcome.text) == (
            FAILED, f"127.0.0.1:{port} speaks network version 1; this handheld speaks"
                    " version 2: update palmish there")
        assert RIGHT.encode() not in heard[0]

    run(go())


def test_progress_is_reported_for_a_plugin(tmp_path: Path) -> None:
    seen: list[tuple[int, int]] = []

    async def go() -> None:
        rec = await Receiver(tmp_path / "r").start()
        try:
            item = BeamItem(PLUGIN, data=bytes(100_000))
            outcome = await beam(item, rec.port, tmp_path / "s", code=RIGHT,
                                 progress=lambda done, total: seen.append((done, total)))
            assert outcome.status == "refused" and outcome.text.startswith("not a ")
        finally:
            await rec.close()

    run(go())
    assert seen[-1] == (100_000, 100_000) and len(seen) == -(-100_000 // wire.chunk_bytes(100_000))
    assert receiving.MAX_CONNECTIONS >= 2


@pytest.mark.process  # zeroconf's first import asks ldconfig where its libraries are
def test_a_sender_lists_receivers_and_no_games() -> None:
    """Discovery fed in-process (no Zeroconf): what a receiver advertises is what a
    sender lists; a Pachisi game is not a receiver, nor the other way round."""
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


_answers = st.one_of(
    st.builds(Welcome, v=st.just(2), app=st.just("beam"), name=st.sampled_from(["K", "x" * 40])),
    st.just(wire.Ready()), st.just(Ping()),
    st.builds(wire.Progress, received=st.integers(0, 1 << 20)),
    st.builds(wire.Asking, title=st.just("T"), what=st.just("W")),
    st.builds(wire.Result, accepted=st.booleans(), text=st.just("done")),
    st.builds(Refused, v=st.just(2), reason=st.just("no"),
              why=st.sampled_from([None, "busy", "key", "other"])),
)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(_answers, max_size=8))
def test_a_fuzzed_receiver_never_breaks_the_sender(answers: list[Record]) -> None:
    """Whatever a receiver that knows the code says, in any order, the sender ends
    with one Outcome (never an exception, never accepted without a `result`)."""
    from palmish.network.session.handshake import ServerSide, accept
    from palmish.network.session.identity import Identity

    async def go() -> None:
        side = ServerSide(wire.APP, Identity.new(), RIGHT, hears=wire.SENDER_SAYS,
                          hear_limit=wire.MAX_SENDER_RECORD)

        async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            session = await accept(reader, writer, side, lambda line: None)
            if session is None:
                return
            for answer in answers:
                session.send(answer)
            await session.drain()
            await asyncio.sleep(0.05)
            await session.close()

        server = await asyncio.start_server(handle, "127.0.0.1", 0)
        port = server.sockets[0].getsockname()[1]
        with tempfile.TemporaryDirectory() as folder:
            try:
                outcome = await beam(BeamItem(PLUGIN, data=bytes(5000)), port, Path(folder),
                                     code=RIGHT)
            finally:
                server.close()
        assert outcome.status in ("accepted", "refused", "code", "busy", "failed")
        assert not outcome.accepted or any(
            isinstance(a, wire.Result) and a.accepted for a in answers)

    run(go())
