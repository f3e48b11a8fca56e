"""Plugin schemas: the YAML format, the registry (entry points, --schema) and what
build and verify make of them, for a game prc_tools has never heard of."""

from __future__ import annotations

import importlib.metadata
import shutil
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml
from PIL import Image

from palmish.ishido.schema import SCHEMA, SCHEMA_PATH
from prc_tools import Database, PluginError, Resource, plugin
from prc_tools import schema as schemas
from prc_tools.cli import main
from prc_tools.schema import Registry, SchemaError, load_file, parse

ROOT = Path(__file__).resolve().parents[2]

# A made-up game: three numbered pictures on a grid of 5x4 cells, one required sound.
DOMINO: dict[str, Any] = {
    "game": "domino", "title": "Dominoes", "creator": "Domi",
    "types": {"board": "DoBd", "pieces": "DoPc", "sound": "DoSd", "rules": "DoRl"},
    "configs": ["square", "wide"],
    "bitmaps": {"stone": 500, "table": 600},
    "sounds": {"clack": 700},
    "placeholders": {"pips": 2, "half": 2},
    "required": {
        "pieces": {"bitmaps": [{"id": "stone", "count": 3, "what": "stones"}]},
        "board": {"bitmaps": [{"id": "table", "cells": [5, 4], "what": "the table"}]},
        "sound": {"sounds": ["clack"]},
    },
}


def write_schema(tmp_path: Path, document: Any, name: str = "domino.yaml") -> Path:
    path = tmp_path / name
    path.write_text(yaml.safe_dump(document, sort_keys=False))
    return path


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def board_folder(
    tmp_path: Path, cell: tuple[int, int] = (10, 10), id_: int | str = "table", **extra: Any
) -> Path:
    folder = tmp_path / "table"
    folder.mkdir(exist_ok=True)
    Image.new("RGB", (5 * cell[0], 4 * cell[1]), (0, 90, 0)).save(folder / "table.png")
    manifest = {"name": "Green Table", "game": "domino", "kind": "board", "author": "me",
                "configs": ["square"], "cell": list(cell),
                "bitmaps": [{"file": "table.png", "id": id_}], **extra}
    (folder / "manifest.yaml").write_text(yaml.safe_dump(manifest, sort_keys=False))
    return folder


# ---------------------------------------------------------------- the installed schema


def test_palmishido_registers_its_schema_through_the_entry_point() -> None:
    installed = schemas.registry().get("ishido")
    assert installed is not None and installed == SCHEMA
    assert schemas.registry() is schemas.registry()  # loaded once per process
    assert Path(installed.source) == SCHEMA_PATH.resolve()
    assert installed.types["pieces"] == "IsPc" and installed.bitmaps["tile"] == 1000
    assert installed.placeholder_values(7) == {"colour": 1, "shape": 1}
    [tiles] = installed.rules("pieces").bitmaps
    assert (tiles.id, tiles.count) == (1000, 36)


def test_the_schema_file_ships_in_the_package() -> None:
    setup = (ROOT / "setup.cfg").read_text()
    assert "*/plugin-schema.yaml" in setup
    assert "ishido = palmish.ishido.schema:SCHEMA_PATH" in setup


# ---------------------------------------------------------------- the format


def test_a_schema_parses_into_plain_data(tmp_path: Path) -> None:
    domino = load_file(write_schema(tmp_path, DOMINO))
    assert domino.kinds == ("board", "pieces", "sound", "rules")
    assert domino.rules("board").bitmaps[0].cells == (5, 4)
    assert domino.rules("sound").sounds[0].id == 700
    assert domino.rules("rules").bitmaps == ()
    assert domino.placeholder_values(3) == {"pips": 1, "half": 1}
    assert domino.placeholder_values(5) == {"pips": 2, "half": 1}  # the first keeps counting
    assert load_file(tmp_path / "domino.yaml") is domino  # cached


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d.pop("creator"), "creator: missing"),
        (lambda d: d.update(creator="TOOLONG"), "creator: must be a four-character code"),
        (lambda d: d.update(colour="red"), "unknown field 'colour'"),
        (lambda d: d["types"].update(Board="DoBx"), "'Board' must be a lower-case name"),
        (lambda d: d.update(configs=["round"]), "configs: must be a list of square, tall, wide"),
        (lambda d: d["bitmaps"].update(stone=70000), "bitmaps.stone: must be an integer"),
        (lambda d: d["required"].update(levels={}), "'levels' is not one of the types' kinds"),
        (lambda d: d["required"]["pieces"]["bitmaps"][0].update(id="pebble"),
         "unknown name 'pebble'"),
        (lambda d: d["required"]["board"]["bitmaps"][0].update(size=[5, 5]),
         "cells or size, not both"),
        (lambda d: d["required"]["sound"].update(sounds=["boom"]), "unknown name 'boom'"),
        (lambda d: d.update(config_names={"tall": "Tall"}), "'tall' is not one of the configs"),
        (lambda d: d.update(placeholders={"n": 3}), "'n' is the built-in placeholder"),
    ],
)
def test_a_bad_schema_is_one_line_naming_the_file(
    tmp_path: Path, change: Any, message: str
) -> None:
    document = yaml.safe_load(yaml.safe_dump(DOMINO))
    change(document)
    path = write_schema(tmp_path, document)
    with pytest.raises(SchemaError) as caught:
        load_file(path)
    text = str(caught.value)
    assert text.startswith(f"{path.resolve()}: ") and message in text and "\n" not in text


def test_unreadable_schema_files(tmp_path: Path) -> None:
    (tmp_path / "broken.yaml").write_text("game: [unclosed\n")
    with pytest.raises(SchemaError, match="YAML error at line"):
        load_file(tmp_path / "broken.yaml")
    with pytest.raises(SchemaError, match="cannot read the schema"):
        load_file(tmp_path / "missing.yaml")
    with pytest.raises(SchemaError, match="top level: must be a mapping"):
        parse(["a list"], "x.yaml")


def test_a_game_is_described_once(tmp_path: Path) -> None:
    one = load_file(write_schema(tmp_path, DOMINO))
    other = load_file(write_schema(tmp_path, {**DOMINO, "creator": "Dom2"}, "other.yaml"))
    with pytest.raises(SchemaError, match="already described by"):
        Registry([one, other])
    # A --schema file replaces the installed schema of its game.
    assert Registry([one]).with_files([tmp_path / "other.yaml"]).get("domino") == other


# ---------------------------------------------------------------- entry points


def test_entry_points_load_to_schema_paths(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    write_schema(tmp_path, DOMINO)
    (tmp_path / "domino_game.py").write_text(
        "from pathlib import Path\n"
        "SCHEMA_PATH = Path(__file__).with_name('domino.yaml')\n"
        "NOT_A_PATH = 42\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    group = schemas.ENTRY_POINT_GROUP

    def installed(*pairs: tuple[str, str]) -> None:
        monkeypatch.setattr(schemas, "entry_points",
                            lambda asked: list(pairs) if asked == group else [])

    installed(("domino", "domino_game:SCHEMA_PATH"))
    assert schemas.from_entry_points().games() == ("domino",)
    for pairs, message in [
        ((("dominoes", "domino_game:SCHEMA_PATH"),), "under the entry point name 'dominoes'"),
        ((("domino", "domino_game:NOT_A_PATH"),), "gives int, not a schema file path"),
        ((("domino", "no_such_module_here:X"),), "cannot load"),
    ]:
        installed(*pairs)
        with pytest.raises(SchemaError, match=message):
            schemas.from_entry_points()
    sys.modules.pop("domino_game", None)


@pytest.mark.parametrize("group", [schemas.ENTRY_POINT_GROUP, "console_scripts"])
def test_entry_points_are_read_as_importlib_metadata_reads_them(group: str) -> None:
    """schema.entry_points reads entry_points.txt itself (importlib.metadata is slow to import)."""
    expected = sorted((entry.name, entry.value.partition("[")[0].strip())
                      for entry in importlib.metadata.entry_points(group=group))
    assert expected  # palmish registers its games' schemas and its commands
    assert sorted(schemas.entry_points(group)) == expected


def test_an_entry_points_file_is_read_by_sections(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    info = tmp_path / "Domino_Games-1.0.dist-info"
    info.mkdir()
    (info / "entry_points.txt").write_text(
        "# a comment\n[console_scripts]\ndomino = domino_game:main\n\n"
        f"[{schemas.ENTRY_POINT_GROUP}]\n domino = domino_game:SCHEMA_PATH [extra]\n"
    )
    shadowed = tmp_path / "later"
    (shadowed / "domino_games-2.0.dist-info").mkdir(parents=True)
    (shadowed / "domino_games-2.0.dist-info" / "entry_points.txt").write_text(
        f"[{schemas.ENTRY_POINT_GROUP}]\ndomino = other:PATH\n"
    )
    monkeypatch.setattr(sys, "path", [str(tmp_path), str(tmp_path / "missing"), str(shadowed)])
    assert schemas.entry_points(schemas.ENTRY_POINT_GROUP) == [
        ("domino", "domino_game:SCHEMA_PATH")
    ]


# ---------------------------------------------------------------- build and verify


def test_a_game_without_a_schema_builds_when_its_manifest_gives_the_codes(
    tmp_path: Path,
) -> None:
    folder = board_folder(tmp_path, id_=600)  # no schema: no names for ids either
    with pytest.raises(PluginError) as caught:
        plugin.build_folder(folder)
    assert "type: missing ('domino' is not one of the games with an installed schema" in str(
        caught.value)
    manifest = yaml.safe_load((folder / "manifest.yaml").read_text())
    manifest.update(type="DoBd", creator="Domi")
    (folder / "manifest.yaml").write_text(yaml.safe_dump(manifest))
    db = plugin.build_folder(folder)
    assert (db.type, db.creator) == ("DoBd", "Domi")
    assert plugin.read_info(db)["game"] == "domino"
    assert plugin.verify(db)[0] == "pINF 0: domino board plugin 'Green Table'"


def test_build_and_verify_follow_a_schema_given_on_the_command_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    schema_file = write_schema(tmp_path, DOMINO)
    out = tmp_path / "table.prc"
    folder = board_folder(tmp_path)
    code, _, err = run(["build", "-q", str(folder), "-o", str(out)], capsys)
    assert code == 1 and "type: missing" in err
    code, _, err = run(["build", "-q", str(folder), "-o", str(out),
                        "--schema", str(schema_file)], capsys)
    assert code == 0, err
    db = Database.read(out)
    assert (db.type, db.creator) == ("DoBd", "Domi")  # from the schema
    assert run(["verify", str(out), "--schema", str(schema_file)], capsys)[0] == 0

    # The table must be exactly 5x4 cells.
    board_folder(tmp_path, cell=(10, 10))
    manifest = yaml.safe_load((folder / "manifest.yaml").read_text())
    manifest["cell"] = [12, 10]
    (folder / "manifest.yaml").write_text(yaml.safe_dump(manifest))
    code, _, err = run(["build", "-q", str(folder), "-o", str(out), "--schema",
                        str(schema_file)], capsys)
    assert code == 1
    assert err.strip().endswith("table.png: 50x40 pixels; the table is 60x40 in Square"
                                " (5x4 cells of 12x10) — see the template (prc-tools new domino"
                                " board)")

    # verify: the codes and the required resources of the schema's game.
    db.type = "DoPc"
    db.write(out)
    code, _, err = run(["verify", str(out), "--schema", str(schema_file)], capsys)
    assert code == 1
    assert "type 'DoPc' is not 'DoBd' of a domino board plugin" in err
    db.type = "DoBd"
    db.resources = db.resources[:1]
    db.write(out)
    code, _, err = run(["verify", str(out), "--schema", str(schema_file)], capsys)
    assert code == 1 and "Tbmp 600 (the table) is missing" in err
    assert len(err.strip().splitlines()) == 1


def test_a_bad_schema_option_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = write_schema(tmp_path, {**DOMINO, "creator": 7})
    code, _, err = run(["build", str(tmp_path), "-o", str(tmp_path / "x.prc"),
                        "--schema", str(bad)], capsys)
    assert code == 1
    assert err.strip().splitlines() == [
        f"prc-tools: {bad.resolve()}: creator: must be a four-character code, not 7"]
    code, _, err = run(["verify", str(tmp_path / "x.prc"), "--schema",
                        str(tmp_path / "none.yaml")], capsys)
    assert code == 1 and "cannot read the schema" in err and "\n" not in err.strip()


def test_required_pieces_and_sounds_and_placeholders(tmp_path: Path) -> None:
    registry = Registry([load_file(write_schema(tmp_path, DOMINO))])
    folder = tmp_path / "stones"
    (folder / "s").mkdir(parents=True)
    for pips in range(2):
        for half in range(2):
            Image.new("RGB", (10, 10)).save(folder / "s" / f"{pips}{half}.png")
    manifest = {"name": "Stones", "game": "domino", "kind": "pieces", "author": "me",
                "configs": ["square"], "cell": [10, 10],
                "bitmaps": [{"pattern": "s/{pips}{half}.png", "id": "stone"}]}
    (folder / "manifest.yaml").write_text(yaml.safe_dump(manifest))
    db = plugin.build_folder(folder, schemas=registry)
    assert [r.id for r in db.resources if r.type == "Tbmp"] == [500, 501, 502, 503]
    manifest["bitmaps"][0].update(pattern="s/{n}.png", count=2)
    (folder / "manifest.yaml").write_text(yaml.safe_dump(manifest))
    for n in range(2):
        shutil.copy(folder / "s" / "00.png", folder / "s" / f"{n}.png")
    # A run that is not the placeholders' 2x2 is numbered plainly.
    with pytest.raises(PluginError, match=r"stone 2 \(Tbmp 502\) is missing \(1 of the 3"
                                          r" stones are; Dominoes needs them all\)"):
        plugin.build_folder(folder, schemas=registry)

    sounds = {"name": "Quiet", "game": "domino", "kind": "sound", "author": "me"}
    (folder / "manifest.yaml").write_text(yaml.safe_dump(sounds))
    with pytest.raises(PluginError, match=r"the clack sound \('wave' 700\) is missing"):
        plugin.build_folder(folder, schemas=registry)
    quiet = Database("Quiet", "DoSd", "Domi", resources=[
        Resource("pINF", 0, plugin.info_bytes(
            {**sounds, "version": 1, "configs": ["square"]}))])
    with pytest.raises(PluginError, match=r"'wave' 700 \(clack\) is missing"):
        plugin.verify(quiet, schemas=registry)


def test_a_schema_limits_kinds_and_configs(tmp_path: Path) -> None:
    registry = Registry([load_file(write_schema(tmp_path, DOMINO))])
    folder = board_folder(tmp_path)
    for change, message in [
        ({"configs": ["tall"]}, "configs: Dominoes plugins do not serve 'tall'"),
        ({"kind": "music"}, "'music' is not one of board, pieces, sound, rules"),
    ]:
        board_folder(tmp_path, **change)
        with pytest.raises(PluginError, match=message):
            plugin.build_folder(folder, schemas=registry)


def test_the_schema_in_the_docs_is_the_shipped_one() -> None:
    import re

    text = (ROOT / "docs" / "plugin-format.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```yaml\n(.*?)```", text, re.S)
    [block] = [b for b in blocks if b.startswith("game:") and "\ntypes:" in b]
    documented = parse(yaml.safe_load(block), "docs")
    assert documented.replace(source=SCHEMA.source) == SCHEMA


def test_a_preloaded_document_serves_load_file_without_reading_yaml(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = write_schema(tmp_path, DOMINO)
    monkeypatch.setattr(schemas, "_PRELOADED", {})
    monkeypatch.setattr(schemas.safeyaml, "load", lambda *a: pytest.fail("YAML parsed"))
    given = schemas.preload(path, yaml.safe_load(path.read_text()))
    assert load_file(path) is given and given.game == "domino"
    assert given.source == str(path.resolve())  # as if read from the file
    with pytest.raises(SchemaError, match="creator"):
        schemas.preload(tmp_path / "bad.yaml", {**DOMINO, "creator": "toolong"})


def test_read_document_gives_the_yaml_unchecked(tmp_path: Path) -> None:
    assert schemas.read_document(write_schema(tmp_path, DOMINO)) == DOMINO
    with pytest.raises(SchemaError, match="cannot read"):
        schemas.read_document(tmp_path / "missing.yaml")


def test_the_docs_name_every_resource_of_every_game() -> None:
    """docs/plugin-format.md lists each game's bitmap and sound names (issue 42: Pachisi's
    and Sigmar's atom names were missing); a schema name added without docs fails here."""
    from prc_tools.schema import registry

    text = (ROOT / "docs" / "plugin-format.md").read_text(encoding="utf-8")
    missing = [f"{schema.game}: {name}" for schema in registry()
               for name in [*schema.bitmaps, *schema.sounds] if f"`{name}`" not in text]
    assert missing == []
