"""The skin read at start, kept in the data folder (palmish.frontend.skin_cache):
served while the skin's files are unchanged, a face's bezel read when first
shown, and ignored (the files read again) when stale or damaged."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from PIL import Image

from palmish.device.disk import kept as kept_file
from palmish.frontend import skin as skin_module
from palmish.frontend import skin_cache
from palmish.frontend.skin import Skin, load_skin
from palmish.frontend.skin_cache import FOLDER

SKIN = """
title: Kept
configs: [square-low, wide]
background: "#102030"
portrait:
  image: body.png
  lcd: [20, 20, 160, 160]
  buttons:
    - {action: up, rect: [80, 190, 40, 20]}
    - {action: rotate, circle: [30, 210, 10], label: Turn}
landscape:
  image: side.png
  lcd: [10, 10, 480, 320]
"""


@pytest.fixture
def skin_file(tmp_path: Path) -> Path:
    folder = tmp_path / "skins"
    folder.mkdir()
    body = Image.new("RGBA", (200, 240), (90, 90, 90, 255))
    body.putpixel((3, 4), (1, 2, 3, 0))
    body.save(folder / "body.png")
    Image.new("RGBA", (500, 340), (40, 50, 60, 200)).save(folder / "side.png")
    path = folder / "kept.yaml"
    path.write_text(SKIN, encoding="utf-8")
    return path


def summary(skin: Skin, pictures: bool = True) -> tuple[object, ...]:
    """All a skin says; with `pictures`, its images too (a kept skin decodes its PNGs)."""
    faces = [(f.size, f.lcd, f.buttons, f.bezel(skin.background),
              (f.image.mode, f.image.tobytes()) if pictures else None)
             for f in (skin.portrait, skin.landscape) if f is not None]
    return (skin.name, skin.title, skin.configs, skin.background, faces)


def no_files_read(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(skin_module, "_read_yaml", lambda path: pytest.fail("YAML read"))
    monkeypatch.setattr(Image, "open", lambda *a, **k: pytest.fail("PNG decoded"))


def test_a_kept_skin_is_the_same_and_reads_no_yaml_or_png(
    tmp_path: Path, skin_file: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cache = tmp_path / "cache"
    fresh = summary(load_skin(str(skin_file)), pictures=False)
    assert summary(load_skin(str(skin_file), cache_dir=cache), pictures=False) == fresh
    assert (cache / FOLDER / "kept.json").is_file()
    with monkeypatch.context() as patch:
        no_files_read(patch)
        kept = load_skin(str(skin_file), cache_dir=cache)
        assert summary(kept, pictures=False) == fresh
    # Asked for, a kept skin's picture itself is read from its PNG.
    assert summary(kept) == summary(load_skin(str(skin_file)))


def test_a_kept_bezel_is_read_only_when_first_shown(tmp_path: Path, skin_file: Path) -> None:
    cache = tmp_path / "cache"
    fresh = load_skin(str(skin_file))
    load_skin(str(skin_file), cache_dir=cache)
    kept_skin = load_skin(str(skin_file), cache_dir=cache)
    assert kept_skin.landscape is not None and kept_skin.landscape.size == (500, 340)
    bezels = sorted((cache / FOLDER).glob("*.bezel"))
    assert len(bezels) == 2
    for path in bezels:  # changed after the start, before the face is shown
        header = json.loads(path.read_bytes().split(b"\n")[1])  # kept as palmish would
        assert kept_file.write(path, bytes(header["size"]), header["from"])
    assert kept_skin.landscape.bezel(kept_skin.background) == bytes(500 * 340 * 3)
    assert fresh.landscape is not None  # what it would have been
    assert fresh.landscape.bezel(fresh.background) != bytes(500 * 340 * 3)


@pytest.mark.parametrize("changed", ["kept.yaml", "body.png"])
def test_a_changed_skin_file_is_read_again(
    tmp_path: Path, skin_file: Path, changed: str
) -> None:
    cache = tmp_path / "cache"
    load_skin(str(skin_file), cache_dir=cache)
    target = skin_file.parent / changed
    if changed.endswith(".yaml"):
        target.write_text(SKIN.replace("title: Kept", "title: Changed"), encoding="utf-8")
    else:
        Image.new("RGBA", (200, 240), (200, 0, 0, 255)).save(target)
    stat = target.stat()
    os.utime(target, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1000))
    again = load_skin(str(skin_file), cache_dir=cache)
    assert summary(again) == summary(load_skin(str(skin_file)))
    assert again.title == ("Changed" if changed.endswith(".yaml") else "Kept")


@pytest.mark.parametrize("damage", ["json-garbage", "json-empty", "pixels-short",
                                    "pixels-gone", "document-wrong"])
def test_a_damaged_kept_skin_is_ignored_and_kept_anew(
    tmp_path: Path, skin_file: Path, damage: str
) -> None:
    cache = tmp_path / "cache"
    fresh = summary(load_skin(str(skin_file)))
    load_skin(str(skin_file), cache_dir=cache)
    kept_json = cache / FOLDER / "kept.json"
    pixels = sorted((cache / FOLDER).glob("*.bezel"))
    if damage == "json-garbage":
        kept_json.write_bytes(b"\x00{{not json")
    elif damage == "json-empty":
        kept_json.write_text("{}")
    elif damage == "pixels-short":
        pixels[0].write_bytes(pixels[0].read_bytes()[:-1])
    elif damage == "pixels-gone":
        pixels[1].unlink()
    else:  # a kept document that is no skin: checked like a read one
        source = [skin_cache.FORMAT, skin_cache._stamp(skin_file)]
        found = kept_file.read(kept_json, source, 1 << 20)
        assert found is not None
        text = found[0].decode().replace('"lcd": [20, 20, 160, 160]', '"lcd": [20, 20, 16, 16]')
        assert kept_file.write(kept_json, text.encode(), source)  # sealed as if palmish wrote it
    if damage == "document-wrong":
        with pytest.raises(skin_module.SkinError, match="not a whole multiple"):
            load_skin(str(skin_file), cache_dir=cache)
        return
    assert summary(load_skin(str(skin_file), cache_dir=cache)) == fresh
    assert summary(load_skin(str(skin_file), cache_dir=cache)) == fresh  # kept anew


@pytest.mark.parametrize("fifo", [False, True], ids=["removed", "fifo"])
def test_bezels_removed_or_replaced_by_fifos_are_made_from_the_png(
    tmp_path: Path, skin_file: Path, fifo: bool
) -> None:
    cache = tmp_path / "cache"
    fresh = summary(load_skin(str(skin_file)))
    load_skin(str(skin_file), cache_dir=cache)
    kept = load_skin(str(skin_file), cache_dir=cache)
    for path in (cache / FOLDER).glob("*.bezel"):
        path.unlink()  # between the start and the first turn
        if fifo:
            os.mkfifo(path)  # reading one would wait for a writer for ever
    assert summary(kept) == fresh


def test_an_unwritable_cache_is_simply_not_used(tmp_path: Path, skin_file: Path) -> None:
    blocker = tmp_path / "cache"
    blocker.write_text("a file where the folder would be")
    fresh = summary(load_skin(str(skin_file)))
    assert summary(load_skin(str(skin_file), cache_dir=blocker)) == fresh
