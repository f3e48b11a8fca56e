"""Hostile files in cache/ (issue 22 items 1, 2 and 10), run as the user would: a FIFO or
a 3 GB file in place of a kept bundled plugin, flipped bits in every kept file, and a
cache/ that cannot be written. Each start gives the undamaged screen, without a notice
(one at most when cache/ cannot be written)."""

from __future__ import annotations

import os
import resource
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from palmish.device.disk import kept

ROOT = Path(__file__).resolve().parents[2]
BOARD = "ishido-board-square.prc"
MEMORY_LIMIT = 2 << 30


def _limited() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))


@pytest.fixture(scope="module", autouse=True)
def unbuilt_skins(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """The checkout's skins without the prebuilt plugins (`make` builds them), so that
    the device builds the bundled plugins into cache/, the files these tests damage."""
    skins = tmp_path_factory.mktemp("skins")
    (skins / "devices").symlink_to(ROOT / "skins" / "devices")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("PALMISH_SKINS", str(skins))
        yield


def shot(data: Path, out: Path, app: str = "ishido") -> subprocess.CompletedProcess[str]:
    """`palmish --screenshot` on `data`, in a process of its own under a 2 GB limit."""
    return subprocess.run(
        [sys.executable, "-m", "palmish", "--screenshot", str(out), "--app", app,
         "--data-dir", str(data)],
        capture_output=True, text=True, timeout=120, preexec_fn=_limited, check=False,
        cwd=ROOT,
    )


@pytest.fixture(scope="module")
def warm(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, bytes]]:
    """A data folder after two starts of each game (the second resumes the game the
    first saved, as every later start does), and each game's screen then."""
    data = tmp_path_factory.mktemp("warm") / "data"
    screens = {}
    for app in ("ishido", "sigmar"):
        out = data.parent / f"{app}.png"
        for _ in range(2):
            done = shot(data, out, app)
            assert done.returncode == 0 and done.stderr == "", done.stderr
        screens[app] = out.read_bytes()
    return data, screens


def copy_of(warm: tuple[Path, dict[str, bytes]], tmp_path: Path) -> Path:
    data = tmp_path / "data"
    shutil.copytree(warm[0], data)
    return data


@pytest.mark.process
@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_a_fifo_in_place_of_a_kept_bundled_plugin_is_rebuilt(
    warm: tuple[Path, dict[str, bytes]], tmp_path: Path
) -> None:
    data = copy_of(warm, tmp_path)
    board = data / "cache" / "bundled" / BOARD
    board.unlink()
    os.mkfifo(board)
    done = shot(data, tmp_path / "out.png")  # reading the FIFO would wait for ever
    assert done.returncode == 0 and done.stderr == ""
    assert (tmp_path / "out.png").read_bytes() == warm[1]["ishido"]
    assert board.is_file()  # built anew in its place


@pytest.mark.process
def test_a_3_gb_file_in_place_of_a_kept_bundled_plugin_is_rebuilt(
    warm: tuple[Path, dict[str, bytes]], tmp_path: Path
) -> None:
    data = copy_of(warm, tmp_path)
    board = data / "cache" / "bundled" / BOARD
    with board.open("r+b") as handle:
        handle.truncate(3 << 30)  # sparse: nothing is written
    done = shot(data, tmp_path / "out.png")
    assert done.returncode == 0 and done.stderr == ""
    assert (tmp_path / "out.png").read_bytes() == warm[1]["ishido"]
    assert board.stat().st_size < 1 << 24


def flip_bits(path: Path, count: int = 8) -> None:
    """Flip `count` bits spread over the file, keeping its size and modification time."""
    data = bytearray(path.read_bytes())
    before = path.stat()
    for n in range(count):
        at = (len(data) * (2 * n + 1)) // (2 * count)
        data[at] ^= 1 << (n % 8)
    path.write_bytes(bytes(data))
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))


@pytest.mark.process
@pytest.mark.parametrize("app", ["ishido", "sigmar"])
def test_flipped_bits_in_every_kept_file_give_the_undamaged_screen(
    warm: tuple[Path, dict[str, bytes]], tmp_path: Path, app: str
) -> None:
    data = copy_of(warm, tmp_path)
    damaged = [p for p in (data / "cache").rglob("*") if p.is_file() and p.stat().st_size]
    assert any(p.name == "sigmar-levels.prc" for p in damaged)  # Sigmar's bundled levels too
    for path in damaged:
        flip_bits(path)
    done = shot(data, tmp_path / "out.png", app)
    assert done.returncode == 0 and done.stderr == ""
    assert (tmp_path / "out.png").read_bytes() == warm[1][app]


@pytest.mark.process
def test_a_cache_folder_that_is_a_file_gives_one_notice_at_most(
    warm: tuple[Path, dict[str, bytes]], tmp_path: Path
) -> None:
    data = copy_of(warm, tmp_path)
    shutil.rmtree(data / "cache")
    (data / "cache").write_text("not a folder")
    done = shot(data, tmp_path / "out.png")
    assert done.returncode == 0
    assert len(done.stderr.splitlines()) == 1 and "cannot be written" in done.stderr
    assert (tmp_path / "out.png").is_file()  # the game, under the notice's alert


def test_a_seal_finds_any_flipped_bit_and_another_source() -> None:
    payload = bytes(range(256)) * 4
    sealed = kept.seal(payload, ["source", 1], {"size": [16, 16]})
    assert kept.unseal(sealed, ["source", 1]) == (payload, {"size": [16, 16]})
    assert kept.unseal(sealed, ["source", 2]) is None
    for bit in range(0, len(sealed) * 8, 7):
        flipped = bytearray(sealed)
        flipped[bit // 8] ^= 1 << (bit % 8)
        found = kept.unseal(bytes(flipped), ["source", 1])
        assert found is None or found == (payload, {"size": [16, 16]})
    assert kept.unseal(sealed[:-1], ["source", 1]) is None


def test_a_kept_plain_file_is_vouched_for_by_its_seal(tmp_path: Path) -> None:
    path = tmp_path / "x.prc"
    assert kept.write_beside(path, b"a database")
    assert kept.read_beside(path, 1024) == b"a database"
    path.write_bytes(b"a databasE")
    assert kept.read_beside(path, 1024) is None
    assert kept.write_beside(path, b"another")
    kept.sum_path(path).unlink()
    assert kept.read_beside(path, 1024) is None


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=400), st.integers(min_value=0, max_value=2000))
def test_unseal_never_fails_on_any_bytes(data: bytes, cut: int) -> None:
    sealed = kept.seal(b"payload", "src")
    for candidate in (data, kept.MAGIC + data, sealed[:cut] + data):
        found = kept.unseal(candidate, "src")
        assert found is None or found == (b"payload", {})
