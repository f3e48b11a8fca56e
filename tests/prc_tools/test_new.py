"""`prc-tools new`: template folders of every game and kind build and verify as they
are, with pictures of the sizes the schema asks for (issue 42)."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from PIL import Image

from prc_tools import cli, plugin
from prc_tools.schema import registry
from prc_tools.studio.catalog import kinds, pictures

KINDS = [(schema.game, kind) for schema in registry() for kind in kinds(schema)]


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = cli.main(argv)
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize(("game", "kind"), KINDS)
def test_every_kind_builds_at_once(
    game: str, kind: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / f"{game}-{kind}"
    code, out, err = run(["new", game, kind, str(folder)], capsys)
    assert code == 0 and err == "", err
    assert f"palmish preview {folder}" in out
    code, out, err = run(["build", "-q", str(folder), "-o", str(tmp_path / "out.prc")], capsys)
    assert code == 0, err
    assert f"install it: palmish install {tmp_path / 'out.prc'}" in out
    assert "warning" not in err  # templates are the right size, opaque, few colours
    code, out, err = run(["verify", str(tmp_path / "out.prc")], capsys)
    assert code == 0 and err == "", err


# Every slot on its own as well as the default (several slots at once, where one cell
# shape serves them): a template folder builds at once in every configuration.
EVERY_CONFIG = [(schema.game, kind, config) for schema in registry() for kind in kinds(schema)
                for config in (None, *schema.configs)]


@pytest.mark.parametrize(("game", "kind", "config"), EVERY_CONFIG)
def test_every_kind_in_every_configuration_has_every_file_and_builds(
    game: str, kind: str, config: str | None, tmp_path: Path,
    capsys: pytest.CaptureFixture[str]
) -> None:
    schema = registry().get(game)
    assert schema is not None
    folder = tmp_path / "new"
    options = ["--config", config] if config else []
    code, _, err = run(["new", game, kind, *options, str(folder)], capsys)
    assert code == 0 and err == "", err
    manifest = yaml.safe_load((folder / "manifest.yaml").read_text(encoding="utf-8"))
    listed = [entry["file"] for entry in manifest.get("bitmaps") or []]
    sounds_listed = manifest.get("sounds") or []
    listed += [entry["file"] for entry in sounds_listed] if isinstance(sounds_listed, list) \
        else list(sounds_listed.values())
    made = sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*")
                  if p.is_file() and p.name != "manifest.yaml")
    assert sorted(listed) == made  # every file listed is there, and nothing more
    drawn = pictures(schema, kind)
    assert len([f for f in made if f.endswith(".png")]) == len(drawn)  # optional art too
    cell = tuple(manifest["cell"]) if "cell" in manifest else None
    ids = {entry["id"]: entry["file"] for entry in manifest.get("bitmaps") or []}
    for picture in drawn:
        wanted = picture.size(cell)
        with Image.open(folder / ids[picture.id]) as img:
            assert wanted is None or img.size == wanted, (picture.name, img.size, wanted)
    out_prc = tmp_path / "out.prc"
    code, _, err = run(["build", "-q", str(folder), "-o", str(out_prc)], capsys)
    assert code == 0 and "warning" not in err, err
    code, _, err = run(["verify", str(out_prc), "--sheet", str(tmp_path / "sheet.png")], capsys)
    assert code == 0 and err == "", err
    assert (tmp_path / "sheet.png").is_file() or not drawn


def test_wide_templates_have_the_wide_sizes(tmp_path: Path) -> None:
    folder = tmp_path / "wide"
    assert cli.main(["new", "ishido", "board", "--config", "wide", str(folder)]) == 0
    text = (folder / "manifest.yaml").read_text()
    assert "name: My Board Wide" in text and "cell: [34, 40]" in text
    assert Image.open(folder / "board.png").size == (408, 320)
    assert Image.open(folder / "cell-mark.png").size == (34, 40)
    db = plugin.build_folder(folder)
    assert plugin.verify(db)


def test_every_picture_of_the_schema_has_a_template(tmp_path: Path) -> None:
    schema = registry().get("ishido")
    assert schema is not None
    folder = tmp_path / "pieces"
    assert cli.main(["new", "ishido", "pieces", str(folder)]) == 0
    names = {p.relative_to(folder).as_posix() for p in folder.rglob("*.png")}
    assert len(names) == len(pictures(schema, "pieces")) == 72
    assert "tiles/red-star.png" in names and "lifted/blue-disc.png" in names


def test_list_and_mistakes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["new", "--list"], capsys)
    assert code == 0 and "board    3 pictures; cell 24x40 in Square and Tall, 34x40 in Wide" in out
    code, _, err = run(["new", "nogame", "board", str(tmp_path / "x")], capsys)
    assert code == 1 and "no game 'nogame'" in err
    code, _, err = run(["new", "ishido", "levels", str(tmp_path / "x")], capsys)
    assert code == 1 and "ishido has no kind 'levels' to make (one of board, pieces, sound)" in err
    (tmp_path / "full").mkdir()
    (tmp_path / "full" / "a").write_text("x")
    code, _, err = run(["new", "ishido", "board", str(tmp_path / "full")], capsys)
    assert code == 1 and "already exists and is not an empty folder" in err
    code, _, err = run(["new", "ishido", "board", "--config", "round", str(tmp_path / "y")],
                       capsys)
    assert code == 1 and "do not serve 'round'" in err


def test_new_never_makes_a_folder_that_cannot_build(tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    from prc_tools.cli import main

    assert main(["new", "ishido", "board", "--config", "square", "--config", "wide",
                 str(tmp_path / "both")]) == 1
    err = capsys.readouterr().err
    assert "wide board plugin cannot also serve square" in err and "one folder for each" in err
    assert not (tmp_path / "both").exists()


def test_a_picture_without_a_size_has_neither_a_file_nor_a_line(tmp_path: Path) -> None:
    from prc_tools.schema import parse
    from prc_tools.studio.templates import new_folder

    schema = parse(yaml.safe_load(
        "game: toy\ntitle: Toy\ncreator: TToy\ntypes: {board: TyBd}\nconfigs: [square]\n"
        "bitmaps: {board: 2000, mark: 2001}\n"
        "required:\n  board:\n    bitmaps:\n      - {id: board, size: [32, 32], what: the board}\n"
        "    optional:\n      - {id: mark, cells: [1, 1], what: the mark}\n"), "toy")
    written = new_folder(schema, "board", tmp_path / "toy")
    text = (tmp_path / "toy" / "manifest.yaml").read_text(encoding="utf-8")
    assert [p.name for p in written] == ["manifest.yaml", "board.png"]
    assert "board.png" in text and "mark" not in text  # no cell, so no size: left out
