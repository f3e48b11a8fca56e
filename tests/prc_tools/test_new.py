"""`prc-tools new`: template folders of every game and kind build and verify as they
are, with pictures of the sizes the schema asks for (issue 42)."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from PIL import Image

from prc_tools import Database, cli, plugin
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
# A kind of data (levels) serves every slot alike: it takes no --config.
EVERY_CONFIG = [(schema.game, kind, config) for schema in registry() for kind in kinds(schema)
                for config in (None, *(() if kind in schema.samples else schema.configs))]


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
    listed += [entry["file"] for entry in manifest.get("resources") or []]
    sample = schema.samples.get(kind)
    if sample is not None and sample.about is not None:
        listed.append("README.txt")  # the format of the data, beside it
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


def test_new_makes_every_kind_every_schema_has() -> None:
    """No kind of any game's schema is left without a template or a sample."""
    for schema in registry():
        assert kinds(schema) == list(schema.types), schema.game


def test_a_levels_folder_is_the_samples_a_manifest_and_a_readme(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    schema = registry().get("sigmar")
    assert schema is not None and "levels" in schema.samples
    sample = schema.samples["levels"]
    folder = tmp_path / "my-levels"
    code, out, err = run(["new", "sigmar", "levels", str(folder)], capsys)
    assert code == 0 and err == "", err
    assert f"palmish preview {folder}" in out and "README.txt" in out
    for item in sample.files:  # copied byte for byte from beside the schema
        assert (folder / item.path.name).read_bytes() == item.path.read_bytes()
    readme = (folder / "README.txt").read_text(encoding="utf-8")
    assert "first line is the level's name" in readme and "e Fire" in readme
    text = (folder / "manifest.yaml").read_text(encoding="utf-8")
    assert "{file: 100.dat, type: SgLv, id: 100}" in text and "README.txt" in text
    out_prc = tmp_path / "levels.prc"
    code, out, err = run(["build", "-q", str(folder), "-o", str(out_prc)], capsys)
    assert code == 0 and err == "", err
    assert f"install it: palmish install {out_prc}" in out
    db = Database.read(out_prc.read_bytes())
    assert (db.type, db.creator, db.resource("pINF", 0)) == ("SgLv", "PSgm", None)
    assert [(r.type, r.id) for r in db.resources] == [("SgLv", 100)]
    assert db.resources[0].data == (folder / "100.dat").read_bytes()
    code, _, err = run(["new", "sigmar", "levels", "--config", "wide", str(tmp_path / "w")],
                       capsys)
    assert code == 1 and "levels are data for every configuration" in err
    assert not (tmp_path / "w").exists()
    code, out, _ = run(["new", "--list"], capsys)
    assert "levels   1 sample level (a database of SgLv resources; every slot)" in out


TOY = ("game: toy\ntitle: Toy\ncreator: TToy\ntypes: {board: TyBd, maps: TyMp}\n"
       "configs: [square]\n")


def test_any_schema_may_declare_a_kind_of_data_with_samples(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from prc_tools.schema import load_file

    (tmp_path / "samples").mkdir()
    (tmp_path / "samples" / "7.map").write_bytes(b"a map\n")
    (tmp_path / "samples" / "about.txt").write_text("A map is text.\n")
    path = tmp_path / "toy.yaml"
    path.write_text(TOY + "samples:\n  maps:\n    what: map\n"
                    "    files: [{file: samples/7.map, id: 7}]\n    about: samples/about.txt\n")
    schema = load_file(path)
    assert kinds(schema) == ["maps"]  # the board has no pictures: nothing to draw
    folder = tmp_path / "maps"
    code, _, err = run(["new", "toy", "maps", "--schema", str(path), str(folder)], capsys)
    assert code == 0, err
    assert (folder / "7.map").read_bytes() == b"a map\n"
    assert (folder / "README.txt").read_text() == "A map is text.\n"
    code, _, err = run(["build", "-q", "--schema", str(path), str(folder), "-o",
                        str(tmp_path / "maps.prc")], capsys)
    assert code == 0, err
    db = Database.read((tmp_path / "maps.prc").read_bytes())
    assert (db.type, db.creator, [(r.type, r.id, r.data) for r in db.resources]) == (
        "TyMp", "TToy", [("TyMp", 7, b"a map\n")])


@pytest.mark.parametrize(("samples", "said"), [
    ("  maps: {what: map, files: [{file: ../x.map, id: 1}]}", "inside the schema file's folder"),
    ("  maps: {what: map, files: [{file: /etc/passwd, id: 1}]}", "inside the schema file's"),
    ("  roads: {what: road, files: [{file: r, id: 1}]}", "'roads' is not one of the types'"),
    ("  board: {what: board, files: [{file: b, id: 1}]}", "a kind with samples is data"),
    ("  maps: {files: [{file: m, id: 1}]}", "samples.maps.what: must be a non-empty text"),
    ("  maps: {what: map, files: []}", "samples.maps.files: must be a list of 1 to"),
    ("  maps: {what: map, files: [{file: m, id: 70000}]}", "must be an integer in 0..65535"),
    ("  maps: {what: map, files: [{file: m, id: 1}, {file: m, id: 2}]}", "of its own"),
    ("  maps: {what: map, files: [{file: m, id: 1}], size: 3}", "unknown field 'size'"),
])
def test_a_bad_samples_entry_is_one_line_naming_it(samples: str, said: str) -> None:
    from prc_tools.schema import SchemaError, parse

    with pytest.raises(SchemaError) as caught:
        parse(yaml.safe_load(TOY + "samples:\n" + samples + "\n"), "toy.yaml")
    message = str(caught.value)
    assert message.startswith("toy.yaml: samples") and said in message, message
    assert "\n" not in message


def test_a_sample_gone_from_beside_the_schema_is_one_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "toy.yaml"
    path.write_text(TOY + "samples:\n  maps: {what: map, files: [{file: gone.map, id: 1}]}\n")
    code, _, err = run(["new", "toy", "maps", "--schema", str(path), str(tmp_path / "m")],
                       capsys)
    assert code == 1 and "gone.map" in err and len(err.strip().splitlines()) == 1, err
    assert not (tmp_path / "m").exists()
