"""Plain data as one line of ASCII words, and back: for the kept schemas.

`verify` and `info` keep the installed schemas' documents across runs
(prc_tools/schema/codes.py) and must read them back without PyYAML, and
without `json` as well (its import is a few ms of a 30 ms command). A schema
document holds only texts, whole numbers, true, false, null, lists and
mappings, and so does this format: one word per value, `s` + the UTF-8 hex of
a text, `i` + a number, `T`, `F`, `N`, and `[` or `{` + a count, followed by
the list's items or the mapping's keys and values. Anything else cannot be
written (ValueError); a line that is not such a value cannot be read
(ValueError), nor one nested deeper than `max_depth`.
"""

from __future__ import annotations

# Not `from typing import TYPE_CHECKING`: typing costs a quick command 3 ms to load.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

_WORDS = {"T": True, "F": False, "N": None}


def write(value: Any) -> str:
    """`value` as one line of words; ValueError for a value of another type."""
    words: list[str] = []
    _write(value, words)
    return " ".join(words)


def _write(value: Any, words: list[str]) -> None:
    if value is True or value is False or value is None:
        words.append("T" if value is True else "F" if value is False else "N")
    elif type(value) is int:
        words.append(f"i{value}")
    elif type(value) is str:
        words.append("s" + value.encode("utf-8").hex())  # UnicodeError is a ValueError
    elif type(value) is list:
        words.append(f"[{len(value)}")
        for item in value:
            _write(item, words)
    elif type(value) is dict:
        words.append(f"{{{len(value)}")
        for key, item in value.items():
            _write(key, words)
            _write(item, words)
    else:
        raise ValueError(f"cannot keep a {type(value).__name__}")


def read(line: str, max_depth: int) -> Any:
    """The value `write` wrote as `line`; ValueError if it is not one."""
    words = line.split(" ")
    position = 0

    def value(depth: int) -> Any:
        nonlocal position
        if position >= len(words):
            raise ValueError("the line ends inside a list or mapping")
        word = words[position]
        position += 1
        kind, rest = word[:1], word[1:]
        if word in _WORDS:
            return _WORDS[word]
        if kind == "i" and rest.lstrip("-").isdigit() and rest.isascii():
            return int(rest)
        if kind == "s":
            return bytes.fromhex(rest).decode("utf-8")
        if kind in ("[", "{") and rest.isdigit() and rest.isascii():
            if depth >= max_depth:
                raise ValueError(f"nested deeper than {max_depth} levels")
            count = int(rest)
            if kind == "[":
                return [value(depth + 1) for _ in range(count)]
            found = {}
            for _ in range(count):
                key = value(depth + 1)
                if isinstance(key, (list, dict)):
                    raise ValueError("a list or mapping as a key")
                found[key] = value(depth + 1)
            return found
        raise ValueError(f"not a kept value: {word[:20]!r}")

    result = value(0)
    if position != len(words):
        raise ValueError("more words after the value")
    return result
