"""The plugin schema Sigmar's Garden ships for prc_tools (notes: SCHEMA.md format)."""

from __future__ import annotations

import yaml

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
                               "levels": "SgLv"}
    assert schema["configs"] == ["square", "tall", "wide"]
    assert set(schema["required"]) == {"pieces", "board", "sound"}
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
