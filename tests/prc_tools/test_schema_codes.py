"""`verify` keeps the installed games' codes across runs (prc_tools/schema/codes.py).

Each run is a fresh interpreter, as a user's commands are, with a made-up game
installed beside palmish's (a distribution folder on PYTHONPATH) and the cache
in a folder of the test's own.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from prc_tools import Database, Resource, database, plugin, schema, sound
from prc_tools.schema import codes as schema_codes

DOMINO = {"game": "domino", "creator": "Domi", "types": {"board": "DoBd", "sound": "DoSd"}}
SCRIPT = (
    "import sys\n"
    "from prc_tools.cli import main\n"
    "code = main(sys.argv[1:])\n"
    "print('modules:', ' '.join(sorted(sys.modules)))\n"
    "sys.exit(code)\n"
)


class Run:
    def __init__(self, done: subprocess.CompletedProcess[str]) -> None:
        lines = done.stdout.splitlines()
        self.code = done.returncode
        self.modules = set(lines[-1].split()[1:])
        self.out = "\n".join(lines[:-1])
        self.err = done.stderr


@pytest.fixture
def installed(tmp_path: Path) -> Path:
    """A folder on the path holding the domino game: its module, schema and entry point."""
    site = tmp_path / "site"
    (site / "domino_game-1.0.dist-info").mkdir(parents=True)
    (site / "domino_game-1.0.dist-info" / "entry_points.txt").write_text(
        "[prc_tools.plugin_schemas]\ndomino = domino_game:SCHEMA_PATH\n"
    )
    (site / "domino_game.py").write_text(
        "from pathlib import Path\nSCHEMA_PATH = Path(__file__).with_name('domino.yaml')\n"
    )
    (site / "domino.yaml").write_text(yaml.safe_dump(DOMINO))
    return site


def verify(file: Path, site: Path, cache: Path | str, cwd: Path | None = None,
           command: tuple[str, ...] = ("verify", "-v")) -> Run:
    env = {**os.environ, "PYTHONPATH": str(site), schema_codes.CACHE_ENV: str(cache)}
    done = subprocess.run([sys.executable, "-c", SCRIPT, *command, str(file)],
                          capture_output=True, text=True, env=env, cwd=cwd or site, check=False,
                          timeout=120)
    assert "Traceback" not in done.stderr, done.stderr
    return Run(done)


def database_file(folder: Path, type_: str, creator: str, name: str = "plain.prc",
                  info: bytes | None = None) -> Path:
    db = Database("Plain", type_, creator, attributes=database.ATTR_RESOURCE)
    if info is not None:
        db.resources.append(Resource("pINF", 0, info))
    wav = sound.wav_bytes(bytes([128, 200, 128, 56]) * 100, rate=11025, bits=8)
    db.resources.append(Resource("wave", 2000, wav))
    path = folder / name
    db.write(path)
    return path


@pytest.mark.process
def test_a_plain_database_needs_no_schema_once_the_codes_are_kept(
    tmp_path: Path, installed: Path
) -> None:
    plain = database_file(tmp_path, "data", "Test")
    cache = tmp_path / "cache"
    first = verify(plain, installed, cache)
    assert first.code == 0, first.err
    assert "yaml" in first.modules and "domino_game" in first.modules
    assert len(list(cache.iterdir())) == 1
    second = verify(plain, installed, cache)
    assert (second.code, second.out, second.err) == (first.code, first.out, first.err)
    assert "yaml" not in second.modules and "domino_game" not in second.modules
    assert not [m for m in second.modules if m.startswith("palmish.")]
    assert first.out.endswith("plain.prc: OK (1 resources)")


@pytest.mark.process
def test_a_database_with_a_games_codes_is_read_as_its_plugin_either_way(
    tmp_path: Path, installed: Path
) -> None:
    coded = database_file(tmp_path, "DoBd", "Domi")
    cache = tmp_path / "cache"
    runs = [verify(coded, installed, cache) for _ in range(2)]
    for run in runs:
        assert run.code == 1
        assert run.err.strip().endswith("no 'pINF' id 0 resource: not a plugin")
    assert runs[0].err == runs[1].err


@pytest.mark.process
def test_a_changed_schema_is_read_again(tmp_path: Path, installed: Path) -> None:
    cache = tmp_path / "cache"
    coded = database_file(tmp_path, "DoBd", "Dom2")
    run = verify(coded, installed, cache)
    assert run.code == 0  # not the domino game's codes (yet)
    schema_file = installed / "domino.yaml"
    schema_file.write_text(yaml.safe_dump({**DOMINO, "creator": "Dom2"}))
    later = schema_file.stat().st_mtime + 5  # a coarse clock must not hide the change
    os.utime(schema_file, (later, later))
    run = verify(coded, installed, cache)
    assert run.code == 1 and "not a plugin" in run.err
    assert "yaml" in run.modules
    # The codes kept now are the new ones.
    again = verify(coded, installed, cache)
    assert (again.code, again.err) == (run.code, run.err)
    assert "yaml" not in again.modules  # the schemas are kept too
    plain = verify(database_file(tmp_path, "data", "Test"), installed, cache)
    assert plain.code == 0 and "yaml" not in plain.modules


@pytest.mark.process
def test_a_removed_game_is_forgotten(tmp_path: Path, installed: Path) -> None:
    cache = tmp_path / "cache"
    coded = database_file(tmp_path, "DoBd", "Domi")
    assert verify(coded, installed, cache).code == 1
    (installed / "domino_game-1.0.dist-info" / "entry_points.txt").write_text("")
    run = verify(coded, installed, cache)
    assert run.code == 0, run.err


@pytest.mark.parametrize("damage", [
    b"", b"not a cache at all\n", b"\xff\xfe\x00garbage", "cut", "bad hex", "bad code",
    "too big",
])
@pytest.mark.process
def test_a_damaged_cache_is_ignored_and_replaced(
    tmp_path: Path, installed: Path, damage: bytes | str
) -> None:
    cache = tmp_path / "cache"
    plain = database_file(tmp_path, "data", "Test")
    coded = database_file(tmp_path, "DoBd", "Domi", "coded.prc")
    clean = verify(plain, installed, cache)
    (kept,) = cache.iterdir()
    text = kept.read_bytes()
    if damage == "cut":
        data = text[: len(text) // 2]
    elif damage == "bad hex":
        data = text.replace(b"\ngame ", b"\ngame zz", 1)
    elif damage == "bad code":  # a creator of three characters
        data = text.replace(b" 446f6d69", b" 446f6d", 1)
    elif damage == "too big":  # the whole text, then more than the limit
        data = text.replace(b"\nend", b"\n" + b"x" * schema_codes.MAX_BYTES + b"\nend")
    else:
        assert isinstance(damage, bytes)
        data = damage
    assert data != text
    kept.write_bytes(data)
    run = verify(plain, installed, cache)
    assert (run.code, run.out, run.err) == (clean.code, clean.out, clean.err)
    assert "yaml" in run.modules  # the full load
    assert kept.read_bytes() == text  # written again
    run = verify(coded, installed, cache)
    assert run.code == 1 and "not a plugin" in run.err


@pytest.mark.process
def test_a_cache_folder_that_cannot_be_written_changes_nothing(
    tmp_path: Path, installed: Path
) -> None:
    plain = database_file(tmp_path, "data", "Test")
    coded = database_file(tmp_path, "DoBd", "Domi", "coded.prc")
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    for cache in (blocker / "cache", ""):  # cannot be made; no cache at all
        for _ in range(2):
            run = verify(plain, installed, cache)
            assert run.code == 0 and run.out.endswith("plain.prc: OK (1 resources)"), run.err
            assert "yaml" in run.modules
            run = verify(coded, installed, cache)
            assert run.code == 1 and "not a plugin" in run.err
    assert blocker.read_text() == "not a folder"


def test_the_cache_folder_is_the_platforms(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(schema_codes.CACHE_ENV, raising=False)
    monkeypatch.setattr(sys, "platform", "linux")
    monkeypatch.setenv("HOME", "/home/someone")
    monkeypatch.setenv("XDG_CACHE_HOME", "/var/cache/someone")
    assert schema_codes.cache_folder() == Path("/var/cache/someone/prc-tools")
    monkeypatch.setenv("XDG_CACHE_HOME", "relative/ignored")
    assert schema_codes.cache_folder() == Path("/home/someone/.cache/prc-tools")
    monkeypatch.setattr(sys, "platform", "darwin")
    assert schema_codes.cache_folder() == Path("/home/someone/Library/Caches/prc-tools")
    monkeypatch.setenv(schema_codes.CACHE_ENV, "/elsewhere")
    assert schema_codes.cache_folder() == Path("/elsewhere")
    monkeypatch.setenv(schema_codes.CACHE_ENV, "")
    assert schema_codes.cache_folder() is None


@pytest.mark.process
@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_a_fifo_in_place_of_the_cache_is_not_waited_for(tmp_path: Path, installed: Path) -> None:
    cache = tmp_path / "cache"
    plain = database_file(tmp_path, "data", "Test")
    verify(plain, installed, cache)
    (kept,) = cache.iterdir()
    kept.unlink()
    os.mkfifo(kept)
    run = verify(plain, installed, cache)  # would hang on opening the FIFO to read
    assert run.code == 0 and "yaml" in run.modules
    assert kept.is_file()  # replaced by the file


@pytest.mark.process
def test_the_working_folder_on_the_path_is_part_of_the_stamp(
    tmp_path: Path, installed: Path
) -> None:
    """`python -c` puts '' on sys.path: a game module there would be another one."""
    cache = tmp_path / "cache"
    plain = database_file(tmp_path, "data", "Test")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    for folder in (installed, elsewhere, installed):
        assert verify(plain, installed, cache, cwd=folder).code == 0
    assert len(list(cache.iterdir())) == 2


SOUNDS_INFO = {"game": "domino", "kind": "sound", "name": "Clacks", "version": 2,
               "author": "someone", "configs": ["square", "wide"]}


@pytest.mark.parametrize(("codes", "info", "good"), [
    (("DoSd", "Domi"), plugin.info_bytes(SOUNDS_INFO), True),
    (("DoBd", "Domi"), plugin.info_bytes(SOUNDS_INFO), False),  # the board's type
    (("DoSd", "Domi"), plugin.info_bytes({**SOUNDS_INFO, "kind": "tiles"}), False),
    (("DoSd", "Domi"), plugin.info_bytes({**SOUNDS_INFO, "configs": ["tall", "tall"]}), False),
    (("DoSd", "Domi"), b"game: domino\nkind: sound\nname: [flow, list]\n", False),  # PyYAML's
    (("DoSd", "Domi"), b"game: [\n", False),  # not YAML
], ids=["good", "wrong-type", "unknown-kind", "slot-twice", "flow-yaml", "bad-yaml"])
@pytest.mark.process
def test_a_plugin_reads_as_before_without_yaml_once_the_schemas_are_kept(
    tmp_path: Path, installed: Path, codes: tuple[str, str], info: bytes, good: bool
) -> None:
    file = database_file(tmp_path, *codes, name="sounds.prc", info=info)
    cache = tmp_path / "cache"
    for command in (("verify", "-v"), ("info",), ("info", "--json")):
        first = verify(file, installed, cache, command=command)  # the full load, kept
        again = verify(file, installed, cache, command=command)
        assert (again.code, again.out, again.err) == (first.code, first.out, first.err)
        uncached = verify(file, installed, "", command=command)
        assert (uncached.code, uncached.out, uncached.err) == (first.code, first.out, first.err)
        assert "domino_game" not in again.modules
        if info.startswith(b"game: domino\nkind: sound\nname: Clacks"):  # as build writes
            assert "yaml" not in again.modules
    run = verify(file, installed, cache)
    if good:
        assert run.code == 0 and "pINF 0: domino sound plugin 'Clacks'" in run.out
    else:
        assert run.code == 1 and run.err.startswith("prc-tools: ")


@pytest.mark.process
def test_a_changed_kept_schema_is_damage(tmp_path: Path, installed: Path) -> None:
    """An edited schema line fails the file's checksum: the full load, kept again."""
    cache = tmp_path / "cache"
    file = database_file(tmp_path, "DoSd", "Domi", name="sounds.prc",
                         info=plugin.info_bytes(SOUNDS_INFO))
    clean = verify(file, installed, cache)
    (kept,) = cache.iterdir()
    text = kept.read_bytes()
    creator = b" s" + b"Domi".hex().encode()  # the document's creator, on its schema line
    assert b"\nschema " in text and creator in text
    kept.write_bytes(text.replace(creator, b" s" + b"Domx".hex().encode()))
    run = verify(file, installed, cache)
    assert (run.code, run.out, run.err) == (clean.code, clean.out, clean.err)
    assert "yaml" in run.modules and kept.read_bytes() == text


def test_schemas_that_do_not_read_back_are_not_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    """A schema file changed between its load and the keeping: the codes are kept, the
    schemas not, so a plugin loads them again."""
    installed = schema.registry()
    assert schema_codes._schema_lines(installed)[0].startswith("schema ")
    real = schema.read_document

    def changed(path: str) -> object:
        document = real(path)
        assert isinstance(document, dict)
        return {**document, "title": "Another"}

    monkeypatch.setattr(schema, "read_document", changed)
    assert schema_codes._schema_lines(installed) == ["schemas-not-kept"]
    not_kept = schema_codes.GameCodes(schema_codes.GameCodes.of(installed).games, kept=None)
    assert not_kept.registry() is installed  # the full load (loaded already here)
