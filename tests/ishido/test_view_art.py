"""The bundled PalmIshido art (its plugins/ishido-*): sizes from the resource map,
36 distinct tiles at both densities, lifted tiles with a shadow beyond the cell,
and a high-contrast set that stays readable without colour."""

from __future__ import annotations

import pytest
import yaml
from PIL import Image, ImageChops

from palmish.device.disk.resources import bundled_plugins

PLUGINS = bundled_plugins().folder("ishido-pieces").parent  # the game's plugins/
PIECES = ["ishido-pieces", "ishido-pieces-wide", "ishido-pieces-contrast",
          "ishido-pieces-contrast-wide"]
BOARDS = ["ishido-board-square", "ishido-board-tall", "ishido-board-wide",
          "ishido-board-square-cherry", "ishido-board-tall-granite", "ishido-board-wide-oak"]
SOUNDS = ["ishido-sounds", "ishido-sounds-marimba"]
# The high-contrast sets and their densities (Wide has no 160x160 device, so no low density).
CONTRAST = [("ishido-pieces-contrast", False), ("ishido-pieces-contrast", True),
            ("ishido-pieces-contrast-wide", False)]


def manifest(folder: str) -> dict[str, object]:
    data = yaml.safe_load((PLUGINS / folder / "manifest.yaml").read_text())
    assert isinstance(data, dict)
    return data


def pictures(folder: str, base: int, low: bool = False) -> dict[int, Image.Image]:
    """Resource id -> picture, for the bitmaps with ids base..base+35."""
    out = {}
    for entry in manifest(folder)["bitmaps"]:  # type: ignore[union-attr]
        rid = entry["id"]
        if base <= rid < base + 36:
            name = entry["members"]["72x16"] if low else entry["file"]
            out[rid - base] = Image.open(PLUGINS / folder / name).convert("RGBA")
    return out


@pytest.mark.parametrize("folder", PIECES)
def test_36_distinct_tiles_of_the_cell_size(folder: str) -> None:
    info = manifest(folder)
    cell = info["cell"]
    assert isinstance(cell, list)
    densities = [False, True] if "square" in info["configs"] else [False]  # type: ignore[operator]
    for low in densities:
        tiles = pictures(folder, 1000, low)
        assert sorted(tiles) == list(range(36))
        size = (cell[0] // 2, cell[1] // 2) if low else (cell[0], cell[1])
        assert all(t.size == size for t in tiles.values())
        assert len({t.tobytes() for t in tiles.values()}) == 36
        # Fully opaque inside (Palm bitmaps have one transparent colour, no alpha levels).
        for t in tiles.values():
            assert set(t.getchannel("A").tobytes()) <= {0, 255}


@pytest.mark.parametrize("folder", PIECES)
def test_lifted_tiles_carry_a_shadow_beyond_the_cell(folder: str) -> None:
    info = manifest(folder)
    cell = info["cell"]
    anchor = info["lifted_anchor"]
    assert isinstance(cell, list) and isinstance(anchor, list)
    assert anchor[0] < 0 and anchor[1] < 0 and anchor[0] % 2 == 0 and anchor[1] % 2 == 0
    for lifted in pictures(folder, 1100).values():
        assert lifted.width > cell[0] and lifted.height > cell[1]
        # The bottom-right corner below the raised tile is the dithered shadow.
        corner = lifted.crop((lifted.width - 3, lifted.height - 3, lifted.width, lifted.height))
        alphas = list(corner.getchannel("A").tobytes())
        assert 0 < alphas.count(255) < len(alphas)


def black_outline(tile: Image.Image) -> set[tuple[int, int]]:
    """Where the tile is (nearly) black: outlines of the tile and of its shape."""
    rgb = tile.convert("RGB")
    return {(x, y) for y in range(rgb.height) for x in range(rgb.width)
            if max(rgb.getpixel((x, y))) < 60}  # type: ignore[arg-type]


def test_every_configuration_has_a_real_choice_of_each_kind() -> None:
    """At least two boards, pieces and sound sets per configuration, exactly one the
    default, and the high-contrast pieces in every configuration."""
    folders = sorted(p.name for p in PLUGINS.iterdir()
                     if p.name.startswith("ishido-") and (p / "manifest.yaml").is_file())
    infos = [manifest(f) for f in folders]
    for slot in ("square", "tall", "wide"):
        for kind in ("board", "pieces", "sound"):
            serving = [i for i in infos if i["kind"] == kind and slot in i["configs"]]  # type: ignore[operator]
            assert len(serving) >= 2, (slot, kind)
            defaults = [i for i in serving if (i.get("info") or {}).get("default")]  # type: ignore[union-attr]
            assert len(defaults) == 1, (slot, kind)
        contrast = [i["name"] for i in infos if i["kind"] == "pieces"
                    and slot in i["configs"] and "High Contrast" in str(i["name"])]  # type: ignore[operator]
        assert contrast, slot
    assert sorted(f for f in folders if f.startswith("ishido-board")) == sorted(BOARDS)
    assert sorted(f for f in folders if f.startswith("ishido-pieces")) == sorted(PIECES)
    assert sorted(f for f in folders if f.startswith("ishido-sounds")) == sorted(SOUNDS)


@pytest.mark.parametrize(("folder", "low"), CONTRAST)
def test_high_contrast_shapes_read_by_outline_alone(folder: str, low: bool) -> None:
    tiles = pictures(folder, 1000, low)
    outlines = {k: black_outline(t) for k, t in tiles.items()}
    for a in range(36):
        for b in range(a + 1, 36):
            if a % 6 != b % 6:  # different shapes: the black drawings differ clearly
                diff = len(outlines[a] ^ outlines[b])
                assert diff >= (6 if low else 20), (a, b, diff)


@pytest.mark.parametrize(("folder", "low"), CONTRAST)
def test_high_contrast_colours_differ_in_grey_too(folder: str, low: bool) -> None:
    """Colours in the same shape stay apart in greyscale (the patterns), so a
    player who cannot tell the hues apart still can."""
    tiles = pictures(folder, 1000, low)
    for shape in range(6):
        greys = [tiles[6 * c + shape].convert("L") for c in range(6)]
        for i in range(6):
            for j in range(i + 1, 6):
                changed = ImageChops.difference(greys[i], greys[j]).point(
                    lambda v: 255 if v > 24 else 0)
                assert changed.getbbox() is not None
                assert sum(1 for v in changed.tobytes() if v) >= (8 if low else 30), \
                    (shape, i, j)


@pytest.mark.parametrize("folder", BOARDS)
def test_boards_are_twelve_by_eight_cells(folder: str) -> None:
    info = manifest(folder)
    cell = info["cell"]
    assert isinstance(cell, list)
    files = {e["id"]: e for e in info["bitmaps"]}  # type: ignore[union-attr]
    board = Image.open(PLUGINS / folder / files[2000]["file"])
    assert board.size == (12 * cell[0], 8 * cell[1])
    mark = Image.open(PLUGINS / folder / files[2001]["file"]).convert("RGBA")
    assert mark.size == (cell[0], cell[1])
    assert mark.getpixel((cell[0] // 2, cell[1] // 2))[3] == 0  # type: ignore[index]
    if "members" in files[2000]:
        low = Image.open(PLUGINS / folder / files[2000]["members"]["72x16"])
        assert low.size == (6 * cell[0], 4 * cell[1])
    wide = "Wide" in str(info["name"])
    assert wide == (info["configs"] == ["wide"])


@pytest.mark.parametrize("folder", SOUNDS)
def test_bundled_sounds_build_into_five_plain_pcm_waves(folder: str) -> None:
    import io
    import wave

    from prc_tools import plugin

    db = plugin.build_folder(PLUGINS / folder)
    waves = {r.id: r.data for r in db.resources if r.type == "wave"}
    assert sorted(waves) == [3000, 3001, 3002, 3003, 3004]
    lengths = {}
    for rid, data in waves.items():
        with wave.open(io.BytesIO(data)) as w:
            assert w.getnchannels() == 1 and w.getframerate() in (11025, 22050)
            assert w.getsampwidth() in (1, 2)
            lengths[rid] = w.getnframes() / w.getframerate()
            frames = w.readframes(w.getnframes())
        assert w.getsampwidth() == 2
        peak = max(abs(int.from_bytes(frames[i:i + 2], "little", signed=True))
                   for i in range(0, len(frames), 2))
        assert peak > 16000, rid  # audible, not silence
    # A click is short; the fanfare for all 72 tiles is the longest.
    assert lengths[3000] < 0.2 and lengths[3004] == max(lengths.values())
