"""`palmish install` of a plugin's sources (a folder, a PNG, a WAV) says to build it
first, with the command (issue 42)."""

from __future__ import annotations

from pathlib import Path

import pytest
from PIL import Image

from palmish import cli

FIXTURES = Path(__file__).parent / "device" / "fixtures" / "plugins"


def install_error(path: Path, store: Path, capsys: pytest.CaptureFixture[str]) -> str:
    assert cli.main(["install", str(path), "--data-dir", str(store)]) == 1
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1, err
    return err


def test_a_plugin_folder_is_to_be_built_first(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    err = install_error(FIXTURES / "test-board", tmp_path, capsys)
    assert f"{FIXTURES / 'test-board'} is a plugin folder, not a plugin: build it first:" in err
    assert f"prc-tools build {FIXTURES / 'test-board'} -o NAME.prc" in err


def test_a_picture_is_to_be_put_in_a_folder_and_built(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    picture = tmp_path / "tile.png"
    Image.new("RGB", (24, 40)).save(picture)
    err = install_error(picture, tmp_path / "store", capsys)
    assert f"{picture} is a PNG picture, not a plugin" in err
    assert "prc-tools new GAME KIND FOLDER" in err and "prc-tools build FOLDER" in err
    assert "header claims" not in err
