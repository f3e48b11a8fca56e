"""The 'pINF' reader without PyYAML (prc_tools/plugin/plain_yaml.py) gives exactly what
PyYAML's safe loader gives, or declines."""

from __future__ import annotations

from typing import Any

import pytest
import yaml
from hypothesis import example, given, settings
from hypothesis import strategies as st

from prc_tools import plugin, safeyaml
from prc_tools.plugin import pinf, plain_yaml

LIMIT = pinf.MAX_INFO_BYTES


def typed(value: Any) -> Any:
    """`value` with each scalar's type beside it: True and 1, 0 and False differ."""
    if isinstance(value, dict):
        return ("dict", [(typed(k), typed(v)) for k, v in value.items()])
    if isinstance(value, list):
        return ("list", [typed(v) for v in value])
    return (type(value).__name__, value)


def pyyaml(data: bytes) -> Any:
    """What PyYAML's safe loader makes of `data`, or the exception class it raised."""
    try:
        return yaml.safe_load(data)
    except (yaml.YAMLError, ValueError, OverflowError, RecursionError) as exc:
        return type(exc)


def same_or_declined(data: bytes) -> Any:
    """The differential check: the plain reader declines, or PyYAML agrees exactly
    (and so does safeyaml.load, the path `pinf.decode` falls back to)."""
    mine = plain_yaml.read(data, LIMIT)
    if mine is None:
        return None
    assert typed(mine) == typed(pyyaml(data)), data
    assert typed(mine) == typed(safeyaml.load(data, LIMIT)), data
    return mine


def test_a_header_as_build_writes_it_is_read_without_pyyaml() -> None:
    info = {"game": "ishido", "kind": "pieces", "name": "Ceramic Pieces", "version": 1,
            "author": "Ünïcødé 'quoted' #1", "configs": ["square", "tall"], "cell": [24, 40],
            "anchor": [-2, 0], "default": True, "note": None, "empty": [], "say": "yes"}
    data = plugin.info_bytes(info)
    assert same_or_declined(data) == info


@pytest.mark.parametrize("text", [
    "a: 1.5\n", "a: yes\n", "a: Yes\n", "a: ~\n", "a: 0x10\n", "a: 012\n", "a: 1_000\n",
    "a: +1\n", "a: 2001-01-01\n", "a: x #c\n", "a: b: c\n", "a:\n  b: 1\n", "a: [1]\n",
    "a: {}\n", "a:\n", "a: 'x\n", "a: 'x'y'\n", "a: x \n", "a:  x\n", "a:x\n", "# c\na: 1\n",
    "a: 1\n\nb: 2\n", "---\na: 1\n", "a: 1\na: 2\n", "on: 1\n", " a: 1\n", "a: \"x\"\n",
    "a: x\n  y\n", "a:\n-\n", "a:\n- - 1\n", "a: &x 1\n", "a: *x\n", "a: !!str 1\n",
    "a:\t1\n", "a: 1\r\n", "- 1\n", "", "\n", "a: " + "9" * 40 + "\n", "a: \x85\n",
    "a: .inf\n", "a: 1:30\n", "a: -\n", "a: x\u2028y\n", "a-b: 1\n", "\u00e9: 1\n",
    "_a: 1\n", "1a: 1\n", "k" * 65 + ": 1\n", "a: \u00b2\n", "a: -\u00b2\n",
    "a: " + "1" * 19 + "\n",
], ids=repr)
def test_outside_the_subset_it_declines(text: str) -> None:
    assert plain_yaml.read(text.encode(), LIMIT) is None


@pytest.mark.parametrize(("text", "value"), [
    ("a_1: 0\n", {"a_1": 0}), ("a: -5\n", {"a": -5}), ("a: -0\n", {"a": 0}),
    ("K: " + "9" * 18 + "\n", {"K": 10**18 - 1}), ("a: x y: z'\n", None),
    ("a: it's [x], {y}\n", {"a": "it's [x], {y}"}), ("a: ''\n", {"a": ""}),
    ("a: ' #x: y '\n", {"a": " #x: y "}), ("a:\n- null\n- []\n- 'n'\n", {"a": [None, [], "n"]}),
])
def test_inside_the_subset_it_reads_as_pyyaml(text: str, value: Any) -> None:
    assert same_or_declined(text.encode()) == value


def test_bytes_pyyaml_must_judge_are_declined() -> None:
    assert plain_yaml.read(b"a: \xff\n", LIMIT) is None  # not UTF-8: PyYAML's error names it
    assert plain_yaml.read(b"a: 1\n" * 10, 20) is None  # too big: the same
    assert plain_yaml.read(b"\xef\xbb\xbfa: 1\n", LIMIT) == {"a": 1}  # a BOM is fine


scalars = st.one_of(
    st.integers(min_value=-(10**20), max_value=10**20),
    st.booleans(),
    st.none(),
    st.floats(allow_nan=False),
    st.text(max_size=30),
    st.sampled_from(["yes", "No", "on", "null", "~", "0x1f", "012", "1_0", "-0", "+3", "1e3",
                     "2001-01-01", "a: b", "a #b", "'q'", "x'", " lead", "trail ", "", "#",
                     "\u0085", "\t", "- x", "[]", "{}", "&a", "*a", "!t", "%x", "@x", "`x"]),
)
values = st.one_of(scalars, st.lists(scalars, max_size=4),
                   st.dictionaries(st.text(max_size=5), scalars, max_size=2))
keys = st.one_of(st.from_regex(r"[a-z][a-z_0-9]{0,8}", fullmatch=True), st.text(max_size=8),
                 st.sampled_from(["yes", "on", "null", "No", "x", "y", "n"]))


@pytest.mark.slow
@settings(max_examples=400, deadline=None)
@given(st.dictionaries(keys, values, min_size=1, max_size=6))
def test_headers_build_could_write_read_as_pyyaml_reads_them(info: dict[str, Any]) -> None:
    same_or_declined(safeyaml.dump(info).encode("utf-8"))
    same_or_declined(safeyaml.dump(info, allow_unicode=False).encode("utf-8"))


tokens = st.one_of(
    st.sampled_from(["a", "b", "game", "yes", "null", "true", "false", "True", ":", ": ", " ",
                     "  ", "-", "- ", "'", "''", "#", " #", "\n", "\n- ", "[]", "[", "]", "{",
                     "0", "-0", "1", "12", "007", "1.0", "_", "!", "&", "*", "\t", "\r", "~",
                     "\u0085", "\u00e9", "\ufeff", "---", "...", '"', "%"]),
    st.text(max_size=3),
)


@pytest.mark.slow
@settings(max_examples=1500, deadline=None)
@given(st.lists(tokens, max_size=14).map("".join))
@example("a: 'x''y'\nb:\n- 1\n- 'z'\n")
@example("k: -0\n")
def test_any_text_reads_as_pyyaml_reads_it_or_is_declined(text: str) -> None:
    same_or_declined(text.encode("utf-8"))
