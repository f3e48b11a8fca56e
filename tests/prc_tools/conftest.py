"""Shared fixtures for the prc_tools tests: small databases, WAVs, plugin folders,
and the external tools (Perl, node) that must not be skipped silently in CI."""

from __future__ import annotations

import math
import os
import shutil
import struct
from collections.abc import Callable, Iterator
from datetime import datetime
from pathlib import Path

import pytest
from PIL import Image, ImageDraw

from prc_tools import Database, Record, Resource, speedups

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]


def need_tool(found: bool, what: str) -> None:
    """Skip when a tool is missing on a developer machine; fail under CI=true."""
    if found:
        return
    if os.environ.get("CI"):
        pytest.fail(f"{what} is missing: CI must install it (see .ci/run)")
    pytest.skip(f"{what} is not installed")


@pytest.fixture(scope="module", params=["native", "pure"])
def both_codec_paths(request: pytest.FixtureRequest) -> Iterator[str]:
    """Runs a module's tests once with the C speedups and once with the pure-Python code.

    The native run is skipped when the C module is not built (test_speedups.py
    fails then instead, so CI cannot fall back unnoticed).
    """
    chosen = speedups.built() if request.param == "native" else None
    if request.param == "native" and chosen is None:
        pytest.skip("the C speedups are not built")
    before = speedups.native
    speedups.native = chosen
    try:
        yield request.param
    finally:
        speedups.native = before


@pytest.fixture
def perl_pdb() -> Path:
    """The folder of our Palm::PDB scripts, once perl with Palm::PDB is known to work."""
    perl = shutil.which("perl")
    ok = perl is not None and os.system(f"{perl} -MPalm::PDB -MPalm::Raw -e1 2>/dev/null") == 0
    need_tool(ok, "perl with Palm::PDB (libpalm-pdb-perl)")
    return HERE / "perl"


@pytest.fixture
def palm_pdb_npm() -> Path:
    """The npm folder with palm-pdb installed, or skip/fail."""
    folder = HERE / "npm"
    ok = shutil.which("node") is not None and (folder / "node_modules" / "palm-pdb").is_dir()
    need_tool(ok, "node with npm's palm-pdb (npm install in tests/prc_tools/npm)")
    return folder


def sample_prc() -> Database:
    return Database(
        name="Sample Resources",
        type="IsPc",
        creator="PIsh",
        version=3,
        created=datetime(2024, 5, 6, 7, 8, 9),
        modified=datetime(2025, 1, 2, 3, 4, 5),
        modification_number=12,
        unique_id_seed=0x1234,
        resources=[
            Resource("tSTR", 1000, b"hello"),
            Resource("Tbmp", 1001, bytes(range(256)) * 3),
            Resource("code", 0, b""),
            Resource("wave", 3000, b"RIFF....WAVE"),
        ],
    )


def sample_pdb() -> Database:
    return Database(
        name="Sample Records",
        type="DATA",
        creator="PIsh",
        version=1,
        created=datetime(2003, 3, 3, 3, 3, 3),
        app_info=b"app info block",
        sort_info=b"sort",
        records=[
            Record(b"first", attributes=0x40, unique_id=0x800001),
            Record(b"", attributes=0x03, unique_id=2),
            Record(b"third record" * 10, attributes=0x90, unique_id=0xFFFFFF),
        ],
    )


def wav_file(
    bits: int = 16,
    channels: int = 1,
    rate: int = 22050,
    frames: int = 2205,
    frequency: float = 441.0,
    fmt_tag: int = 1,
    amplitude: float = 0.5,
) -> bytes:
    """A sine-wave WAV in any of the layouts the converter must accept."""
    samples = bytearray()
    for i in range(frames):
        value = amplitude * math.sin(2 * math.pi * frequency * i / rate)
        for channel in range(channels):
            v = value if channel == 0 else -value
            if fmt_tag == 3:
                samples += struct.pack("<f" if bits == 32 else "<d", v)
            elif bits == 8:
                samples.append(round(v * 127) + 128)
            else:
                scale = (1 << (bits - 1)) - 1
                samples += round(v * scale).to_bytes(bits // 8, "little", signed=True)
    block = channels * bits // 8
    fmt = struct.pack("<HHIIHH", fmt_tag, channels, rate, rate * block, block, bits)
    body = b"WAVE" + b"fmt " + struct.pack("<I", len(fmt)) + fmt
    body += b"data" + struct.pack("<I", len(samples)) + bytes(samples)
    if len(samples) & 1:
        body += b"\0"
    return b"RIFF" + struct.pack("<I", len(body)) + body


def tile_image(colour: int, shape: int, size: tuple[int, int] = (24, 40)) -> Image.Image:
    """A small distinct picture per tile, with transparent corners."""
    image = Image.new("RGBA", size, (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    hues = [(200, 30, 30), (220, 200, 0), (30, 160, 60), (0, 180, 200), (40, 60, 200),
            (190, 40, 170)]
    w, h = size
    draw.rounded_rectangle((0, 0, w - 1, h - 1), radius=3, fill=(240, 230, 210, 255))
    inset = 3 + shape
    draw.ellipse((inset, inset + 6, w - 1 - inset, h - 7 - inset), fill=hues[colour] + (255,))
    return image


MakeFolder = Callable[..., Path]


@pytest.fixture
def pieces_folder(tmp_path: Path) -> MakeFolder:
    """Writes a complete small PalmIshido Pieces plugin folder; returns its path."""

    def make(name: str = "pieces", manifest: str | None = None, lifted: bool = True) -> Path:
        folder = tmp_path / name
        (folder / "tiles").mkdir(parents=True)
        for colour in range(6):
            for shape in range(6):
                tile_image(colour, shape).save(folder / "tiles" / f"t{colour}{shape}.png")
                if lifted:
                    (folder / "lifted").mkdir(exist_ok=True)
                    tile_image(colour, shape, (28, 44)).save(
                        folder / "lifted" / f"t{colour}{shape}.png"
                    )
        text = manifest if manifest is not None else PIECES_MANIFEST
        if not lifted and manifest is None:
            text = text.split("  - pattern: lifted")[0]
        (folder / "manifest.yaml").write_text(text, encoding="utf-8")
        return folder

    return make


PIECES_MANIFEST = """\
name: Test Pieces
game: ishido
kind: pieces
version: 2
author: Test Author
configs: [square, tall]
cell: [24, 40]
anchor: [0, 0]
lifted_anchor: [-2, -2]
bitmaps:
  - pattern: tiles/t{colour}{shape}.png
    id: tile
  - pattern: lifted/t{colour}{shape}.png
    id: lifted
    compression: packbits
"""


@pytest.fixture
def prc() -> Database:
    return sample_prc()


@pytest.fixture
def pdb() -> Database:
    return sample_pdb()


@pytest.fixture
def make_wav() -> Callable[..., bytes]:
    return wav_file


@pytest.fixture
def make_tile() -> Callable[..., Image.Image]:
    return tile_image


@pytest.fixture
def netpbm() -> Callable[[list[str], bytes], bytes]:
    """Run a netpbm tool (retrying pnmtopalm's random 16-bit failures), or skip/fail."""
    need_tool(shutil.which("pnmtopalm") is not None, "netpbm (pnmtopalm)")

    def run(command: list[str], data: bytes) -> bytes:
        import subprocess

        message = b""
        for _ in range(6):
            result = subprocess.run(command, input=data, capture_output=True, check=False)
            if result.returncode == 0 and result.stdout:
                return result.stdout
            message = result.stderr
        pytest.fail(f"{' '.join(command)} failed: {message.decode(errors='replace')}")

    return run
