"""The plugin schema Sigmar's Garden ships for prc_tools (notes: SCHEMA.md format)."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from PIL import Image

from palmish.sigmar.rules import Atom
from palmish.sigmar.schema import SCHEMA_PATH


def test_schema_file_is_plain_yaml_with_the_agreed_fields() -> None:
    text = SCHEMA_PATH.read_text(encoding="utf-8")
    assert "&" not in text and "*" not in text  # no anchors or aliases
    schema = yaml.safe_load(text)
    assert schema["game"] == "sigmar"
    assert schema["title"] == "Sigmar's Garden"
    assert schema["creator"] == "PSgm"
    assert schema["types"] == {"board": "SgBd", "pieces": "SgPc", "sound": "SgSd",
                               "levels": "SgLv", "hexboard": "SgHx"}
    assert schema["configs"] == ["square", "tall", "wide"]
    assert set(schema["required"]) == {"pieces", "board", "sound", "hexboard"}
    assert schema["one_cell_shape"] is True
    assert set(schema["sounds"]) == {"select", "react", "transmute", "gold", "illegal", "win",
                                     "stuck"}
    ids = list(schema["sounds"].values())
    assert len(set(ids)) == len(ids)


def test_every_atom_has_its_own_bitmap_id_of_1000_plus_its_digit() -> None:
    bitmaps = yaml.safe_load(SCHEMA_PATH.read_text(encoding="utf-8"))["bitmaps"]
    assert bitmaps["atom"] == 1000
    for atom in Atom:
        assert bitmaps[atom.name.lower()] == 1000 + atom.value
    assert 1005 not in bitmaps.values()  # 5 is an empty square
    assert {"cell", "select_mark", "panel"} <= set(bitmaps)


def test_the_hex_board_is_a_plugin_kind_of_its_own_with_its_own_ids() -> None:
    schema = yaml.safe_load(SCHEMA_PATH.read_text(encoding="utf-8"))
    bitmaps = schema["bitmaps"]
    hexes = {k: v for k, v in bitmaps.items() if k.startswith("hex_")}
    assert set(hexes) == {"hex_cell", "hex_select", "hex_hint", "hex_partner", "hex_focus"}
    others = {v for k, v in bitmaps.items() if k not in hexes}
    assert not others & set(hexes.values())  # no id of the square board's reused
    assert sorted(hexes.values()) == list(range(2100, 2105))
    required = {r["id"] for r in schema["required"]["hexboard"]["bitmaps"]}
    assert required == {"hex_cell", "hex_select"}


def test_prc_tools_new_makes_a_hex_board_that_builds_at_once(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The hexboard kind's templates come from this schema: every hexagonal picture at
    the size the bundled Hex Boards have, and the folder builds and verifies unedited."""
    from palmish.sigmar.schema import SCHEMA
    from prc_tools import cli
    from prc_tools.studio.catalog import kinds, pictures

    assert "hexboard" in kinds(SCHEMA)
    folder = tmp_path / "hex"
    assert cli.main(["new", "sigmar", "hexboard", str(folder)]) == 0
    made = {p.id: p for p in pictures(SCHEMA, "hexboard")}
    assert set(made) == {2100, 2101, 2102, 2103, 2104}
    for item in made.values():
        path = folder / f"{item.stem}.png"
        assert Image.open(path).size == (26, 30), path
    bundled = Path(SCHEMA_PATH).parent / "plugins" / "sigmar-hexboard-slate" / "cell.png"
    assert Image.open(bundled).size == (26, 30)  # the same size as the game's own art
    prc = tmp_path / "hex.prc"
    assert cli.main(["build", "-q", str(folder), "-o", str(prc)]) == 0
    assert cli.main(["verify", str(prc)]) == 0
    assert "warning" not in capsys.readouterr().err
