"""The bounded YAML loader shared by manifests, 'pINF' headers and skins (issue 15 item 2)."""

from __future__ import annotations

import pytest
import yaml

from prc_tools.safeyaml import MAX_DEPTH, YamlError, brief, dump, load

LAUGHS = "\n".join(
    ["a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]"]
    + [f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 10)}]" for i in range(1, 12)]
)


def test_plain_documents_load() -> None:
    text = "name: Jade\nconfigs: [square, tall]\ncell: [24, 30]\nnote: 'ü'\n"
    assert load(text, 1000) == {"name": "Jade", "configs": ["square", "tall"],
                                "cell": [24, 30], "note": "ü"}
    assert load(b"\xef\xbb\xbfa: 1\n", 1000) == {"a": 1}  # a BOM is fine


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        (LAUGHS, "anchors and aliases"),
        ("a: &x 1\nb: 2\n", "anchors and aliases"),
        ("a: *x\n", "anchors and aliases|YAML error"),
        ("[" * 2000 + "]" * 2000, "nested too deeply"),
        ("[" * 40 + "]" * 40, f"more than {MAX_DEPTH} levels"),
        ("a:\n" + "".join("  " * i + f"b{i}:\n" for i in range(1, 60)), "nested too deeply"),
        ("n: " + "9" * 5000 + "\n", "YAML error"),
        ("made: 2001-13-45\n", "YAML error"),
        ("a: [1, 2\n", "YAML error at line"),
    ],
    ids=["billion-laughs", "anchor", "alias", "deep-flow", "deep-40", "deep-block", "huge-int",
         "impossible-date", "syntax"],
)
def test_hostile_documents_are_one_line(text: str, problem: str) -> None:
    with pytest.raises(YamlError, match=problem) as caught:
        load(text, 1 << 20)
    assert "\n" not in str(caught.value) and len(str(caught.value)) <= 200


def test_size_is_checked_before_parsing() -> None:
    with pytest.raises(YamlError, match="too big"):
        load(b"a: 1\n" * 1000, 100)
    with pytest.raises(YamlError, match="not UTF-8"):
        load(b"a: \xff\n", 100)  # "cannot read: not UTF-8 text"


def test_brief_never_prints_a_big_structure() -> None:
    assert brief([1] * 10**6) == "a list of 1000000 items"
    assert brief({"a": 1}) == "a mapping of 1 entries"
    assert brief(10**5000) == "a very large number"
    assert brief("x" * 10**6).endswith("...") and len(brief("x" * 10**6)) < 50
    assert brief("ok") == "'ok'"


def test_dump_reads_back() -> None:
    data = {"name": "Jade Board", "configs": ["square"], "note": "grüße"}
    assert load(dump(data), 1000) == data
    assert "grüße" in dump(data)


def test_dump_never_writes_aliases_that_load_would_refuse() -> None:
    shared = [0, 0]
    data = {"anchor": shared, "lifted_anchor": shared}
    text = dump(data)
    assert "&" not in text and "*" not in text
    assert load(text, 1000) == data


SAME_AS_PYYAML = [
    "name: Jade\nversion: 3\nratio: 1.5\nflag: yes\nnothing: ~\nempty:\n",
    "made: 2003-05-01 12:00:00\nday: 2003-05-01\nzone: 2003-05-01T12:00:00+02:00\n",
    "n: 0x1F\no: 0o17\nold: 017\nbig: 1_000\nsexagesimal: 1:30\ninf: .inf\nnan_: -.nan\n",
    "quoted: '12'\ndouble: \"yes\"\nplain: 12\nkey with spaces: value no\n",
    "? [a, b]\n: complex key\n",  # PyYAML refuses it: same error
    "<<: {a: 1}\nb: 2\n",  # a merge key without an alias
    "a: !!str 12\nb: !!int '7'\nc: !!binary aGVsbG8=\nd: !!set {x, y}\n",
    "a: =\n",  # the 'value' tag, which the safe loader cannot build
    "= : 1\n",
    "a: 1\na: 2\nb: [1, {c: [d, {e: f}]}, []]\nc: {}\n",
    "--- 1\n--- 2\n",  # two documents
    "",
    "---\n...\n",
    "- - - deep\n  - x\n- 'quoted'\n- !custom tagged\n",
    "1: one\n2.5: two\nnull: three\ntrue: four\n2003-05-01: five\n",
    "n: " + "9" * 5000 + "\n",
    "made: 2001-13-45\n",
    "a: ! 12\nb: !!null ''\n",
]


@pytest.mark.parametrize("text", SAME_AS_PYYAML, ids=range(len(SAME_AS_PYYAML)))
def test_the_quick_reader_reads_what_pyyaml_reads(text: str) -> None:
    """`load` builds plain documents itself: the same values (and types) or the same
    error as PyYAML's safe loader on every kind of document."""
    try:
        expected = yaml.load(text, Loader=yaml.SafeLoader)
    except (yaml.YAMLError, ValueError):
        with pytest.raises(YamlError, match=r"^YAML error"):
            load(text, 1 << 20)
        return
    got = load(text, 1 << 20)
    assert got == expected or (got != got and expected != expected)  # nan
    assert repr(got) == repr(expected)  # types too (1 vs True vs 1.0, date vs datetime)
