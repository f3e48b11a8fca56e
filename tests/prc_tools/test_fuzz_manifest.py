"""Fuzzing the manifest checker: any YAML document gives a Manifest or one PluginError line."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from prc_tools import PluginError
from prc_tools.plugin.manifest import parse

FIELDS = ["name", "game", "kind", "version", "author", "configs", "cell", "anchor",
          "lifted_anchor", "type", "creator", "attributes", "info", "defaults", "bitmaps",
          "sounds", "resources", "records", "app_info", "sort_info", "file", "pattern",
          "count", "id", "densities", "depths", "compression", "dither", "size", "members",
          "rate", "bits", "unique_id"]
VALUES = ["ishido", "pieces", "board", "sound", "square", "wide", "tile", "board", "best",
          "x.png", "t{colour}{shape}.png", "f{n}.png", "../up", "IsPc", "72x8"]

scalars = st.one_of(
    st.none(), st.booleans(), st.integers(-5, 70000), st.sampled_from(VALUES),
    st.text(max_size=6), st.floats(allow_nan=True),
)
documents = st.recursive(
    scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4),
        st.dictionaries(st.one_of(st.sampled_from(FIELDS), st.integers(0, 3)), inner,
                        max_size=6),
    ),
    max_leaves=25,
)


@settings(max_examples=400, deadline=None)
@given(documents, st.fixed_dictionaries({}, optional={
    "name": st.sampled_from(["P", "Pieces Wide", "x" * 40]),
    "game": st.sampled_from(["ishido", "sigmar"]),
    "kind": st.sampled_from(["pieces", "board", "sound"]),
    "author": st.just("a"), "cell": st.just([24, 40]),
    "configs": st.sampled_from([["square"], ["wide"]]),
}))
def test_any_document_is_a_manifest_or_one_plugin_error(
    document: Any, base: dict[str, Any]
) -> None:
    if isinstance(document, dict):
        document = {**base, **document}
    try:
        parse(document, Path("m/manifest.yaml"))
    except PluginError as exc:
        message = str(exc)
        assert message.startswith("m/manifest.yaml: ") and "\n" not in message
