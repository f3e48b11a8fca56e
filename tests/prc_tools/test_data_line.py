"""Plain data as one line of words (prc_tools/schema/data_line.py), for the kept schemas."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from prc_tools.schema import data_line
from tests.prc_tools.test_plain_yaml import typed

scalars = st.one_of(st.none(), st.booleans(), st.integers(), st.text())
documents = st.recursive(
    scalars,
    lambda inner: st.one_of(st.lists(inner, max_size=4),
                            st.dictionaries(scalars, inner, max_size=4)),
    max_leaves=30,
)


@settings(max_examples=300, deadline=None)
@given(documents)
def test_plain_data_reads_back_the_same(value: Any) -> None:
    line = data_line.write(value)
    assert line.isascii() and "\n" not in line
    assert typed(data_line.read(line, 64)) == typed(value)


@pytest.mark.parametrize("value", [1.5, b"x", (1, 2), {1.5: 2}, [object()], "\ud800"])
def test_other_values_cannot_be_written(value: Any) -> None:
    with pytest.raises(ValueError):
        data_line.write(value)


@pytest.mark.parametrize("line", [
    "", "x", "i", "i-", "i1x", "s0", "szz", "sff", "[2 i1", "{1 i1", "[1 i1 i2", "{1 [0 i1",
    "[x", "[-1", "T F", "i\u0661", "[\u0661 i1", " ", "N ", "i1_0",
])
def test_a_line_that_is_no_value_is_refused(line: str) -> None:
    with pytest.raises(ValueError):
        data_line.read(line, 64)


def test_nesting_is_bounded() -> None:
    line = data_line.write([[[["deep"]]]])
    assert data_line.read(line, 4) == [[[["deep"]]]]
    with pytest.raises(ValueError, match="deeper than 3"):
        data_line.read(line, 3)
    with pytest.raises(ValueError):
        data_line.read("[1 " * 100_000 + "N", 32)  # no recursion past the bound


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="TFNis[{0123456789abcdef- x", max_size=40))
def test_any_line_reads_or_is_refused_with_a_value_error(line: str) -> None:
    try:
        value = data_line.read(line, 32)
    except ValueError:
        return
    assert typed(data_line.read(data_line.write(value), 32)) == typed(value)
