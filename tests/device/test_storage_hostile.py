"""Hostile data folders (issue 15 items 4, 6, 10, 11, 12): nothing lost, nothing hangs."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from palmish.device.disk import storage as storage_mod
from palmish.device.disk.datalock import DataDirLock, DeviceInUse
from palmish.device.disk.storage import Storage, parse_json
from palmish.device.events import PenDown
from palmish.launcher import LauncherApp
from prc_tools import Database, Record
from prc_tools.files import FileProblem

from .conftest import MakeDevice, RecordingApp


def make_storage(tmp_path: Path) -> tuple[Storage, list[str]]:
    messages: list[str] = []
    return Storage(tmp_path, report=messages.append), messages


def write_prefs_record(store: Storage, data: bytes) -> Path:
    path = store.prefs_path("PIsh")
    path.parent.mkdir(parents=True, exist_ok=True)
    db = Database(name="PIsh Prefs", type="pref", creator="PIsh", records=[Record(data)])
    path.write_bytes(db.to_bytes())
    return path


@pytest.mark.parametrize(
    ("record", "problem"),
    [
        (b"[" * 200_000 + b"]" * 200_000, "nested more than"),
        (b'{"a": ' + b"[" * 5000 + b"]" * 5000 + b"}", "nested more than"),
        (b'{"n": ' + b"7" * 5000 + b"}", "5000 digits"),
        (b'{"s": "\\' + b'"' + b"[" * 100 + b'"}', ""),  # brackets inside a string are fine
    ],
    ids=["deep-list", "deep-in-object", "huge-integer", "brackets-in-string"],
)
def test_hand_edited_prefs_are_bounded(tmp_path: Path, record: bytes, problem: str) -> None:
    store, messages = make_storage(tmp_path)
    path = write_prefs_record(store, record)
    prefs = store.load_prefs("PIsh")
    if not problem:
        assert prefs == {"s": '"' + "[" * 100} and messages == []
        return
    assert prefs == {}
    assert len(messages) == 1 and "\n" not in messages[0]
    assert str(path) in messages[0] and problem in messages[0] and "moved aside" in messages[0]
    aside = list(path.parent.glob(f"{path.name}.corrupt-*"))
    assert len(aside) == 1
    store.save_prefs("PIsh", {"sound": False})  # the app starts and saves again
    assert store.load_prefs("PIsh") == {"sound": False}


def test_parse_json_says_why_in_one_line() -> None:
    assert parse_json(b'{"a": [1, 2, {"b": null}]}') == {"a": [1, 2, {"b": None}]}
    for bad in (b"\xff", b"{", b"1" * 200, b"[" * 100 + b"]" * 100):
        with pytest.raises(ValueError) as caught:
            parse_json(bad)
        assert "\n" not in str(caught.value)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_a_fifo_as_prefs_or_state_does_not_hang(tmp_path: Path) -> None:
    store, messages = make_storage(tmp_path)
    store.databases_dir.mkdir(parents=True)
    os.mkfifo(store.state_path("PIsh"))
    os.mkfifo(store.prefs_path("PIsh"))
    assert store.load_state("PIsh") is None
    assert store.load_prefs("PIsh") == {}
    assert len(messages) == 2 and all("not a regular file" in m for m in messages)
    store.save_state("PIsh", b"new")
    assert store.load_state("PIsh") == b"new"


def _refuse_to_open(store: Storage, monkeypatch: pytest.MonkeyPatch, path: Path) -> None:
    real = storage_mod.read_regular

    def read(target: Path, limit: int = 0) -> bytes:
        if target == path:
            raise FileProblem("cannot read: Permission denied", unreadable=True)
        return real(target, limit)

    monkeypatch.setattr(storage_mod, "read_regular", read)


def test_an_unreadable_state_is_reported_kept_and_never_overwritten(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store, messages = make_storage(tmp_path)
    store.save_state("PIsh", b"the only copy of my game")
    path = store.state_path("PIsh")
    before = path.read_bytes()
    _refuse_to_open(store, monkeypatch, path)
    assert store.load_state("PIsh") is None
    assert messages and "Permission denied" in messages[0] and "corrupt" not in messages[0]
    assert not list(path.parent.glob("*.corrupt-*"))  # not renamed as damaged
    store.save_state("PIsh", b"a new game")
    assert path.read_bytes() == before  # not replaced either
    assert any("not saved" in m for m in messages)


@pytest.mark.skipif(os.name != "posix" or os.geteuid() == 0, reason="root reads anything")
def test_a_file_without_read_permission_is_not_renamed(tmp_path: Path) -> None:
    store, messages = make_storage(tmp_path)
    store.save_state("PIsh", b"mine")
    path = store.state_path("PIsh")
    path.chmod(0)
    try:
        assert store.load_state("PIsh") is None
        assert path.exists() and not list(path.parent.glob("*.corrupt-*"))
        assert "Permission denied" in messages[0]
    finally:
        path.chmod(0o644)


def test_set_aside_state_keeps_a_copy_before_the_next_save(tmp_path: Path) -> None:
    store, messages = make_storage(tmp_path)
    store.save_state("PIsh", b'{"v": 99, "record": "from the future"}')
    path = store.state_path("PIsh")
    old = path.read_bytes()
    store.set_aside_state("PIsh", "saved by a newer version (v 99)")
    store.save_state("PIsh", b"a new game")
    aside = list(path.parent.glob(f"{path.name}.corrupt-*"))
    assert len(aside) == 1 and aside[0].read_bytes() == old
    assert len(messages) == 1 and "newer version" in messages[0]
    assert store.load_state("PIsh") == b"a new game"


def test_an_app_that_cannot_use_its_record_leaves_a_copy(
    make_device: MakeDevice, tmp_path: Path
) -> None:
    class Picky(RecordingApp):
        def start(self, ctx):  # type: ignore[no-untyped-def]
            self.ctx = ctx
            saved = ctx.load_state()
            if saved is not None and not saved.isdigit():
                ctx.set_aside_state("the saved record is damaged")
            self.taps = 0
            self.draw()

    store, _ = make_storage(tmp_path / "data")
    store.save_state("TRec", b"truncat")
    device = make_device(apps=[LauncherApp(), Picky()])
    device.shutdown()  # saves "0" over the state
    folder = store.databases_dir
    aside = list(folder.glob("TRec-state.pdb.corrupt-*"))
    assert len(aside) == 1 and Database.read(aside[0]).records[0].data == b"truncat"


def test_a_second_device_on_the_same_folder_is_refused(tmp_path: Path) -> None:
    first = DataDirLock(tmp_path)
    first.acquire()
    second = DataDirLock(tmp_path)
    with pytest.raises(DeviceInUse, match="in use by another palmish") as caught:
        second.acquire()
    assert str(os.getpid()) in str(caught.value)
    first.release()
    second.acquire()  # free again once the first is gone
    second.release()


def test_an_exclusive_device_locks_and_cleans_its_folder(
    make_device: MakeDevice, tmp_path: Path
) -> None:
    folder = tmp_path / "data" / "databases"
    folder.mkdir(parents=True)
    stale = folder / ".TRec-state.pdb.k2m4n6p8.tmp"
    stale.write_bytes(b"half a save")
    first = make_device(exclusive=True)
    assert not stale.exists()
    with pytest.raises(DeviceInUse):
        make_device(exclusive=True)
    first.post(PenDown(10, 40))
    first.shutdown()
    second = make_device(exclusive=True)  # the lock went with the first device
    second.shutdown()


def test_stale_temporaries_of_our_own_naming_are_removed(tmp_path: Path) -> None:
    store, _ = make_storage(tmp_path)
    store.save_state("PIsh", b"keep")
    folder = store.databases_dir
    stale = [folder / ".PIsh-state.pdb.ab3_x9zq.tmp", folder / ".My Board.prc.0a1b2c3d.tmp"]
    kept = [folder / "notes.tmp", folder / ".PIsh-state.pdb.short.tmp", folder / "x.pdb"]
    for path in stale + kept:
        path.write_bytes(b"x")
    removed = store.remove_stale_temporaries()
    assert sorted(removed) == sorted(stale)
    assert all(p.exists() for p in kept) and store.state_path("PIsh").exists()


def test_a_flipped_bit_in_a_saved_game_is_caught_by_its_checksum(tmp_path: Path) -> None:
    store, messages = make_storage(tmp_path)
    record = b'{"v": 3, "moves": "a1b2c3"}'
    store.save_state("PIsh", record)
    assert store.load_state("PIsh") == record and messages == []
    path = store.state_path("PIsh")
    db = Database.read(path)
    db.records[0].data = record.replace(b"b2", b"b3")  # still a valid record to the app
    path.write_bytes(db.to_bytes())
    assert store.load_state("PIsh") is None
    assert len(messages) == 1 and "does not match its checksum" in messages[0]
    assert len(list(path.parent.glob(f"{path.name}.corrupt-*"))) == 1  # kept for inspection


def test_a_saved_game_from_before_the_checksum_still_loads(tmp_path: Path) -> None:
    store, messages = make_storage(tmp_path)
    path = store.state_path("PIsh")
    path.parent.mkdir(parents=True)
    old = Database(name="PIsh State", type="save", creator="PIsh", records=[Record(b"old")])
    path.write_bytes(old.to_bytes())
    assert store.load_state("PIsh") == b"old" and messages == []
