"""The plugin schema Pachisi ships for prc_tools (notes: SCHEMA.md format)."""

from __future__ import annotations

import yaml

from palmish.pachisi import rules
from palmish.pachisi.schema import SCHEMA_PATH
from prc_tools.schema import load_file


def test_schema_file_is_plain_yaml_with_the_agreed_fields() -> None:
    text = SCHEMA_PATH.read_text(encoding="utf-8")
    assert "&" not in text and "*" not in text  # no anchors or aliases
    schema = yaml.safe_load(text)
    assert schema["game"] == "pachisi"
    assert schema["title"] == "Pachisi"
    assert schema["creator"] == "PPch"
    assert schema["types"] == {"board": "PaBd", "pieces": "PaPc", "sound": "PaSd"}
    assert schema["configs"] == ["square", "tall", "wide"]
    assert set(schema["required"]) == {"board", "pieces", "sound"}  # the app's (issue 13)
    assert set(schema["sounds"]) == {"throw", "move", "capture", "enter", "finish", "illegal",
                                     "win"}
    ids = list(schema["sounds"].values())
    assert len(set(ids)) == len(ids)


def test_every_colour_and_die_face_has_its_picture() -> None:
    bitmaps = yaml.safe_load(SCHEMA_PATH.read_text(encoding="utf-8"))["bitmaps"]
    for kind in ("pawn", "double", "finished"):
        for i, colour in enumerate(rules.COLOURS):
            assert bitmaps[f"{kind}_{colour}"] == bitmaps[kind] + i
    for i, face in enumerate(rules.FACES):
        assert bitmaps[f"die_{face}"] == bitmaps["die"] + i
    assert {"board", "mark", "target"} <= set(bitmaps)


def test_prc_tools_reads_it() -> None:
    schema = load_file(SCHEMA_PATH)
    assert schema.game == "pachisi" and schema.creator == "PPch"
