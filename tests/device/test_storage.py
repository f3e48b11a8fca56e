"""Storage: prefs and state round trips, atomic saves, corrupt files moved aside."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from palmish.device.disk.storage import Storage, default_data_dir, safe_file_stem
from prc_tools import Database
from prc_tools import atomic as atomic_mod


def make_storage(tmp_path: Path) -> tuple[Storage, list[str]]:
    messages: list[str] = []
    return Storage(tmp_path, report=messages.append), messages


def test_prefs_and_state_round_trip(tmp_path: Path) -> None:
    store, messages = make_storage(tmp_path)
    assert store.load_prefs("PIsh") == {}
    assert store.load_state("PIsh") is None
    store.save_prefs("PIsh", {"sound": True, "scoring": "modern"})
    store.save_state("PIsh", b"seed 7 moves 1,2")
    store.save_plugin_choices("PIsh", {"square": {"board": "Stone"}})
    assert store.load_prefs("PIsh") == {"sound": True, "scoring": "modern"}
    assert store.load_plugin_choices("PIsh") == {"square": {"board": "Stone"}}
    assert store.load_state("PIsh") == b"seed 7 moves 1,2"
    db = Database.read(store.prefs_path("PIsh"))
    assert (db.type, db.creator, len(db.records)) == ("pref", "PIsh", 2)
    assert messages == []


def test_odd_creator_codes_make_safe_file_names(tmp_path: Path) -> None:
    assert safe_file_stem("a/b.") == "a%2Fb"
    assert safe_file_stem("..") == "%00"
    store, _ = make_storage(tmp_path)
    store.save_state("../x", b"1")
    assert store.state_path("../x").parent == store.databases_dir
    assert store.load_state("../x") == b"1"


@pytest.mark.parametrize("content", [b"", b"garbage", b"\0" * 100])
def test_corrupt_state_is_moved_aside(tmp_path: Path, content: bytes) -> None:
    store, messages = make_storage(tmp_path)
    path = store.state_path("PIsh")
    path.parent.mkdir(parents=True)
    path.write_bytes(content)
    assert store.load_state("PIsh") is None
    assert not path.exists()
    aside = list(path.parent.glob(f"{path.name}.corrupt-*"))
    assert len(aside) == 1 and aside[0].read_bytes() == content
    assert len(messages) == 1 and "\n" not in messages[0] and "moved aside" in messages[0]
    store.save_state("PIsh", b"fresh")
    assert store.load_state("PIsh") == b"fresh"


def test_prefs_that_are_not_json_objects_fall_back_to_defaults(tmp_path: Path) -> None:
    store, messages = make_storage(tmp_path)
    store.save_prefs("PIsh", {"a": 1})
    db = Database.read(store.prefs_path("PIsh"))
    db.records[0].data = b"[1, 2"
    store.prefs_path("PIsh").write_bytes(db.to_bytes())
    assert store.load_prefs("PIsh") == {}
    assert len(messages) == 1


def test_wrong_kind_of_database_is_moved_aside(tmp_path: Path) -> None:
    store, messages = make_storage(tmp_path)
    store.save_prefs("PIsh", {"a": 1})
    os.replace(store.prefs_path("PIsh"), store.state_path("PIsh"))
    assert store.load_state("PIsh") is None
    assert "not a saved-state database" in messages[0]


class Boom(Exception):
    pass


@pytest.mark.parametrize("step", ["write", "fsync", "replace", "fsync-dir"])
def test_interrupted_save_leaves_old_or_new_state(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, step: str
) -> None:
    store, messages = make_storage(tmp_path)
    store.save_state("PIsh", b"old")
    real_fsync = os.fsync
    calls = {"fsync": 0}

    def failing_fsync(fd: int) -> None:
        calls["fsync"] += 1
        # The first fsync is the file's, the second the folder's.
        failing_call = {"fsync": 1, "fsync-dir": 2}.get(step)
        if calls["fsync"] == failing_call:
            raise Boom(step)
        real_fsync(fd)

    def failing_replace(src: str, dst: str) -> None:
        raise Boom(step)

    if step == "write":
        real_fdopen = os.fdopen

        def broken_fdopen(fd: int, mode: str = "r") -> object:
            handle = real_fdopen(fd, mode)

            def write(data: bytes) -> int:
                handle.raw.write(data[: len(data) // 2])  # half the bytes reach the disk
                raise Boom(step)

            handle.write = write  # type: ignore[method-assign]
            return handle

        monkeypatch.setattr(atomic_mod.os, "fdopen", broken_fdopen)
    elif step in ("fsync", "fsync-dir"):
        monkeypatch.setattr(atomic_mod.os, "fsync", failing_fsync)
    else:
        monkeypatch.setattr(atomic_mod.os, "replace", failing_replace)
    with pytest.raises(Boom):
        store.save_state("PIsh", b"new")
    monkeypatch.undo()
    assert store.load_state("PIsh") in (b"old", b"new")
    assert messages == []
    # No temporary files are left behind for the steps that fail before the rename.
    leftovers = [p.name for p in store.databases_dir.iterdir() if p.name.endswith(".tmp")]
    assert leftovers == []


def test_a_disk_that_refuses_writes_is_reported_once_and_the_old_state_kept(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store, messages = make_storage(tmp_path)
    store.save_state("PIsh", b"old")

    def full_disk(*args: object, **kwargs: object) -> tuple[int, str]:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(atomic_mod.tempfile, "mkstemp", full_disk)
    store.save_state("PIsh", b"new")
    store.save_state("PIsh", b"newer")
    assert len(messages) == 1 and "cannot save: No space left on device" in messages[0]
    monkeypatch.undo()
    assert store.load_state("PIsh") == b"old"
    store.save_state("PIsh", b"fine again")
    assert store.load_state("PIsh") == b"fine again"


def test_the_default_data_dir_follows_the_platform(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import platformdirs

    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.delenv("XDG_DATA_HOME", raising=False)
    expected = Path(platformdirs.user_data_dir("palmish", appauthor=False, roaming=False))
    assert default_data_dir() == expected
    if platformdirs.PlatformDirs is platformdirs.unix.Unix:  # Linux, as before platformdirs
        assert default_data_dir() == tmp_path / ".local" / "share" / "palmish"
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    assert default_data_dir() == tmp_path / "xdg" / "palmish"  # on every platform
    monkeypatch.setenv("XDG_DATA_HOME", "")
    assert default_data_dir() == expected


def test_other_platforms_ask_platformdirs_for_the_user_data_folder(
    monkeypatch: pytest.MonkeyPatch
) -> None:
    # macOS: ~/Library/Application Support/palmish; Windows: %LOCALAPPDATA%\\palmish
    # (local, not roaming: the data folder holds caches too).
    import platformdirs

    asked: list[tuple[object, ...]] = []

    def user_data_dir(*args: object, **options: object) -> str:
        asked.append((*args, *sorted(options.items())))
        return "/Users/ann/Library/Application Support/palmish"

    monkeypatch.delenv("XDG_DATA_HOME", raising=False)
    monkeypatch.setattr(platformdirs, "user_data_dir", user_data_dir)
    assert default_data_dir() == Path("/Users/ann/Library/Application Support/palmish")
    assert asked == [("palmish", ("appauthor", False), ("roaming", False))]
