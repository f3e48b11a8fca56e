"""Plugins: bundled builds and their cache, listing, validation, install, choice, fallback."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from palmish.device.disk.storage import Storage
from palmish.device.events import Key, KeyDown
from palmish.device.store.info import InvalidPlugin
from palmish.device.store.plugins import PluginRegistry
from palmish.device.ui import Alert
from prc_tools import Database, Resource
from prc_tools.plugin import build_folder

FIXTURES = Path(__file__).parent / "fixtures" / "plugins"


@pytest.fixture
def registry(tmp_path: Path, bundled: Path) -> tuple[PluginRegistry, list[str]]:
    messages: list[str] = []
    storage = Storage(tmp_path / "data", report=messages.append)
    return PluginRegistry(storage, bundled, messages.append), messages


def plugin_file(tmp_path: Path, folder: str, name: str | None = None, **info: Any) -> Path:
    """Build a fixture folder into a .prc, optionally renamed and with pINF changes."""
    db = build_folder(FIXTURES / folder)
    if name is not None or info:
        import yaml

        pinf = db.resource("pINF", 0)
        assert pinf is not None
        fields = yaml.safe_load(pinf.data)
        fields.update(info)
        if name is not None:
            fields["name"] = name
            db.name = name
        pinf.data = yaml.safe_dump(fields).encode()
    path = tmp_path / f"{name or folder}.prc"
    path.write_bytes(db.to_bytes())
    return path


def test_bundled_plugins_are_built_when_first_used_then_rebuilt_when_changed(
    registry: tuple[PluginRegistry, list[str]], bundled: Path
) -> None:
    reg, messages = registry
    names = [p.name for p in reg.all()]
    assert names == ["Test Board", "Test Board Wide", "Test Sounds"]
    cached = reg.bundled_cache / "test-board.prc"
    assert not cached.exists()  # listed from its manifest; nothing built yet
    assert reg.chosen("PIsh", "board", "square") is not None
    assert Database.read(cached).name == "Test Board"
    assert not (reg.bundled_cache / "test-sounds.prc").exists()  # not used yet
    built_at = cached.stat().st_mtime_ns
    reg.refresh()
    assert reg.chosen("PIsh", "board", "square") is not None
    assert cached.stat().st_mtime_ns == built_at  # up to date: not rebuilt
    manifest = bundled / "test-board" / "manifest.yaml"
    manifest.write_text(manifest.read_text().replace("version: 2", "version: 3"))
    future = cached.stat().st_mtime + 10
    os.utime(manifest, (future, future))
    reg.refresh()
    assert [p.version for p in reg.find(kind="board", slot="square")] == [3]
    loaded = reg.chosen("PIsh", "board", "square")
    assert loaded is not None and loaded.info.version == 3
    assert Database.read(cached).version == 3 or cached.stat().st_mtime_ns != built_at
    assert messages == []


def test_a_broken_bundled_folder_is_skipped_with_a_message(
    registry: tuple[PluginRegistry, list[str]], bundled: Path
) -> None:
    reg, messages = registry
    manifest = bundled / "test-board-wide" / "manifest.yaml"
    manifest.write_text(manifest.read_text() + "\nnonsense: 1\n")
    # A bad manifest shows when listing; a bad source file when the plugin is built.
    (bundled / "test-sounds" / "beep.wav").write_bytes(b"not a wav")
    assert [p.name for p in reg.all()] == ["Test Board", "Test Sounds"]
    assert len(messages) == 1 and messages[0].startswith("bundled plugin test-board-wide:")
    assert reg.chosen("PIsh", "sound", "square") is None
    assert "bundled sound plugin 'Test Sounds' is broken" in messages[-1]
    assert "beep.wav" in messages[-1] and str(bundled) not in messages[-1]
    assert [p.name for p in reg.all()] == ["Test Board"]


def test_listing_by_creator_kind_and_slot(registry: tuple[PluginRegistry, list[str]]) -> None:
    reg, _ = registry
    assert [p.name for p in reg.find("PIsh", "board", "wide")] == ["Test Board Wide"]
    assert [p.name for p in reg.find("PIsh", "board", "tall")] == ["Test Board"]
    assert [p.name for p in reg.find("PIsh", "sound", "square")] == ["Test Sounds"]
    assert reg.find("XXXX") == []
    info = reg.find(kind="board", slot="square")[0]
    assert (info.game, info.version, info.author, info.configs) == (
        "ishido", 2, "palmish tests", ("square", "tall"),
    )
    assert info.fields["cell"] == [4, 4]


def test_loaded_plugins_give_bitmaps_at_both_densities_and_sounds(
    registry: tuple[PluginRegistry, list[str]],
) -> None:
    reg, _ = registry
    board = reg.chosen("PIsh", "board", "square")
    assert board is not None
    image = board.bitmap(2000, 144)
    assert image is not None and image.size == (48, 32) and image.mode == "RGBA"
    low = board.bitmap(2000, 72)
    assert low is not None and low.size == (24, 16)
    assert board.bitmap(1234) is None
    sounds = reg.chosen("PIsh", "sound", "wide")
    assert sounds is not None
    wave = sounds.sound(3000)
    assert wave is not None and wave[:4] == b"RIFF"
    assert sounds.sound(3001) is None  # left out: silence


def test_a_loaded_plugin_decodes_only_the_members_it_draws_once_each(
    registry: tuple[PluginRegistry, list[str]], monkeypatch: pytest.MonkeyPatch
) -> None:
    from prc_tools import bitmap

    reg, _ = registry
    real_decode = bitmap.decode_member
    decoded: list[tuple[int, int]] = []

    def counting_decode(data: bytes, pos: int) -> bitmap.Member:
        member = real_decode(data, pos)
        decoded.append((member.density, member.depth))
        return member

    monkeypatch.setattr(bitmap, "decode", lambda data: pytest.fail("decoded a whole family"))
    monkeypatch.setattr(bitmap, "decode_member", counting_decode)
    board = reg.chosen("PIsh", "board", "square")
    assert board is not None
    assert decoded == []  # loading reads headers only
    assert board.bitmap(2000, 144) is not None and board.bitmap(2000, 144) is not None
    assert decoded == [(144, 16)]  # the deepest member at that density, once
    assert board.bitmap(2000, 72) is not None
    assert decoded == [(144, 16), (72, 16)]


def test_a_member_that_does_not_decode_is_drawn_as_missing(
    registry: tuple[PluginRegistry, list[str]],
) -> None:
    from prc_tools import bitmap

    reg, messages = registry
    db = build_folder(FIXTURES / "test-board")
    board = db.resource("Tbmp", 2000)
    assert board is not None
    last, header = bitmap.headers(board.data)[-1]
    assert (header.density, header.depth) == (144, 16)  # the member drawn at 144 dpi
    board.data = board.data[: last + header.header_size + 6]  # its pixels cut short
    path = reg.storage.databases_dir / "cut.prc"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(db.to_bytes())
    reg.refresh(bundled=False)
    info = reg.by_name("PIsh", "board", "Test Board")
    assert info is not None and not info.bundled
    loaded = reg.load(info)  # the chain of headers reads
    assert loaded.bitmap(2000, 72) is not None
    assert loaded.bitmap(2000, 144) is None
    assert len(loaded.problems) == 1 and loaded.problems[0].startswith("Tbmp 2000:")
    assert messages == []


def test_install_copies_a_valid_plugin_that_then_shadows_the_bundled_one(
    registry: tuple[PluginRegistry, list[str]], tmp_path: Path
) -> None:
    reg, _ = registry
    source = plugin_file(tmp_path, "test-board", version=9)
    info = reg.install(source)
    assert info.path.parent == reg.storage.databases_dir and info.path.read_bytes() == (
        source.read_bytes()
    )
    mine = reg.by_name("PIsh", "board", "Test Board")
    assert mine is not None and not mine.bundled and mine.version == 9
    # It replaces the bundled one of its name in the lists (one row, marked installed).
    assert [p.source for p in reg.find(kind="board", slot="tall")] == ["installed"]
    reg.delete(mine)
    assert not info.path.exists()
    bundled_one = reg.by_name("PIsh", "board", "Test Board")
    assert bundled_one is not None and bundled_one.bundled
    with pytest.raises(ValueError, match="bundled"):
        reg.delete(bundled_one)


def _with(resource: Resource) -> bytes:
    return Database("X", "IsBd", "PIsh", resources=[resource]).to_bytes()


@pytest.mark.parametrize(
    ("content", "problem"),
    [
        (b"hello", "truncated header"),
        (_with(Resource("Tbmp", 2000, b"\0" * 40)), "no 'pINF'"),
        (_with(Resource("pINF", 0, b"a: [")), "not UTF-8 YAML"),
        (_with(Resource("pINF", 0, b"made: 2001-13-45")), "not UTF-8 YAML"),
        (_with(Resource("pINF", 0, b"[" * 1000 + b"]" * 1000)), "not UTF-8 YAML"),
        (_with(Resource("pINF", 0, b"- 1")), "not a YAML mapping"),
        (Database("X", "DATA", "PIsh").to_bytes(), "not a resource database"),
    ],
)
def test_install_refuses_what_is_not_a_plugin(
    registry: tuple[PluginRegistry, list[str]], tmp_path: Path, content: bytes, problem: str
) -> None:
    reg, _ = registry
    path = tmp_path / "bad.prc"
    path.write_bytes(content)
    with pytest.raises(InvalidPlugin, match=problem) as info:
        reg.install(path)
    assert "\n" not in str(info.value)
    assert reg.storage.database_paths() == []


@pytest.mark.parametrize(
    ("changes", "problem"),
    [
        ({"kind": "music"}, "kind 'music'"),
        ({"version": "one"}, "version"),
        ({"configs": ["square", "round"]}, "configs"),
        ({"cell": [4]}, "cell"),
        ({"kind": "pieces"}, "type 'IsBd' is not 'IsPc'"),
    ],
)
def test_install_refuses_a_bad_plugin_header(
    registry: tuple[PluginRegistry, list[str]], tmp_path: Path, changes: Any, problem: str
) -> None:
    reg, _ = registry
    path = plugin_file(tmp_path, "test-board", **changes)
    with pytest.raises(InvalidPlugin, match=problem):
        reg.install(path)


def test_install_refuses_a_plugin_whose_bitmap_does_not_decode(
    registry: tuple[PluginRegistry, list[str]], tmp_path: Path
) -> None:
    reg, _ = registry
    db = build_folder(FIXTURES / "test-board")
    board = db.resource("Tbmp", 2000)
    assert board is not None
    board.data = board.data[:30]
    path = tmp_path / "broken.prc"
    path.write_bytes(db.to_bytes())
    with pytest.raises(InvalidPlugin, match="Tbmp 2000"):
        reg.install(path)
    with pytest.raises(InvalidPlugin, match="cannot read"):
        reg.install(tmp_path / "missing.prc")


def test_choice_is_remembered_per_slot_apart_from_app_prefs(
    registry: tuple[PluginRegistry, list[str]], tmp_path: Path
) -> None:
    reg, messages = registry
    reg.storage.save_prefs("PIsh", {"sound": False})
    reg.install(plugin_file(tmp_path, "test-board", name="Green Board"))
    reg.choose("PIsh", "board", "tall", "Green Board")
    assert reg.choice("PIsh", "board", "tall") == "Green Board"
    assert reg.choice("PIsh", "board", "square") is None
    chosen = reg.chosen("PIsh", "board", "tall")
    assert chosen is not None and chosen.info.name == "Green Board"
    default = reg.chosen("PIsh", "board", "square")
    assert default is not None and default.info.name == "Test Board"
    assert reg.storage.load_prefs("PIsh") == {"sound": False}
    with pytest.raises(ValueError, match="no board plugin"):
        reg.choose("PIsh", "board", "wide", "Green Board")  # does not serve wide
    reg.choose("PIsh", "board", "tall", None)
    assert reg.choice("PIsh", "board", "tall") is None
    assert messages == []


def test_a_missing_or_broken_choice_falls_back_to_the_bundled_one(
    registry: tuple[PluginRegistry, list[str]], tmp_path: Path
) -> None:
    reg, messages = registry
    info = reg.install(plugin_file(tmp_path, "test-board", name="Green Board"))
    reg.choose("PIsh", "board", "square", "Green Board")
    db = Database.read(info.path)
    board = db.resource("Tbmp", 2000)
    assert board is not None
    board.data = b"\xff" * 20  # damaged after installing
    info.path.write_bytes(db.to_bytes())
    chosen = reg.chosen("PIsh", "board", "square")
    assert chosen is not None and chosen.info.name == "Test Board"
    assert "'Green Board' is broken" in messages[-1] and "using the bundled one" in messages[-1]
    info.path.unlink()
    reg.refresh()
    chosen = reg.chosen("PIsh", "board", "square")
    assert chosen is not None and chosen.info.bundled
    assert "'Green Board' is missing" in messages[-1]


def test_the_device_shows_a_fallback_as_an_alert(make_device: Any, tmp_path: Path) -> None:
    device = make_device("square")
    device.plugins.choose("PIsh", "board", "square", "Test Board")
    assert device.plugins.chosen("PIsh", "board", "square") is not None  # built now
    (device.plugins.bundled_cache / "test-board.prc").unlink()  # cache gone: still rebuilt
    device.plugins.refresh()
    prefs = device.storage.load_plugin_choices("PIsh")
    prefs["square"] = {"board": "Gone Board"}
    device.storage.save_plugin_choices("PIsh", prefs)
    chosen = device.plugins.chosen("PIsh", "board", "square")
    assert chosen is not None and chosen.info.name == "Test Board"
    device.post(KeyDown(Key.UP))  # the alert opens once the event is handled
    assert isinstance(device.modals[-1], Alert)
    assert "'Gone Board' is missing" in device.modals[-1].message


def test_unreadable_installed_files_are_moved_aside_and_non_plugins_ignored(
    registry: tuple[PluginRegistry, list[str]]
) -> None:
    reg, messages = registry
    folder = reg.storage.databases_dir
    folder.mkdir(parents=True)
    (folder / "junk.prc").write_bytes(b"\x01" * 50)
    Database("Not a plugin", "appl", "ABCD", resources=[Resource("code", 1, b"x")]).write(
        folder / "app.prc"
    )
    assert [p.name for p in reg.all()] == ["Test Board", "Test Board Wide", "Test Sounds"]
    assert not (folder / "junk.prc").exists()
    assert len(list(folder.glob("junk.prc.corrupt-*"))) == 1
    assert (folder / "app.prc").exists()
    assert sorted(m.split(": ", 1)[1] for m in messages) == [
        "no 'pINF' id 0 resource: not a plugin; ignored",
        "truncated header: 50 bytes, a header needs 78; moved aside to "
        + next(folder.glob("junk.prc.corrupt-*")).name + ", plugin ignored",
    ]


def test_a_plugin_installed_while_running_shows_up(
    make_device: Any, app_class: Any, tmp_path: Path
) -> None:
    from palmish.launcher import LauncherApp

    game = app_class("Game", "PIsh")
    device = make_device("tall", apps=[LauncherApp(), game], start="Game")
    ctx = device.context
    assert [p.name for p in ctx.plugins("board", "tall")] == ["Test Board"]
    other = PluginRegistry(device.storage, None, lambda message: None)  # `palmish install`
    other.install(plugin_file(tmp_path, "test-board", name="Late Board"))
    assert [p.name for p in ctx.plugins("board", "tall")] == ["Late Board", "Test Board"]
    ctx.choose_plugin("board", "tall", "Late Board")
    assert ctx.plugin_choice("board", "tall") == "Late Board"
    loaded = ctx.plugin("board")
    assert loaded is not None and loaded.info.name == "Late Board"
    ctx.delete_plugin(loaded.info)
    assert [p.name for p in ctx.plugins("board", "tall")] == ["Test Board"]


@pytest.mark.process
def test_plugins_not_yet_built_are_built_in_another_process(
    registry: tuple[PluginRegistry, list[str]], monkeypatch: pytest.MonkeyPatch
) -> None:
    from prc_tools import plugin

    reg, messages = registry
    assert reg.chosen("PIsh", "board", "square") is not None  # built here, in-process
    process = reg.prebuild()
    assert process is not None and process.wait(timeout=120) == 0
    built = sorted(p.name for p in reg.bundled_cache.glob("*.prc"))
    assert built == ["test-board-wide.prc", "test-board.prc", "test-sounds.prc"]

    def no_build(folder: Path, *args: object) -> None:
        raise AssertionError(f"{folder} built again in-process")

    monkeypatch.setattr(plugin, "build_folder", no_build)
    wide = reg.chosen("PIsh", "board", "wide")
    assert wide is not None and wide.bitmap(2000, 144) is not None
    assert reg.prebuild() is None  # nothing left to build
    assert messages == []


def test_idle_warm_up_decodes_what_the_turned_device_draws(
    make_device: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from prc_tools import bitmap

    from .conftest import RecordingApp

    device = make_device("tall", apps=[RecordingApp(creator="PIsh")], start="Recorder")
    steps = 0
    while device.warm_up():
        steps += 1
        assert steps < 1000
    assert steps > 0
    assert not device.warm_up()  # done: nothing more to do
    kept = device.storage.cache_dir / "pixels"  # what it decoded, written in idle time too
    assert len(list(kept.iterdir())) >= 2

    monkeypatch.setattr(bitmap, "decode_member", lambda *a: pytest.fail("decoded at the turn"))
    wide = device.plugins.chosen("PIsh", "board", "wide")
    assert wide is not None and wide.info.name == "Test Board Wide"
    assert wide.bitmap(2000, 144) is not None  # decoded during the warm-up
