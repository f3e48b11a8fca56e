"""The resource-type table (prc_tools/plugin/resources.py): one handler per type, used by
`info`, `verify`, `extract` and `equivalent`."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from prc_tools import Database, PrcError, Resource, cli, database, plugin
from prc_tools.bitmap import DecodeBudget
from prc_tools.plugin import resources
from prc_tools.plugin.extract import equivalent, extract
from prc_tools.plugin.resources import (
    BITMAPS,
    PLUGIN_INFO,
    RAW,
    SOUNDS,
    Checking,
    ResourceType,
    handler_for,
)
from prc_tools.schema import Registry


@pytest.mark.parametrize(("type_", "id_", "handler"), [
    ("Tbmp", 1000, BITMAPS), ("tAIB", 1000, BITMAPS), ("wave", 7, SOUNDS),
    ("pINF", 0, PLUGIN_INFO), ("pINF", 1, RAW), ("code", 1, RAW), ("tbmp", 1, RAW),
])
def test_each_resource_finds_its_handler(type_: str, id_: int, handler: ResourceType) -> None:
    assert handler_for(type_, id_) is handler


def test_build_makes_the_manifest_lists_in_order_raw_last() -> None:
    assert [h.section for h in resources.sections()] == ["bitmaps", "sounds", "resources"]
    assert (BITMAPS.default_type, SOUNDS.default_type, BITMAPS.game_type) == (
        "Tbmp", "wave", "Tbmp")
    with pytest.raises(ValueError, match="'wave' has a handler already"):
        resources.register(resources.Sounds())


class Texts(ResourceType):
    """A made-up type: NUL-terminated text, described and compared as text."""

    name = "text"
    types = ("tSTR",)
    section = ""

    def describe(self, data: bytes, budget: DecodeBudget | None) -> Any:
        if not data.endswith(b"\0"):
            raise PrcError("text without its NUL")
        return data[:-1].decode("latin-1")

    def summary(self, described: Any) -> str:
        return f"text {described!r}"

    def verify(self, res: Resource, checking: Checking) -> str | None:
        return self.summary(self.describe(res.data, checking.budget))

    def same(self, x: bytes, y: bytes) -> bool:
        return x.rstrip(b"\0") == y.rstrip(b"\0")


@pytest.fixture
def texts(monkeypatch: pytest.MonkeyPatch) -> Texts:
    """Texts registered for one test."""
    monkeypatch.setattr(resources, "_BY_TYPE", dict(resources._BY_TYPE))
    monkeypatch.setattr(resources, "_REGISTERED", list(resources._REGISTERED))
    return resources.register(Texts())


def _with_text(text: bytes) -> Database:
    return Database("Texts", "data", "Test", attributes=database.ATTR_RESOURCE,
                    resources=[Resource("tSTR", 1000, text), Resource("code", 1, b"\x4e\x75")])


def test_a_registered_handler_speaks_in_info_verify_and_equivalent(texts: Texts) -> None:
    db = _with_text(b"Hello\0")
    described = cli.describe(db)["resources"]
    assert described[0] == {"type": "tSTR", "id": 1000, "size": 6, "text": "Hello"}
    assert described[1] == {"type": "code", "id": 1, "size": 2}
    assert "text 'Hello'" in cli.format_report(Path("t.prc"), cli.describe(db))
    assert plugin.verify(db, schemas=Registry()) == ["tSTR 1000: text 'Hello'"]
    assert equivalent(db, _with_text(b"Hello\0\0")) == []
    assert equivalent(db, _with_text(b"Hullo\0")) == ["tSTR 1000 differs"]
    broken = _with_text(b"Hello")
    assert cli.describe(broken)["resources"][0]["error"] == "text without its NUL"
    with pytest.raises(PrcError, match="tSTR 1000: text without its NUL"):
        plugin.verify(broken, schemas=Registry())


def test_a_handler_without_a_folder_entry_keeps_its_resources_raw(
    texts: Texts, tmp_path: Path
) -> None:
    db = _with_text(b"Hello\0")
    out = extract(db, tmp_path / "out")
    assert (out / "resources" / "tSTR-1000.bin").read_bytes() == b"Hello\0"
    assert plugin.build_folder(out).to_bytes() == db.to_bytes()
